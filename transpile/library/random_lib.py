"""The random draws numeric code makes (np.random.* of the global
RandomState, random.*).

Compiled: the scalar draws of the global RandomState in _COMPILED
(np.random.random()/random_sample()/rand(), uniform, randint, normal,
standard_normal/randn), from NumPy's own state through the bridge
(transpile_rt/numpy/random.hpp), so seeded sequences are NumPy's and Python
draws interleave with compiled ones.  Every other form (size=, dtype=,
arrays, random.*) is a TypingError here and runs as Python, and so do all
draws where the bridge cannot reach NumPy's state or NumPy ships no
libnpyrandom.a.  Python's random module stays Python: its Mersenne Twister
state lives inside _random.Random with no C API to draw from it.

Run as Python, the type of what `x = np.random.random()` produces is still
known (draw_type), so the code around the draw compiles as if it carried
`# @jit.typing: () -> float`.

Only forms whose result type never depends on the values are listed:
NumPy's legacy functions give a Python float/int for scalar arguments
whatever their types; Python's random module computes with its arguments,
so only Python numbers are accepted there (random.uniform(np.float32(1), 2)
is an np.float32)."""
from __future__ import annotations

import os
import random
from functools import partial

import numpy as np

from .. import _runtime
from ..hir import types as T
from .base import CExpr, Entry
from .registry import register

H_RANDOM = "transpile_rt/numpy/random.hpp"

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


def link_inputs() -> tuple[str, str] | None:
    """NumPy's include directory and its libnpyrandom.a, which modules that
    draw are compiled and linked with; None when this NumPy ships no library."""
    lib = os.path.join(os.path.dirname(np.__file__), "random", "lib", "libnpyrandom.a")
    include = np.get_include()
    if not (os.path.isfile(lib) and os.path.isfile(os.path.join(include, "numpy", "random", "bitgen.h"))):
        return None
    return include, lib


# callable -> (C++ function, parameters with their defaults, whether it needs the cached Gaussian)
_COMPILED = {
    np.random.random: ("random_sample", (), False), np.random.random_sample: ("random_sample", (), False),
    np.random.rand: ("random_sample", (), False),
    np.random.uniform: ("uniform", (("low", 0.0), ("high", 1.0)), False),
    np.random.randint: ("randint", (("low", None), ("high", None)), False),
    np.random.normal: ("normal", (("loc", 0.0), ("scale", 1.0)), True),
    np.random.standard_normal: ("standard_normal", (), True), np.random.randn: ("standard_normal", (), True),
}


def _available(site, gaussian: bool) -> None:
    legacy, gauss = _runtime.random_support()
    if not legacy or link_inputs() is None:
        raise site.error("np.random draws run as Python here: NumPy's random state or libnpyrandom.a is not "
                         "reachable from compiled code")
    if gaussian and not gauss:
        raise site.error("np.random normal draws run as Python here: the RandomState's cached Gaussian "
                         "is not reachable from compiled code")


def _bind(site, params) -> list:
    """Each parameter's source: ("arg", i), ("kw", name) or ("const", default)."""
    name = site.name or "draw"
    if len(site.args) > len(params):
        raise site.error(f"{name}() with array sizes (positional size arguments) runs as Python")
    for kw in site.kwargs:
        if kw == "size" and site.const(site.kw_nodes[kw]) is None:
            continue
        if kw not in dict(params) or any(p == kw for p, _ in params[:len(site.args)]):
            raise site.error(f"{name}({kw}=...) runs as Python: compiled draws take scalar parameters only")
    bound = []
    for i, (param, default) in enumerate(params):
        if i < len(site.args):
            bound.append(("arg", i))
        elif param in site.kwargs:
            bound.append(("kw", param))
        else:
            bound.append(("const", default))
    return bound


def _scalar_ok(t, integer: bool) -> bool:
    if not isinstance(t, T.Scalar) or t.kind == "c":
        return False
    if integer:  # uint64 values beyond int64 and floats (NumPy truncates them) run as Python
        return t.kind in "bi" or (t.kind == "u" and t.np_dtype.itemsize < 8)
    return True


def _draw_infer(spec, site):
    fn, params, gaussian = spec
    bound = _bind(site, params)
    if fn == "randint":
        if not bound or bound[0][0] == "const":
            raise site.error("randint() needs at least one argument")
        if bound[1][0] == "const":  # randint(high): the one argument is the exclusive bound
            fn, bound = "randint_high", bound[:1]
    for src in bound:
        if src[0] != "const":
            t = site.args[src[1]] if src[0] == "arg" else site.kwargs[src[1]]
            if not _scalar_ok(t, fn.startswith("randint")):
                raise site.error(f"{site.name}() of {t} runs as Python: compiled draws take Python or NumPy "
                                 f"{'integers' if fn.startswith('randint') else 'real numbers'}")
    _available(site, gaussian)
    return (T.INT if fn.startswith("randint") else T.FLOAT), (fn, bound)


def _draw_lower(ls):
    fn, bound = ls.site_info
    ls.lower.module.needs_host = True  # the module receives the bridge's host table (tr_module_init)
    ctype = "int64_t" if fn.startswith("randint") else "double"
    args = []
    for kind, where in bound:
        if kind == "const":
            args.append(repr(float(where)) if ctype == "double" else str(int(where)))
        else:
            code = ls.args[where].code if kind == "arg" else ls.kwargs[where].code
            args.append(f"{ctype}({code})")
    # hoisted: draws in one expression happen in Python's order (C++ leaves `a() + b()` unordered)
    return CExpr(ls.lower.hoist(f"tr::random::{fn}({', '.join(args)})"))


for _fn, _spec in _COMPILED.items():
    register(_fn, Entry(f"numpy.random.{_fn.__name__}", partial(_draw_infer, _spec), _draw_lower, (H_RANDOM,),
                        needs_python=True))
