"""Programs the differential fuzzer found (tests/fuzz), kept as regression tests."""
import math

import numpy as np


def stale_coerce(a0, a1, a2, x3):   # fuzz seed 11, program 9
    a2[-2] = np.sum(a0[1:])
    v1 = ((x3 > x3) // a0)
    v1[-3] = 1e-3
    w2 = 0
    while w2 < 3:
        for i3 in range(len(a1)):
            a2 *= (w2 <= i3)
            x3 = np.sqrt(v1)
            v4 = ((w2 == i3) % math.trunc(i3))
        w2 += 1
    if (not ((i3 >= i3) > np.int64(3)) and ((w2 ** 0) != (-v4))):
        v4 = v4
    v5 = ((False ** 2) + x3[-1])         # Any (runs as Python) in an early typing pass ...
    v5 = ((0 + a0) / (w2 - v5))          # ... an array once typing settles: no stale float conversion
    return v1, ((a2 * np.float64(0.5)) ** 2)


def unbound_read_by_python(x0, x3):   # fuzz seed 505, program 26 (reduced)
    if x3 > 100:
        v1 = x3 - 5
    if x3 != 0:
        v2 = (v1 // np.int32(5)) + 3000000000   # runs as Python (a Python int beyond int64 arithmetic)
    return v2,


def unbound_not_read_on_this_path(c, x3):
    if x3 > 100:
        v1 = x3 - 5
    v2 = sorted([v1, 2]) if c else [x3]   # runs as Python; reads v1 only when c
    return len(v2)


def unknown_choice_meets_arithmetic(x0, a1, c):   # fuzz seed 8201, program 187 (reduced)
    v1 = (x0 ** 0) != False       # runs as Python (x0 is held): v1's type is unknown
    a1[0] += (v1 if c else v1) ** 0
    t = (v1 and x0) * 2           # an `and` of it
    x0 = 1.5                      # makes x0 a float or a uint8 by path
    return a1, t, (v1 if c else c) + 1


def type_left_by_an_earlier_pass(a0):   # fuzz seed 9401, program 3011 (reduced)
    v1 = a0[-1] % np.int32(a0)  # runs as Python: an int32 array
    v1 = a0 * (v1 if a0[0] > 0 else np.uint8(1))  # compiles in the first typing pass only
    v1[0] = -2
    return v1


def unknown_assigned_to_a_typed_parameter(x0, a2):   # fuzz seed 9501, program 4476 (reduced)
    v1 = (-a2) / (-1.5 if np.complex128(2.0) != np.uint64(0) else np.int64(10))  # runs as Python: an array
    x0 = v1
    return a2


def unknown_assigned_to_a_typed_parameter_then_read(x0, a2):
    v1 = (-a2) / (-1.5 if np.complex128(2.0) != np.uint64(0) else np.int64(10))
    x0 = v1
    return x0 + 1
