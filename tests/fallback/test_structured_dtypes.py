"""Structured dtypes, record arrays and np.void records compile
(tests/diff/test_records.py) where their fields can be read as compiled
code reads them; what cannot (a.x of a packed 12-byte record's float64
field as an array) and bytearray arguments run the function in CPython
(whole-function JIT Fallback, reported once), so results, field writes and
exceptions are CPython's either way."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from transpile import TranspileFallbackWarning, jit

POINT = np.dtype([("x", np.float64), ("y", np.int32)])


@jit
def fields(a, i):
    s = a[i]["x"] + a["y"][i]
    a[0]["x"] = 5.5
    a["y"][1] += 2
    return s, a[0]["x"], a[1]["y"]


@jit
def record_fields(r, i):
    r.x[i] = r.x[i] * 2
    return r.x[i] + r.y[i], r[i].y


@jit
def void_record(p):
    return p["x"] * 2 + p["y"]


@jit
def bytes_sum(b):
    s = 0
    for v in b:
        s += v
    b[0] = 7
    return s


def _both(fn, make, falls_back=True):
    expected_args, got_args = make(), make()
    expected = fn.py_func(*expected_args)
    if falls_back:
        with pytest.warns(TranspileFallbackWarning, match="whole-function JIT Fallback"):
            got = fn(*got_args)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("error", TranspileFallbackWarning)  # compiled: no fallback
            got = fn(*got_args)
    return got, expected, got_args, expected_args


def test_structured_array_fields():
    def make():
        return np.array([(1.5, 2), (3.0, 4), (0.25, -1)], dtype=POINT), 1

    got, expected, got_args, expected_args = _both(fields, make, falls_back=False)
    assert got == expected and type(got[1]) is type(expected[1]) and type(got[2]) is type(expected[2])
    np.testing.assert_array_equal(got_args[0], expected_args[0])  # the writes reached the caller's array


def test_record_array_attributes():
    def make():
        return np.rec.array([(1.0, 3), (2.5, 4)], dtype=POINT), 1

    got, expected, got_args, expected_args = _both(record_fields, make)
    assert got == expected
    np.testing.assert_array_equal(got_args[0], expected_args[0])


def test_void_record_and_bytearray():
    got, expected, _, _ = _both(void_record, lambda: (np.array([(2.0, 3)], dtype=POINT)[0],), falls_back=False)
    assert got == expected and type(got) is type(expected)
    got, expected, got_args, expected_args = _both(bytes_sum, lambda: (bytearray(b"abc"),))
    assert got == expected and got_args == expected_args


def test_missing_field_raises_cpythons_error():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        with pytest.raises(ValueError):
            void_record(np.array([(1, 2)], dtype=[("x", np.int8), ("z", np.int8)])[0])
