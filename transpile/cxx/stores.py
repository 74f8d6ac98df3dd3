"""Numbers stored into integer arrays: NumPy 2's checks.

`a[i] = 300` into a uint8 array is an OverflowError in NumPy 2 ("Python
integer 300 out of bounds for uint8"), `a[i] = nan` into an int array a
ValueError: NumPy converts a Python int or float as int() would and refuses
what the dtype cannot hold, for element, slice, mask and index-array stores
alike. NumPy 2.4 does the same with NumPy scalars stored into signed integer
arrays (np.int64(300) into int8) through an element or a slice, while it wraps
them into unsigned ones and through masks and index arrays; which NumPy scalar
stores raise is asked of the installed NumPy. A literal NumPy
accepts needs no check; other values go through tr::py_store
(numpy/setitem.hpp), a compare or two."""
from __future__ import annotations

import warnings
from functools import lru_cache

import numpy as np

from ..hir import types as T
from .types import SCALAR_CTYPES

HEADER = "transpile_rt/numpy/setitem.hpp"


def needs_check(vt, dst: str, code: str, kind: str) -> bool:
    """Whether storing a value of type vt (C++ text code) into dst may raise;
    kind: the subscript's (element, view, mask, fancy)."""
    if not isinstance(vt, T.Scalar) or np.dtype(dst).kind not in "iu":
        return False
    if vt.weak:
        if vt.dtype not in ("int64", "float64") or (dst == "int64" and vt.dtype == "int64"):
            return False
        literal = _literal(code)
        return literal is None or _refused(dst, literal)
    # NumPy scalars: element and slice stores convert them like Python numbers; masks and index arrays cast
    return kind in ("element", "view") and _numpy_refuses(vt.dtype, dst)


def checked(lower, code: str, vt, dst: str) -> str:
    """code as a dst element, with NumPy's errors for values that do not fit."""
    lower.module.include(HEADER)
    kind = np.dtype(vt.dtype).kind
    arg = f"double({code})" if kind == "f" else f"uint64_t({code})" if vt.dtype == "uint64" else f"int64_t({code})"
    return f'tr::py_store<{SCALAR_CTYPES[dst]}>({arg}, "{dst}")'


def _refused(dst: str, value) -> bool:
    """Whether NumPy raises storing this value into a dst array."""
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            np.zeros(1, dst)[0] = value
    except (OverflowError, ValueError):
        return True
    return False


@lru_cache(maxsize=None)
def _numpy_refuses(src: str, dst: str) -> bool:
    """Whether the installed NumPy raises for a src scalar that dst cannot hold
    (rather than wrapping it)."""
    kind = np.dtype(src).kind
    box = np.dtype(src).type
    if kind in "iu":
        s, d = np.iinfo(src), np.iinfo(dst)
        probes = [v for v in (d.max + 1, d.min - 1) if s.min <= v <= s.max]
    elif kind == "f":
        probes = [float(np.iinfo(dst).max) * 4.0, float("nan")]
    else:  # bool fits everywhere; complex stores are NumPy's own casts
        return False
    return any(_refused(dst, box(v)) for v in probes)


def _literal(code: str):
    text = code.removeprefix("int64_t").strip("()")
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return None
