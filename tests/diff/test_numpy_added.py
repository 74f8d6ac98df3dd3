"""Differential tests: np.eye, np.identity and np.result_type (added for the
corpus, issue 7)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from ._support import check_items, jit


@jit
def eyes(n, m, k):
    return (np.eye(n), np.eye(n, m), np.eye(n, k=k), np.eye(n, m, k, dtype=np.int64), np.identity(n),
            np.eye(n, None), np.eye(N=n, M=m, k=-k, dtype=bool), np.identity(n, dtype=np.float32),
            np.eye(n, dtype=int))


@pytest.mark.parametrize("n, m, k", [(3, 4, 1), (4, 2, 2), (0, 3, 0), (2, 2, 5), (-1, 2, 0)])
def test_eye_identity(check, n, m, k):
    check_items(check, eyes, n, m, k)  # n = -1: ValueError from both


@jit
def result_types(a, b, x, y):
    return (np.zeros(2, dtype=np.result_type(a, b)), np.zeros(3, np.result_type(a, 1.0)),
            np.ones(1, dtype=np.result_type(b, x)), np.zeros(1, dtype=np.result_type(a, np.float32)),
            np.zeros(1, dtype=np.result_type(y, a.dtype)), np.zeros(1, dtype=np.result_type(a, b, np.int8)))


@pytest.mark.parametrize("args", [
    (np.ones(2, np.float32), np.ones(2, np.int64), 2.0, np.int16(3)),
    (np.ones(2, np.int8), np.ones(2, np.uint8), 2, np.float32(1)),
    (np.ones((2, 2), np.float32), np.ones(2, np.float32), True, 1j),
], ids=["f32-i64", "i8-u8", "f32-f32"])
def test_result_type(check, args):
    check_items(check, result_types, *args)


@jit
def nonzero_forms(a, m, c):
    rows, cols = np.where(m > 0.5)
    return (np.where(a), np.nonzero(m), m.nonzero(), rows * 10 + cols, np.where(c), np.nonzero(m[::2, ::-1]),
            np.nonzero(a[a > 100]))


def test_nonzero_and_one_argument_where(check_bits):
    rng = np.random.default_rng(3)
    m = rng.random((5, 4))
    c = np.zeros((2, 3, 2), dtype=np.complex128)
    c[1, 2, 0] = 1j
    c[0, 0, 1] = -1.0
    check_bits(nonzero_forms, np.array([0, 3, 0, -1, 7]), m, c)


@jit
def mixed_displays(x, f, k, u):
    # list displays given to np.array meet as NumPy's coercion has them meet (Python numbers count as
    # their default dtypes): no element keeps its own type there, unlike a list
    return (np.array([x, 2.0]), np.array([f, 2.0]), np.array([[x * 2.0, 1], [2, True]]), np.array([k, 300]),
            np.array([u, 1]), np.asarray([f, k]), np.array([[f, f], [k, 1.5]]), np.array([True, 2]),
            np.array([x, 1j]))


def test_mixed_number_displays_become_numpys_arrays(check_bits):
    check_bits(mixed_displays, np.float64(0.1), np.float32(0.1), np.int8(-3), np.uint64(2**63 + 11))


@jit
def sieve_primes(n):
    sieve = np.ones(n + 1, dtype=np.bool_)  # np.ones: the module includes np::empty, which nonzero must not call
    sieve[:2] = False
    for i in range(2, int(math.sqrt(n)) + 1):
        if sieve[i]:
            sieve[i * i::i] = False
    return np.nonzero(sieve)[0]


@pytest.mark.parametrize("n", [1, 2, 50, 97])
def test_nonzero_beside_array_creation(check, n):
    check(sieve_primes, n)


@jit
def flips(a, b):
    v = np.flip(a)
    v[0] = 99.0  # a view: the write reaches a
    return (np.flip(b), np.flip(b, 0), np.flip(b, axis=-1), np.flip(b, (0, 1)), np.fliplr(b), np.flipud(b), v.sum(),
            np.flip(b[:0]), a, np.flip(b)[1:, ::2])


def test_flip_is_a_view_with_numpys_values(check):
    check(flips, np.arange(4.0), np.arange(6).reshape(2, 3))
    check(flips, np.arange(4.0)[::-2], np.arange(12).reshape(3, 4)[::2, 1:])


@jit
def grids(x, y):
    g1, g2 = np.meshgrid(x, y)
    return np.exp(-(g1 ** 2 + g2 ** 2)), g1.shape, np.meshgrid(x, y, indexing="ij")[0]


def test_meshgrid(check):
    check(grids, np.linspace(0.0, 1.0, 4), np.linspace(1.0, 2.0, 3))
