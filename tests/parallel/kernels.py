"""prange kernels for the parallel tests: one @jit function per kind of
loop (each is one compilation), checked against the same code in CPython."""
import math

import numpy as np

from transpile import jit, prange


@jit
def stats(a):
    """Reductions of every operator family, over float, int, bool and complex values."""
    s = 0.0
    neg = 0.0
    count = 0
    prod = 1.0
    bits = 0
    z = 0j
    for i in prange(a.shape[0]):
        x = a[i]
        s += x
        neg -= 2.0 * x
        if x > 0.5:
            count += 1
        prod *= 1.0 + x * 1e-3
        bits |= 1 << int(x * 8.0)
        z += complex(x, -x)
    return s, neg, count, prod, bits, z


@jit
def histogram(x, nbins):
    """h[b] += 1 with b shared between iterations: atomic updates (int and float)."""
    h = np.zeros(nbins, dtype=np.int64)
    w = np.zeros(nbins, dtype=np.float32)
    for i in prange(x.shape[0]):
        b = int(x[i] * nbins)
        if b >= nbins:
            b = nbins - 1
        h[b] += 1
        w[b] += np.float32(0.5)
    return h, w


@jit
def stencil(u, steps):
    """Jacobi sweeps: a sequential time loop around a prange over rows."""
    v = u.copy()
    n, m = u.shape
    for t in range(steps):
        for i in prange(1, n - 1):
            for j in range(1, m - 1):
                v[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
        u, v = v, u
    return u


@jit
def rows(a, out):
    """Per-iteration temporaries (scalars and a fresh array), continue, NumPy calls in the body."""
    for i in prange(a.shape[0]):
        tmp = np.zeros(a.shape[1])
        acc = 0.0
        for j in range(a.shape[1]):
            tmp[j] = a[i, j] * a[i, j]
            acc += tmp[j]
        if acc < 1.0:
            out[i] = -1.0
            continue
        out[i] = math.sqrt(acc) + np.sum(a[i]) + np.max(tmp)
    return out


@jit
def stepped(n):
    """prange(start, stop, step) with a negative step, and an empty range."""
    s = 0
    for i in prange(n, 0, -3):
        s += i * i
    e = 0
    for i in prange(n, n):
        e += 1
    return s, e


@jit
def first_error(a, k):
    """Out-of-range indices in several iterations: the lowest one's error, as in Python."""
    s = 0.0
    for i in prange(a.shape[0]):
        if i % k == k - 1:
            s += a[i + a.shape[0]]
        s += a[i]
    return s


@jit
def nested(a):
    """A prange inside a prange body runs in order within each outer iteration."""
    s = 0.0
    for i in prange(a.shape[0]):
        for j in prange(a.shape[1]):
            s += a[i, j] * (i + 1)
    return s


@jit
def with_fallback(a):
    """Python code in the body: the loop runs in order (the interpreter lock)."""
    s = 0.0
    for i in prange(a.shape[0]):
        x = float(str(a[i]).title())  # str.title() runs as Python (JIT Fallback)
        s += x
    return s


@jit(fullgraph=True)
def row_means(a, scale):
    """acc is a Python float until a row adds an np.float64 (passes/paths.py's flag,
    kept per iteration in the kernel); scale is one or the other by the caller's path."""
    s = 1.0
    if scale > 0:
        s = a[0, 0]
    out = np.empty(a.shape[0])
    for i in prange(a.shape[0]):
        acc = 0.0
        for j in range(a.shape[1]):
            acc += a[i, j]
        out[i] = acc / a.shape[1] / s
    return out
