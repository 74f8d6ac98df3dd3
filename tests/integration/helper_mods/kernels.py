"""@jit functions calling plain helpers: same module, another module, three deep."""
import numpy as np

from transpile import jit

from .geometry import length, unit


def clamp(x, lo, hi):
    return min(max(x, lo), hi)


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def squares(n):
    for i in range(n):
        yield i * i


@jit
def total_length(points):
    s = 0.0
    for i in range(points.shape[0]):
        s += length(points[i])          # helper in another module, which calls dot3
    return s


@jit
def clamped_units(points, lo, hi):
    out = np.empty_like(points)
    for i in range(points.shape[0]):
        u = unit(points[i])             # three deep: unit -> length -> dot3
        for j in range(3):
            out[i, j] = clamp(u[j], lo, hi)
    return out


@jit
def recursive_helper(n):
    return fib(n) + 1


@jit
def generator_helper(n):
    # squares is a generator and cannot be compiled: this statement alone runs as Python
    t = sum(squares(n))  # @jit.typing: () -> int
    return t + fib(5)


@jit
def closure_sum(a, k):
    def scaled(x):
        return x * k + shift           # k and shift come from the enclosing function

    shift = 0.5
    s = 0.0
    for i in range(a.shape[0]):
        s += scaled(a[i])
    shift = 2.0                         # late binding: later calls see the new value
    return s + scaled(1.0)
