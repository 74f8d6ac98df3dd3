"""Programs the differential fuzzer found (tests/fuzz/findings.md, classes 7-9), reduced.
Line numbers matter to the tests that name them: add new functions at the end."""
import operator
import statistics

import numpy as np

COUNTER = 0


def rebound_then_unused(x, a):
    if x < 0:
        x = a                      # an array into an int parameter: runs as Python; nothing reads x after
    return len(a)


def unread_fallback_result(a, c):
    if c:
        v = a
    else:
        v = statistics.fmean([1.0, 2.0])   # noqa: F841 - a float where v is an array elsewhere; never read
    return len(a)


def unknown_value_meets_arithmetic(a):
    b = a * 1.0
    v = np.int64(a)                # an array (np.int64 of an array): runs as Python
    b += v                         # so does every statement naming v
    return b, v + 1


def unknown_type_accumulated(a, n):
    t = 0.0
    for i in range(n):
        w = operator.pos(a[i])     # an np.float64, which compiled code would have taken for a float
        t += w
    return t


def int_or_float_index(x, c):
    k = 1
    if c:
        k = 1.5
    return x[k]                    # k is held as a Python object: IndexError for the float, as CPython


def int_or_float_call(c):
    v = 3
    if c:
        v = 2.5
    return round(v), v * 2         # round() of an int or a float by path


def global_counter(x, n):
    global COUNTER
    s = 0
    for i in range(n):
        COUNTER = COUNTER + i      # runs as Python, declared global there too
        s += COUNTER * x           # reads COUNTER: runs as Python (s is then a Python object)
    return s, COUNTER


def global_rebound_to_float(x):
    global COUNTER
    COUNTER = COUNTER + 0.5        # another type mid-call: compiled code never reads a stale int
    return x * COUNTER


def unbound_after_region(x, c):
    if c > 0:
        try:                       # runs as Python, and may leave v unassigned
            v = x + 1
        except ValueError:
            pass
    return v * 2                   # UnboundLocalError when it did; an int (not 4.0) when it did not


def unbound_operand_order(c):
    if c:
        v = 1.0
    return np.int32(4611686018427387904) + v   # the left operand's OverflowError comes first


def early_return_after_python_test(a, n):
    s = 0.0
    for i in range(n):
        if operator.lt(a[i], 2.0):   # the test runs as Python on its own; the return stays compiled
            return s
        s += a[i]
    return -s


def or_of_int_and_int32(x):
    return (x ** 0.5) / (3000000000 or np.int32(-1))   # the int is not held as an int32 (it would wrap)


def unbound_object_before_index(c, a):
    # seed 9401 #2021: v is a Python object (bool or np.bool_ by path); its
    # UnboundLocalError comes before a[1]'s IndexError
    if c > 5:
        v = (c == c != np.uint16(2))
    return v, a[1]
    return a,


def container_operand_before_index(k, a):
    # d[k] is a list (not a scalar) whose KeyError comes before a[5]'s IndexError
    d = {1: [1.0]}
    return d[k], a[5]


def array_variable_given_a_maybe_array(a0, a1, c):
    # seed 9401 #2692: v3 is an array or a float by path; storing it into the
    # array variable v2 made C++ g++ rejected (now: those two statements run as Python)
    v2 = a0 * 2.0
    v3 = (a0 / a1) if c > 0 else 1.0
    if c > 5:
        v2 = v3                     # never read again
    return 10,


def python_float_or_np_float64_into_python(a):
    # seed 9501 #964: v is a Python float or an np.float64 by path; the
    # statement that runs as Python received an np.float64 either way
    v = (a - 1.0) or -0.0
    return str(type(v)), (v < 2.0 > v) // (not np.int8(-1))


def max_of_python_float_and_np_float64(x, y):
    # seed 9501 #3491: max/min return the argument they pick, a Python float
    # or an np.float64, where the types differ only in that
    v = max(x, y)
    return max(x, y), min(x, y), v, v * 2.0, max(0.0, y * x)


def max_returned(x, y):
    return min(max(x, y), 1.0)  # the flag of the argument picked crosses with the scalar result


def flag_from_a_float32_variable(x0, x1, a2):
    # seed 9701 #748 (reduced): x1 is a Python float, then float32 (its C++
    # type); `x0 = x1` took x0's Python-float flag from it as if x1 held the
    # float64 unrounded (np.float32(0.0) for 5e-324; the fuzzer's KeyError)
    x0 = x1
    x1 = a2[0]
    return x0, x1


def truth_of_a_value_from_python(x0, x1):
    # seed 9801 #5204: v2 from a statement that runs as Python (a float) was
    # converted to uint32, its compiled type, for `not v2` (a truth test was
    # taken to be the same whatever the type): TypeError, or 0.5 tested as 0
    x1 //= x0
    v1 = x1
    if (((x1 if (not (np.int32(7) >= np.complex128(0.0-1.0j)) or (x0 < x1)) else x0) < v1)
            and ((v1 and np.uint32(1)) <= (x1 - v1))):
        if ((x1 != x0) or ((x0 * x0) >= 2147483648)):
            return ((x1 % v1) // (-1.5 // x0)), v1, x0
    v2 = np.uint32(4294967294)
    v2 = ((np.abs(v1) == (np.False_ ** 3)) - np.sqrt((v1 and np.uint8(1))))
    return -0.0, 0.0, ((not v2) - (not np.uint8(255)))


def parameter_beside_another_type(x1, x3):
    # seed 10101 #2399 (reduced): x3, a Python float parameter, is an np.bool_
    # on another path; returned unchanged it came back as np.float64 (the
    # slot of its own type started empty for a parameter)
    if x1 < 0:
        x3 = (x3 * x1) == 1.0
    return x3
