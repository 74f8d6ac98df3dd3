"""Powers give CPython's and NumPy's bits: a scalar x ** 2 is libm's pow
(which differs from x * x in the last bit for these x), a float array to a
scalar 2, 0.5 or -1 is NumPy's square, sqrt or reciprocal, any other
exponent NumPy's own power loop (its SIMD one on AVX-512 CPUs, which differs
from the C library's pow by one ulp for ~7% of these values: compiled code
calls it, numpy/numpy_loops.hpp); // and % by a constant power of two keep
floor semantics."""
import math

import numpy as np
import pytest

from ._support import jit

# x where libm's pow(x, 2.0) != x * x
POW_NOT_SQUARE = [993.6293129383679, 700.362795162052, 4.973195287413579, 711.0887173020436]


@jit
def scalar_powers(x):
    return x ** 2, x ** 3, math.pow(x, 2), abs(x) ** 0.5  # abs: x ** 0.5 of a negative x is complex


@pytest.mark.parametrize("x", POW_NOT_SQUARE)
def test_scalar_pow_is_libm_pow(x):
    for arg in (x, np.float64(x)):
        got, expected = scalar_powers(arg), scalar_powers.py_func(arg)
        assert [type(g) for g in got] == [type(e) for e in expected]
        assert [g.hex() if isinstance(g, float) else float(g).hex() for g in got] == \
            [e.hex() if isinstance(e, float) else float(e).hex() for e in expected]


@jit
def array_powers(a, e):
    return a ** 2, a ** 0.5, a ** -1, a ** 3, a ** e, a ** np.full(a.shape, e)


def _bits(x):
    return x.view(f"u{x.itemsize}")


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("e", [2.0, 0.5, -1.0, 3.0])
def test_array_pow_matches_numpy_bits(dtype, e):
    a = np.concatenate([np.array(POW_NOT_SQUARE), np.random.default_rng(5).random(2000) * 1e3,
                        [0.0, -0.0, np.inf, np.nan, -2.5]]).astype(dtype)
    with np.errstate(all="ignore"):
        expected = array_powers.py_func(a, e)
        got = array_powers(a, e)
    for g, x in zip(got, expected):
        assert g.dtype == x.dtype
        np.testing.assert_array_equal(_bits(g), _bits(x))


@jit
def pow2_division(k):
    return k // 2, k % 2, k // 8, k % 8, k // 1, k % 1, k // -4, k % -4


@pytest.mark.parametrize("k", [-17, -16, -1, 0, 1, 7, 8, 2 ** 63 - 1, -2 ** 63])
def test_power_of_two_divisors(k):
    for arg in (k, np.int64(k)):
        assert pow2_division(arg) == pow2_division.py_func(arg)


@jit
def truncate(x):
    return int(x)


@pytest.mark.parametrize("x", [2.7, -2.7, -0.5, 9.2e18, -9.223372036854775808e18, 1e300, float("nan"), float("inf")])
def test_int_of_float(x):
    try:
        expected = truncate.py_func(x)
    except (ValueError, OverflowError) as exc:
        with pytest.raises(type(exc)):
            truncate(x)
        return
    if expected >= 2 ** 63:  # beyond int64: compiled code raises rather than wrap
        with pytest.raises(OverflowError):
            truncate(x)
        return
    assert truncate(x) == expected
