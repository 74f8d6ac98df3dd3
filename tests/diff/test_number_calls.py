"""Calls of specializations whose arguments and result are Python numbers
take the bridge's shortest path (dispatcher.c: call_numbers, straight from
the vectorcall when the function has one specialization).  It must match
only what the full path matches (exact float, int and bool: True is no int
here, a float subclass no float), raise as CPython does, and leave to the
full path the calls it does not serve: keywords, defaults, too many
positional arguments, several specializations."""
from __future__ import annotations

import pytest

from transpile.diagnostics import UnsupportedArgumentError

from ._support import jit


@jit
def add(x, y):
    return x + y


@jit
def scaled(x, k=2):
    return x * k


@jit
def divide(x, y):
    return x / y


@jit
def nothing(x):
    x += 1


@jit
def collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


@jit
def keyword_only(x, *, k=1.5):
    return x - k


class Real(float):
    pass


def test_numbers_match_exactly(check):
    check(add, 1.5, 2.25)
    assert len(add.signatures) == 1
    check(add, 3, 4)  # a second specialization: the dispatcher tries both in order
    check(add, 2.5, -1.0)
    check(add, True, 2)  # a bool is not taken for an int: its own specialization
    check(add, 7, 8)
    assert len(add.signatures) == 3, add.signatures
    with pytest.raises(UnsupportedArgumentError):  # nor is a float subclass taken for a float
        add(Real(1.0), 2.0)
    with pytest.raises(OverflowError, match="int64"):
        add(2**63, 1)


def test_results_errors_and_the_gil(check):
    check(divide, 1.0, 4.0)
    check(divide, 1.0, 0.0)  # ZeroDivisionError from compiled code
    check(nothing, 2.0)
    assert nothing(2.0) is None
    check(collatz, 27)  # a loop: runs without the GIL
    check(collatz, 1)


def test_calls_the_short_path_leaves_to_the_full_one(check):
    check(scaled, 1.5)  # the default filled in by the dispatcher
    check(scaled, 1.5, 3)
    assert scaled(1.5, k=4) == 6.0
    check(keyword_only, 4.0)
    assert keyword_only(4.0, k=0.5) == 3.5
    with pytest.raises(TypeError):  # k is keyword-only: two positional arguments are one too many
        keyword_only(4.0, 0.5)
