"""Module-level values read by compiled code (live globals).  Tests rebind
these globals and restore them."""
import statistics
import types

import numpy as np

from tests.fallback import globals_conf as conf
from transpile import jit, jit_class

v = 1.0
K = 3
PAIR = (2, 0.5)
gp = types.SimpleNamespace(v=2.0, arr=np.arange(3.0))
TABLE = np.zeros(4)


@jit_class
class Holder:
    def __init__(self, x):
        self.x = x
        self.data = np.ones(2)


H = Holder(1.5)


def set_v(value):
    global v
    v = value


@jit
def reads(x):
    """Frozen immutable values (v, K, PAIR) and live attributes (gp.v, conf.scale, H.x)."""
    return x + v, x * K + PAIR[1], x + gp.v, x * conf.scale, x + H.x + H.data[1]


@jit
def writes_table(i, value):
    TABLE[i] = value  # the module's own array, written in place
    gp.arr[i % 3] += value
    return TABLE.sum() + gp.arr.sum()


@jit
def rebinds_in_fallback(x):
    a = x + gp.v + v
    gp.v = statistics.fmean([gp.v, 10.0])  # runs as Python: the compiled read below sees it
    set_v(float(statistics.median([7.0, 8.0, 9.0])))
    return a, x + gp.v, TABLE[0] + x


@jit
def loop_over_table(n):
    s = 0.0
    for i in range(n):
        s += TABLE[i % TABLE.shape[0]] * conf.scale
    return s


@jit
def scaled(x):
    return x * conf.scale + TABLE[0]


@jit
def calls_scaled(x):
    first = scaled(x)  # the callee reads its live values when it starts
    conf.scale = statistics.fmean([conf.scale, 6.0])  # runs as Python
    return first, scaled(x), x * conf.scale


@jit
def constants_only(x):
    """Only frozen module constants: the bridge compares the module dict's version."""
    return x * K + v + PAIR[0]
