"""Native lists and heterogeneous tuples (issue 7): differential tests
against undecorated CPython -- values, element types, exceptions, and the
in-place effects on lists passed from Python."""
from __future__ import annotations

import copy
import heapq
import math
import warnings

import numpy as np
import pytest

from transpile import TranspileFallbackWarning
from transpile import jit as plain_jit

from ..conftest import assert_same
from ._support import jit

@jit
def basics(n):
    xs = []
    for i in range(n):
        xs.append(i * 3 % 7)
    ys = [x * 2 for x in xs if x > 1]
    pairs = [i * 10 + j for i in range(3) for j in range(i)]
    a = xs[-1] + xs[0]
    b = xs[1:-1]
    c = xs[::-2]
    tot = 0
    for k, x in enumerate(xs):
        tot += k * x
    for x, y in zip(xs, ys):
        tot += x - y
    for x in reversed(xs):
        tot = tot * 2 + x
    found = (4 in xs, 100 in xs, 5 not in ys)
    s1 = sorted(xs)
    s2 = sorted(xs, reverse=True)
    zs = xs.copy()
    zs.sort()
    zs.reverse()
    agg = (sum(xs), min(xs), max(xs), sum(xs, 10))
    zs.extend(ys)
    zs.insert(0, -1)
    zs.insert(-2, 99)
    zs.insert(100, 77)
    p1 = zs.pop()
    p2 = zs.pop(0)
    p3 = zs.pop(-2)
    zs.remove(99)
    idx = zs.index(6) if 6 in zs else -1
    cnt = zs.count(6)
    cat = xs + ys
    rep = [0, 1] * 3
    rep2 = 2 * [5]
    eq = (xs == xs.copy(), xs != ys, [1, 2] == [1, 2])
    r = list(range(n))
    g = list(x * x for x in range(n) if x % 2 == 0)
    tg = tuple(x + 1 for x in range(4))
    sg = sorted((x * 7) % 5 for x in range(n))
    empty = []
    empty.clear()
    w = zs[:]
    w.clear()
    return xs, ys, pairs, a, b, c, tot, found, s1, s2, zs, agg, p1, p2, p3, idx, cnt, cat, rep, rep2, eq, r, g, tg, sg, len(w), bool(xs), bool(w)


@jit
def mutate(lst, k):
    lst.append(k)
    lst[0] = lst[0] + 100
    x = lst.pop(1)
    lst.insert(0, x)
    return len(lst)

@jit
def same(lst):
    lst.append(1.5)
    return lst

@jit
def nested_arg(rows):
    rows[0].append(7)
    rows.append([1, 2])
    r = rows[1]
    r.append(9)
    total = 0
    for row in rows:
        for v in row:
            total += v
    return total

@jit
def arrays_arg(arrs, b):
    s = 0.0
    for a in arrs:
        a[0] = 5.0
        s += a.sum()
    arrs.append(b)
    return s, np.concatenate(arrs), np.stack(arrs[:2])

@jit
def nested(n):
    grid = [[0.0] * n for _ in range(n)]
    rows = [[] for _ in range(n)]
    for i in range(n):
        for j in range(n):
            grid[i][j] = float(i * n + j)
            if (i + j) % 2 == 0:
                rows[i].append(j)
    flat = [v for row in grid for v in row if v > 2]
    return grid, rows, flat, np.array(grid), len(rows[0])

@jit
def floats(a):
    xs = [v for v in a]
    b = np.array([1, 2.5, 3])
    c = np.asarray([[1, 2], [3, 4]])
    d = sum([1, 2.5, 3])
    e = np.array(xs)
    f = [2.5, 1.5]
    f.sort()
    return xs, b, c, d, e, f, np.array([True, False]), np.array([(1, 2), (3, 4)])

@jit
def tuples(n, a):
    pairs = []
    for i in range(n):
        pairs.append((i % 3, float(i) * 0.5))
    pairs.sort()
    best = max(pairs)
    s = 0.0
    for k, v in pairs:
        s += k * v
    t = (1, 2.5, a)
    u = (4, 5, 6)
    tot = 0
    for x in u:
        tot += x
    i0, f0, arr = t
    return pairs, best, s, t[0], t[-1], t[1], len(t), tot, i0 + f0, arr.sum(), (2, 3) in pairs, 3 in u, sorted(pairs, reverse=True)[:2]


@jit
def slices_and_errors(mode, i):
    xs = [1, 2, 3, 4, 5]
    xs[1:3] = [20, 30, 40]
    xs[::2] = [0, 0, 0]
    xs[-1:] = []
    ys = [1]
    ys.pop()
    if mode == 0:
        return xs[i]
    if mode == 1:
        ys.pop()
    if mode == 2:
        xs.remove(99)
    if mode == 3:
        return xs.index(99)
    if mode == 4:
        xs.pop(i)
    if mode == 5:
        xs[i] = 1
    if mode == 6:
        xs[::2] = [1]
    if mode == 7:
        return min(ys)
    return len(xs) + xs[0] + xs[-1]


def both(fn, *args):
    """Compiled vs CPython: results, exceptions and the arguments afterwards
    (lists passed from Python are mutated in place)."""
    a_jit, a_py = copy.deepcopy(args), copy.deepcopy(args)
    py_exc = jit_exc = got = None
    try:
        expected = fn.py_func(*a_py)
    except Exception as exc:  # noqa: BLE001
        py_exc = exc
    try:
        got = fn(*a_jit)
    except Exception as exc:  # noqa: BLE001
        jit_exc = exc
    if py_exc or jit_exc:
        assert type(py_exc) is type(jit_exc), (py_exc, jit_exc)
        if "()" not in str(py_exc):  # min()/max() of nothing: the wording differs between Python versions
            assert str(py_exc) == str(jit_exc), (py_exc, jit_exc)
    else:
        assert_deep(got, expected)
    assert_deep(a_jit, a_py)
    return got


def assert_deep(got, expected):
    assert type(got) is type(expected), (got, expected)
    if isinstance(expected, (list, tuple)):
        assert len(got) == len(expected), (got, expected)
        for g, e in zip(got, expected):
            assert_deep(g, e)
    else:
        assert_same(got, expected)


@pytest.mark.parametrize("n", [0, 5, 9])
def test_list_basics(n):
    if n == 0:
        with pytest.raises(IndexError):
            basics.py_func(0)
        with pytest.raises(IndexError, match="list index out of range"):
            basics(0)
        return
    both(basics, n)
    assert basics.fallbacks() == []


def test_list_argument_mutated_in_place():
    both(mutate, [1, 2, 3], 4)
    lst = [5, 6]
    assert mutate(lst, 7) == 3 and lst == [6, 105, 7]


def test_list_argument_returned_is_the_same_object():
    lst = [1.0]
    out = same(lst)
    assert out is lst and lst == [1.0, 1.5]


def test_nested_list_argument():
    rows = [[1], [2, 3]]
    inner = rows[0]
    both(nested_arg, [[1], [2, 3]])
    nested_arg(rows)
    assert inner is rows[0] and inner == [1, 7] and rows[1] == [2, 3, 9]


def test_list_of_arrays_argument():
    arrs = [np.arange(3.0), np.ones(3)]
    first = arrs[0]
    both(arrays_arg, [np.arange(3.0), np.ones(3)], np.zeros(3))
    arrays_arg(arrs, np.zeros(3))
    assert arrs[0] is first and first[0] == 5.0 and len(arrs) == 3


def test_nested_lists_and_comprehensions():
    both(nested, 3)
    both(nested, 1)


def test_floats_and_numpy_conversions():
    both(floats, np.arange(3.0))


def test_tuples_in_lists_and_heterogeneous_tuples():
    both(tuples, 5, np.arange(3.0))


@pytest.mark.parametrize("mode,i", [(0, 2), (0, -4), (0, 4), (0, -5), (1, 0), (2, 0), (3, 0), (4, 9), (4, -2),
                                    (5, 7), (6, 0), (7, 0), (8, 0)])
def test_slice_stores_and_errors(mode, i):
    both(slices_and_errors, mode, i)


def widen_int_float(n):
    xs = [1, 2]
    xs.append(n * 0.5)
    return xs


def test_int_list_given_a_float_runs_in_cpython():
    f = plain_jit(widen_int_float)
    with pytest.warns(TranspileFallbackWarning, match="xs"):
        assert f(3) == [1, 2, 1.5]
    with pytest.raises(Exception, match="two types"):
        jit(widen_int_float)(3)


def count_items(xs):
    return len(xs)


def test_empty_or_mixed_list_from_python_runs_in_cpython():
    f = plain_jit(count_items)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        assert f([]) == 0
        assert f([1, 2.5]) == 2
    with pytest.raises(TypeError, match="empty list"):
        jit(count_items)([])


@jit
def index_of(xs, v):
    return xs.index(v)


@pytest.mark.parametrize("xs, v", [([1, 2], 5), ([1.5, 2.5], 3.25), ([True], False), ([1, 2], np.int64(7)),
                                   ([1.0], np.float64(0.1)), ([1], np.int32(3)), ([True], np.False_)])
def test_index_of_a_missing_value_words_it_as_cpython(xs, v):
    # the message writes the value's repr: a Python number's, or NumPy's np.int64(7)
    with pytest.raises(ValueError) as python:
        index_of.py_func(list(xs), v)
    with pytest.raises(ValueError) as compiled:
        index_of(list(xs), v)
    assert str(compiled.value) == str(python.value)


@jit
def containers_in_truth_tests(n, words):
    """`and`/`or` of a list, str or dict whose value only meets a truth test (a
    depth-first walk's `while stack and ...`): each operand's truth, as CPython."""
    stack = [0]
    seen = {}
    total = 0
    while stack and total < 100:
        v = stack.pop()
        total += v
        if not (seen and v in seen) and v < n:
            seen[v] = True
            stack.append(v + 1)
            stack.append(v + 2)
    kept = [w for w in words if w and len(w) > 1 or not w]
    first = 1 if kept and kept[0] == "ab" else 0
    return total, len(seen), kept, first, 1 if words[0] or stack else 2


def test_containers_in_truth_tested_boolean_operators(check):
    check(containers_in_truth_tests, 5, ["ab", "", "c", "de"])
    check(containers_in_truth_tests, 0, ["", "x"])


@jit
def heap_operations(values, extra):
    """heapq on lists, as CPython's _heapq moves the items: the same list after
    each call (ties, NaN), the same order of pops."""
    h = []
    for v in values:
        heapq.heappush(h, v)
    popped = [heapq.heappop(h) for _ in range(len(h) // 2)]
    g = list(values)
    heapq.heapify(g)
    replaced = heapq.heapreplace(g, extra)
    kept = heapq.heappushpop(g, extra - 1.0)
    pairs = [(v % 3.0, i) for i, v in enumerate(values)]
    heapq.heapify(pairs)
    unnan = [popped, h, g]  # where each NaN went, as a value the comparison can see
    for lst in unnan:
        for i in range(len(lst)):
            if lst[i] != lst[i]:
                lst[i] = -100.0
    order = [heapq.heappop(pairs)[1] for _ in range(len(pairs))]
    return popped, h, g, replaced, kept, order


@jit
def shortest_paths(adj, weights, src):
    """Dijkstra's algorithm with a binary heap of (distance, node) pairs."""
    dist = [math.inf] * len(adj)
    dist[src] = 0.0
    heap = [(0.0, src)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for k in range(len(adj[u])):
            v, nd = adj[u][k], d + weights[u][k]
            if nd < dist[v]:
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    return dist


@jit
def pop_empty_heap(n):
    h = [1.0] * n
    return heapq.heappop(h), heapq.heappop(h)


def test_heapq_functions_move_items_as_cpython(check):
    rng = np.random.default_rng(7)
    values = [float(v) for v in rng.integers(0, 12, 41)] + [math.nan, 3.0, -0.0, 0.0]
    check(heap_operations, values, 5.5)
    check(heap_operations, [2.0], 1.0)
    check(shortest_paths, [[1, 2], [2, 3], [3], [0, 1]], [[4.0, 1.0], [2.0, 5.0], [1.0], [3.0, 0.5]], 0)
    check(pop_empty_heap, 1)  # IndexError: index out of range


def test_heapq_needs_a_list():
    with pytest.raises(Exception, match="heap argument must be a list"):
        jit(lambda a: heapq.heappush(a, 1.0))(np.zeros(3))


@jit
def sorted_with_nans(values, arr):
    m = list(values)
    m.sort(reverse=True)
    k = list(values)
    k.sort(key=abs)
    return sorted(values), m, sorted(arr), sorted(values[:2]), k, sorted(values, key=lambda v: -v, reverse=True)


def test_sorting_floats_with_a_nan_gives_cpythons_order():
    """Probe find: `<` with a NaN is not an order, so the result is what CPython's
    timsort makes of its comparisons ([3.0, 1.0, nan, 0.0] sorts to
    [0.0, 1.0, 3.0, nan]); the merge sort gave [1.0, 3.0, nan, 0.0].  With a
    NaN present, compiled code asks CPython's sort for the order."""
    for values in ([3.0, 1.0, math.nan, 0.0], [math.nan, 2.0, 1.0], [1.0, math.nan, math.nan, 0.5, -1.0, 7.0] * 15,
                   [2.0, -0.0, 0.0, 1.0]):
        arr = np.array(values[::-1], dtype=np.float32)
        got, expected = sorted_with_nans(values, arr), sorted_with_nans.py_func(values, arr)
        assert repr(got) == repr(expected)  # NaN != NaN: repr shows where each one went
