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
