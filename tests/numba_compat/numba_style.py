"""Numba-style code, as published for Numba: only the import differs
(`from numba import ...` -> `from transpile.numba_compat import ...`)."""
import math

import numpy as np

from transpile.numba_compat import float64, guvectorize, jit, jitclass, literal_unroll, njit, prange, types, vectorize
from transpile.numba_compat.typed import Dict, List


@njit(cache=True)
def trapz(y, dx):
    s = 0.0
    for i in range(1, y.shape[0]):
        s += 0.5 * (y[i] + y[i - 1]) * dx
    return s


@jit(nopython=True, nogil=True, boundscheck=True)
def pairwise(X):
    n = X.shape[0]
    D = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            diff = X[i] - X[j]
            D[i, j] = math.sqrt(np.sum(diff * diff))
    return D


@njit("float64(float64[:], float64)")
def horner(coeffs, x):
    r = coeffs[0]
    for c in coeffs[1:]:
        r = r * x + c
    return r


@njit(["int64(int64)", "float64(float64)"])
def collatz_steps(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


@njit(parallel=True)
def row_norms(A):
    out = np.empty(A.shape[0])
    for i in prange(A.shape[0]):
        out[i] = np.sqrt(np.sum(A[i] ** 2))
    return out


@njit(fastmath=True)
def dot(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


@njit
def total(values):
    t = 0.0
    for v in values:
        t += v
    return t


@vectorize(["float64(float64, float64)", "float32(float32, float32)"], identity=0)
def soft_max(x, y):
    if x > y:
        return x + math.log1p(math.exp(y - x))
    return y + math.log1p(math.exp(x - y))


@vectorize
def halve(x):
    return x / 2


@vectorize(["float64(float64)"], target="parallel")
def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


@guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)")
def shift(x, y, res):
    for i in range(x.shape[0]):
        res[i] = x[i] + y


@guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->()")
def inner(a, b, res):
    res[0] = 0.0
    for i in range(a.shape[0]):
        res[0] += a[i] * b[i]


@jitclass([("mass", float64), ("velocity", float64[:])])
class Particle:
    def __init__(self, mass, velocity):
        self.mass = mass
        self.velocity = velocity

    def kinetic(self):
        return 0.5 * self.mass * (self.velocity ** 2).sum()


@njit
def positives(values):
    found = List()
    counts = Dict.empty(key_type=types.int64, value_type=types.float64)
    for i in range(values.shape[0]):
        if values[i] > 0:
            found.append(values[i])
            counts[i % 3] = values[i]
    return len(found), found[-1], len(counts), counts[0]


@njit(parallel=True)
def parallel_sum(a):
    total = 0.0
    for i in prange(a.shape[0]):
        total += a[i]
    return total


@njit
def unrolled(t):
    total = 0.0
    for x in literal_unroll(t):
        total += x
    return total
