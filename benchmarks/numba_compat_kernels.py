"""Kernels of bench_numba_compat.py, written for Numba: `NUMBA=1` imports
them from numba instead of transpile.numba_compat (nothing else changes)."""
import io
import math
import os
import sys

if os.environ.get("NUMBA") == "1":
    from numba import guvectorize, njit, vectorize
else:
    from transpile.numba_compat import guvectorize, njit, vectorize


@vectorize(["float64(float64, float64)"])
def soft_max(x, y):
    if x > y:
        return x + math.log1p(math.exp(y - x))
    return y + math.log1p(math.exp(x - y))


@guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->()")
def inner(a, b, res):
    res[0] = 0.0
    for i in range(a.shape[0]):
        res[0] += a[i] * b[i]


@njit
def report(values):
    for i in range(values.shape[0]):
        print(i, values[i], i % 3 == 0)
    return values.shape[0]


def capture(fn, *args):
    saved, sys.stdout = sys.stdout, io.StringIO()
    try:
        return fn(*args)
    finally:
        sys.stdout = saved
