"""Programs the differential fuzzer found (tests/fuzz/findings.md), reduced."""
import numpy as np


def early_tuple_or_array_expression(a, c):
    w = 0
    if c > 0:
        return a,
    return (w + a), a        # an array expression boxed beside a 1-tuple: evaluated first


def max_of_int_and_float(x):
    return max(3, x)         # 3 (an int) or x: the argument max() picks keeps its type


def max_then_arithmetic(x):
    return max(3, x) + 1.0   # a float either way


def integer_constructors(v):
    return np.int64(v), np.int32(v * 0.5), np.int32(5), np.uint8(-0.5)   # as int() converts, and must fit
