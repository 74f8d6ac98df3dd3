"""`x % m` and `x // m` with m fixed through a loop multiply by m's cached
reciprocal (passes/divisors.py, transpile_rt/ops/divisor.hpp) where both
operands lie in [0, 2^32), and take the ordinary division elsewhere.  These
compare every quotient and remainder with CPython's over the fast path's
edges, the operands it hands on (negative, wide, zero), divisors that change
between runs of the loop, and NumPy's int64 scalars."""
import numpy as np
import pytest

from ..golden.fast_path_funcs import bench
from ._support import jit

EDGES = [0, 1, 2, 3, 7, 2 ** 16, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 2, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1,
         2 ** 40 + 5, 2 ** 62, 2 ** 63 - 1, -1, -2, -7, -(2 ** 32), -(2 ** 63)]


fib_mod = jit(bench.fib_mod)  # benchmarks/kernels.py's own


@jit
def python_table(xs, ms, q, r):
    """Python ints: the divisor is fixed in the inner loop, changes in the outer."""
    for j in range(ms.shape[0]):
        m = int(ms[j])
        for i in range(xs.shape[0]):
            x = int(xs[i])
            q[j, i] = x // m
            r[j, i] = x % m


@jit
def numpy_table(xs, ms, q, r):
    """NumPy int64 scalars (an element of an int64 array and a divisor read from one)."""
    for j in range(ms.shape[0]):
        m = ms[j]
        for i in range(xs.shape[0]):
            q[j, i] = xs[i] // m
            r[j, i] = xs[i] % m


@jit
def while_mod(x, m):
    steps = 0
    while x > 0:
        x = x // m
        steps += x % m
    return steps


@jit
def writes_until_zero(ms, out):
    """ZeroDivisionError at the division that meets m == 0, after the writes before it."""
    k = 0
    for j in range(ms.shape[0]):
        m = int(ms[j])
        for i in range(3):
            out[k] = (i + 5) % m
            k += 1
    return k


@jit
def comprehension_mod(n, m):
    total = 0
    for j in range(n):
        total += sum([x % m + x // m for x in range(j, j + 5)])
    return total


def _operands(rng):
    narrow = rng.integers(0, 2 ** 32, 300, dtype=np.int64)
    wide = rng.integers(-(2 ** 63), 2 ** 63 - 1, 100, dtype=np.int64)
    return np.concatenate([np.array(EDGES, dtype=np.int64), narrow, wide])


def test_fib_mod(check):
    for m in (1_000_003, 1, 2, 97, 2 ** 32 - 1, 2 ** 32 + 15, -97):
        check(fib_mod, 2_000, m)


def test_python_ints_over_edges_and_random(check):
    rng = np.random.default_rng(7)
    xs = _operands(rng)
    ms = np.array([m for m in _operands(rng)[::3] if m != 0], dtype=np.int64)
    # -2^63 // -1 is 2^63, which an int64 cannot hold: its own test elsewhere
    xs = xs[xs != -(2 ** 63)]
    shape = (ms.size, xs.size)
    check(python_table, xs, ms, np.zeros(shape, np.int64), np.zeros(shape, np.int64))


def test_numpy_int64_scalars(check):
    rng = np.random.default_rng(8)
    xs = _operands(rng)
    xs = xs[xs != -(2 ** 63)]
    ms = np.array([m for m in _operands(rng)[1::3] if m != 0], dtype=np.int64)
    shape = (ms.size, xs.size)
    check(numpy_table, xs, ms, np.zeros(shape, np.int64), np.zeros(shape, np.int64))


@pytest.mark.parametrize("x, m", [(10 ** 12, 3), (2 ** 40, 2), (12345, 10), (2 ** 32 - 1, 2 ** 32 - 1)])
def test_while_loop(check, x, m):
    check(while_mod, x, m)


def test_zero_divisor_raises_after_earlier_writes(check):
    check(writes_until_zero, np.array([7, 3, 0, 5], dtype=np.int64), np.zeros(12, np.int64))


def test_inside_a_comprehension(check):
    check(comprehension_mod, 40, 6)
    check(comprehension_mod, 40, 2 ** 33 + 1)
