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
