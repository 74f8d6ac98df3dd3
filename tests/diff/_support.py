"""Shared by the differential tests."""
from __future__ import annotations

import copy

import numpy as np

from transpile import jit as _jit


def jit(fn=None, **options):
    """@jit with fullgraph=True: a construct that would fall back to CPython
    (JIT Fallback) fails the test instead of passing it vacuously."""
    return _jit(fn, fullgraph=True, **options)


def check_items(check, fn, *args):
    """check() for a function that returns a tuple of many results (one
    specialization covering many operations); on a mismatch, names the item."""
    try:
        check(fn, *args)
    except AssertionError:
        from tests.conftest import assert_same

        try:
            got, expected = fn(*copy.deepcopy(args)), fn.py_func(*copy.deepcopy(args))
        except Exception:  # noqa: BLE001 - an exception mismatch: check() said it all
            raise
        for i, (g, e) in enumerate(zip(got, expected)):
            try:
                assert_same(g, e)
            except AssertionError as exc:
                raise AssertionError(f"item {i} of {fn.__name__}: {exc}") from None
        raise


def same_bits(got, expected):
    """Type, dtype, shape and every bit (the suite's assert_same allows 1e-12)."""
    assert type(got) is type(expected), (got, expected)
    if isinstance(expected, tuple):
        for i, (g, e) in enumerate(zip(got, expected, strict=True)):
            try:
                same_bits(g, e)
            except AssertionError as exc:
                raise AssertionError(f"item {i}: {exc}") from None
        return
    g, e = np.asarray(got), np.asarray(expected)
    assert (g.dtype, g.shape) == (e.dtype, e.shape), (g.dtype, g.shape, e.dtype, e.shape)
    assert np.ascontiguousarray(g).tobytes() == np.ascontiguousarray(e).tobytes(), (got, expected)
