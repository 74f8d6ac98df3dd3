"""The random draws numeric code makes (np.random.* of the global
RandomState, random.*): they run as Python, so the streams are NumPy's and
CPython's own and the generators' states advance in Python, but the type of
what `x = np.random.random()` produces is known here, so the code around the
draw compiles as if it carried `# @jit.typing: () -> float`.

Only forms whose result type never depends on the values are listed:
NumPy's legacy functions give a Python float/int for scalar arguments
whatever their types; Python's random module computes with its arguments,
so only Python numbers are accepted there (random.uniform(np.float32(1), 2)
is an np.float32)."""
from __future__ import annotations

import random

import numpy as np

from ..hir import types as T

# callable -> (most positional arguments, result type, whether NumPy scalars may be passed)
_DRAWS = {
    np.random.random: (0, T.FLOAT, True), np.random.random_sample: (0, T.FLOAT, True),
    np.random.rand: (0, T.FLOAT, True), np.random.randn: (0, T.FLOAT, True),
    np.random.uniform: (2, T.FLOAT, True), np.random.normal: (2, T.FLOAT, True),
    np.random.standard_normal: (0, T.FLOAT, True), np.random.exponential: (1, T.FLOAT, True),
    np.random.randint: (2, T.INT, True),
    random.random: (0, T.FLOAT, False), random.uniform: (2, T.FLOAT, False), random.gauss: (2, T.FLOAT, False),
    random.normalvariate: (2, T.FLOAT, False), random.randint: (2, T.INT, False),
}
_KEEP = list(_DRAWS)  # bound methods of the global generators: kept alive so their ids stay theirs
_BY_ID = {id(fn): spec for fn, spec in _DRAWS.items()}


def draw_type(callee, arg_types: list, has_keywords: bool) -> T.Type | None:
    """The type a call of a listed draw returns, or None (not listed, keywords
    such as size=, arrays, or argument types the result would depend on)."""
    spec = _BY_ID.get(id(callee))
    if spec is None or has_keywords:
        return None
    most, result, numpy_scalars = spec
    if len(arg_types) > most:
        return None
    for t in arg_types:
        if not isinstance(t, T.Scalar) or t.kind == "c" or not (t.weak or numpy_scalars):
            return None
        if result == T.INT and t.kind not in "biu":
            return None
    if callee is np.random.randint and not arg_types:
        return None
    return result
