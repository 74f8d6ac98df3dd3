"""A function returning a Python number on some paths and a NumPy scalar on
others gives each path's own type, as CPython does (passes/returns.py)."""
import numpy as np
import pytest

from ._support import jit


@jit
def ratio(a, b):
    s = a.sum()
    if b == 0:
        return 0.0           # a Python float
    return s / b             # np.float64


@jit
def via_helper(a, b):
    return ratio.py_func(a, b)  # a plain helper's result, returned as it is


@jit
def count_or_zero(a):
    if a.shape[0] == 0:
        return 0             # a Python int
    return a.sum()           # np.int32 sum -> np.int64


@pytest.mark.parametrize("fn, args", [
    (ratio, (np.arange(4.0), 0)), (ratio, (np.arange(4.0), 2)),
    (via_helper, (np.arange(4.0), 0)), (via_helper, (np.arange(4.0), 3)),
    (count_or_zero, (np.zeros(0, np.int32),)), (count_or_zero, (np.arange(5, dtype=np.int32),)),
])
def test_each_path_returns_cpythons_type(check, fn, args):
    check(fn, *args)
