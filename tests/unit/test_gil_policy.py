"""Which specializations run with the GIL released (translation only, no
compile): code that can run long releases it; straight-line scalar code,
which finishes in nanoseconds, keeps it, because releasing and taking it back
costs more than the call itself."""
from __future__ import annotations

import math

import numpy as np

from transpile.cxx.nogil import releases_gil, touches_no_python
from transpile.hir import types as T
from transpile.options import make_options
from transpile.pipeline import translate


def add(x, y):
    return x + y


def hypot_ish(x, y):
    r = math.sqrt(x * x + y * y)
    if r > 1.0:
        r = 1.0
    return r


def total(n):
    s = 0
    for i in range(n):
        s += i
    return s


def countdown(n):
    while n > 0:
        n -= 1
    return n


def scale(a, k):
    return a * k


def twice_add(x, y):
    return add(x, y) + add(y, x)


def softplus(a):
    return np.log1p(np.exp(a))  # NumPy's own loops, looked up when the module loads: no Python while it runs


def gram(a):
    return a @ a.T  # NumPy itself computes it (its BLAS): a call into Python


def policy(fn, sig: str) -> tuple[bool, bool]:
    types = tuple(T.parse_signature(sig))
    options = make_options()
    tr = translate(fn, types, options, "tr_entry_test")
    return touches_no_python(tr, types, options), releases_gil(tr, types, options)


def test_brief_scalar_code_keeps_the_gil_and_long_running_code_releases_it():
    assert policy(add, "float, float") == (True, False)
    assert policy(hypot_ish, "float, float") == (True, False)
    assert policy(total, "int") == (True, True)
    assert policy(countdown, "int") == (True, True)
    assert policy(scale, "float64[::1], float") == (True, True)  # array work grows with the array
    assert policy(twice_add, "float, float") == (True, True)  # calls: the policy does not look inside them
    assert policy(softplus, "float64[::1]") == (True, True)
    assert policy(gram, "float64[:, ::1]") == (False, False)

