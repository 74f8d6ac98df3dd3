"""Differential tests: operators at the edges of their operands' range
(shift counts outside [0, 64), NumPy's own rounding of its scalars) and
builtins that are operators under another name (pow(a, b) is a ** b)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from transpile.diagnostics import PathTypeConflict

from ._support import jit


@jit
def shifts(x, s):
    return x << s, x >> s


@jit
def right_shift(x, s):
    return x >> s


@pytest.mark.parametrize("x,s", [(5, 3), (-8, 3), (5, 62), (-1, 63), (1, 64), (-8, 70), (7, 10**12)])
def test_python_int_right_shift_by_any_count(check, x, s):
    check(right_shift, x, s)  # C++ leaves counts of 64 and more undefined; CPython gives 0 or -1


@pytest.mark.parametrize("x,s", [(3, -1), (0, -5), (-8, -1)])
def test_negative_shift_count_raises_value_error(check, x, s):
    check(shifts, x, s)


@pytest.mark.parametrize("x,s", [(1, 64), (1, 70), (-8, 70), (5, 62), (3, 63)])
def test_python_int_left_shift_wraps_at_64_bits(x, s):
    """Python ints are int64 in compiled code and every operation on them wraps
    (README): x << s is the exact result modulo 2**64, so 0 once s >= 64."""
    wrapped = ((x << s) + 2 ** 63) % 2 ** 64 - 2 ** 63
    assert shifts(x, s) == (wrapped, x >> s)


NUMPY_SHIFTS = [(np.int64(1), np.int64(70)), (np.int64(-8), np.int64(70)), (np.int64(-1), np.int64(63)),
                (np.int32(1), np.int32(31)), (np.int32(-8), np.int32(40)), (np.int8(1), np.int8(7)),
                (np.int8(1), np.int8(8)), (np.int8(-3), np.int8(9)), (np.uint8(200), np.uint8(9)),
                (np.uint64(1), np.uint64(64)), (np.int64(5), np.int64(-1)), (np.int16(-5), np.int16(-2))]


@pytest.mark.parametrize("x,s", NUMPY_SHIFTS)
def test_numpy_shift_counts_outside_the_width(check, x, s):
    check(shifts, x, s)  # NumPy's loops: 0, or -1 for >> of a negative value


def test_array_shift_counts_outside_the_width(check):
    check(shifts, np.array([1, -8, 3, -1], np.int64), np.array([70, 64, -1, 63], np.int64))
    check(shifts, np.array([1, 200, 3], np.uint8), np.array([8, 1, 200], np.uint8))


@jit
def round_to(x, n):
    return round(x, n)


ROUNDED = [0.35, 2.675, 123.456, -2.5, 1e300, 5e-324, 1.7976931348623157e308, -0.0, float("inf"), float("nan")]


@pytest.mark.parametrize("n", [-400, -300, -2, 0, 1, 2, 20, 300, 10**6])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_round_of_a_numpy_float_is_numpys_rounding(check_bits, dtype, n):
    """round(np.float64(0.35), 1) is np.round's 0.4 (x * 10**n, rint, / 10**n),
    where Python's correctly rounded round(0.35, 1) is 0.3."""
    for v in ROUNDED:
        with np.errstate(all="ignore"):
            check_bits(round_to, dtype(v), n)


@pytest.mark.filterwarnings("ignore:invalid value encountered in cast:RuntimeWarning")
@pytest.mark.parametrize("x", [np.int64(1250), np.int64(-1350), np.int64(2 ** 62 + 51), np.int64(2 ** 63 - 1),
                               np.int32(-1250), np.uint8(250), np.int16(15)])
@pytest.mark.parametrize("n", [-20, -2, -1, 0, 3])
def test_round_of_a_numpy_int_goes_through_float64(check_bits, x, n):
    check_bits(round_to, x, n)  # np.round: exact for n >= 0, else in float64 and cast back


@pytest.mark.parametrize("n", [2 ** 31, -2 ** 31 - 1])
def test_round_ndigits_beyond_a_c_int_overflows(check, n):
    check(round_to, np.float64(1.5), n)


def test_python_numbers_keep_pythons_rounding(check):
    check(round_to, 0.35, 1)
    check(round_to, 2.675, 2)
    check(round_to, 1250, -2)


@jit
def two_argument_pow(x, y):
    return pow(x, y), pow(base=y, exp=2), pow(x, 2, None)


@jit
def three_argument_pow(x, y, m):
    return pow(x, y, m)


def test_pow_of_two_arguments_is_the_power_operator(check):
    check(two_argument_pow, np.float64(2.0), np.float64(0.5))
    check(two_argument_pow, np.int64(3), np.int64(4))
    check(two_argument_pow, np.arange(4.0), 2.0)
    check(three_argument_pow, 3, 200, 7)


def test_pow_keeps_the_soundness_rules_of_the_operator():
    """pow(x, y) of Python ints: a float when y < 0, as x ** y -- refused under
    fullgraph for the same reason, with the operator's message."""
    with pytest.raises(PathTypeConflict, match="a float in CPython when its exponent is negative"):
        two_argument_pow(2, 3)


@jit
def range_reductions(a, b, s):
    return len(range(a, b, s)), sum(range(a, b, s)), sum(range(a, b, s), 10), min(range(a, b, s)), \
        max(range(a, b, s))


@pytest.mark.parametrize("a,b,s", [(0, 10, 1), (10, 0, -3), (-7, 20, 4), (3, -30, -7), (5, 5, 1), (0, 10, 0),
                                   (2 ** 40, 2 ** 40 + 10 ** 6, 7)])
def test_range_reductions_in_closed_form(check, a, b, s):
    check(range_reductions, a, b, s)  # ValueError for an empty range (min) and a zero step, as CPython


def test_range_length_past_sys_maxsize_overflows():
    with pytest.raises(OverflowError, match="Python int too large to convert to C ssize_t"):
        range_reductions(-2 ** 63, 2 ** 63 - 1, 1)
    with pytest.raises(OverflowError, match="Python int too large to convert to C ssize_t"):
        len(range(-2 ** 63, 2 ** 63 - 1))


def test_range_sum_wraps_as_int64_arithmetic_does():
    """Python ints are int64 in compiled code (README): the exact sum modulo 2**64,
    computed without iterating (3 * 10**18 values here)."""
    a, b, s = -2 ** 62, 2 ** 62, 3
    n = (b - a + s - 1) // s
    exact = n * a + s * n * (n - 1) // 2
    assert range_reductions(a, b, s)[:3] == (n, (exact + 2 ** 63) % 2 ** 64 - 2 ** 63,
                                             (exact + 10 + 2 ** 63) % 2 ** 64 - 2 ** 63)


@jit
def modulo(a, b):
    return a % b


@jit
def least_and_greatest(a):
    return min(a), max(a)


def test_messages_of_this_python(check):
    """CPython's words for an int modulo by zero (3.11) and for min()/max() of
    nothing (3.12) changed between versions: compiled code says the running one's."""
    check(modulo, 5, 0)
    check(modulo, True, False)
    check(least_and_greatest, np.zeros(0))
    check(least_and_greatest, [1.5][:0] + [2.5])


def _greatest_or(n):
    return max(range(n), default=-1)


def test_min_max_default_without_key_is_not_ignored():
    """max(range(0), default=-1) is -1: compiled code ignored default= (ValueError)."""
    import warnings

    from transpile import jit as plain_jit

    with pytest.raises(Exception, match="default= and no key= is not supported"):
        jit(_greatest_or)(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert plain_jit(_greatest_or)(0) == -1 and plain_jit(_greatest_or)(4) == 3


@jit
def percent_repr(x, s):
    return "%r|%5r|%-6r|%r" % (x, x, x, s)


@pytest.mark.parametrize("x", [0.5, 3, True, 1e22, -0.0])
def test_percent_r_of_a_python_number_is_its_repr(check, x):
    check(percent_repr, x, "it's")  # quotes only around the str


@jit
def truncated(x):
    return math.trunc(x)


@jit
def as_index(x):
    return math.factorial(x), math.gcd(x, 6)


@pytest.mark.parametrize("x", [2.5, np.float64(-2.5), np.float32(2.5), np.int64(5), np.True_, True])
def test_math_trunc_needs_a_float_or_python_number(x):
    """math.trunc(np.int64(5)): TypeError (NumPy's ints and float32 define no
    __trunc__); compiled code returned 5."""
    import warnings

    from transpile import jit as plain_jit

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            expected = math.trunc(x)
        except TypeError as exc:
            with pytest.raises(TypeError, match=str(exc)):
                plain_jit(truncated.py_func)(x)
            return
        assert plain_jit(truncated.py_func)(x) == expected


def test_numpy_bool_is_no_index(check):
    check(as_index, np.int64(4))
    check(as_index, True)
    with pytest.raises(Exception, match="'numpy.bool' object cannot be interpreted as an integer"):
        as_index(np.True_)


def test_int_of_a_uint64_past_int64_raises_rather_than_wraps():
    """CPython's int(np.uint64(2**63)) is 2**63, which no int64 holds: an
    OverflowError (as for a float that large), not -2**63."""
    from transpile import jit as plain_jit

    f = plain_jit(lambda x: int(x))
    assert f(np.uint64(2 ** 63 - 1)) == 2 ** 63 - 1
    with pytest.raises(OverflowError, match="Python int too large to convert to C long"):
        f(np.uint64(2 ** 63))


@jit
def abs_of_numpy_bool(x):
    return str(abs(x)), f"{abs(x)}", abs(x)


def test_abs_of_a_numpy_bool_is_that_bool(check):
    check(abs_of_numpy_bool, np.True_)
    check(abs_of_numpy_bool, np.False_)


@jit
def nan_ignoring_extremes(x, y):
    return np.fmax(x, y), np.fmin(x, y), np.maximum(x, y), np.minimum(x, y)


def test_fmax_fmin_of_equal_zeros_give_the_first(check_bits):
    """Probe find: np.fmax(0.0, -0.0) is NumPy's 0.0 (the first of two equals); compiled gave -0.0."""
    for x, y in ((0.0, -0.0), (-0.0, 0.0), (1.0, math.nan), (math.nan, 1.0)):
        check_bits(nan_ignoring_extremes, np.float64(x), np.float64(y))
    check_bits(nan_ignoring_extremes, np.array([0.0, -0.0, math.nan]), np.array([-0.0, 0.0, 1.0]))


def test_item_of_a_uint64_past_int64_raises_rather_than_wraps():
    from transpile import jit as plain_jit

    f = plain_jit(lambda a: a[0].item())
    assert f(np.array([5], np.uint64)) == 5
    with pytest.raises(OverflowError, match="Python int too large to convert to C long"):
        f(np.array([2 ** 64 - 1], np.uint64))


@jit
def int_float_comparisons(n, x):
    return n == x, n != x, n < x, n <= x, n > x, n >= x, x == n, x < n, x >= n, n == float(n), n // 1 == n / 1


@pytest.mark.parametrize("n", [2 ** 53 + 1, 2 ** 63 - 1, -2 ** 63, -(2 ** 53) - 1, 7])
@pytest.mark.parametrize("x", [9007199254740992.0, 9.223372036854776e18, -9.223372036854776e18, 7.5, -0.0,
                               math.inf, math.nan])
def test_an_int_and_a_float_compare_exactly(check, n, x):
    """Probe find: CPython compares a Python int with a float exactly; compiled code
    compared in double, where 2**53 + 1 == 2.0**53 (float_richcompare is exact)."""
    check(int_float_comparisons, n, x)
