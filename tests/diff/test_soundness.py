"""Differential tests of soundness fixes (issue 12, "Sound by construction"):
each case gives CPython's value, type and exception, or the compiler does
not compile it."""
from __future__ import annotations

import math

import numpy as np
import pytest

from ._support import check_items, jit

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


# --------------------------------------------------------------------------
# Expressions whose C++ spelling did not compile
# --------------------------------------------------------------------------


@jit
def negated_negatives(a, b):
    x = -(-128)
    y = -(-1.5)
    a //= abs(1)
    a %= abs(-3)
    c = 7.5
    c //= abs(2)
    return x, y, a, c, -(-a), -(+a), +(-a), ~(-a), not -a, abs(True), abs(b), -(-b), b // abs(-2)


@pytest.mark.parametrize("a, b", [(7, True), (-9, False), (0, True)])
def test_negated_negatives_and_abs_of_literals(check, a, b):
    check_items(check, negated_negatives, a, b)
