"""Differential tests: control flow, assignment forms, calls between @jit
functions and module-level constants."""
from __future__ import annotations

import numpy as np
import pytest

from ._support import jit

# --------------------------------------------------------------------------
# if / elif / else, early returns
# --------------------------------------------------------------------------


@jit
def classify(x):
    if x < 0:
        return -1
    elif x == 0:
        return 0
    elif x < 10:
        return 1
    else:
        return 2


@pytest.mark.parametrize("x", [-5, 0, 3, 10, 99])
def test_if_elif_else(check, x):
    check(classify, x)


@jit
def nested_if(x, y):
    r = 0
    if x > 0:
        if y > 0:
            r = 1
        else:
            r = 2
    else:
        if y > 0:
            r = 3
        elif y == 0:
            pass
        else:
            r = 4
    return r


@pytest.mark.parametrize("x,y", [(1, 1), (1, -1), (-1, 1), (-1, 0), (-1, -1)])
def test_nested_if_and_pass(check, x, y):
    check(nested_if, x, y)


@jit
def early_return_in_loop(a, target):
    for i in range(a.shape[0]):
        if a[i] == target:
            return i
    return -1


@pytest.mark.parametrize("target", [3.0, 7.0, 42.0])
def test_early_return_in_loop(check, target):
    check(early_return_in_loop, np.array([1.0, 3.0, 5.0, 7.0, 3.0]), target)


@jit
def variable_assigned_in_branches(x):
    if x > 0:
        y = x * 2.0
    else:
        y = -x / 2
    return y


@pytest.mark.parametrize("x", [3.0, -3.0, 0.0])
def test_variable_assigned_in_branches(check, x):
    check(variable_assigned_in_branches, x)


# --------------------------------------------------------------------------
# while / for with break / continue / else
# --------------------------------------------------------------------------


@jit
def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n //= 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@pytest.mark.parametrize("n", [1, 2, 7, 27, 97])
def test_while(check, n):
    check(collatz_steps, n)


@jit
def while_break_continue_else(n, stop):
    total = 0
    i = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        if i == stop:
            break
        total += i
    else:
        total = -total
    return total, i


@pytest.mark.parametrize("n,stop", [(10, 100), (10, 5), (10, 6), (0, 1), (10, 10)])
def test_while_break_continue_else(check, n, stop):
    # stop == 6 is skipped by `continue` before the break test, so the else runs.
    check(while_break_continue_else, n, stop)


@jit
def for_break_else(n, stop):
    found = -1
    for i in range(n):
        if i == stop:
            found = i
            break
    else:
        found = -2
    return found


@pytest.mark.parametrize("n,stop", [(5, 3), (5, 7), (0, 0), (5, 4)])
def test_for_break_else(check, n, stop):
    check(for_break_else, n, stop)


@jit
def for_continue(n):
    s = 0
    for i in range(n):
        if i % 2:
            continue
        s += i
    return s


@pytest.mark.parametrize("n", [0, 1, 10, 11])
def test_for_continue(check, n):
    check(for_continue, n)


@jit
def nested_break(n):
    # break leaves only the inner loop; else belongs to the inner loop
    pairs = 0
    misses = 0
    for i in range(n):
        for j in range(n):
            if j > i:
                break
            pairs += 1
        else:
            misses += 1
    return pairs, misses


@pytest.mark.parametrize("n", [0, 1, 4])
def test_nested_break(check, n):
    check(nested_break, n)


@jit
def loop_target_semantics(n):
    i = -1
    for i in range(n):
        pass
    last = i  # the target keeps its last value (untouched if the loop ran 0 times)
    s = 0
    for j in range(n):
        s += j
        j = 100  # assigning the target does not change the iteration
    count = 0
    m = n
    for k in range(m):
        m = 0  # changing the bound does not change the range
        count += 1
    return last, s, count


@pytest.mark.parametrize("n", [0, 1, 5])
def test_loop_target_semantics(check, n):
    check(loop_target_semantics, n)


# --------------------------------------------------------------------------
# range with steps
# --------------------------------------------------------------------------


@jit
def range3(start, stop, step):
    s = 0
    n = 0
    last = -999
    for i in range(start, stop, step):
        s += i
        n += 1
        last = i
    return s, n, last


@pytest.mark.parametrize("start,stop,step", [
    (0, 10, 1), (0, 10, 3), (10, 0, -1), (10, 0, -3), (-5, 5, 2), (5, -5, -2), (0, 0, 1), (3, 1, 1),
    (1, 3, -1), (0, 10, 100), (-10, -20, -7),
])
def test_range_steps(check, start, stop, step):
    check(range3, start, stop, step)


NEAR_LIMITS = [
    (9223372036854775800, 9223372036854775807, 3),     # the next index would pass INT64_MAX
    (-9223372036854775800, -9223372036854775808, -3),  # ... or INT64_MIN
    (0, 9223372036854775807, 4611686018427387904),
]


def test_range_near_int64_limits_terminates():
    # A loop whose index would overflow int64 after the last element must
    # still stop there.  Run in a child process so that a wrong (endless)
    # loop fails this test instead of hanging the suite.
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    code = (f"import sys; sys.path.insert(0, {root!r}); from tests.diff.test_control import range3; "
            f"print(repr([range3(*args) for args in {NEAR_LIMITS!r}]))")
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail(f"a range near the int64 limits did not terminate (the loop index overflows): {NEAR_LIMITS}")
    assert out.returncode == 0, out.stderr
    # The sums pass 2**63: compiled ints are int64 and wrap (documented), Python's do not.
    wrapped = [((s + 2**63) % 2**64 - 2**63, n, last) for s, n, last in (range3.py_func(*a) for a in NEAR_LIMITS)]
    assert out.stdout.strip() == repr(wrapped)


@pytest.mark.parametrize("step", [0])
def test_range_step_zero_raises_value_error(check, step):
    with pytest.raises(ValueError):
        range3(0, 10, step)
    check(range3, 0, 10, step)


@jit
def range2(start, stop):
    s = 0
    for i in range(start, stop):
        s = s * 3 + i
    out = 0
    for i in range(10, -1, -2):  # literal negative step
        out = out * 10 + i
    return s, out


@pytest.mark.parametrize("start,stop", [(0, 5), (5, 0), (-3, 3)])
def test_range_two_args_and_literal_step(check, start, stop):
    check(range2, start, stop)


@jit
def range_of_numpy_int(n):
    s = 0
    for i in range(n):
        s += i
    return s


def test_range_of_numpy_int(check):
    # The loop index is a Python int even when the bound is a NumPy integer.
    check(range_of_numpy_int, np.int32(6))


# --------------------------------------------------------------------------
# enumerate, zip, iteration over arrays
# --------------------------------------------------------------------------


@jit
def iterate_1d(a, b):
    s = 0.0
    for x in a:
        s = s * 0.5 + x
    t = 0
    for y in b:
        t += y
    return s, t


def test_iterate_1d(check):
    # Elements keep the array dtype: 0 + np.int32 is np.int32 (NEP 50).
    check(iterate_1d, np.array([1.0, 2.0, 3.0, 4.0]), np.array([1, 2, 3], dtype=np.int32))
    check(iterate_1d, np.arange(10.0)[::-3], np.array([7], dtype=np.int32))  # a negative-stride view


@jit
def iterate_2d_rows(a):
    out = np.zeros(a.shape[1])
    for row in a:
        out += row
    return out


def test_iterate_2d_rows(check):
    check(iterate_2d_rows, np.arange(12.0).reshape(3, 4))
    check(iterate_2d_rows, np.asfortranarray(np.arange(12.0).reshape(3, 4)))


@jit
def iterate_2d_rows_write(a):
    for row in a:
        row[0] = row[1] * 2.0  # rows are views: writes reach the caller
    return a


def test_iterate_2d_rows_are_views(check):
    check(iterate_2d_rows_write, np.arange(12.0).reshape(4, 3))


@jit
def use_enumerate(a, b, start):
    s = 0.0
    for i, x in enumerate(a):
        s += i * x
    t = 0
    for j, y in enumerate(b, start):  # own names: x holds float64 above
        t += j * y
    return s, t


def test_enumerate(check):
    check(use_enumerate, np.array([1.5, 2.0, -3.0]), np.array([1, 2, 3], dtype=np.int64), 10)
    check(use_enumerate, np.array([1.5]), np.array([1, 2, 3], dtype=np.int64), -1)


@jit
def use_zip(a, b):
    s = 0.0
    n = 0
    for x, y in zip(a, b):
        s += float(x * y)  # float() keeps s a Python float even when the loop runs 0 times
        n += 1
    return s, n


@pytest.mark.parametrize("na,nb", [(4, 4), (4, 2), (1, 5), (0, 3)])
def test_zip_stops_at_shortest(check, na, nb):
    check(use_zip, np.arange(float(na)), np.arange(float(nb)) + 1.0)


@jit
def zip_enumerate(a, b, c):
    s = 0.0
    for i, (x, y) in enumerate(zip(a, b)):
        s += i * (x - y)
    t = 0.0
    for x, y, z in zip(a, b, c):
        t += x * y - z
    return s, t


def test_enumerate_of_zip_and_zip_of_three(check):
    check(zip_enumerate, np.array([1.0, 5.0, 2.0]), np.array([0.5, 0.5, 4.0]), np.array([7.0, 8.0]))


@jit
def iterate_tuple(a, b, c):
    s = 0
    for x in (a, b, c):
        s = s * 10 + x
    return s


def test_iterate_tuple(check):
    check(iterate_tuple, 1, 2, 3)


# --------------------------------------------------------------------------
# assignment forms
# --------------------------------------------------------------------------


@jit
def tuple_unpacking(a, b, c):
    x, y = a, b
    x, y = y, x  # swap
    (p, q), r = (x, c), y
    t = (p, q, r)
    u, v, w = t
    d = e = c * 2  # chained assignment
    d += 1
    return u, v, w, d, e


def test_tuple_unpacking_and_chained_assignment(check):
    # (x and y swap values, so they get the same type: a variable that holds an
    # int and later a float is a float in compiled code.)
    check(tuple_unpacking, 1, 2, 3.5)


@jit
def augmented(x, y, z):
    a = x
    a += y
    a -= 1
    a *= 3
    b = a
    b //= 4
    c = a
    c %= 7
    d = a
    d **= 2
    e = float(a)
    e /= 8
    f = a
    f <<= 2
    f >>= 1
    f |= 1
    f &= 0xFF
    f ^= 3
    g = z
    g //= 0.75
    h = z
    h %= -0.75
    return a, b, c, d, e, f, g, h


@pytest.mark.parametrize("x,y,z", [(5, 3, 2.0), (-5, 3, -2.0), (0, 0, 0.5), (100, -7, -0.0)])
def test_augmented_assignment(check, x, y, z):
    check(augmented, x, y, z)


@jit
def augmented_int_to_float(n):
    s = 0  # s is an int here and a float after += 0.5: the variable takes the joined type
    for i in range(n):
        s += 0.5
    return s


def test_augmented_promotes_variable(check):
    check(augmented_int_to_float, 3)


@jit
def annotated(n: int, x: float) -> float:
    total: float = 0.0
    count: int = 0
    for i in range(n):
        total += x
        count += 1
    scale: float = 2
    return total * scale + count


def test_annotated_assignment(check):
    check(annotated, 4, 1.5)


@jit
def augmented_array_elements(a, i):
    a[i] += 1.0
    a[i - 1] *= 2.0
    a[-1] -= a[0]
    return a[i]


def test_augmented_array_elements(check):
    check(augmented_array_elements, np.array([1.0, 2.0, 3.0, 4.0]), 2)


@jit
def augmented_array_inplace(a, b):
    c = a
    c += b  # in place: a sees it too
    return a


def test_augmented_array_is_in_place(check):
    check(augmented_array_inplace, np.ones(3), np.array([1.0, 2.0, 3.0]))


# --------------------------------------------------------------------------
# returns, assert
# --------------------------------------------------------------------------


@jit
def bare_return(a, flag):
    if flag:
        return
    a[0] = 2.0  # and falls off the end: None


def test_return_none(check):
    check(bare_return, np.zeros(2), True)
    check(bare_return, np.zeros(2), False)


@jit
def tuple_returns(a, b):
    return (a // b, a % b), ((a, (a + 1, a * 2.0)), a > 0)


@pytest.mark.parametrize("a,b", [(17, 5), (-17, 5), (17, -5)])
def test_tuple_and_nested_tuple_returns(check, a, b):
    check(tuple_returns, a, b)


@jit
def asserts(x):
    assert x > 0
    assert x < 100, "too big"
    return x * 2


@pytest.mark.parametrize("x", [5, -1, 100])
def test_assert(check, x):
    check(asserts, x)


def test_assert_message():
    with pytest.raises(AssertionError, match="too big"):
        asserts(1000)
    with pytest.raises(AssertionError):
        asserts(0)


# --------------------------------------------------------------------------
# calls to other @jit functions, recursion, keyword and default arguments
# --------------------------------------------------------------------------


@jit
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@pytest.mark.parametrize("n", [0, 1, 2, 10, 20])
def test_recursion_fib(check, n):
    check(fib, n)


@jit
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


@jit
def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


@pytest.mark.parametrize("n", [0, 1, 10, 7])
def test_mutual_recursion(check, n):
    check(is_even, n)


@jit
def hypot2(x, y=1.0, scale=2.0):
    return (x * x + y * y) * scale


@jit
def call_with_kwargs(a, b):
    return (hypot2(a), hypot2(a, b), hypot2(a, scale=0.5), hypot2(y=a, x=b), hypot2(a, b, 3.0),
            hypot2(x=a, scale=-1.0, y=b))


def test_call_other_jit_with_keywords_and_defaults(check):
    check(call_with_kwargs, 1.5, -2.0)


def test_defaults_at_top_level(check):
    check(hypot2, 3.0)
    check(hypot2, 3.0, 4.0)
    assert hypot2(3.0, scale=1.0) == 10.0
    assert hypot2(y=4.0, x=3.0) == 50.0


@jit
def scale_in_place(a, factor):
    for i in range(a.shape[0]):
        a[i] *= factor


@jit
def call_mutating(a):
    scale_in_place(a, 3.0)
    scale_in_place(a[::2], -1.0)
    return a.sum()


def test_callee_mutates_caller_array(check):
    check(call_mutating, np.arange(5.0))


@jit
def returns_pair(x):
    return x + 1, x - 1


@jit
def unpack_call(x):
    a, b = returns_pair(x)
    c = returns_pair(a)[1]
    return a * b + c


def test_unpack_result_of_call(check):
    check(unpack_call, 4)


def _plain_helper(x):
    return x + 1


# --------------------------------------------------------------------------
# module-level constants
# --------------------------------------------------------------------------

SCALE = 2.5
OFFSET = 7
FLAG = True
COEFFS = (1.0, -2.0, 0.5)
SHAPE = (2, 3)
TABLE = np.array([10, 20, 30, 40], dtype=np.int32)
GRID = np.arange(6.0).reshape(2, 3)


@jit
def use_scalar_constants(x):
    if FLAG:
        return x * SCALE + OFFSET
    return x


@jit
def use_container_constants(x, i):
    s = 0.0
    for c in COEFFS:
        s = s * x + c
    return s + COEFFS[0], SHAPE, TABLE[i] + GRID[1, i], TABLE.sum(), GRID.shape, np.zeros(SHAPE)


def test_scalar_constants(check):
    check(use_scalar_constants, 3)
    check(use_scalar_constants, 1.5)


@pytest.mark.parametrize("i", [0, 2, -1])
def test_tuple_and_array_constants(check, i):
    check(use_container_constants, 2.0, i)


# --------------------------------------------------------------------------
# evaluation order: Python evaluates left to right
# --------------------------------------------------------------------------


@jit
def record(log, value):
    log[log[0] + 1] = value
    log[0] += 1
    return value


@jit
def order_in_tuple(log):
    return record(log, 1), record(log, 2), record(log, 3)


@jit
def order_in_binary_op(log):
    return record(log, 1) - record(log, 2) * record(log, 3)


@jit
def order_in_call_args(log):
    return hypot2(record(log, 1), record(log, 2), record(log, 3))


@pytest.mark.parametrize("fn", [order_in_tuple, order_in_binary_op, order_in_call_args],
                         ids=["tuple", "binary-op", "call-args"])
def test_left_to_right_evaluation(check, fn):
    log = np.zeros(4, dtype=np.int64)
    check(fn, log)
    fn(log)
    assert list(log) == [3, 1, 2, 3]


@jit
def reversed_ranges(n, a, b, step):
    s = 0
    for i in reversed(range(n)):
        s = s * 3 + i
    for i in reversed(range(a, b)):
        s = s * 5 + i
    for i in reversed(range(a, b, step)):
        s = (s * 7 + i) % 1000003
    last = 0
    for i in reversed(range(-2**62, 2**62, 2**61 + 3)):  # values near int64's ends
        last = i
    return s, last


@pytest.mark.parametrize("n,a,b,step", [(6, 2, 9, 3), (0, 9, 2, -2), (4, -5, 5, -1), (3, 1, 20, 7), (2, 0, 5, 0)])
def test_reversed_ranges(check, n, a, b, step):
    check(reversed_ranges, n, a, b, step)  # step 0: range()'s ValueError
