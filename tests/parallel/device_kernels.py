"""Kernels in the device subset (scalars, element indexing, math, nested
range loops), undecorated: the CUDA and Ascend tests decorate them for
their backend, and compare with backend="cpu"."""
import math

import numpy as np

from transpile import prange


def mix(a, b, h, m, out):
    """Every kind of reduction, atomic updates of int64/float32/uint8 elements,
    math and NumPy scalar functions, Python operators, continue, a nested loop."""
    s = 0.0
    c = 0
    p = 1.0
    bits = 0
    for i in prange(a.shape[0]):
        x = a[i]
        y = math.sqrt(abs(x)) + math.exp(-x) + np.sin(x) + min(x, 1.0) + max(x, 0.0)
        k = int(x * h.shape[0]) % h.shape[0]
        h[k] += 1
        m[k] += np.uint8(1)
        b[k] += np.float32(0.25)
        if y > 3.0:
            continue
        s += y
        c += 1
        p *= 1.0 + x * 1e-6
        bits |= int(x * 8.0) & 7
        for j in range(out.shape[1]):
            out[i, j] = x * j // 1.5 + x % 2.0
    return s, c, p, bits


def stencil(u, v, steps):
    """Jacobi sweeps over rows in parallel (2-D element indexing)."""
    n, m = u.shape
    for t in range(steps):
        for i in prange(1, n - 1):
            for j in range(1, m - 1):
                v[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
        for i in prange(1, n - 1):
            for j in range(1, m - 1):
                u[i, j] = v[i, j]
    return u


def axpy_sum(alpha, x, y):
    """y = alpha * x + y, and the sum of the result (float32 arrays)."""
    s = 0.0
    for i in prange(x.shape[0]):
        y[i] = alpha * x[i] + y[i]
        s += y[i]
    return s


def out_of_bounds(a):
    """Reads one element past the end in the last iteration."""
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i + 1]
    return s


def host_heavy(a, b):
    """NumPy on the host around a kernel: the whole runtime must compile under nvcc too."""
    c = a @ b
    s = np.sum(c, axis=0)
    m = np.max(np.abs(c)) + np.mean(c) + np.std(c)
    e = np.cumsum(np.sort(s))
    f = np.where(c > 0, c, 0.0)
    out = np.zeros(c.shape[0])
    for i in prange(c.shape[0]):
        acc = 0.0
        for j in range(c.shape[1]):
            acc += f[i, j] * math.sqrt(abs(c[i, j]))
        out[i] = acc
    return out.sum() + m + e[-1] + np.linalg.norm(c)


MIX_SIG = "float64[::1], float32[::1], int64[::1], uint8[::1], float64[:, ::1]"
STENCIL_SIG = "float64[:, ::1], float64[:, ::1], int"
AXPY_SIG = "float32, float32[::1], float32[::1]"


def mix_args(n=5000, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.random(n) * 3.0, np.zeros(16, np.float32), np.zeros(16, np.int64), np.zeros(16, np.uint8),
            np.zeros((n, 3)))


def stencil_args(n=64, m=48):
    u = np.zeros((n, m))
    u[0] = 1.0
    u[:, 0] = 0.5
    return u, u.copy(), 5


def histograms(x, h, f, m, q, o, e, a):
    """Array reductions of every operator family the CPU backend privatizes:
    h int64 (+= and -=), f float32 (+=), m uint8 (+=, wrapping), q int64 (*=,
    wrapping), o int64 (|=), e int64 (^=), a uint8 (&=)."""
    for i in prange(x.shape[0]):
        k = int(x[i] * h.shape[0]) % h.shape[0]
        h[k] += 2
        h[(k + 1) % h.shape[0]] -= 1
        f[k] += np.float32(0.5) * np.float32(i % 4)
        m[k] += np.uint8(3)
        q[k] *= 3
        o[k] |= i * 37
        e[k] ^= i * 7
        a[k] &= np.uint8(255 - (1 << (i % 8)))
    return h


def faults(a, d, k, out):
    """IndexError past the end in the iterations with i % k == k - 1,
    ZeroDivisionError (CPython's, Python ints) where d[i] == 0; out[i] written
    by every iteration."""
    s = 0.0
    for i in prange(a.shape[0]):
        out[i] = 2.0 * a[i]
        if i % k == k - 1:
            s += a[i + a.shape[0]]
        s += 10 // int(d[i]) + a[i]
    return s, out


HISTOGRAMS_SIG = "float64[::1], int64[::1], float32[::1], uint8[::1], int64[::1], int64[::1], int64[::1], uint8[::1]"
FAULTS_SIG = "float64[::1], int64[::1], int, float64[::1]"


def histogram_args(n=3000, bins=16, seed=7):
    x = np.random.default_rng(seed).random(n)
    return (x, np.zeros(bins, np.int64), np.zeros(bins, np.float32), np.zeros(bins, np.uint8),
            np.ones(bins, np.int64), np.zeros(bins, np.int64), np.zeros(bins, np.int64), np.full(bins, 255, np.uint8))
