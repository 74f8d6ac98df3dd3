"""capture_mode="trace": one call on tracing values records a straight-line
program, which compiles like any function; anything value-dependent stops
the trace and the function runs in CPython."""
from __future__ import annotations

import numpy as np
import pytest

from transpile import jit
from transpile.diagnostics import FunctionNotCompilable, TranspileFallbackWarning


def abc(a, b, c):
    return a * b + c


def conv_bn_relu(x, w, gamma, beta, mean, var):
    y = w[0] * x[:-2] + w[1] * x[1:-1] + w[2] * x[2:]  # a 3-tap convolution, NumPy ops only
    y = (y - mean) / np.sqrt(var + 1e-5) * gamma + beta
    return np.maximum(y, 0.0)


def in_place(a, b):
    a[1:] = a[:-1] * 2.0 + b[1:]
    return a.sum()


def accumulate(a, b, x):
    view = a[1:]
    view += b[1:] * 2.0  # writes into a through the view
    x += 1.0  # a number: rebinds x only
    a *= x
    return x


def branchy(a):
    if a.sum() > 0:  # depends on the values: the trace stops here
        return a * 2.0
    return -a


def prints(a):
    print("called")
    return a + 1.0


SCALE = 3.0


def reads_global(a):
    return a * SCALE


@pytest.mark.parametrize("args", [
    (np.arange(4.0), np.ones(4), 1.0),
    (np.arange(4.0), 2.0, np.ones(4)),
    (2, 3, 4),
    (2.5, np.arange(3, dtype=np.float32), 1),
    (np.arange(6, dtype=np.int32).reshape(2, 3), np.arange(3, dtype=np.int64), np.int8(3)),
])
def test_a_times_b_plus_c(check, args):
    check(jit(abc, capture_mode="trace", fullgraph=True), *args)


def test_conv_bn_relu(check):
    f = jit(conv_bn_relu, capture_mode="trace", fullgraph=True)
    rng = np.random.default_rng(0)
    check(f, rng.standard_normal(32), np.array([0.25, 0.5, 0.25]), 1.5, 0.1, 0.05, 0.9)
    check(f, rng.standard_normal(7), np.array([1.0, -2.0, 1.0]), 0.5, -0.1, 0.0, 2.0)


def test_mutation_and_method(check):
    check(jit(in_place, capture_mode="trace", fullgraph=True), np.arange(5.0), np.ones(5))


def test_in_place_operators(check):
    check(jit(accumulate, capture_mode="trace", fullgraph=True), np.arange(4.0), np.ones(4), 0.5)


def test_lambda():
    f = jit(lambda a, b: np.sqrt(a * a + b * b), capture_mode="trace", fullgraph=True)
    np.testing.assert_array_equal(f(np.array([3.0]), np.array([4.0])), np.array([5.0]))


@pytest.mark.parametrize("fn, reason", [(branchy, "depends on a traced value"), (prints, "print"),
                                        (reads_global, "SCALE")])
def test_value_dependence_runs_in_python(fn, reason):
    f = jit(fn, capture_mode="trace")
    a = np.arange(3.0)
    with pytest.warns(TranspileFallbackWarning, match=reason):
        np.testing.assert_array_equal(f(a), fn(a))
    with pytest.raises(FunctionNotCompilable, match=reason):
        jit(fn, capture_mode="trace", fullgraph=True)(a)
