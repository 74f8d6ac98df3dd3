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


def python_or_compiled_return(a, k):
    if k > 2:
        return tuple(itertools.islice(a, 2))   # runs as Python: a Python object
    return a[0], k                             # compiled: boxed with its own types


def python_return_of_an_int(k):
    if k > 2:
        return int(sum(itertools.repeat(1, k)))   # runs as Python: an int
    return k * 0.5                                # compiled: a float
