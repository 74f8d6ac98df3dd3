"""Differential tests: scalar operators, promotion and builtins.

Every test runs the compiled function and the undecorated Python function on
the same inputs and compares value, type (Python int vs np.int64 matters)
and raised exception type.  Functions are grouped so that one compiled
specialization covers several operators; inputs are parametrized by value
(same types, no recompilation)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from transpile import jit as plain_jit

from ._support import check_items, jit

# --------------------------------------------------------------------------
# int / float / bool / complex arithmetic with Python semantics
# --------------------------------------------------------------------------


@jit
def arith(a, b):
    return a + b, a - b, a * b, -a, +b, a / b


@jit
def true_div(a, b):
    return a / b


@jit
def floor_div(a, b):
    return a // b


@jit
def modulo(a, b):
    return a % b


@jit
def power(a, b):
    return a ** b


@jit
def magnitude_power(a, b):  # abs(a) is never negative: the float power compiles (passes/powers.py)
    return abs(a) ** b


@jit
def whole_powers(a):  # whole exponents: a negative base gives a float, compiled
    return a ** 3.0, a ** 2.0, a ** -1.0, a ** 401.0


@jit
def powers_up_to(a, b):  # e counts up from 0: never negative, so a ** e is an int (passes/powers.py)
    out = 0
    for e in range(b + 1):
        out = a ** e
    return out


any_sign_power = plain_jit(power.py_func)  # (-2.0) ** 0.5 is complex: the power runs as Python


@jit
def pow_neg_literal(a):
    # A negative literal exponent on an int gives a float in Python.
    return a ** -2, a ** -1


@jit
def bit_ops(a, b):
    return a & b, a | b, a ^ b, ~a, a << 3, a >> 2


@jit
def literal_left_operands(n):
    """Literals combined with each other or shifted are Python ints (64-bit here), not C++'s 32-bit int."""
    return 1 << (n % 50), 3 << n, -(1 << n), 100000 * 100000 + n, (1 << 40) >> (n % 40), 65536 * 65536 * n


@pytest.mark.parametrize("n", [0, 1, 31, 32, 40, 49])
def test_literal_left_operands_are_64_bit(check, n):
    check(literal_left_operands, n)


INT_PAIRS = [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, 5), (6, 3), (1, 1), (123456789, 1000), (-1, 7)]
FLOAT_PAIRS = [(7.5, 2.0), (-7.5, 2.0), (7.5, -2.0), (-7.5, -2.0), (0.0, 3.0), (-0.0, 3.0), (1e300, 1e-10),
               (5.0, 0.25), (0.1, 0.3), (-1e-300, 7.0)]


@pytest.mark.parametrize("a,b", INT_PAIRS)
def test_int_arith(check, a, b):
    check(arith, a, b)
    check(floor_div, a, b)
    check(modulo, a, b)


@pytest.mark.parametrize("a,b", FLOAT_PAIRS)
def test_float_arith(check, a, b):
    check(arith, a, b)
    check(floor_div, a, b)
    check(modulo, a, b)


@pytest.mark.parametrize("a,b", [(7, 2.5), (-7, 2.5), (3, -0.5), (0, 1.5)])
def test_mixed_int_float_arith(check, a, b):
    check(arith, a, b)
    check(floor_div, a, b)
    check(modulo, a, b)


@pytest.mark.parametrize("a,b", [(True, True), (True, False), (False, True)])
def test_bool_arith_gives_int(check, a, b):
    # bool + bool is an int in Python.
    check(arith, a, b)


@pytest.mark.parametrize("a,b", [(True, 3), (False, -2)])
def test_bool_int_arith(check, a, b):
    check(arith, a, b)


@pytest.mark.parametrize("fn", [arith, floor_div, modulo])
@pytest.mark.parametrize("a,b", [(5, 0), (0, 0), (-3, 0)])
def test_int_division_by_zero(check, fn, a, b):
    with pytest.raises(ZeroDivisionError):
        fn(a, b)
    check(fn, a, b)


@pytest.mark.parametrize("fn", [arith, floor_div, modulo])
@pytest.mark.parametrize("a,b", [(5.0, 0.0), (-1.5, -0.0), (0.0, 0.0)])
def test_float_division_by_zero(check, fn, a, b):
    with pytest.raises(ZeroDivisionError):
        fn(a, b)
    check(fn, a, b)


def test_mixed_division_by_zero(check):
    with pytest.raises(ZeroDivisionError):
        arith(3, 0.0)
    check(arith, 3, 0.0)
    check(floor_div, 3, 0.0)
    check(modulo, 3, 0.0)


@pytest.mark.parametrize("a,b", [(2, 10), (-3, 3), (0, 0), (7, 0), (-2, 63), (1, 1000), (10, 18)])
def test_int_power(check, a, b):
    check(powers_up_to, a, b)
    check(any_sign_power, a, b)
    check(any_sign_power, a, -b - 1)  # a float in CPython (ZeroDivisionError for 0)


@pytest.mark.parametrize("a,b", [(2.0, 0.5), (2.5, -2.0), (0.5, 3.0), (-2.0, 3.0), (-8.0, 2.0), (1e10, 30.0)])
def test_float_power(check, a, b):
    check(magnitude_power, a, b)
    check(any_sign_power, a, b)
    if b == int(b) and abs(a) < 1e3:
        check(whole_powers, a)


@pytest.mark.parametrize("a,b", [(2, 0.5), (4, -1.5), (-4, 0.5), (-8, 1.5)])
def test_int_float_power(check, a, b):
    check(any_sign_power, a, b)


def test_float_zero_to_negative_power_raises(check):
    # 0.0 ** -1.0 raises ZeroDivisionError in Python (NumPy would give inf).
    with pytest.raises(ZeroDivisionError):
        magnitude_power(0.0, -1.0)
    check(magnitude_power, 0.0, -1.0)
    check(whole_powers, 0.0)


def test_float_power_overflow_raises(check):
    # Python raises OverflowError where the C library result would be inf.
    with pytest.raises(OverflowError):
        magnitude_power(10.0, 400.0)
    check(magnitude_power, 10.0, 400.0)
    check(magnitude_power, -10.0, 401.0)
    check(whole_powers, -10.0)
    check(magnitude_power, math.inf, 2.0)


@pytest.mark.parametrize("a", [2, -3, 1, 10])
def test_int_negative_literal_exponent_gives_float(check, a):
    assert type(pow_neg_literal(a)[0]) is float
    check(pow_neg_literal, a)


def test_int_zero_negative_literal_exponent_raises(check):
    with pytest.raises(ZeroDivisionError):
        pow_neg_literal(0)
    check(pow_neg_literal, 0)


@pytest.mark.parametrize("a,b", [(12, 10), (-12, 3), (0, 0), (255, 7)])
def test_int_bit_ops(check, a, b):
    check(bit_ops, a, b)


@jit
def bool_bit_ops(a, b):
    return a & b, a | b, a ^ b


@pytest.mark.parametrize("a,b", [(True, False), (True, True), (False, False)])
def test_bool_bit_ops_stay_bool(check, a, b):
    check(bool_bit_ops, a, b)


COMPLEX_PAIRS = [(1 + 2j, 3 - 4j), (-1.5j, 2.0 + 0j), (0j, 1j), (1e10 + 1j, -1e-10 - 3j)]


@pytest.mark.parametrize("a,b", COMPLEX_PAIRS)
def test_complex_arith(check, a, b):
    check(arith, a, b)


@pytest.mark.parametrize("a,b", [(1 + 2j, 2), (1 + 2j, 0.5)])
def test_complex_mixed(check, a, b):
    check(arith, a, b)


def test_complex_division_by_zero(check):
    with pytest.raises(ZeroDivisionError):
        arith(1 + 1j, 0j)
    check(arith, 1 + 1j, 0j)


@jit
def complex_parts(z):
    return z.real, z.imag, z.conjugate(), abs(z)


@pytest.mark.parametrize("z", [3 + 4j, -1.5 - 0.5j, 0j])
def test_complex_parts(check, z):
    check(complex_parts, z)


# --------------------------------------------------------------------------
# NumPy scalars and NEP 50 promotion
# --------------------------------------------------------------------------


@jit
def nep50_promotions(f32, i8, i32, i64, u8, s8, f64, u16, i16, u32):
    # One specialization covers many NumPy-scalar / Python-scalar pairs.
    return (
        f32 * 2.0,      # float32 with a Python float stays float32
        f32 + 3,        # ... and with a Python int
        i8 + 4,         # int8 with a Python int stays int8
        i8 * 2.5,       # int8 with a Python float is float64
        i32 + i64,      # int32 with int64 is int64
        u8 * s8,        # uint8 with int8 is int16
        f32 + f64,      # float32 with float64 is float64
        i64 * 2.5,      # int64 with a Python float is float64
        f64 + 3,        # float64 with a Python int stays float64
        u16 - 5,        # uint16 with a Python int stays uint16
        f32 * (1 + 2j), # float32 with a Python complex is complex64
        i16 * True,     # a Python bool next to int16 is int16
        2.0 - f32,      # the Python scalar on the left
        3 * u32,
        i32 / i32,      # int32 true division is float64
        i8 / 2,         # int8 / Python int is float64
        u8 + u16,       # uint8 with uint16 is uint16
        i8 + u32,       # int8 with uint32 is int64
        i64 + u32,      # int64 with uint32 is int64
        f32 * i16,      # float32 with int16 is float32
        f32 * i32,      # float32 with int32 is float64
        -u8,            # negating an unsigned wraps
        -f32,
    )


NEP50_VALUES = [
    (np.float32(1.5), np.int8(3), np.int32(7), np.int64(3), np.uint8(200), np.int8(-3), np.float64(2.25),
     np.uint16(7), np.int16(-5), np.uint32(4)),
    (np.float32(-0.1), np.int8(-100), np.int32(-7), np.int64(1 << 40), np.uint8(1), np.int8(127), np.float64(-1e300),
     np.uint16(65535), np.int16(300), np.uint32(4000000000)),
]


@pytest.mark.parametrize("values", NEP50_VALUES)
def test_nep50_promotion(check, values):
    with np.errstate(over="ignore"):  # the int8/uint8 wrap-around is NumPy's documented behaviour
        check(nep50_promotions, *values)


@pytest.mark.parametrize("a,b", [(np.int64(7), np.int64(2)), (np.int64(-7), np.int64(2)), (np.int64(7), np.int64(-2))])
def test_numpy_int_floor_div_mod(check, a, b):
    check(floor_div, a, b)
    check(modulo, a, b)
    check(true_div, a, b)


@pytest.mark.parametrize("a,b", [(np.float32(7.5), 2.0), (np.float32(-7.5), 2.0), (np.float32(7.25), -0.5)])
def test_float32_division(check, a, b):
    check(floor_div, a, b)
    check(modulo, a, b)
    check(true_div, a, b)


@pytest.mark.parametrize("a,b", [(np.int32(3), 4), (np.int32(-2), 3)])
def test_numpy_int_power(check, a, b):
    check(power, a, b)


def test_numpy_float_division_by_zero_is_ieee(check):
    # NumPy scalars follow NumPy: no ZeroDivisionError, inf/nan results.
    with np.errstate(divide="ignore", invalid="ignore"):
        assert true_div(np.float64(1.0), 0.0) == math.inf
        check(true_div, np.float64(1.0), 0.0)
        check(true_div, np.float64(-1.0), 0.0)
        check(true_div, np.float64(0.0), 0.0)


def test_numpy_int_floor_div_by_zero_is_zero(check):
    # NumPy integer floor division by zero gives 0 (with a warning), no exception.
    with np.errstate(divide="ignore", invalid="ignore"):
        check(floor_div, np.int64(7), np.int64(0))
        check(modulo, np.int64(7), np.int64(0))


@jit
def compare_all(a, b):
    return a < b, a <= b, a > b, a >= b, a == b, a != b


@pytest.mark.parametrize("a,b", [(1, 2), (2, 2), (3, -1)])
def test_int_comparisons(check, a, b):
    check(compare_all, a, b)


@pytest.mark.parametrize("a,b", [(1, 1.5), (2, 2.0), (-1, -1.5)])
def test_int_float_comparisons(check, a, b):
    check(compare_all, a, b)


@pytest.mark.parametrize("a,b", [(1.5, math.nan), (math.nan, math.nan), (math.inf, 1e308), (-0.0, 0.0)])
def test_float_special_comparisons(check, a, b):
    check(compare_all, a, b)


@jit
def compare_numpy(f32, i8, u8):
    return f32 < 0.1, f32 == 0.1, f32 >= 0.1, i8 == 5.0, i8 < 6, i8 != u8, u8 > i8, f32 < i8


@pytest.mark.parametrize("f32,i8,u8", [(np.float32(0.1), np.int8(5), np.uint8(5)),
                                       (np.float32(-2.0), np.int8(-1), np.uint8(255))])
def test_numpy_scalar_comparisons_give_numpy_bool(check, f32, i8, u8):
    # np.float32(0.1) < 0.1 compares in float32 (NEP 50) and returns np.bool.
    check(compare_numpy, f32, i8, u8)


@jit
def complex_eq(a, b):
    return a == b, a != b


def test_complex_equality(check):
    check(complex_eq, 1 + 2j, 1 + 2j)
    check(complex_eq, 1 + 2j, 1 - 2j)


# --------------------------------------------------------------------------
# chained comparisons, boolean operators, ternary
# --------------------------------------------------------------------------


@jit
def chained(a, b, c):
    return a < b < c, a <= b == c, a < b > c, a != b != c, 0 <= a < 10 <= c


@pytest.mark.parametrize("a,b,c", [(1, 2, 3), (3, 2, 1), (2, 2, 2), (1, 5, 3), (0, 0, 10), (-1, 4, 12)])
def test_chained_comparisons(check, a, b, c):
    check(chained, a, b, c)


@jit
def bump(counter, value):
    counter[0] += 1
    return value


@jit
def chained_evaluates_middle_once(counter, a, b, c):
    return a < bump(counter, b) < c


@pytest.mark.parametrize("a,b,c", [(1, 2, 3), (3, 2, 1), (1, 5, 3)])
def test_chained_middle_evaluated_once_and_short_circuits(check, a, b, c):
    counter = np.zeros(1, dtype=np.int64)
    check(chained_evaluates_middle_once, counter, a, b, c)
    chained_evaluates_middle_once(counter, a, b, c)
    assert counter[0] == 1


@jit
def chained_short_circuits(counter, a, b, c):
    # The third operand is evaluated only if the first comparison holds.
    return a > b < bump(counter, c)


@pytest.mark.parametrize("a,b,c,calls", [(3, 1, 2, 1), (1, 3, 2, 0), (3, 1, 0, 1)])
def test_chained_comparison_short_circuits(check, a, b, c, calls):
    counter = np.zeros(1, dtype=np.int64)
    check(chained_short_circuits, counter, a, b, c)
    chained_short_circuits(counter, a, b, c)
    assert counter[0] == calls


@jit
def short_circuit_guard(x):
    # Without short-circuit the right operand divides by zero.
    return x != 0 and 10 // x > 1, x == 0 or 10 % x == 0


@pytest.mark.parametrize("x", [0, 2, 5, 20, -3])
def test_short_circuit_avoids_division(check, x):
    check(short_circuit_guard, x)


@jit
def short_circuit_chain_inside_and(x):
    # The chained comparison on the right must not run when x == 0.
    return x != 0 and 0 < 10 // x < 5


@pytest.mark.parametrize("x", [0, 3, 1, -2])
def test_short_circuit_over_chained_comparison(check, x):
    check(short_circuit_chain_inside_and, x)


@jit
def short_circuit_calls(counter, x):
    return (x > 0 and bump(counter, x) > 2) or bump(counter, -x) < 0


@pytest.mark.parametrize("x", [-1, 1, 3])
def test_short_circuit_skips_calls(check, x):
    counter = np.zeros(1, dtype=np.int64)
    check(short_circuit_calls, counter, x)


@jit
def and_or_values(a, b):
    # `and`/`or` return one of their operands, not a bool.
    return a and b, a or b, not a


@pytest.mark.parametrize("a,b", [(0, 5), (3, 0), (2, 7), (0, 0)])
def test_and_or_return_operands_int(check, a, b):
    check(and_or_values, a, b)


@pytest.mark.parametrize("a,b", [(0.0, 2.5), (1.5, 0.0), (math.nan, 1.0)])
def test_and_or_return_operands_float(check, a, b):
    check(and_or_values, a, b)


@jit
def ternary(x, y):
    a = x if x > y else y
    b = -1 if x == y else (0 if x < y else 1)
    return a, b


@pytest.mark.parametrize("x,y", [(1, 2), (2, 1), (3, 3)])
def test_ternary(check, x, y):
    check(ternary, x, y)


@pytest.mark.parametrize("x,y", [(1.5, 2.5), (np.nan, 1.0)])
def test_ternary_float(check, x, y):
    check(ternary, x, y)


@jit
def ternary_short_circuit(x):
    return 100 // x if x != 0 else -1


@pytest.mark.parametrize("x", [0, 7, -7])
def test_ternary_evaluates_one_branch(check, x):
    check(ternary_short_circuit, x)


@jit
def truthiness(i, f, z, b):
    r = 0
    if i:
        r += 1
    if f:
        r += 10
    if z:
        r += 100
    if b:
        r += 1000
    return r, not i, not f, not z, not b, bool(i), bool(f), bool(z), bool(b)


@pytest.mark.parametrize("i,f,z,b", [(0, 0.0, 0j, False), (5, -0.0, 1j, True), (-1, math.nan, 0j, False),
                                     (0, 0.5, 1e-300 + 0j, True), (1, 0.0, complex(0, -0.0), False)])
def test_truthiness(check, i, f, z, b):
    check(truthiness, i, f, z, b)


# --------------------------------------------------------------------------
# builtins
# --------------------------------------------------------------------------


@jit
def builtin_abs(i, f, z, b, i8, f32, c128):
    return abs(i), abs(f), abs(z), abs(b), abs(i8), abs(f32), abs(c128)


@pytest.mark.parametrize("values", [
    (-5, -1.5, 3 - 4j, True, np.int8(-5), np.float32(-2.5), np.complex128(-3 + 4j)),
    (5, -0.0, -2j, False, np.int8(7), np.float32(0.0), np.complex128(0j)),
    (0, math.inf, complex(math.inf, 1), True, np.int8(0), np.float32(-math.inf), np.complex128(1e-300 - 1e-300j)),
])
def test_abs(check, values):
    check(builtin_abs, *values)


@jit
def min_max2(a, b):
    return min(a, b), max(a, b)


@jit
def min_max3(a, b, c):
    return min(a, b, c), max(a, b, c)


@pytest.mark.parametrize("a,b", [(1, 2), (5, -3), (4, 4)])
def test_min_max_int(check, a, b):
    check(min_max2, a, b)


@pytest.mark.parametrize("a,b,c", [(1.5, -2.5, 0.0), (3.0, 3.0, 1.0), (-1.0, 7.0, 7.5)])
def test_min_max_float(check, a, b, c):
    check(min_max3, a, b, c)


def test_min_max_first_wins_on_ties(check):
    # min(0.0, -0.0) is the first argument in Python.
    check(min_max2, 0.0, -0.0)
    check(min_max2, -0.0, 0.0)
    r = min_max2(0.0, -0.0)
    assert math.copysign(1, r[0]) == 1.0 and math.copysign(1, r[1]) == 1.0


@jit
def min_max_tuple(a, b, c):
    t = (a, b, c)
    return min(t), max(t)


def test_min_max_tuple(check):
    check(min_max_tuple, 3, -1, 2)


@jit
def min_max_array(a):
    return min(a), max(a)


def test_min_max_1d_array(check):
    check(min_max_array, np.array([3.0, -1.0, 7.5, 2.0]))


@jit
def to_int(x):
    return int(x)


@pytest.mark.parametrize("x", [2.7, -2.7, 0.0, -0.5, 1e15, 123.0])
def test_int_of_float_truncates(check, x):
    check(to_int, x)


@pytest.mark.parametrize("x", [math.nan])
def test_int_of_nan_raises_value_error(check, x):
    with pytest.raises(ValueError):
        to_int(x)
    check(to_int, x)


def test_int_of_inf_raises_overflow_error(check):
    with pytest.raises(OverflowError):
        to_int(math.inf)
    check(to_int, -math.inf)


@jit
def to_int_many(b, i8, u32, f32):
    return int(b), int(i8), int(u32), int(f32)


@pytest.mark.parametrize("b,i8,u32,f32", [(True, np.int8(-7), np.uint32(7), np.float32(-3.75)),
                                          (False, np.int8(127), np.uint32(4000000000), np.float32(2.5e9))])
def test_int_of_bool_and_numpy_scalars_gives_python_int(check, b, i8, u32, f32):
    check(to_int_many, b, i8, u32, f32)


@jit
def conversions(i, f):
    return float(i), bool(i), int(i), float(f), bool(f), int(f)


@pytest.mark.parametrize("i,f", [(0, 0.0), (3, 2.5), (-5, -0.25)])
def test_float_bool_int_conversions(check, i, f):
    check(conversions, i, f)


@jit
def round1(x):
    return round(x)


@jit
def round2(x, n):
    return round(x, n)


@pytest.mark.parametrize("x", [2.5, 3.5, -2.5, -0.5, 0.4999999999999999, 1.6, -1.6, 1e15 + 0.5, 7.0])
def test_round_float_half_even(check, x):
    check(round1, x)


@pytest.mark.parametrize("x", [5, -5, 0])
def test_round_int(check, x):
    check(round1, x)


def test_round_nan_inf_raise(check):
    check(round1, math.nan)
    check(round1, math.inf)
    with pytest.raises(ValueError):
        round1(math.nan)
    with pytest.raises(OverflowError):
        round1(math.inf)


@pytest.mark.parametrize("x,n", [(2.675, 2), (1.005, 2), (123.456, -1), (125.0, -1), (0.5, 0), (-1.25, 1), (1.5, 0),
                                 (3.14159, 3)])
def test_round_ndigits_float(check, x, n):
    check(round2, x, n)


@pytest.mark.parametrize("x,n", [(15, -1), (25, -1), (1234, -2), (-1250, -2), (7, 2), (-35, -1)])
def test_round_ndigits_int(check, x, n):
    # round(int, negative ndigits) rounds half to even on the integer.
    check(round2, x, n)


@jit
def round_numpy(f64, f32):
    return round(f64), round(f32), round(f64, 1), round(f32, 1)


@pytest.mark.parametrize("f64,f32", [(np.float64(2.5), np.float32(3.5)), (np.float64(-0.25), np.float32(1.75))])
def test_round_numpy_float(check, f64, f32):
    # round(np.float64) is a Python int; round(np.float32, 1) stays np.float32
    check(round_numpy, f64, f32)


@jit
def len_of(a, t):
    return len(a), len(t)


def test_len(check):
    check(len_of, np.zeros(5), (1, 2, 3))
    check(len_of, np.zeros(0), (1, 2, 3))


@jit
def len_2d(a):
    return len(a)


def test_len_2d_is_first_axis(check):
    check(len_2d, np.zeros((3, 7)))


@jit
def sum_of(a):
    return sum(a), sum(a, 10)


@pytest.mark.parametrize("a", [np.array([1, 2, 3, -4], dtype=np.int64), np.array([7], dtype=np.int64)])
def test_sum_int_array(check, a):
    # sum() over a non-empty int64 array gives np.int64 (start 0 + np.int64).
    # (Over an empty array Python returns the start value itself, a Python
    # int: a type that depends on the length, which static typing cannot
    # follow, so it is not compared here.)
    check(sum_of, a)


def test_sum_float_array(check):
    check(sum_of, np.array([0.5, 1.25, -3.0]))


@jit
def sum_tuple(a, b, c):
    return sum((a, b, c)), sum((a, b), c)


def test_sum_tuple(check):
    check(sum_tuple, 1, 2, 3)
    check(sum_tuple, 1.5, 2.5, -3.0)


@jit
def divmods(a, b, x, y):
    q, r = divmod(a, b)
    return q, r, divmod(x, y), divmod(a, y), divmod(x, b), divmod(True, True)


@pytest.mark.parametrize("a,b,x,y", [(7, -2, 7.5, -2.0), (-7, 2, -0.0, 3.0), (1, 3, 1e308, 1e-308),
                                     (5, 0, 1.0, 2.0), (5, 1, 1.0, 0.0), (-9, 4, -5.5, 0.25)])
def test_divmod_of_python_numbers(check_bits, a, b, x, y):
    # one division for both results, as CPython's _float_div_mod; divmod's own ZeroDivisionError messages
    check_bits(divmods, a, b, x, y)


@jit
def modular_and_bits(a, b, m):
    return pow(a, b, m), a.bit_length(), m.bit_length(), (-a).bit_length()


@pytest.mark.parametrize("a,b,m", [(2, 10, 1000), (2, -1, 7), (3, -2, 7), (2, -1, 4), (-3, 5, 7), (3, 5, -7), (0, 0, 5),
                                   (5, 3, 1), (2, 3, 0), (7, 10 ** 18, 10 ** 18 + 9), (-2 ** 63 + 1, 3, 2 ** 63 - 1),
                                   (5, -2 ** 63, 2 ** 63 - 1), (3, 7, -2 ** 63), (-1, -1, -2 ** 63), (0, 5, 3)])
def test_three_argument_pow_and_bit_length_are_cpythons(check, a, b, m):
    """Modular inverses for negative exponents, the modulus' sign, 128-bit
    products, and CPython's ValueErrors."""
    check(modular_and_bits, a, b, m)
