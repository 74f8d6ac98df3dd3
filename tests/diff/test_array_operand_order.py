"""Array operands are lazy expressions in C++ (computed where the result is
stored), while Python computes each operand in order. An operand that writes
memory after an array expression must not change what that expression reads
(cxx/order.py): differential tests, compiled with fullgraph=True."""
from __future__ import annotations

import numpy as np

from ._support import jit


@jit
def _bump(x):
    x[0] += 100.0
    return 1.0


@jit
def writes_after_array_operands(x, which):
    if which == 0:
        return (x * 2) + _bump(x)  # x * 2 is computed before _bump writes x[0]
    if which == 1:
        return np.maximum(-x, _bump(x)) + x  # a library call's array argument, then the write
    if which == 2:
        return x * 2, _bump(x), x + 1  # a returned tuple: the third item sees the write
    if which == 3:
        y = np.ones(3)
        return (x + y) - np.sort(x) + x.sum()  # a.sort() would write; np.sort copies
    y = x[::-1] * 1.0
    return (y + x) * (x.fill(3.0) is None) + x  # fill() writes x after (y + x) was computed


def test_an_operand_that_writes_memory_comes_after_the_array_expressions_before_it(check):
    for which in range(5):
        check(writes_after_array_operands, np.array([1.0, 2.0, 4.0]), which)


@jit
def is_none_runs_its_operands(x, i):
    return x.fill(3.0) is None, x[i] is not None  # known from the types, yet both run (a write, an IndexError)


def test_is_none_evaluates_its_operands(check):
    check(is_none_runs_its_operands, np.ones(3), 1)
    check(is_none_runs_its_operands, np.ones(3), 5)



@jit(jit_level="O1")  # O0 evaluates the division eagerly; O1 leaves it lazy
def boxed_return_of_an_ordered_array(a, j, k, flag):
    if flag:
        return 1  # another type on this path: the returns are boxed
    return a[j] / (a // k), 2.0  # a[j] first (its IndexError), then the array expression


def test_an_ordered_array_expression_in_a_boxed_return(check):
    for args in ((np.arange(1, 4), 1, 2, False), (np.arange(1, 4), 7, 2, False), (np.arange(1, 4), 0, 2, True)):
        check(boxed_return_of_an_ordered_array, *args)
