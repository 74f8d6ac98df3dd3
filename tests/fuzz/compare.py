"""Comparing two runs of one program: what differs, classified.

An outcome is ("value", result, arguments after, globals after) or
("raise", exception, ...). CPython against compiled code: types exact,
ints exact, floats NaN-aware within a few units in the last place (NumPy's
SIMD transcendental functions and libm differ there), signs of zeros
exact. O0 against O1: the same with floats bit for bit.
"""
from __future__ import annotations

import math

import numpy as np

# Relative tolerance of CPython vs compiled floats, by width.
RTOL = {8: 1e-12, 4: 2e-6, 2: 2e-3}

TYPE, VALUE, EXCEPTION, COMPILE, CRASH, HANG = (
    "type differs", "value differs", "exception differs", "compile error", "crash", "hang")
CLASSES = (TYPE, VALUE, EXCEPTION, COMPILE, CRASH, HANG)


def _float_differs(a: float, b: float, exact: bool, width: int) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) != math.isnan(b)
    if a == b:
        return math.copysign(1.0, a) != math.copysign(1.0, b)
    if exact or math.isinf(a) or math.isinf(b):
        return True
    return abs(a - b) > RTOL[width] * max(abs(a), abs(b))


def _array_differs(a: np.ndarray, b: np.ndarray, exact: bool) -> bool:
    if a.dtype.kind == "c":
        return _array_differs(a.real, b.real, exact) or _array_differs(a.imag, b.imag, exact)
    if a.dtype.kind != "f":
        return not np.array_equal(a, b)
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    if not np.array_equal(nan_a, nan_b):
        return True
    x, y = a[~nan_a], b[~nan_b]
    if not np.array_equal(np.signbit(x), np.signbit(y)):
        return True
    if exact:
        return not np.array_equal(x, y)
    with np.errstate(all="ignore"):
        same = (x == y) | (np.abs(x - y) <= RTOL[a.dtype.itemsize] * np.maximum(np.abs(x), np.abs(y)))
    return not bool(np.all(same))


def difference(got, expected, exact: bool, where: str = "result") -> tuple | None:
    """(class, text) of the first difference between two values, or None."""
    if type(got) is not type(expected):
        return TYPE, f"{where}: {type(expected).__name__} {expected!r} vs {type(got).__name__} {got!r}"
    if isinstance(expected, (tuple, list)):
        if len(got) != len(expected):
            return VALUE, f"{where}: length {len(expected)} vs {len(got)}"
        for i, (g, e) in enumerate(zip(got, expected)):
            found = difference(g, e, exact, f"{where}[{i}]")
            if found:
                return found
        return None
    if isinstance(expected, dict):
        # Pairwise, in insertion order: a NaN key equals no other NaN (nor itself
        # looked up through another object), so `got[k]` and list equality fail on it.
        if len(got) != len(expected):
            return VALUE, f"{where}: keys {list(expected)} vs {list(got)}"
        for (gk, gv), (ek, ev) in zip(got.items(), expected.items()):
            found = difference(gk, ek, True, f"{where} key") or difference(gv, ev, exact, f"{where}[{ek!r}]")
            if found:
                return found
        return None
    if isinstance(expected, np.ndarray):
        if got.dtype != expected.dtype:
            return TYPE, f"{where}: dtype {expected.dtype} vs {got.dtype}"
        if got.shape != expected.shape or _array_differs(got, expected, exact):
            return VALUE, f"{where}: {expected!r} vs {got!r}"
        return None
    if isinstance(expected, (float, np.floating)):
        width = np.dtype(type(expected)).itemsize if isinstance(expected, np.floating) else 8
        if _float_differs(float(expected), float(got), exact, width):
            return VALUE, f"{where}: {expected!r} vs {got!r}"
        return None
    if isinstance(expected, (complex, np.complexfloating)):  # each part as a float of half the width
        width = np.dtype(type(expected)).itemsize // 2 if isinstance(expected, np.complexfloating) else 8
        if any(_float_differs(e, g, exact, width) for e, g in ((expected.real, got.real), (expected.imag, got.imag))):
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


def compare(got: tuple, expected: tuple, exact: bool, is_compile_error) -> tuple | None:
    """(class, text) of how outcome `got` departs from `expected`, or None."""
    if got[0] == "raise" and is_compile_error(got[1]):
        return COMPILE, describe(got)
    if got[0] != expected[0] or (got[0] == "raise" and not isinstance(got[1], type(expected[1]))):
        return EXCEPTION, f"{describe(expected)} vs {describe(got)}"
    if got[0] == "raise":
        return None
    found = difference(got[1], expected[1], exact)
    if found:
        return found
    for i, (g, e) in enumerate(zip(got[2], expected[2])):
        found = difference(g, e, exact, f"argument {i} after the call")
        if found:
            return found
    return difference(got[3], expected[3], exact, "globals after the call")
