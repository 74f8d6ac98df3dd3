"""Regressions found while writing the corpus (issue 7)."""
from __future__ import annotations

import warnings

import numpy as np

from transpile import TranspileFallbackWarning, jit


def first_max(a):
    best = None
    for v in a:
        if best is None or v > best:
            best = v
    return best


def test_none_then_python_object_runs_in_python():
    # `best` is None in compiled code and a Python object in the statement
    # that falls back: the typer raised TypingError to the caller instead of
    # running the function in CPython.
    f = jit(first_max)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert f(np.array([3, 1, 4])) == first_max(np.array([3, 1, 4]))
    assert f(np.array([], dtype=np.int64)) is None
    assert any(issubclass(w.category, TranspileFallbackWarning) for w in caught) or f.fallbacks() == []


def _fill_from(arr, lo):
    if lo < len(arr):
        arr[lo] = lo * lo
        _fill_from(arr, lo + 1)


def fill_squares(a):
    _fill_from(a, 0)
    return a


def test_recursive_helper_that_returns_nothing_compiles():
    # The recursive call was typed before the helper's return type was known
    # ("cannot determine the type of '?'"), so the call fell back.
    f = jit(fill_squares)
    got = f(np.zeros(5))
    np.testing.assert_array_equal(got, fill_squares(np.zeros(5)))
    assert f.fallbacks() == []
