"""Comparing two runs of one program: what differs, classified.

An outcome is ("value", result, arguments after, globals after) or
("raise", exception, ...). CPython against compiled code, and O0 against
O1: types exact, ints exact, floats bit for bit (NaN-aware, signs of zeros
exact) -- compiled code calls NumPy's own loops for its transcendental
ufuncs and NumPy itself for BLAS products, so no tolerance is needed.
"""
from __future__ import annotations

import math

import numpy as np

TYPE, VALUE, EXCEPTION, COMPILE, CRASH, HANG = (
    "type differs", "value differs", "exception differs", "compile error", "crash", "hang")
CLASSES = (TYPE, VALUE, EXCEPTION, COMPILE, CRASH, HANG)


def _float_differs(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) != math.isnan(b)
    return a != b or math.copysign(1.0, a) != math.copysign(1.0, b)


def _array_differs(a: np.ndarray, b: np.ndarray) -> bool:
    if a.dtype.kind == "c":
        return _array_differs(a.real, b.real) or _array_differs(a.imag, b.imag)
    if a.dtype.kind != "f":
        return not np.array_equal(a, b)
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    if not np.array_equal(nan_a, nan_b):
        return True
    x, y = a[~nan_a], b[~nan_b]
    return not np.array_equal(np.signbit(x), np.signbit(y)) or not np.array_equal(x, y)


def difference(got, expected, where: str = "result") -> tuple | None:
    """(class, text) of the first difference between two values, or None."""
    if type(got) is not type(expected):
        return TYPE, f"{where}: {type(expected).__name__} {expected!r} vs {type(got).__name__} {got!r}"
    if isinstance(expected, (tuple, list)):
        if len(got) != len(expected):
            return VALUE, f"{where}: length {len(expected)} vs {len(got)}"
        for i, (g, e) in enumerate(zip(got, expected)):
            found = difference(g, e, f"{where}[{i}]")
            if found:
                return found
        return None
    if isinstance(expected, dict):
        # Pairwise, in insertion order: a NaN key equals no other NaN (nor itself
        # looked up through another object), so `got[k]` and list equality fail on it.
        if len(got) != len(expected):
            return VALUE, f"{where}: keys {list(expected)} vs {list(got)}"
        for (gk, gv), (ek, ev) in zip(got.items(), expected.items()):
            found = difference(gk, ek, f"{where} key") or difference(gv, ev, f"{where}[{ek!r}]")
            if found:
                return found
        return None
    if isinstance(expected, np.ndarray):
        if got.dtype != expected.dtype:
            return TYPE, f"{where}: dtype {expected.dtype} vs {got.dtype}"
        if got.shape != expected.shape or _array_differs(got, expected):
            return VALUE, f"{where}: {expected!r} vs {got!r}"
        return None
    if isinstance(expected, (float, np.floating)):
        if _float_differs(float(expected), float(got)):
            return VALUE, f"{where}: {expected!r} vs {got!r}"
        return None
    if isinstance(expected, (complex, np.complexfloating)):
        if any(_float_differs(e, g) for e, g in ((expected.real, got.real), (expected.imag, got.imag))):
            return VALUE, f"{where}: {expected!r} vs {got!r}"
        return None
    if got != expected:
        return VALUE, f"{where}: {expected!r} vs {got!r}"
    return None


def describe(outcome: tuple) -> str:
    if outcome[0] == "raise":
        exc = outcome[1]
        return f"raises {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    return f"returns {outcome[1]!r}"


def compare(got: tuple, expected: tuple, is_compile_error) -> tuple | None:
    """(class, text) of how outcome `got` departs from `expected`, or None."""
    if got[0] == "raise" and is_compile_error(got[1]):
        return COMPILE, describe(got)
    if got[0] != expected[0] or (got[0] == "raise" and not isinstance(got[1], type(expected[1]))):
        return EXCEPTION, f"{describe(expected)} vs {describe(got)}"
    if got[0] == "raise":
        return None
    found = difference(got[1], expected[1])
    if found:
        return found
    for i, (g, e) in enumerate(zip(got[2], expected[2])):
        found = difference(g, e, f"argument {i} after the call")
        if found:
            return found
    return difference(got[3], expected[3], "globals after the call")
