"""`# @jit.typing: () -> tensor_type[...]` (MindSpore's spelling) on
statements that run as Python: any number of dimensions, spelled
tensor_type[float32, 2] or taken from what compiled code already holds in
the variable; the compiled code after the statement uses the array."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from transpile import jit


@jit
def spelled(n):
    g = np.fromiter((i * n + j for i in range(n) for j in range(n)), np.float32).reshape(n, n)  # @jit.typing: () -> tensor_type[float32, 2]
    s = 0.0
    for i in range(g.shape[0]):
        s += g[i, i] * 2
    return s, g.shape


@jit
def inferred(n):
    g = np.zeros((n, n), dtype=np.float32)
    s = 0.0
    for k in range(2):
        s += g[0, 0] + k
        g = np.fromiter((i * n + j + k for i in range(n) for j in range(n)), np.float32).reshape(n, n)  # @jit.typing: () -> tensor_type[float32]
    return s + g[n - 1, n - 1], g.ndim


@jit
def one_dim(n):
    v = np.fromiter((float(i) for i in range(n) for _ in range(2)), np.float64)  # @jit.typing: () -> tensor_type[float64]
    return v.sum()


@pytest.mark.parametrize("fn", [spelled, inferred, one_dim])
def test_tensor_type_dimensions(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the fallback report
        got = fn(4)
    assert got == fn.py_func(4)
    assert type(got) is type(fn.py_func(4))


@jit
def wrong_ndim(n):
    g = np.fromiter((1.0 for i in range(n) for j in range(n)), np.float32).reshape(n, n)  # @jit.typing: () -> tensor_type[float32, 3]
    return g.shape[0]


def test_declared_dimensions_are_checked():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(TypeError, match="jit.typing"):
            wrong_ndim(3)


def grid_helper(n):
    try:  # not compiled: the helper returns a Python object to its compiled caller
        g = np.arange(n * n, dtype=np.float32)
    except ValueError:
        g = None
    return g.reshape(n, n)


@jit
def helper_call(n):
    g = grid_helper(n)  # @jit.typing: () -> tensor_type[float32, 2]
    s = g[0, 0] * 0
    for i in range(n):
        s += g[i, n - 1 - i]
    return s, g.shape


@jit
def helper_call_wrong(n):
    g = grid_helper(n)  # @jit.typing: () -> tensor_type[float64, 2]
    return g[0, 0]


def test_annotation_on_a_helper_call_types_its_result():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = helper_call(5)
        expected = helper_call.py_func(5)
        assert got == expected and type(got[0]) is type(expected[0])
        with pytest.raises(TypeError):  # the helper's float32 array is not the float64 one declared
            helper_call_wrong(3)
