"""Differential tests: the math module in compiled code, including CPython's
ValueError("math domain error") and OverflowError("math range error")."""
from __future__ import annotations

import math

import numpy as np
import pytest

from ._support import jit


@jit
def unary_all(x):
    # Every function here is defined for x in (0, 1).
    return (math.sqrt(x), math.exp(x), math.expm1(x), math.log(x), math.log2(x), math.log10(x), math.log1p(x),
            math.sin(x), math.cos(x), math.tan(x), math.asin(x), math.acos(x), math.atan(x), math.sinh(x),
            math.cosh(x), math.tanh(x), math.asinh(x), math.acosh(1.0 + x), math.atanh(x), math.fabs(-x),
            math.degrees(x), math.radians(x), math.gamma(x), math.lgamma(x), math.erf(x), math.erfc(x))


@pytest.mark.parametrize("x", [0.5, 1e-10, 0.999, 0.25, 0.7071067811865476])
def test_unary_functions(check, x):
    check(unary_all, x)


@jit
def unary_wide(x):
    # Defined for every real x.
    return (math.exp(x), math.sin(x), math.cos(x), math.atan(x), math.tanh(x), math.asinh(x), math.fabs(x),
            math.erf(x), math.erfc(x), math.degrees(x), math.expm1(x), math.sinh(x), math.cosh(x))


@pytest.mark.parametrize("x", [-3.5, -1e-300, 0.0, -0.0, 2.0, 700.0, -700.0, 1e-8, math.inf, -math.inf, math.nan])
def test_unary_functions_wide_range(check, x):
    check(unary_wide, x)


@jit
def gamma_values(x):
    return math.gamma(x), math.lgamma(x)


@pytest.mark.parametrize("x", [1.0, 2.0, 5.0, 10.5, 0.5, -0.5, -1.5, 171.0, 1e-300, 170.5, -170.5])
def test_gamma(check, x):
    check(gamma_values, x)


@jit
def binary_all(x, y):
    return (math.atan2(x, y), math.pow(x, y), math.hypot(x, y), math.copysign(x, y), math.fmod(x, y),
            math.log(x, y))


@pytest.mark.parametrize("x,y", [(2.0, 3.0), (8.0, 2.0), (0.5, 10.0), (100.0, 0.5), (3.0, 3.0)])
def test_binary_functions(check, x, y):
    check(binary_all, x, y)


@jit
def binary_signs(x, y):
    return math.atan2(x, y), math.hypot(x, y), math.copysign(x, y), math.fmod(x, y), math.pow(abs(x), y)


@pytest.mark.parametrize("x,y", [(-2.0, 3.0), (2.0, -3.0), (-7.5, -2.0), (0.0, -0.0), (-0.0, 1.0), (math.inf, 2.0),
                                 (3.0, math.inf), (1e308, 1e308)])
def test_binary_functions_signs_and_specials(check, x, y):
    check(binary_signs, x, y)


@jit
def math_constants():
    return math.pi, math.e, math.tau, math.inf, -math.inf, math.pi * 2.0


def test_math_constants(check):
    check(math_constants)


@jit
def nan_constant():
    return math.nan


def test_math_nan_constant(check):
    check(nan_constant)


@jit
def rounding(x):
    return math.floor(x), math.ceil(x), math.trunc(x)


@pytest.mark.parametrize("x", [2.5, -2.5, 3.0, -0.5, 0.0, 1e15 + 0.5, -7.999999999999999])
def test_floor_ceil_trunc_give_int(check, x):
    check(rounding, x)


@pytest.mark.parametrize("x", [7, -7, 0, 2**53 + 1, -(2**62) - 3])
def test_floor_ceil_trunc_of_int_are_exact(check, x):
    # Integers pass through exactly (no round trip through float64).
    check(rounding, x)


def test_floor_of_nan_raises_value_error(check):
    check(rounding, math.nan)
    with pytest.raises(ValueError):
        rounding(math.nan)


def test_floor_of_inf_raises_overflow_error(check):
    check(rounding, math.inf)
    check(rounding, -math.inf)
    with pytest.raises(OverflowError):
        rounding(math.inf)


@jit
def predicates(x):
    return math.isnan(x), math.isinf(x), math.isfinite(x)


@pytest.mark.parametrize("x", [1.0, math.nan, math.inf, -math.inf, 0.0])
def test_predicates(check, x):
    check(predicates, x)


@jit
def int_args(n):
    # int arguments are converted to float; results are Python floats
    return math.sqrt(n), math.exp(n), math.log(n), math.atan2(n, 2), math.pow(n, 2), math.hypot(n, n)


@pytest.mark.parametrize("n", [1, 4, 10])
def test_int_arguments(check, n):
    check(int_args, n)


def test_numpy_scalar_arguments_give_python_float(check):
    check(int_args, np.int32(9))
    check(unary_all, np.float32(0.5))
    check(unary_all, np.float64(0.5))


@jit
def bool_arg(b):
    return math.sqrt(b), math.floor(b)


def test_bool_argument(check):
    check(bool_arg, True)


@jit
def integer_functions(n, m):
    return math.factorial(n), math.gcd(n, m), math.gcd(m, n)


@pytest.mark.parametrize("n,m", [(0, 0), (1, 5), (5, 15), (12, -18), (20, 7), (10, 0)])
def test_factorial_gcd(check, n, m):
    check(integer_functions, n, m)


def test_factorial_negative_raises_value_error(check):
    check(integer_functions, -1, 3)
    with pytest.raises(ValueError, match="not defined for negative values"):
        integer_functions(-1, 3)


# --------------------------------------------------------------------------
# domain and range errors: ValueError("math domain error") and
# OverflowError("math range error") exactly as CPython raises them
# --------------------------------------------------------------------------


# One specialization per signature serves many functions: `which` picks one
# at run time (values, not types, select the function).
UNARY = ["sqrt", "log", "log2", "log10", "log1p", "acos", "asin", "acosh", "atanh", "gamma", "lgamma", "exp", "sin",
         "cosh"]
BINARY = ["log", "pow", "fmod"]


@jit
def m_unary(which, x):
    if which == 0:
        return math.sqrt(x)
    elif which == 1:
        return math.log(x)
    elif which == 2:
        return math.log2(x)
    elif which == 3:
        return math.log10(x)
    elif which == 4:
        return math.log1p(x)
    elif which == 5:
        return math.acos(x)
    elif which == 6:
        return math.asin(x)
    elif which == 7:
        return math.acosh(x)
    elif which == 8:
        return math.atanh(x)
    elif which == 9:
        return math.gamma(x)
    elif which == 10:
        return math.lgamma(x)
    elif which == 11:
        return math.exp(x)
    elif which == 12:
        return math.sin(x)
    return math.cosh(x)


@jit
def m_binary(which, x, y):
    if which == 0:
        return math.log(x, y)
    elif which == 1:
        return math.pow(x, y)
    return math.fmod(x, y)


def _call(name, args):
    """(jitted function, its arguments) for a math function name."""
    if len(args) == 1:
        return m_unary, (UNARY.index(name),) + args
    return m_binary, (BINARY.index(name),) + args


DOMAIN_ERRORS = [
    ("sqrt", (-1.0,)), ("sqrt", (-math.inf,)), ("log", (0.0,)), ("log", (-2.0,)), ("log2", (0.0,)),
    ("log10", (-1e-300,)), ("log1p", (-1.0,)), ("log1p", (-2.0,)), ("log", (8.0, 0.0)), ("log", (-8.0, 2.0)),
    ("acos", (1.5,)), ("asin", (-1.0000001,)), ("acosh", (0.5,)), ("atanh", (1.0,)), ("atanh", (-1.0,)),
    ("gamma", (0.0,)), ("gamma", (-2.0,)), ("gamma", (-math.inf,)), ("lgamma", (-3.0,)), ("pow", (0.0, -1.0)),
    ("pow", (-8.0, 1.0 / 3.0)), ("fmod", (1.0, 0.0)), ("fmod", (math.inf, 2.0)), ("sin", (math.inf,)),
]


@pytest.mark.parametrize("name,args", DOMAIN_ERRORS, ids=[f"{n}{a}" for n, a in DOMAIN_ERRORS])
def test_math_domain_error(name, args):
    fn, args = _call(name, args)
    with pytest.raises(ValueError) as expected:
        fn.py_func(*args)
    with pytest.raises(ValueError) as got:
        fn(*args)
    assert str(got.value) == str(expected.value) == "math domain error"


RANGE_ERRORS = [
    ("exp", (1000.0,)), ("pow", (10.0, 400.0)), ("pow", (-10.0, 401.0)), ("cosh", (1000.0,)), ("gamma", (200.0,)),
    ("gamma", (172.0,)), ("lgamma", (1e308,)),
]


@pytest.mark.parametrize("name,args", RANGE_ERRORS, ids=[f"{n}{a}" for n, a in RANGE_ERRORS])
def test_math_range_error(name, args):
    fn, args = _call(name, args)
    with pytest.raises(OverflowError) as expected:
        fn.py_func(*args)
    with pytest.raises(OverflowError) as got:
        fn(*args)
    assert str(got.value) == str(expected.value) == "math range error"


NO_ERRORS = [
    ("exp", (-1000.0,)), ("log", (math.inf,)), ("sqrt", (-0.0,)), ("pow", (0.0, 0.0)), ("pow", (math.nan, 0.0)),
    ("pow", (1.0, math.nan)), ("pow", (-8.0, 3.0)), ("pow", (0.0, math.inf)), ("exp", (math.nan,)),
    ("sqrt", (math.nan,)), ("log", (math.nan,)), ("gamma", (-1.5,)), ("acos", (1.0,)), ("fmod", (-7.0, 2.0)),
    ("fmod", (5.0, math.inf)), ("exp", (709.0,)), ("gamma", (171.0,)), ("gamma", (-170.5,)), ("lgamma", (-170.5,)),
]


@pytest.mark.parametrize("name,args", NO_ERRORS, ids=[f"{n}{a}" for n, a in NO_ERRORS])
def test_math_special_values_without_error(check, name, args):
    # inf/nan arguments and exact edge cases return values, as in CPython.
    fn, args = _call(name, args)
    fn.py_func(*args)  # CPython does not raise here
    check(fn, *args)


def test_log_base_one_raises_zero_division(check):
    # math.log(x, 1.0) divides by log(1.0) == 0.0
    fn, args = _call("log", (8.0, 1.0))
    check(fn, *args)
    with pytest.raises(ZeroDivisionError):
        fn(*args)
