"""Differential tests of soundness fixes (issue 12, "Sound by construction"):
each case gives CPython's value, type and exception, or the compiler does
not compile it."""
from __future__ import annotations

import math

import numpy as np

from ._support import jit

# --------------------------------------------------------------------------
# jit_level does not change floating-point results (no contraction into FMA)
# --------------------------------------------------------------------------


def nbody_accel(x, y, eps, one):
    n = x.shape[0]
    ax = np.zeros(n, np.float32)
    ay = np.zeros(n, np.float32)
    for i in range(n):
        for j in range(n):
            rx = x[j] - x[i]
            ry = y[j] - y[i]
            d = rx * rx + ry * ry + eps
            s = one / math.sqrt(d ** 3)
            ax[i] += s * rx
            ay[i] += s * ry
    return ax, ay


nbody_o0 = jit(nbody_accel, jit_level="O0")
nbody_o1 = jit(nbody_accel, jit_level="O1")


def test_float32_kernel_bit_identical_across_levels():
    rng = np.random.default_rng(7)
    x = rng.standard_normal(48).astype(np.float32)
    y = rng.standard_normal(48).astype(np.float32)
    args = (x, y, np.float32(1e-3), np.float32(1.0))
    expected = nbody_accel(*args)
    for compiled in (nbody_o0, nbody_o1):
        got = compiled(*args)
        for g, e in zip(got, expected):
            assert g.dtype == e.dtype == np.float32
            assert g.tobytes() == e.tobytes(), (compiled.options.jit_level, np.max(np.abs(g - e)))
