"""Python numbers stored into integer arrays: NumPy 2's checks.

`a[i] = 300` into a uint8 array is an OverflowError in NumPy 2 ("Python
integer 300 out of bounds for uint8"), `a[i] = nan` into an int array a
ValueError: NumPy converts a Python int or float as int() would and refuses
what the dtype cannot hold, for element, slice, mask and index-array stores
alike. Values typed as NumPy scalars are cast as before. A literal NumPy
accepts needs no check; other Python ints and floats go through
tr::py_store (numpy/setitem.hpp), a compare or two."""
from __future__ import annotations

import numpy as np

from ..hir import types as T
from .types import SCALAR_CTYPES

HEADER = "transpile_rt/numpy/setitem.hpp"


def needs_check(vt, dst: str, code: str) -> bool:
    """Whether storing a value of type vt (C++ text code) into dst may raise."""
    if not (isinstance(vt, T.Scalar) and vt.weak and vt.dtype in ("int64", "float64")):
        return False
    if np.dtype(dst).kind not in "iu" or (dst == "int64" and vt.dtype == "int64"):
        return False
    literal = _literal(code)
    if literal is None:
        return True
    try:  # what NumPy does with this very value
        np.zeros(1, dst)[0] = literal
    except (OverflowError, ValueError):
        return True
    return False


def checked(lower, code: str, vt, dst: str) -> str:
    """code as a dst element, with NumPy's errors for Python numbers that do not fit."""
    lower.module.include(HEADER)
    arg = code if vt.dtype == "float64" else f"int64_t({code})"
    return f'tr::py_store<{SCALAR_CTYPES[dst]}>({arg}, "{dst}")'


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
