"""prange kernels for benchmarks/bench_parallel.py.  One source: transpile
compiles them with @jit; Numba compiles the same code objects with
njit(parallel=True) after `prange` is rebound to numba.prange."""
import math

import numpy as np

from transpile import prange


def mandel(xs, ys, max_iter, out):
    """Embarrassingly parallel and compute-bound: escape times of a grid of points."""
    for i in prange(ys.shape[0]):
        for j in range(xs.shape[0]):
            cr = xs[j]
            ci = ys[i]
            zr = 0.0
            zi = 0.0
            k = 0
            while k < max_iter and zr * zr + zi * zi < 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                k += 1
            out[i, j] = k
    return out


def transcendental(x, out):
    """Embarrassingly parallel: math functions of each element."""
    for i in prange(x.shape[0]):
        v = x[i]
        out[i] = math.sqrt(v) * math.sin(v) + math.exp(-v * v) + math.log1p(v)
    return out


def sum_squares(a):
    """A reduction over a large array: memory bound."""
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i] * a[i]
    return s


def histogram(x, nbins):
    """Shared bins: atomic updates in transpile (Numba's prange reduces arrays itself)."""
    h = np.zeros(nbins, dtype=np.int64)
    for i in prange(x.shape[0]):
        b = int(x[i] * nbins)
        if b >= nbins:
            b = nbins - 1
        h[b] += 1
    return h


def jacobi(u, v, steps):
    """A 5-point stencil: rows in parallel, a sequential time loop around them."""
    n, m = u.shape
    for t in range(steps):
        for i in prange(1, n - 1):
            for j in range(1, m - 1):
                v[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
        for i in prange(1, n - 1):
            for j in range(1, m - 1):
                u[i, j] = v[i, j]
    return u


def array_expr(a, b, c, out):
    """No prange: a whole-array expression, which transpile evaluates on OpenMP
    threads at jit_level="O1" and Numba's parallel=True turns into a parfor."""
    out[:] = np.sqrt(a * a + b * b) * np.exp(-c)
    return out
