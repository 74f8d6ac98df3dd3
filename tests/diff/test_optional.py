"""Differential tests: None-or-a-value (T.Optional, passes/optional.py) —
variables that are None until a value is found, functions returning None on
some paths, `out=None` parameters, dict.get(k), and the TypeError (with
CPython's message) when a None is used as a value."""
from __future__ import annotations

import copy

import numpy as np
import pytest

from ._support import jit


def same_error(fn, *args):
    """Both raise the same exception type with the same message."""
    with pytest.raises(Exception) as py:
        fn.py_func(*copy.deepcopy(args))
    with pytest.raises(Exception) as jt:
        fn(*copy.deepcopy(args))
    assert type(jt.value) is type(py.value), (jt.value, py.value)
    assert str(jt.value) == str(py.value)


@jit
def best_max(a):
    best = None
    for v in a:
        if best is None or v > best:
            best = v
    return best


@pytest.mark.parametrize("a", [np.array([3.0, 7.5, -1.0]), np.array([], dtype=np.float64)])
def test_none_until_found(check, a):
    check(best_max, a)


@jit
def find_index(a, x):
    idx = None
    for i in range(a.shape[0]):
        if a[i] == x:
            idx = i
            break
    if idx is None:
        return -1
    return idx * 10


@pytest.mark.parametrize("x", [2, 9])
def test_index_or_minus_one(check, x):
    check(find_index, np.array([5, 1, 2, 2]), x)


@jit
def first_negative(a):
    for i in range(len(a)):
        if a[i] < 0:
            return i  # falls off the end: None


@jit
def halve_or_none(x):
    if x == 0:
        return None
    return x / 2


@jit
def uses_helpers(a):
    i = first_negative(a)
    if i is None:
        return -1.0
    return float(halve_or_none(a[i])) + i  # Optional results unwrapped (checked)


@pytest.mark.parametrize("a", [np.array([1.0, -4.0]), np.array([1.0, 2.0])])
def test_functions_returning_none(check, a):
    check(first_negative, a)
    check(uses_helpers, a)


@jit
def scale(x, out=None):
    if out is None:
        out = np.empty_like(x)
    for i in range(x.shape[0]):
        out[i] = 2.0 * x[i]
    return out


def test_out_none_default(check):
    x = np.arange(4.0)
    check(scale, x)
    out = np.zeros(4)
    assert scale(x, out) is out
    check(scale, x, np.zeros(4))


@jit
def none_tests(n):
    v = None
    if n >= 0:
        v = n
    t = 1 if v else 0
    return v is None, v is not None, v == None, v != None, v == 3, v != 3, not v, t, v  # noqa: E711


@pytest.mark.parametrize("n", [-1, 0, 3])
def test_none_comparisons_and_truth(check, n):
    check(none_tests, n)


@jit
def none_arith(n, which):
    v = None
    if n > 0:
        v = n
    r = 0
    if which == 0:
        r = v + 1
    elif which == 1:
        r = 2 * v
    elif which == 2:
        r = -v
    elif which == 3:
        v += 5
        r = v
    elif which == 4:
        r = 1 if v < 3 else 2
    elif which == 5:
        r = abs(v)
    return r


@pytest.mark.parametrize("which", range(6))
def test_none_used_as_a_value(check, which):
    check(none_arith, 2, which)
    same_error(none_arith, -2, which)


@jit
def none_array(a, flag):
    b = None
    if flag:
        b = a * 2.0
    return b[0] + b.sum()


def test_optional_array_unwrap(check):
    check(none_array, np.arange(3.0), True)
    same_error(none_array, np.arange(3.0), False)


@jit
def dict_get(keys, k):
    d = {}
    for i in range(keys.shape[0]):
        d[keys[i]] = i
    c = d.get(k)
    if c is None:
        c = -1
    return d.get(k), d.get(k, None), c


@pytest.mark.parametrize("k", [3, 4])
def test_dict_get_none(check, k):
    check(dict_get, np.array([3, 5, 7]), k)


@jit
def label(n):
    name = None
    if n > 0:
        name = "positive"
    return name, n


@pytest.mark.parametrize("n", [1, -1])
def test_optional_str_in_tuple(check, n):
    check(label, n)


def _best_printed(values):
    best = None
    for v in values:
        if best is None or v > best:
            best = v
    print((best, 1))  # runs as Python: reads best
    return best


def test_a_none_until_set_python_int_reaches_python_as_an_int(capsys):
    """Probe find: `best` (None, then Python ints) reached a statement that runs
    as Python as np.int64: `(np.int64(3), 1)` printed where CPython prints (3, 1)."""
    import warnings

    from transpile import jit as plain_jit

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = plain_jit(_best_printed)([3, 1])
    printed = capsys.readouterr().out
    expected = _best_printed([3, 1])
    assert (printed, type(got), got) == (capsys.readouterr().out, type(expected), expected) == ("(3, 1)\n", int, 3)
