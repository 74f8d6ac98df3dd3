"""Comparisons of signed with unsigned 64-bit integers are by value, as in
NumPy (its qQ->?/Qq->? loops; NEP 50 for Python ints): np.uint64(5) < -1 is
False. Converted to one 64-bit type, -1 became 2**64-1 and the answer
flipped."""
import numpy as np
import pytest

from ._support import check_items, jit

U64_MAX = np.uint64(2**64 - 1)


@jit
def compare_scalars(u, i, k):
    # u: np.uint64, i: np.int64, k: a Python int
    return (u < i, u <= i, u > i, u >= i, u == i, u != i, i < u,
            u < k, u == k, k > u, u != k,
            np.less(u, i), np.greater_equal(i, u), np.equal(u, k), np.not_equal(k, u))


@jit
def compare_arrays(a, b, i):
    # a: uint64[:], b: int64[:], i: np.int64
    return (a < b, a == b, b >= a, a > i, i <= a, a != -1,
            np.less(a, b), np.equal(b, a), np.greater(a, i), np.less_equal(a, -1))


@pytest.mark.parametrize("u, i, k", [
    (np.uint64(5), np.int64(-3), -1),
    (U64_MAX, np.int64(-1), -1),
    (np.uint64(2**63), np.int64(2**63 - 1), 2**63 - 1),
    (np.uint64(0), np.int64(0), 0),
    (np.uint64(7), np.int64(7), 7),
])
def test_scalars_compare_by_value(check, u, i, k):
    check_items(check, compare_scalars, u, i, k)


def test_arrays_compare_by_value(check):
    a = np.array([5, 2**64 - 1, 2**63, 0, 7], dtype=np.uint64)
    b = np.array([-3, -1, 2**63 - 1, 0, 7], dtype=np.int64)
    check_items(check, compare_arrays, a, b, np.int64(-1))
    check_items(check, compare_arrays, a, b, np.int64(7))
