"""Differential tests: np.median, np.quantile and np.percentile (linear
method) against NumPy: values, dtypes and scalar types, axis=None and
axis=k, NaN lanes, exceptions; what is not compiled runs in CPython."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from transpile import jit as plain_jit

from ._support import check_items, jit


@jit
def stats_whole(a, q, p):
    return (np.median(a), np.quantile(a, q), np.percentile(a, p), np.quantile(a, 0.5), np.percentile(a, 90),
            np.quantile(a, q=0.0), np.quantile(a, 1.0), np.percentile(a, 100), np.percentile(a, 0))


ARRAYS = {
    "f64": np.array([3.5, -1.25, 7.0, 2.0, 9.5, 0.1, 4.4]),
    "f64-even": np.array([3.5, -1.25, 7.0, 2.0, 9.5, 0.1]),
    "f32": np.array([0.3, 0.1, 0.7, 0.2, 0.9], np.float32),
    "i64": np.array([5, -3, 12, 7, 7, 0, 2, 9]),
    "u8": np.array([5, 3, 250, 7, 1], np.uint8),
    "i8-wrap": np.array([-128, 127, 0], np.int8),  # b - a wraps in int8, as in NumPy
    "one": np.array([2.5]),
    "nan": np.array([1.0, np.nan, 3.0]),
    "inf": np.array([1.0, np.inf, -np.inf, 2.0]),
    "2d-strided": np.arange(24.0).reshape(4, 6)[:, ::2] * 1.7 % 5,
    "big": np.sin(np.arange(1001.0)) * 1e3,
}


@pytest.mark.parametrize("name", list(ARRAYS))
@pytest.mark.parametrize("q, p", [(0.3, 30.0), (0.75, 75), (1 / 3, 100 / 3)], ids=["q.3", "q.75", "q1/3"])
def test_whole_array(check, name, q, p):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # inf - inf in NumPy's _lerp
        check_items(check, stats_whole, ARRAYS[name], q, p)


@jit
def stats_axis(a):
    return (np.median(a, axis=0), np.median(a, axis=1), np.median(a, -1), np.quantile(a, 0.4, axis=0),
            np.percentile(a, 62.5, axis=1), np.quantile(a, 1, axis=1), np.quantile(a, np.float64(0.25), axis=0))


@pytest.mark.parametrize("a", [
    np.arange(12.0).reshape(3, 4) ** 1.5 % 7,
    (np.arange(20) * 7 % 11).reshape(4, 5).T,
    np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]]),
    np.arange(24, dtype=np.float32).reshape(2, 3, 4)[:, ::-1, 1] * 0.3,
], ids=["f64", "i64-T", "nan-row", "f32-view"])
def test_axis(check, a):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check_items(check, stats_axis, a)


@jit
def stats_3d(a):
    return np.median(a, axis=1), np.quantile(a, 0.9, axis=2), np.percentile(a, 10, axis=0), np.median(a)


def test_three_dims(check):
    check_items(check, stats_3d, np.cos(np.arange(60.0)).reshape(3, 4, 5))


@jit
def quantile_int_q(a, q):
    return np.quantile(a, q), np.quantile(a, True), np.quantile(a, np.float64(0.5))


@pytest.mark.parametrize("a", [np.array([4, 1, 9, 3]), np.array([0.5, 2.5, 1.5], np.float32)], ids=["i64", "f32"])
@pytest.mark.parametrize("q", [0, 1])
def test_integer_q_takes_an_element(check, a, q):
    check_items(check, quantile_int_q, a, q)  # np.quantile(int array, 1) is an np.int64


@jit
def quantile_of(a, q):
    return np.quantile(a, q)


@jit
def percentile_of(a, p):
    return np.percentile(a, p)


@pytest.mark.parametrize("q", [-0.1, 1.5, float("nan"), 2])
def test_q_out_of_range_raises_value_error(check, q):
    check(quantile_of, np.arange(4.0), q)
    check(percentile_of, np.arange(4.0), q * 100)


def test_empty_arrays(check):
    check(quantile_of, np.zeros(0), 0.5)  # IndexError in both
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check(median_of, np.zeros(0))  # nan (NumPy warns "Mean of empty slice")


@jit
def median_of(a):
    return np.median(a)


def test_not_compiled_calls_run_in_python():
    @plain_jit
    def bool_quantile(a):
        return np.quantile(a, 0.5)  # NumPy raises TypeError (boolean subtract)

    @plain_jit
    def methods(a):
        return np.quantile(a, 0.4, method="nearest"), np.median(a, keepdims=True), np.percentile(a, [10, 90])

    a = np.array([3.0, 1.0, 2.0, 8.0])
    with pytest.raises(TypeError):
        bool_quantile(np.array([True, False]))
    got, expected = methods(a), methods.py_func(a)
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g, e)
        assert type(g) is type(e)


@jit
def sequences(a, qs):
    return (np.percentile(a, [25, 50, 75]), np.quantile(a, [0.1, 0.9]), np.quantile(a, qs), np.percentile(a, qs * 100),
            np.quantile(a, [0, 1]))


@pytest.mark.parametrize("name", ["f64", "f32", "i64", "nan", "2d-strided"])
def test_sequence_q(check, name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check_items(check, sequences, ARRAYS[name], np.array([0.0, 0.33, 1.0]))


def test_sequence_q_out_of_range(check):
    check(sequences, np.arange(5.0), np.array([0.5, 1.5]))  # ValueError in both
