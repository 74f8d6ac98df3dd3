"""try/except compiled (passes/trys.py) against CPython: values, types and
exceptions, the handler run exactly where CPython runs it; the statements
compiled code cannot run as CPython does (other classes, a body that runs
Python, a handler that would see the body half done) run as Python, and are
precise errors under fullgraph=True (the suite's @jit)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from transpile import jit as plain_jit
from transpile.diagnostics import UnsupportedSyntaxError

from ._support import jit


@jit
def lookups(a, i, k):
    d = {1: 10, 2: 20}
    try:
        v = float(a[i])
    except IndexError:
        v = -1.0
    try:
        w = d[k] * 2
    except KeyError:
        w = 0
    try:
        r = 1.0 / v
    except ZeroDivisionError:
        return v, w, "zero"
    return v, w, f"{r:.3f}"


@pytest.mark.parametrize("i,k", [(1, 1), (7, 1), (0, 5), (-9, 9), (-1, 2)])
def test_handlers_run_where_cpythons_run(check, i, k):
    check(lookups, np.array([0.0, 2.0, 4.0]), i, k)


def get(a, i):
    return a[i] + 1


@jit
def loop_with_handler(a, idx):
    total = 0.0
    misses = 0
    for j in range(idx.shape[0]):
        try:
            t = get(a, idx[j])  # a compiled helper raising IndexError
            x = t * 2.0
        except LookupError:
            misses += 1
            continue
        total += x
    return total, misses


def test_handlers_in_loops_and_helpers(check):
    check(loop_with_handler, np.arange(5.0), np.array([0, 9, 4, -7, 2, 5]))


@jit
def nested(a, i, j):
    try:
        try:
            v = a[i] / a[j]
        except ZeroDivisionError:
            v = np.inf
        u = v + a[i + j]
    except IndexError:
        u = -2.0
    return u


@pytest.mark.parametrize("i,j", [(1, 2), (1, 0), (2, 3), (5, 0)])
def test_nested_handlers(check, i, j):
    check(nested, np.array([0.0, 1.0, 2.0, 3.0]), i, j)


@jit
def types_by_path(a, i):
    try:
        v = a[i]  # an np.float64
    except IndexError:
        v = 0  # a Python int, as CPython keeps it
    return v


@pytest.mark.parametrize("i", [0, 3])
def test_each_path_keeps_its_type(check, i):
    check(types_by_path, np.array([1.5, 2.5]), i)


@jit
def uncaught(a, i):
    try:
        v = a[i] // 0
    except IndexError:
        v = -1
    return v


def test_other_exceptions_pass_through(check):
    check(uncaught, np.array([4, 5]), 1)  # ZeroDivisionError is not caught here
    check(uncaught, np.array([4, 5]), 3)


def half_done(a, i):
    v = 1.0
    try:
        v = 5.0
        v = a[i]
    except IndexError:
        return v  # CPython returns 5.0: the body's first assignment happened


def value_errors(x):
    try:
        return int(x)
    except ValueError:  # compiled code raises ValueError at its int64 limits, where CPython goes on
        return -1


def runs_python(a, i):
    try:
        v = a[i]
        print("got", v)
    except IndexError:
        v = 0.0
    return v


def loop_half_done(a):
    total = 0.0
    for j in range(5):
        try:
            total += 1.0
            total += a[j]
        except IndexError:
            continue  # CPython's total keeps this iteration's 1.0
    return total


@pytest.mark.parametrize("fn,args,why", [
    (loop_half_done, (np.ones(3),), "may hold what the try body assigned"),
    (half_done, (np.ones(2), 5), "reads 'v'"),
    (value_errors, (float("nan"),), "except ValueError is not compiled"),
    (runs_python, (np.ones(2), 4), "print"),
])
def test_what_cannot_be_compiled_runs_as_python(fn, args, why, capsys):
    with pytest.raises(UnsupportedSyntaxError, match=why):
        plain_jit(fn, fullgraph=True)(*args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = plain_jit(fn)(*args)
    expected = fn(*args)
    assert got == expected and type(got) is type(expected)


@jit
def several_handlers(a, i, j):
    d = {0: 1.5}
    try:
        v = d[j] / float(a[i])
    except ZeroDivisionError:
        v = -1.0
    except (IndexError, KeyError):
        v = -2.0
    try:
        w = int(a[i + j]) // int(a[j])
    except LookupError:  # the first clause that matches runs, as in CPython
        w = 100
    except ZeroDivisionError:
        w = 200
    return v, w


@pytest.mark.parametrize("i,j", [(1, 0), (0, 0), (9, 0), (1, 3), (2, 1)])
def test_several_except_clauses(check, i, j):
    check(several_handlers, np.array([0, 2, 4]), i, j)


@jit
def with_else(a, i):
    n = 0
    for j in range(i):
        try:
            v = a[j]
        except IndexError:
            v = -1
            n += 100
        else:  # only when the body ran to its end; its own IndexError is not caught here
            n += int(a[j + 1]) if v > 2 else 1
    return n


@pytest.mark.parametrize("i", [2, 4, 6])
def test_else_clauses(check, i):
    check(with_else, np.array([1, 3, 5, 7]), i)


@jit
def maybe_unbound(a, i):
    try:
        v = a[i]
    except IndexError:
        pass
    return v


@pytest.mark.parametrize("i", [0, 5])
def test_a_name_the_raise_left_unbound(check, i):
    check(maybe_unbound, np.arange(3.0), i)  # CPython's UnboundLocalError where a[i] raised
