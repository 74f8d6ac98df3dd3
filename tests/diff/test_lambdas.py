"""Lambdas and key= functions (issue 7): differential tests against CPython
-- values and types, stable order and ties, exceptions raised inside key
functions, lists sorted in place -- and the fallbacks for what does not
compile.  Few compilations: each jit function checks many things at once."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from transpile import TranspileFallbackWarning, UnsupportedSyntaxError
from transpile import jit as plain_jit

from ._support import jit
from .test_lists import both

SCALE = 3


def by_second(t):
    return t[1]


@plain_jit
def jit_neg(x):
    return -x


@jit
def keys(a, xs, k):
    """a: 1-d float array, xs: list of (int, float) with ties, k: int."""
    n = len(a)
    order = sorted(range(n), key=lambda i: -a[i])  # tests/corpus top_k
    by_val = sorted(xs, key=lambda t: t[1])  # ties keep their order
    by_val_rev = sorted(xs, key=lambda t: t[1], reverse=True)
    by_tuple = sorted(xs, key=lambda t: (t[1], -t[0]))
    by_helper = sorted(xs, key=by_second, reverse=False)
    by_abs = sorted(a, key=abs)  # a library callable: np.float64 elements, as in CPython
    by_jit = sorted(range(n), key=jit_neg)
    tup = sorted((3, 1, 2), key=lambda v: v * k)  # closes over an argument
    glob = sorted(range(5), key=lambda v: (v * SCALE) % 4)  # and over a global

    def mod_k(v):  # a nested def closing over k
        return v % k

    by_def = sorted(range(7), key=mod_k)
    ys = list(xs)
    ys.sort(key=lambda t: -t[1])
    zs = list(xs)
    zs.sort(key=lambda t: t[1], reverse=True)
    firsts = (min(xs, key=lambda t: t[1]), max(xs, key=lambda t: t[1]),  # the first of equal keys
              min(range(n), key=lambda i: a[i]), max(a, key=lambda v: v * v), max(xs, key=by_second),
              min((4, -7, 5), key=abs))
    return order, by_val, by_val_rev, by_tuple, by_helper, by_abs, by_jit, tup, glob, by_def, ys, zs, firsts


@jit
def calls(x, k):
    f = lambda v: v * k  # noqa: E731
    g = lambda u, w: u - w  # noqa: E731
    first = (f(3), f(2.5), f(x))  # one lambda, three specializations: int, float, np.float64
    k = k + 1
    later = f(3)  # the current value of k, as in CPython
    direct = (lambda v: v + 1)(x)
    kw = g(w=1, u=10)
    total = 0
    for i in range(4):
        total += (lambda v: v * i)(2)  # the loop variable's current value
    nested = sorted(range(6), key=lambda i: min(range(3), key=lambda j: (i - j * 2) ** 2))
    rows = [[3, 1], [1, 2], [2, 0]]
    by_row = sorted(rows, key=lambda r: r[1])
    longest = max(rows + [[1, 1, 1]], key=len)
    return first, later, direct, kw, total, nested, by_row, longest


@jit
def sort_arg(xs, rev):
    """A list from Python sorted in place by a key (written back to the caller's list)."""
    xs.sort(key=lambda t: t[0] % 3, reverse=rev)
    return len(xs)


@jit
def key_errors(mode, xs):
    if mode == 0:
        return min(xs[10:], key=lambda v: v)  # empty (an empty list cannot come from Python)
    if mode == 1:
        return max(xs[10:], key=lambda v: -v)
    if mode == 2:
        xs.sort(key=lambda v: 10 // (v - 2))  # ZeroDivisionError: the list is left as it was
        return xs[0]
    if mode == 3:
        return sorted(xs, key=lambda v: xs[v])[0]  # IndexError
    if mode == 5:
        return min(xs, key=lambda v: v % 2) * 10 + max(xs, key=lambda v: v % 2)  # first of equal keys
    return sorted(xs, key=lambda v: -v)[0]


def test_key_functions():
    a = np.array([3.0, -1.0, 4.0, 1.0, -5.0, 9.0, 2.0, -9.0])
    xs = [(1, 2.0), (2, 1.0), (3, 2.0), (4, 0.5), (5, 2.0), (6, 1.0)]
    both(keys, a, xs, 3)
    both(keys, np.zeros(1), [(7, 0.0)], 2)
    assert keys.fallbacks() == []


def test_lambda_calls():
    both(calls, 1.5, 2)
    both(calls, np.float64(-0.5), 7)


@pytest.mark.parametrize("rev", [False, True])
def test_list_argument_sorted_in_place_by_key(rev):
    both(sort_arg, [(5, 1), (3, 2), (4, 3), (6, 4), (1, 5), (2, 6)], rev)


@pytest.mark.parametrize("mode,xs", [(0, [3, 1, 2]), (1, [3, 1, 2]), (5, [3, 1, 2]), (6, [3, 1]), (2, [5, 1, 2, 4]),
                                     (2, [5, 1, 4]), (3, [0, 1, 7]), (4, [2, 9, 4])])
def test_errors_inside_key_functions(mode, xs):
    both(key_errors, mode, xs)


# ---- what does not compile -------------------------------------------------------------

def apply(f, x):
    return f(x)


def fallbacks(a, k):
    s = 0.0
    b = apply(lambda v: v * k, a[0])  # a lambda passed to a helper
    s += b
    c = max(a, key=lambda v: hash(v) % 7)  # a key whose body does not compile
    s += c
    g = lambda v, w=2: v * w  # noqa: E731  (default arguments)
    t = g(1.0)  # (a Python object from fallback code: typed where it meets s)
    s += t
    return s


def test_what_does_not_compile_falls_back_with_a_reason():
    f = plain_jit(fallbacks)
    a = np.array([1.5, 2.5, 10.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        assert f(a, 2) == fallbacks(a, 2)
    reasons = {r["line"] - fallbacks.__code__.co_firstlineno: r["reason"] for r in f.fallbacks()}
    assert "passing a lambda to a function is not supported" in reasons[2]
    assert "the lambda cannot be compiled" in reasons[4] and "hash" in reasons[4]
    assert "lambda with default" in reasons[6]
    g = jit(fallbacks)
    with pytest.raises(UnsupportedSyntaxError) as err:
        g(a, 2)
    text = str(err.value)
    assert f"line {fallbacks.__code__.co_firstlineno + 4}" in text or f":{fallbacks.__code__.co_firstlineno + 4}:" in text
    assert "the lambda cannot be compiled" in text
