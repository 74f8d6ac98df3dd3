"""NumPy's iteration API and order statistics in compiled code against the
same functions run by CPython/NumPy (issue 13): np.median + np.percentile of
a 500x400 array (NumPy's own C code on both sides), and loops over
np.ndindex, a.flat and np.nditer (Python-level iteration in CPython).
Medians of 7 runs, in one process; the ratio is CPython time / compiled time.

    python3 benchmarks/bench_numpy_iteration.py
"""
from __future__ import annotations

import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from benchmarks.timing import median_time  # noqa: E402
from transpile import jit  # noqa: E402


def order_statistics(a):
    return np.median(a), np.percentile(a, 90.0), np.quantile(a, [0.1, 0.5])


def ndindex_loop(a):
    s = 0.0
    for i, j in np.ndindex(a.shape[0], a.shape[1]):
        s += a[i, j] * (i - j)
    return s


def flat_loop(a):
    s = 0.0
    for x in a.flat:
        s += x * x
    return s


def nditer_loop(a, out):
    for x, y in np.nditer((a, out), op_flags=[["readonly"], ["readwrite"]]):
        y[...] = x * 2.0 + 1.0
    return out


def main():
    a = np.random.default_rng(0).standard_normal((500, 400))
    cases = [(order_statistics, (a,), 1), (ndindex_loop, (a,), 10), (flat_loop, (a.T,), 10),
             (nditer_loop, (a.T, np.zeros((400, 500))), 10)]
    print(f"{'function':18} {'CPython ms':>11} {'compiled ms':>12} {'ratio':>8}")
    for fn, args, _ in cases:
        compiled = jit(fn)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compiled(*args)  # build outside the timing
        python = median_time(fn, *args)
        fast = median_time(compiled, *args)
        print(f"{fn.__name__:18} {python * 1e3:11.2f} {fast * 1e3:12.3f} {python / fast:8.1f}")


if __name__ == "__main__":
    main()
