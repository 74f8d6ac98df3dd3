"""Complex `**`, `/` and `*` bit for bit, with CPython's exceptions.

NumPy and CPython compute these differently, and both differ from the
textbook exp(b * log(a)): NumPy divides by multiplying with a reciprocal and
raises to small integer powers by products (fuzz seed 9401 #2625:
np.complex128(inf-0j) ** 2 is inf+nanj there, nan+nanj from exp/log, which
sent a comparison down the other branch); CPython divides, squares from 1 and
raises ZeroDivisionError / OverflowError where errno says so.  Each case is
compared with the installed NumPy and this CPython, signs of zeros included.
"""
import math
import random
import warnings

import numpy as np
import pytest

from transpile import jit

INF, NAN = math.inf, math.nan
SPECIAL = [complex(INF, -0.0), complex(INF, 0.0), complex(-INF, 1.0), complex(1e200, 1e200), complex(NAN, 1.0),
           complex(0.5, -2.5), 0j, complex(-0.0, 0.0), complex(1e-200, 3.0), complex(2.0, 0.0), complex(0.0, -1e-310)]
_rng = random.Random(20261128)
VALUES = SPECIAL + [complex(_rng.uniform(-5, 5), _rng.uniform(-5, 5)) for _ in range(40)]
EXPONENTS = [0, 1, 2, 3, 4, 7, -1, -2, -3, 99, -99, 100, 101, 0.5, -0.5, 2.5, 1e300,
             complex(1, 1), complex(0, 2), complex(-1, 0.5)]


def numpy_ops(a, b, x):
    # np.complex128 scalars, then an array with a scalar exponent, then arrays.
    # Products: NumPy's scalar operator rounds twice, its array and ufunc
    # loops fuse where the CPU can (transpile/numpy_loops.py), except for a
    # complex64 operand of negative stride (findings.md, class 22)
    return (a ** b, a / b, b / a, x ** b, x ** 2, x ** 0.5, x ** -1, x ** 3, x / a, a / x,
            a * b, np.multiply(a, b), x * b, x.reshape(5, 10).T * x.reshape(10, 5), np.square(x), x[::2] * x[1::2],
            np.power(x, b))


def python_pow(a, b):
    return a ** b


def python_div(a, b):
    return a / b


def bits(v):
    arr = np.asarray(v, dtype=np.complex128).ravel().view(np.float64)
    return [("nan" if f != f else (f, math.copysign(1.0, f))) for f in arr.tolist()]


def compiled(fn, level):
    """fn under @jit, checked to run compiled (fullgraph: a compile error
    would otherwise run it in CPython and compare CPython with itself).  O1
    builds with -march=native, where GCC's SLP vectorizer fuses complex
    products unless the runtime forbids it (TR_NO_FP_CONTRACT)."""
    return jit(fn, fullgraph=True, jit_level=level)


def outcome(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = fn(*args)
        except Exception as exc:  # noqa: BLE001 - the exception is the result compared
            return "raises", type(exc).__name__
    if isinstance(out, tuple):
        return "returns", [(type(o).__name__, getattr(o, "dtype", None), bits(o)) for o in out]
    return "returns", (type(out).__name__, bits(out))


def first_difference(want, got):
    if want[0] != got[0] or want[0] == "raises":
        return want, got
    return next((i, w, g) for i, (w, g) in enumerate(zip(want[1], got[1])) if w != g)


@pytest.mark.parametrize("level", ["O0", "O1"])
@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_numpy_complex_power_and_division(dtype, level):
    compiled_fn = compiled(numpy_ops, level)
    x = np.array(VALUES[:50], dtype=dtype)  # even: x[::2] * x[1::2]
    wrong, returned = [], 0
    for a in VALUES:
        for b in EXPONENTS:
            args = (dtype(a), dtype(b), x)
            want, got = outcome(numpy_ops, *args), outcome(compiled_fn, *args)
            returned += want[0] == "returns"
            if want != got:
                wrong.append((a, b, first_difference(want, got)))
    assert not wrong, f"{len(wrong)} differ, first: {wrong[:3]}"
    assert returned == len(VALUES) * len(EXPONENTS)  # every case compared values, none only an exception


@pytest.mark.parametrize("level", ["O0", "O1"])
@pytest.mark.parametrize("fn", [python_pow, python_div])
def test_python_complex_power_and_division(fn, level):
    compiled_fn = compiled(fn, level)
    wrong, outcomes = [], set()
    for a in VALUES:
        for b in EXPONENTS:
            b = complex(b)
            want, got = outcome(fn, a, b), outcome(compiled_fn, a, b)
            outcomes.add(want[1] if want[0] == "raises" else "returns")
            if want != got:
                wrong.append((a, b, want, got))
    assert not wrong, f"{len(wrong)} differ, first: {wrong[:3]}"
    # values and each of CPython's errors were compared
    assert outcomes == {"returns", "ZeroDivisionError"} | ({"OverflowError"} if fn is python_pow else set())
