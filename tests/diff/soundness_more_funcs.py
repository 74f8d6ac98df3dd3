"""Functions of tests/diff/test_soundness_more.py: Python numbers and NumPy
scalars chosen by `and`/`or`/conditional expressions (fuzzer class 12).
Line numbers matter to the tests: add new functions at the end."""
import math

import numpy as np  # noqa: F401 - the tests pass NumPy scalars


def bool_over_int_or_int64(x0, x2):
    return (not x2) / (x0 or x2)   # seed 3001 #670: a float when x0 is picked, an np.float64 when x2 is


def or_assigned_then_returned(x0, x2):
    v = x0 or x2
    return v


def chosen_in_arithmetic(x0, x2, n):
    v = x0 if n > 2 else x2
    return (x0 or x2) * 1.5, 2.0 / (x0 if n > 2 else x2), v * 2.0, (x0 and x2) - 1.0


def or_returned(x0, x2):
    return x0 or x2


def chain_of_three(x0, x2, x3):
    return (x0 or x2 or x3) % 0.5


def boxed_tuple_in_order(x1, x2):
    w2 = 0
    if -w2 == x2 + x2:
        w3 = 0
        return 1.0,                # the returns differ in shape: each builds a Python tuple
    return math.log(x1) // (w3 / 0), -math.fmod(w3, 1e-3)   # seed 7001 #375: ValueError first, as CPython


def param_retyped(x, c):
    if c:
        x = x * 0.5                # an int parameter that may become a float: held as a Python object
    s = 0
    for i in range(3):
        s += i
    return x + 1, x, s


def array_param_retyped(a, c):
    if c:
        a = 3.0
    else:
        a[0] = 7.0                 # the caller's own array (held parameters keep the argument's object)
    return a


def choice_in_statements(x, y, n):
    t = 0.0
    for i in range(n):
        t += i
    if (x if n > 2 else y) // 2 == 1:      # int or float by path: the test runs as Python
        t += 1
    r = 2 / (x if n > 1 else y)            # the statement runs as Python: ZeroDivisionError for 0 and 0.0
    return t, r, (x and y) % 3             # and the return


def held_index_in_python_test(x0, a1, x2, a3):   # seed 7001 #143, as generated
    x2 = np.sum(a1[1:])
    for i1 in range(3):
        if (not ((i1 // i1) < (-1 >= x0)) and (a3[x2] > max(i1, x0))):   # runs as Python: names held x2
            return x0, x0
    w2 = 0
    while w2 < 1:
        a1 //= ((a3 and np.int64(10)) // (x0 - i1))
        a1[w2 % len(a1)] += (i1 % i1)
        w2 += 1
    a1[-1] = a1[i1]
    return (np.int64(4611686018427387904) * (x0 if (w2 != x2) else i1)), x0


def scalar_then_array_operand(x3, a2):   # seed 7002 #143, reduced: still open (findings.md class 15)
    return (x3 / x3) - (a2 % 4611686018427387904)
