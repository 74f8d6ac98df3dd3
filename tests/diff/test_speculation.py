"""A loop body that is one `if` whose statements only compute float locals
is run either way and its results kept where the test holds
(cxx/lower_speculate.py), and math.sqrt of a value never negative runs
without its check (passes/signs.py): the same values as CPython, bit for
bit, and the statements that could raise or read out of range still run
only where the test holds."""
import math

import numpy as np
import pytest

from ._support import jit


def forces(pos, mass):
    n = pos.shape[0]
    acc = np.zeros_like(pos)
    for i in range(n):
        ax = 0.0
        ay = 0.0
        for j in range(n):
            if i != j:
                dx = pos[j, 0] - pos[i, 0]
                dy = pos[j, 1] - pos[i, 1]
                r2 = dx * dx + dy * dy + 0.01
                inv = mass[j] / (r2 * math.sqrt(r2))
                ax += dx * inv
                ay += dy * inv
        acc[i, 0] = ax
        acc[i, 1] = ay
    return acc


@pytest.mark.parametrize("boundscheck", [True, False])
def test_conditional_accumulation_bit_for_bit(boundscheck):
    f = jit(boundscheck=boundscheck)(forces)
    rng = np.random.default_rng(7)
    for n in (0, 1, 2, 37):
        pos, mass = rng.random((n, 2)), rng.random(n) + 0.1
        pos[: n // 2] *= -1.0
        got, expected = f(pos, mass), forces(pos, mass)
        assert got.dtype == expected.dtype and np.array_equal(got, expected), n
    pos = np.array([[0.0, 0.0], [np.nan, 1.0], [np.inf, 2.0]])
    with np.errstate(invalid="ignore"):  # inf * 0 in CPython's NumPy scalars
        expected = forces(pos, np.ones(3))
    assert np.array_equal(f(pos, np.ones(3)), expected, equal_nan=True)
    if boundscheck:  # mass too short: IndexError where CPython raises it (the checked copy)
        with pytest.raises(IndexError):
            f(np.zeros((3, 2)), np.ones(2))


@jit
def last_hit(x, t, d):
    s = 0.0
    for i in range(x.shape[0]):
        if x[i] > t:
            d = float(x[i]) - t   # read after the loop: keeps its old value where the test fails
            s += d * 2.0
    return d, s


@jit
def python_division(n, d):
    s = 0.0
    for i in range(n):
        if d != 0.0:
            s += 1.0 / d   # a Python float's division raises ZeroDivisionError: not run either way
    return s


@jit
def sqrt_of_any_sign(x):
    s = 0.0
    for i in range(x.shape[0]):
        if x[i] >= 0.0:
            s += math.sqrt(x[i])   # ValueError for a negative: not run either way
    return s


@jit(boundscheck=False)
def shorter(a, b, m):
    s = 0.0
    for i in range(a.shape[0]):
        if i < m:
            s += float(a[i] * b[i])   # b[i] not proven in range: loaded only where i < m
    return s


def test_what_could_raise_or_read_out_of_range_stays_behind_the_test(check):
    x = np.array([3.0, -1.0, 5.0, 0.5, -0.0, 7.0, 1.0])
    for t in (0.0, 2.0, 10.0):
        got, expected = last_hit(x, t, -1.0), last_hit.py_func(x, t, -1.0)
        assert got == expected and type(got[0]) is type(expected[0]), (t, got, expected)
    for d in (0.0, 4.0, -0.0):
        assert python_division(5, d) == python_division.py_func(5, d)
    assert sqrt_of_any_sign(x) == sqrt_of_any_sign.py_func(x)
    a, b = np.arange(10.0), np.arange(4.0)
    assert shorter(a, b, 4) == shorter.py_func(a, b, 4)


@jit
def never_negative_roots(x, y):
    out = np.empty((x.shape[0], 3))
    for i in range(x.shape[0]):
        s = 0.0
        for k in range(3):
            t = x[i] - y[k]
            s += t * t
        out[i, 0] = math.sqrt(s)
        out[i, 1] = math.sqrt(x[i] * x[i] + 1.0)
        out[i, 2] = math.sqrt(abs(y[i % 3]) ** 3)
    return out


@jit
def checked_roots(x, y):
    return math.sqrt(x), math.sqrt(x * y), math.sqrt(x ** 3), math.sqrt(1.0 / -x)


def test_sqrt_checks_only_where_a_negative_can_reach_it(check):
    x = np.array([0.0, -0.0, 2.5, -3.0, np.nan, np.inf, -np.inf])
    y = np.array([1.0, -2.0, np.nan])
    got, expected = never_negative_roots(x, y), never_negative_roots.py_func(x, y)
    assert np.array_equal(got, expected, equal_nan=True)
    assert np.array_equal(np.signbit(got), np.signbit(expected))
    for args in ((4.0, 2.0), (-4.0, -2.0), (4.0, -2.0), (-0.0, 1.0), (0.0, 1.0), (-4.0, 0.5)):
        check(checked_roots, *args)  # ValueError where CPython raises it
