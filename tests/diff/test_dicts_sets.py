"""Dicts and sets compiled natively (issue 7): literals, stores, lookups,
methods, iteration in insertion order, comprehensions, set algebra,
KeyError, results returned as real dicts/sets; against CPython."""
from __future__ import annotations

import copy

import numpy as np
import pytest

from ._support import jit


def same(got, exp):
    """Equal values with the same types, dict order included."""
    assert type(got) is type(exp), (got, exp)
    if isinstance(exp, dict):
        assert list(got) == list(exp), (got, exp)
        for k in exp:
            same(got[k], exp[k])
        for kg, ke in zip(got, exp):
            same(kg, ke)
    elif isinstance(exp, set):
        assert got == exp and sorted(map(repr, got)) == sorted(map(repr, exp)), (got, exp)
    elif isinstance(exp, (tuple, list)):
        assert len(got) == len(exp), (got, exp)
        for g, e in zip(got, exp):
            same(g, e)
    elif isinstance(exp, np.ndarray):
        assert got.dtype == exp.dtype and got.shape == exp.shape
        np.testing.assert_array_equal(got, exp)
    else:
        assert got == exp or (exp != exp and got != got), (got, exp)


def both(fn, *args):
    exp = fn.py_func(*copy.deepcopy(args))
    got = fn(*copy.deepcopy(args))
    same(got, exp)
    return got


@jit
def counting(a, n):
    counts = {}
    for x in a:
        k = int(x) % n
        counts[k] = counts.get(k, 0) + 1
    first = {}
    for i in range(a.shape[0]):
        first.setdefault(int(a[i]) % 4, i)
    acc = {}
    for i in range(n):
        acc[i] = 0.0
    for x in a:
        acc[int(x) % n] += float(x)
    keys = 0
    for k in counts:
        keys = keys * 10 + k
    total = 0
    for k, v in counts.items():
        total += k * v
    vals = 0
    for v in counts.values():
        vals += v
    has = (1 in counts, 99 in counts, 2 not in counts, 0 in counts.keys(), 3 in counts.values())
    popped = counts.pop(0, -1)
    popped2 = counts.pop(12345, -7)
    return counts, first, acc, keys, total, vals, has, popped, popped2, len(counts), len(acc.keys())


def test_counting_loops():
    a = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0, 5.0])
    got = both(counting, a, 4)
    assert isinstance(got[0], dict)
    both(counting, np.array([], dtype=np.float64), 3)


@jit
def literals_and_tuples(n):
    d = {1: 2.5, 3: 4.0}
    d[5] = 6.0
    grid = {}
    for i in range(n):
        for j in range(n):
            grid[i, j] = i * n + j
    grid[(0, 0)] += 100
    t = {(1, 2): (True, 3.5), (2, 1): (False, -1.0)}
    comp = {i: i * i for i in range(n) if i % 2 == 0}
    comp2 = {(i, j): float(i + j) for i in range(n) for j in range(i)}
    s = {1, 2, 3}
    s.add(n)
    s.add(2)
    s.discard(1)
    s.discard(1000)
    sc = {i % 3 for i in range(n)}
    e = set()
    for i in range(n):
        e.add((i, -i))
    empty = {}
    return d, grid, t, comp, comp2, s, sc, e, empty, len(grid), grid[n - 1, n - 1], t[2, 1][1]


def test_literals_tuple_keys_comprehensions():
    both(literals_and_tuples, 4)
    both(literals_and_tuples, 1)


@jit
def set_algebra(n, m):
    a = {i for i in range(n)}
    b = set(range(m, m + n))
    u, i, d, x = a | b, a & b, a - b, a ^ b
    c = a.copy()
    c.add(-1)
    sub = a.issubset(c)
    un = a.union(b)
    return u, i, d, x, len(c), sub, un, 3 in a, (n - 1) in b, a == c, a == a.copy(), a != c, len(set())


def test_set_algebra():
    both(set_algebra, 6, 3)
    both(set_algebra, 3, 10)


@jit
def key_errors(d_key, which):
    d = {1: 1.0, 2: 4.0}
    t = {(1, "a"): 1}
    s = {2.5}
    if which == 0:
        return d[d_key]
    if which == 1:
        return float(t[d_key, "b"])
    if which == 2:
        d.pop(d_key)
        return 0.0
    s.remove(float(d_key))
    return 1.0


@pytest.mark.parametrize("which", [0, 1, 2, 3])
def test_key_error_like_cpython(which):
    with pytest.raises(KeyError) as py:
        key_errors.py_func(7, which)
    with pytest.raises(KeyError) as jt:
        key_errors(7, which)
    assert jt.value.args == py.value.args
    assert type(jt.value.args[0]) is type(py.value.args[0])
    assert key_errors(1, 0) == 1.0


@jit
def arrays_and_strings(a, mode):
    rows = {}
    for i in range(a.shape[0]):
        rows[i] = a[i] * 2.0
    rows[0] += 1.0
    names = {"linear": 1, "cubic": 3}
    names["quintic"] = 5
    order = names.get(mode, -1)
    seen = set()
    for k in names:
        seen.add(k)
    del_ok = names.pop("cubic", 0)
    return rows, names, order, seen, del_ok, mode in names, "linear" in seen


def test_array_values_and_str_keys():
    a = np.arange(6.0).reshape(3, 2)
    got = both(arrays_and_strings, a, "cubic")
    assert isinstance(got[0][1], np.ndarray)
    both(arrays_and_strings, a, "nope")


@jit
def changed_size(n):
    d = {0: 0}
    for k in d:
        d[k + 1] = 1
        if len(d) > n:
            break
    return d


def test_dictionary_changed_size_during_iteration():
    with pytest.raises(RuntimeError):
        changed_size.py_func(3)
    with pytest.raises(RuntimeError):
        changed_size(3)


def test_dict_arguments_run_in_cpython():
    from transpile import jit as plain_jit

    @plain_jit
    def f(d):
        return len(d)

    with pytest.warns(Warning):
        assert f({1: 2}) == 1


@jit
def set_order_free(values, words):
    s = set()
    for v in values:
        s.add(v)
    w = set(words)
    return sorted(s), min(s), max(s), sum(s), sorted(w, reverse=True), min(w), max({(v % 3, v) for v in values})


def test_consumers_a_sets_order_cannot_change_compile():
    both(set_order_free, [10, 3, 1, 33, 17, 3, -8], ["b", "a", "ccc", "a"])


def set_in_its_order(values, how):
    s = set(values)
    if how == 0:
        return [v for v in s]
    if how == 1:
        return list(s)
    if how == 2:
        return sorted(s, key=lambda v: v % 3)
    if how == 3:
        return sum(s)  # floats: the rounding follows the order
    total = 0
    for v in s:
        total = total * 31 + v
    return total


@pytest.mark.parametrize("how", [0, 1, 2, 3, 4])
def test_iterating_a_set_runs_as_python_in_cpythons_order(how):
    """CPython iterates a set in its hash table's order ({10, 3, 1, 33, 17} gives
    1, 33, 3, 10, 17), which compiled sets (insertion order) do not have: the
    statement runs as Python, and fullgraph=True names the reason."""
    from transpile import jit as plain_jit
    from transpile.diagnostics import TranspileFallbackWarning, UnsupportedSyntaxError

    values = [10, 3, 1, 33, 17] if how != 3 else [0.1, 1e16, 0.7, -1e16, 3.3]
    with pytest.warns(TranspileFallbackWarning):
        assert plain_jit(set_in_its_order)(values, how) == set_in_its_order(values, how)
    with pytest.raises(UnsupportedSyntaxError, match="sees the order of CPython's hash table"):
        jit(set_in_its_order)(values, how)
