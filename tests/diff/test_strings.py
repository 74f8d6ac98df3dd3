"""Strings compiled natively (issue 7): literals, ==/!=, in, +, len,
f-strings and str() of numbers with CPython's exact text, str arguments
and results; against CPython."""
from __future__ import annotations

import math
import random
import struct

import numpy as np
import pytest

from ._support import jit


@jit
def basics(mode, n, x):
    a = "linear"
    b = a + "-" + mode
    eq = (mode == "linear", mode != "cubic", "lin" in mode, "xyz" not in b, mode in ("cubic", "linear"),
          mode in ("a", "b"), mode == 3)
    s = ""
    for i in range(n):
        s += str(i)
    f1 = f"n={n} x={x} ok={n > 2} mode={mode!r} {{braces}}"
    f2 = f"{x:.3f}|{n:5d}|{n:05}|{x:10}|{x:e}|{-x:09.2f}|{n:.2f}"
    u = "héllo"
    return b, eq, s, f1, f2, len(b), len(u), u, str(True), str(n), str(x), str(-0.0), str(1e16), str(1e-5), \
        mode.startswith("lin"), mode.upper(), "" == str(""), not "", bool(mode)


@pytest.mark.parametrize("mode,n,x", [("linear", 4, 0.1), ("cubic", 12, -2.5e-7), ("", 0, 1e22)])
def test_basics(check, mode, n, x):
    check(basics, mode, n, x)


@jit
def text_of(x):
    return str(x), f"{x}"


def test_float_text_is_cpython_repr():
    random.seed(7)
    values = [0.1, 0.2 + 0.1, 1 / 3, 2.0 ** 70, 5e-324, 1.7976931348623157e308, math.pi * 1e15, 1e16, 123456789.0,
              float("inf"), float("-inf"), float("nan"), -0.0, 0.0001, 0.00001]
    values += [struct.unpack("<d", struct.pack("<Q", random.getrandbits(64)))[0] for _ in range(300)]
    values += [math.ldexp(1.0, e) for e in range(-1074, 1024, 37)]
    for v in values:
        assert text_of(v) == (str(v), f"{v}"), v
    for v in (0, -5, 2**63 - 1, -2**63, True, False):
        assert text_of(v) == (str(v), f"{v}")
    assert text_of(np.float64(0.1)) == ("0.1", "0.1")
    assert text_of(np.int32(-7)) == ("-7", "-7")


@jit
def pick(mode, a):
    if mode == "sum":
        return float(a.sum())
    elif mode == "max":
        return float(a.max())
    return -1.0


def test_str_argument_dispatch(check):
    a = np.arange(5.0)
    for mode in ("sum", "max", "other"):
        check(pick, mode, a)


@jit
def label(i):
    return "even" if i % 2 == 0 else "odd", {"n": i}


def test_str_results_and_keys(check):
    assert label(3) == ("odd", {"n": 3})
    assert type(label(4)[0]) is str
