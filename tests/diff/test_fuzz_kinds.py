"""Classes found by the fuzzer's unsigned, small-int, bool and complex kinds
(tests/fuzz/findings.md, fourth series), each fixed by a rule, not a case.

Complex numbers are ordered as NumPy orders them, by real part, then
imaginary part: np.complex128's operators (and the builtins max/min through
them) just so; its ufuncs (np.less & co., array operators) let a real part
decide only when neither imaginary part is NaN, and np.maximum/minimum/
fmax/fmin propagate or skip a NaN in either part. The C++ complex type had
no ordering, so g++ rejected every such function.

`a < b < c` is its first false comparison's result, or its last: an
np.bool_ when every comparison gives one (compiled code returned a Python
bool); where the comparisons give a bool and an np.bool_, the type depends
on which one decides, so the statement runs as Python unless the chain is
only truth-tested."""
import math

import numpy as np

from ._support import jit

NAN, INF = math.nan, math.inf
PARTS = (NAN, -INF, -1.0, -0.0, 0.0, 2.0, INF)
VALUES = np.array([complex(r, i) for r in PARTS for i in PARTS])


def parts_equal(got, expected):
    """Type, and both parts bit for bit up to NaN payloads (the sign of zero and
    which operand a NaN came from show here, not in ==)."""
    assert type(got) is type(expected), (got, expected)
    if isinstance(expected, tuple):
        for g, e in zip(got, expected):
            parts_equal(g, e)
        return
    g = np.array(got, dtype=np.complex128, ndmin=1).view(np.float64)
    e = np.array(expected, dtype=np.complex128, ndmin=1).view(np.float64)
    np.testing.assert_array_equal(np.signbit(g), np.signbit(e))
    np.testing.assert_array_equal(g, e)


def same(fn, *args):
    parts_equal(fn(*args), fn.py_func(*args))


@jit
def scalar_orderings(a, b):
    return (a < b, a <= b, a > b, a >= b, a < b < 1.0 + 0j,
            np.less(a, b), np.less_equal(a, b), np.greater(a, b), np.greater_equal(a, b),
            np.maximum(a, b), np.minimum(a, b), np.fmax(a, b), np.fmin(b, a), max(a, b), min(a, b))


@jit
def array_orderings(x, y, s):
    return (x < y, x >= y, y > s, np.less_equal(x, s), np.greater(s, y),
            np.maximum(x, y), np.minimum(x, y), np.maximum(x, s), np.fmax(y, x), np.fmin(s, x))


def test_scalar_orderings():
    for a in VALUES[::3]:
        for b in VALUES[::2]:
            same(scalar_orderings, np.complex128(a), np.complex128(b))


def test_array_orderings():
    y = VALUES[::-1].copy()
    for s in (np.complex128(0.0), np.complex128(complex(2.0, NAN)), np.complex128(complex(-INF, 0.0))):
        same(array_orderings, VALUES, y, s)
    finite = np.array([1 + 2j, 1 - 3j, -0.0 + 1j, 2 + 0j])
    same(array_orderings, finite, finite[::-1].copy(), np.complex128(1 + 0j))


@jit
def chains(a, b, c):
    # NumPy scalars: each comparison is an np.bool_, so the chain is one too
    return a < b < c, a <= b == b, c > b >= a != c, (a < b < c) == (b < c)


@jit
def chain_tested(x, a):
    # a Python int and an np.float64: bool or np.bool_ by path, only truth-tested here
    n = 0
    if x < 1 < a:
        n += 1
    while n < 3 and not (x <= a <= 2):
        n += 2
    return n, (5 if 0 <= x < a else 6)


def test_chained_comparisons(check):
    for a, b, c in ((1.0, 0.0, 2.0), (0.0, 1.0, 2.0), (0.0, 1.0, 0.5), (2.0, 2.0, 2.0), (np.nan, 1.0, 2.0)):
        check(chains, np.float64(a), np.float64(b), np.float64(c))
        check(chains, np.float32(a), np.float32(b), np.float32(c))
    check(chains, np.uint64(2**64 - 1), np.uint64(2**63), np.uint64(0))
    check(chains, np.complex128(1j), np.complex128(1 + 0j), np.complex128(2 + 0j))
    for x, a in ((0, np.float64(2.0)), (2, np.float64(2.0)), (0, np.float64(0.5)), (-1, np.float64(-2.0))):
        check(chain_tested, x, a)


# NaN, infinities, values out of each integer dtype's range, and in range near the ends.
FLOATS_TO_CAST = (NAN, INF, -INF, 1e300, -1e300, 2.0**64, 2.0**64 + 4096, 2.0**63, 2.0**63 - 1024, -2.0**63,
                  -2.0**63 - 4096, 1.8e19, 2.0**32 + 5, 2.0**31, 2.0**31 - 0.5, -2.0**31 - 0.5, -2.0**31 - 1,
                  70000.0, 65536.5, -70000.0, 300.0, -129.0, -1.5, -0.5, 0.0, 255.9)


@jit
def float_to_ints(x):
    # NumPy scalars cast (Python floats convert as int() would: stores.py); out of range,
    # NumPy gives what its C cast gives on the machine, which C++ leaves undefined
    return (np.int8(x), np.int16(x), np.int32(x), np.int64(x), np.uint8(x), np.uint16(x), np.uint32(x),
            np.uint64(x))


float_to_ints_native = jit(float_to_ints.py_func, jit_level="O1")  # -march=native: AVX-512 has its own conversions


def test_float_scalars_cast_to_integers_as_numpy_does(check):
    """np.uint16(np.float64(-1.5)) is 65535 in NumPy; compiled code gave 0 (the
    fuzzer's unsigned kinds: GCC folded the undefined conversion of a constant)."""
    for x in FLOATS_TO_CAST:
        for fn in (float_to_ints, float_to_ints_native):
            check(fn, np.float64(x))
            check(fn, np.float32(x))
            check(fn, np.complex128(complex(x, 1.0)))


@jit
def u64_element_read(a, u):
    return a[u]


@jit
def u64_element_store(a, u):
    a[u] *= 2.0
    a[u] = 1.5
    return a


@jit
def u64_slices(a, u):
    return a[u:], a[:u], a[1:u:u], a[u:0:-1]


@jit
def u64_items(a, u):
    xs = [1.0, 2.0, 3.0]
    t = (a[0], a[1], a[2])
    return t[u], xs[u]


def test_uint64_indices_beyond_int64(check):
    """An np.uint64 index of 2**63 or more wrapped to a negative int64 (fuzz
    seed 8202 #334: a1[x0] *= ... with x0 = 2**64 - 1 wrote a1[-1] where
    NumPy raises OverflowError); a list or tuple raises IndexError, a slice
    bound clamps."""
    for u in (2**64 - 1, 2**63, 2**63 - 1, 3, 1, 0):
        a = np.arange(4.0)
        for fn in (u64_element_read, u64_element_store, u64_slices, u64_items):
            check(fn, a, np.uint64(u))
