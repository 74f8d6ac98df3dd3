"""Generator expressions consumed by sum/min/max/any/all compile to one loop
(issue 7); elsewhere they run as Python."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from transpile import TranspileFallbackWarning, jit

from ..conftest import run_both


@jit
def reductions(a, n):
    s = sum(a[i] * a[i] for i in range(n) if a[i] > 0)
    t = sum((x for x in a), 10)
    m = max(abs(x - 1.0) for x in a)
    lo = min(x * 2 for x in a if x != 0.0)
    ok = any(x > 3 for x in a) and all(i >= 0 for i in range(n))
    k = sum(i for i, x in enumerate(a) if x < 2)
    p = sum(x * y for x, y in zip(a, a[::-1]))
    return s, t, m, lo, ok, k, p


@jit
def int_sums(n):
    return sum(i * i for i in range(n)), sum(1 for i in range(n) if i % 3 == 0)


@jit
def empty_max(n):
    return max(i for i in range(n))


@jit
def in_while(a):
    count = 0
    while sum(x for x in a) > 1.0:
        a[count] = 0.0
        count += 1
    return count


@jit
def not_consumed(a):
    xs = list(x * 2 for x in a)
    return len(xs)


@pytest.mark.parametrize("values", [[-1.0, 2.0, 3.0, 4.5], [0.5, 0.25, 7.0], [2.0, -3.0]])
def test_reductions_over_generators(values):
    a = np.array(values)
    run_both(reductions, a, len(values))
    assert reductions.fallbacks() == []


@pytest.mark.parametrize("n", [0, 1, 10])
def test_python_int_sums(n):
    run_both(int_sums, n)


@pytest.mark.parametrize("n", [0, 4])
def test_max_of_empty_generator_raises_value_error(n):
    run_both(empty_max, n)


def test_generator_in_a_loop_condition_is_re_evaluated():
    run_both(in_while, np.array([0.5, 0.5, 0.5, 0.5]))


def test_generator_consumed_by_list_compiles():
    # list(genexp) makes a compiled list (issue 7: native lists)
    with warnings.catch_warnings():
        warnings.simplefilter("error", TranspileFallbackWarning)
        run_both(not_consumed, np.arange(3.0))
    assert not_consumed.fallbacks() == []
