"""raise statements in compiled code against CPython: the same exception
type and message."""
import math

import numpy as np
import pytest

from ._support import jit

from transpile import TranspileFallbackWarning


@jit
def checked_sqrt(x, mode):
    if mode == 1:
        raise ZeroDivisionError("mode 1 divides by zero")
    if x < 0.0:
        raise ValueError("x must be non-negative (100% \"sure\")")
    if mode > 3:
        raise IndexError
    if mode == 3:
        raise NotImplementedError("mode 3")
    return math.sqrt(x)


@pytest.mark.parametrize("x, mode", [(4.0, 0), (4.0, 1), (-1.0, 0), (1.0, 5), (1.0, 3)])
def test_raise_matches_cpython(check, x, mode):
    try:
        expected = checked_sqrt.py_func(x, mode)
    except Exception as exc:  # noqa: BLE001
        with pytest.raises(type(exc)) as info:
            checked_sqrt(x, mode)
        assert str(info.value) == str(exc)
        return
    assert checked_sqrt(x, mode) == expected


class Custom(Exception):
    pass


def test_other_exceptions_run_as_python():
    from transpile import jit as plain_jit

    def f(x):
        if x > 1:
            raise Custom(f"too big: {x}")
        return x

    g = plain_jit(f)
    with pytest.warns(TranspileFallbackWarning, match="raising Custom"):
        assert g(1) == 1
    with pytest.raises(Custom, match="too big: 2"):
        g(2)


@jit
def validated(x, n, label):
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n} (x={x}, {x:.3f})")
    if x != x:
        message = "x is NaN in " + label
        raise RuntimeError(message)
    if n > 10:
        raise IndexError(f"{label}: index {n} out of range")
    return x * n


@pytest.mark.parametrize("x,n,label", [(1.5, 2, "a"), (0.1, -3, "b"), (float("nan"), 1, "série"),
                                       (2.0, 11, "c"), (-1e300, -1, "d")])
def test_computed_messages_are_cpythons(check, x, n, label):
    check(validated, x, n, label)  # same type and message (f-strings, str values)


CALLS = np.zeros(1, dtype=np.int64)  # module-level arrays are written in place by compiled code


def noted(x):
    CALLS[0] += 1
    return x


@jit
def asserted(x, n):
    assert n >= 0, n * 10
    assert x == x, f"x is {x} at n={n}"
    assert n < 100, noted(n)  # the message is evaluated only when the assertion fails
    return x + n


@pytest.mark.parametrize("x,n", [(1.5, 3), (1.5, -2), (float("nan"), 4), (2.0, 150)])
def test_assert_messages_are_cpythons(check, x, n):
    check(asserted, x, n)


def test_assert_messages_are_evaluated_only_on_failure():
    CALLS[0] = 0
    asserted(1.0, 5)
    assert CALLS[0] == 0
    with pytest.raises(AssertionError, match=r"^150\b"):
        asserted(1.0, 150)
    assert CALLS[0] == 1
