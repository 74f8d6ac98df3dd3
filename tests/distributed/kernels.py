"""Kernels the distributed tests send to worker processes (importable, so
they pickle by reference), and the worker-side helpers."""
from __future__ import annotations

import os
import statistics
import tempfile

import numpy as np

import transpile
from transpile import jit, jit_class


@jit
def weighted_sum(a, k):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * k + i
    return s


@jit
def smooth(a):
    out = np.empty_like(a)
    out[0] = a[0]
    for i in range(1, a.shape[0]):
        out[i] = 0.5 * (a[i] + out[i - 1])
    return out


@jit_class
class Scaler:
    def __init__(self, k):
        self.k = k

    def apply(self, a):
        return a * self.k


_BASELINE = [0]


def fresh_worker() -> None:
    """Worker initializer: an empty cache of its own and no C++ compiler, so
    only artifacts that arrive in pickles can make compiled code run; counts
    compiles from here (a forked worker inherits its parent's count)."""
    os.environ["TRANSPILE_CACHE_DIR"] = tempfile.mkdtemp(prefix="transpile-worker-cache-")
    os.environ["CXX"] = "/nonexistent/c++"
    _BASELINE[0] = transpile.compile_count()


def call(f, *args):
    """Runs f in a worker: its result, the compiles this worker made so far,
    and how many compiled specializations f has loaded (0: it ran as Python)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # running as Python for want of a compiler warns: fail instead
        result = f(*args)
    return result, transpile.compile_count() - _BASELINE[0], f.overload_count


def make_local():
    """A @jit function no name reaches (pickled by value)."""
    @jit
    def poly(a, c):
        s = 0.0
        for i in range(a.shape[0]):
            s += c * a[i] * a[i] - i
        return s

    return poly


@jit
def spin(n, x):
    """Pure number crunching: runs with the GIL released."""
    s = 0.0
    for i in range(n):
        s += (x * i) % 7.0
    return s


@jit
def spin_with_fallback(n, x):
    """A JIT Fallback statement (Python code) inside: keeps the GIL."""
    s = 0.0
    for i in range(n):
        s += (x * i) % 7.0
    m = statistics.median([s, 1.0, 2.0])
    return s + m


def make_local_class():
    """A @jit_class no name reaches (not picklable: classes go by reference)."""
    @jit_class
    class Local:
        def __init__(self, k):
            self.k = k

        def apply(self, a):
            return a * self.k

    return Local
