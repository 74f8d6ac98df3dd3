"""Functions that print, for tests/diff/test_print.py (compiled with
fullgraph=True, so a print that fell back would fail the tests)."""
from __future__ import annotations

import sys

import numpy as np

from transpile import prange

from ._support import jit


@jit
def scalars(x, n, flag, s, f32, z, items):
    print(x, n, flag, s)
    print("a", 1.5, True, False, None, -0.0, 1e16, 1e-5, 0.1 + 0.2, 2**62, sep="|")
    print((1, "it's", 2.5), (3,), (), ("q\"uote", None, (True, -1)), sep=", ", end=" <end>\n")
    print(np.int32(n), np.float64(x), np.uint8(200), np.bool_(flag), f32, z, 1j, 2 - 3j)
    print((np.float64(x), n), (f32, s))
    print(x * n, file=sys.stderr)
    print(n, file=sys.stderr, end="", flush=True)
    print(file=sys.stderr)
    print()
    print(s, s, sep=s, end=s)
    print(sep=None, end=None)
    total = 0.0
    for i in range(items.shape[0]):
        print(i, items[i], end=";", flush=i % 2 == 0)
        total += items[i]
    print()
    return total


@jit
def containers(a, m, k):
    print(a)
    print(m, m[0], m.T, sep="\n")
    print(a > 0.5, a.astype(np.float32), a.shape)
    d = {1: 2.5, 3: -1.0}
    st = {k}
    print(d, st)
    t = None
    if k > 2:
        t = k * 2
    print(t, None)
    lst = [1.5, 2.0]
    lst.append(k * 1.0)
    print(lst, [(1, 2.5)], [[1, 2], [3]], [a, a[:1]])
    return t


@jit
def list_argument(values):
    values.append(len(values) * 0.5)
    print(values)
    return len(values)


@jit
def float_texts(values):
    for i in range(values.shape[0]):
        v = values[i]
        print(v, float(v), -v, v / 3)


@jit
def running_sum(x):
    s = 0.0  # a Python float, an np.float64 once an element is added: both print alike
    for i in range(x.shape[0]):
        s += x[i]
    print("sum is", s, end=";\n")
    return s


@jit
def in_prange(n):
    out = np.zeros(n)
    for i in prange(n):
        print("iteration", i)
        out[i] = i * 2.0
    return out


@jit
def to_stdout(n):
    print("compiled", n)
    return n + 1
