"""Functions whose result array comes out of a statement that runs as Python."""
import itertools

import numpy as np


def repeat_loop(x, n):
    w = np.zeros(2)
    for _ in itertools.repeat(None, n):   # runs as Python; w += 1.0 there is in place
        w += 1.0
    return w


def rebound_in_python(x, n):
    w = np.zeros(3)
    for _ in itertools.repeat(None, n):   # runs as Python; rebinds w to a new array
        w = w + x[:3]
    return w
