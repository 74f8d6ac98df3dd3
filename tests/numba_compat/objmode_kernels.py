"""Numba-style kernels with `with objmode(...)` blocks (tests/numba_compat/test_objmode.py)."""
import numpy as np

from transpile.numba_compat import njit, objmode, types


@njit
def timed_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    with objmode(scale="float64", label="unicode_type"):
        scale = float(len(str(a.shape[0])))  # anything Python can do
        label = "n=" + str(a.shape[0])
    return s * scale, label


@njit
def sorted_copy(a):
    with objmode(out=types.float64[:], k="intp"):
        out = np.sort(a)[::-1].copy()
        k = int(np.argmax(a))
    total = 0.0
    for i in range(out.shape[0]):
        total += out[i] * (i + 1)
    return total, k


@njit
def per_row(a):
    acc = np.zeros(a.shape[0])
    for i in range(a.shape[0]):
        with objmode(m="float64"):
            m = float(np.median(a[i]))  # reads the compiled loop's i and a
        acc[i] = m + i
    return acc


@njit
def wrong_type(x):
    with objmode(y="float64"):
        y = "not a float"
    return y + x


@njit
def undeclared_write(x):
    with objmode(y="int64"):
        y = 3
        z = 4  # not declared: a Python object after the block
    return y + x
