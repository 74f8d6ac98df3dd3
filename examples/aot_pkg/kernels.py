"""Kernels whose signatures come from the three sources `transpile build` reads."""
from __future__ import annotations  # annotations such as float64[:] are read, never evaluated

import statistics

import numpy as np

from transpile import jit

SCALE = 0.5


# 1. Parameter annotations.
@jit
def axpy(a: float, x: float64[:], y: float64[:]):
    return a * x + y


# 2. signatures= lists what `transpile build` compiles.
@jit(signatures=["float64[:, :], int", "float32[:, :], int"])
def smooth(u, steps):
    for _ in range(steps):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return u


# transpile: export square(float64)
@jit
def square(v):
    return v * v


# 3. Export comments; norm2 calls square (compiled into norm2's module) and
#    reads the module constant SCALE (frozen into it).
# transpile: export norm2(float64[:])
@jit
def norm2(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += square(x[i]) * SCALE
    return s


# 4. A statement outside the compiled subset runs as Python (JIT Fallback);
#    the prebuilt artifact rebuilds that callback from this source at load time.
@jit
def centered(x: float64[:]):
    med = statistics.median(x.tolist())
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = x[i] - med
    return out
