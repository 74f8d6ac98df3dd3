"""The fast paths of the performance work keep CPython's results:
`x ** 2` without calling pow where the square's rounding proves pow's answer
(runtime scalar.hpp: libm_square), math.sin/cos/tan checking their argument
rather than their result (math/math.hpp), and `if v % 2**k == 0:` selects
testing v's low bits in place (cxx/lower_select.py: tr::select_bits)."""
import math

import numpy as np
import pytest

from ._support import jit


@jit
def squares(a, out):
    for i in range(a.shape[0]):
        x = float(a[i])
        out[i] = x ** 2


def _near_midpoint(rng, count, lo, hi, binades=400):
    """x (any sign, 2^-binades .. 2^binades) whose exact square lies d ULP
    from x*x, d uniform in [lo, hi] (0.5: halfway to the next double, where pow and x*x
    part).  The significand m (53 bits) solves m^2 = c (mod 2^t), t the 52 or
    53 bits below the square's rounding point and c those bits, a square root
    lifted one bit at a time (c = 1 mod 8, as every odd square is)."""
    t = rng.choice(np.array([52, 53], dtype=np.uint64), count)
    half = np.uint64(1) << (t - np.uint64(1))
    off = ((0.5 - rng.uniform(lo, hi, count)) * 2.0 ** t.astype(float)).astype(np.uint64)
    c = np.where(rng.random(count) < 0.5, half + off, half - off)
    c = c - ((c - np.uint64(1)) & np.uint64(7))  # = 1 (mod 8)
    mask = (np.uint64(1) << t) - np.uint64(1)
    r = np.ones(count, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for i in range(3, 53):
            bit = (((r * r - c) >> np.uint64(i)) & np.uint64(1)).astype(bool) & (np.uint64(i) < t)
            r = np.where(bit, r + (np.uint64(1) << np.uint64(i - 1)), r)
        xs = []
        for m in (r, np.uint64(0) - r, r + half, half - r):
            m = (m & mask) + np.where(t == 52, np.uint64(1) << np.uint64(52), np.uint64(0))
            ok = (m >= np.uint64(1) << np.uint64(52)) & (m < np.uint64(1) << np.uint64(53))
            ok &= (m > np.uint64(6369051672525772)) == (t == 53)  # m^2 >= 2^105: 53 bits below the rounding
            xs.append(m[ok])
    m = np.concatenate(xs)
    x = np.ldexp(m.astype(float), rng.integers(-binades, binades, m.size) - 52)
    return np.where(rng.random(m.size) < 0.5, -x, x)


def _square_inputs():
    """~3.5M x: uniform near 1, log-uniform over every binade whose square is
    finite, random bit patterns, the ODE benchmark's squares, x whose square
    lies at the midpoint, 0.487-0.497 ULP from x*x (the table's thresholds are
    0.455-0.488 ULP; glibc's pow misrounds squares from ~0.492 ULP on) or
    anywhere in 0.45-0.5, powers of two with their neighbours, subnormals and
    specials."""
    rng = np.random.default_rng(14)
    near = rng.random(600_000) * 4.0 - 2.0
    binades = np.ldexp(1.0 + rng.random(600_000), rng.integers(-560, 512, 600_000))
    binades[::2] *= -1
    patterns = rng.integers(0, 2 ** 64, 600_000, dtype=np.uint64, endpoint=False).view(np.float64)
    patterns = patterns[~(np.abs(patterns) >= 2.0 ** 512)]  # x ** 2 overflowing raises: tested below
    patterns = np.where(np.isnan(patterns), np.nan, patterns)  # CPython returns a signaling NaN as it is
    steps = np.arange(500_000) * (2.0 / 500_000)
    ode = np.concatenate([(steps - 0.3) ** 2 + 0.01, (steps - 0.9) ** 2 + 0.04])  # humps_deriv's bases
    powers = np.ldexp(1.0, np.arange(-1074, 512))
    powers = np.concatenate([powers, np.nextafter(powers, 0.0), np.nextafter(powers, np.inf)])
    edges = [0.0, -0.0, 1.0, -1.0, 2.0, 0.5, 3.0, 2.0 ** -45, 2.0 ** 45, 2.0 ** -45.5, 2.0 ** 45.5,
             5e-324, 1e-310, 2.0 ** -511, 1e154, -1e154, 1.3407807929942596e154, float("inf"), float("-inf"),
             float("nan"), -float("nan"), 993.6293129383679, 700.362795162052, 4.973195287413579, 711.0887173020436]
    closest = _near_midpoint(rng, 300_000, 0.487, 0.497, 8)  # where glibc's misrounded squares come nearest x*x
    return np.concatenate([near, binades, patterns, ode, _near_midpoint(rng, 200_000, 0.4999, 0.5), closest,
                           _near_midpoint(rng, 100_000, 0.45, 0.5), powers, -powers, edges])


def test_square_is_cpython_square_bit_for_bit():
    a = _square_inputs()
    out = np.empty_like(a)
    squares(a, out)
    expected = np.array([float(x) ** 2 for x in a.tolist()])
    mismatch = np.flatnonzero(out.view(np.uint64) != expected.view(np.uint64))
    assert mismatch.size == 0, [(a[i].hex(), out[i].hex(), expected[i].hex()) for i in mismatch[:5]]


@jit
def square(x):
    return x ** 2


def test_square_overflow_raises_as_cpython():
    for x in (1e200, -1.5e154):
        with pytest.raises(OverflowError):
            square.py_func(x)
        with pytest.raises(OverflowError):
            square(x)
    assert square(1e154).hex() == square.py_func(1e154).hex()


@jit
def trig(x):
    return math.sin(x), math.cos(x), math.tan(x)


def test_trig_checks_its_argument():
    for x in (0.0, -0.0, 1.0, -2.5, 1e300, 5e-324, math.pi / 2, float("nan")):
        got, expected = trig(x), trig.py_func(x)
        assert [g.hex() for g in got] == [e.hex() for e in expected], x
    for x in (float("inf"), float("-inf")):
        with pytest.raises(ValueError, match="math domain error"):
            trig.py_func(x)
        with pytest.raises(ValueError, match="math domain error"):
            trig(x)


@jit
def low_bits(n, limit):
    x = n
    steps = 0
    while x != 1 and steps < limit:
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
        if x % 8:
            y = x - 1
        else:
            y = x + 5
        steps += 1 + (y & 1)
    return x, steps


def test_low_bit_selects_match_cpython_for_any_sign():
    for n in (1, 6, 27, 97, -1, -5, -8, -17, 2 ** 40 + 1, -(2 ** 40) - 3):
        for arg in (n, np.int64(n)):
            assert low_bits(arg, 300) == low_bits.py_func(arg, 300), n


def test_low_bit_selects_test_in_place():
    low_bits(27, 10)
    cxx = low_bits.inspect_cxx()
    assert "tr::select_bits<1>(" in cxx and "tr::select_bits<7>(" in cxx


def decay(t, y):
    """A one-expression right-hand side: inlined into the solver."""
    return math.cos(t) - 0.5 * y


@jit
def rk4_steps(f, t0, y0, dt, n, out):
    t, y = t0, y0
    for i in range(n):
        k1 = f(t, y)
        k2 = f(t + 0.5 * dt, y + 0.5 * dt * k1)
        k3 = f(t + 0.5 * dt, y + 0.5 * dt * k2)
        k4 = f(t + dt, y + dt * k3)
        y = y + dt * (k1 + 2.0 * k2 + 2.0 * k3 + k4) / 6.0
        t = t + dt
        out[i] = y
    return t, y


def test_inlined_right_hand_side_matches_cpython():
    got_out, expected_out = np.zeros(200), np.zeros(200)
    got = rk4_steps(decay, 0.0, 1.0, 0.01, 200, got_out)
    expected = rk4_steps.py_func(decay, 0.0, 1.0, 0.01, 200, expected_out)
    assert [g.hex() for g in got] == [e.hex() for e in expected]
    assert np.array_equal(got_out.view(np.uint64), expected_out.view(np.uint64))
    for args in ((float("inf"), 1.0, 0.01, 3), (0.0, 1.0, float("inf"), 3)):  # cos(inf) in a stage
        with pytest.raises(ValueError, match="math domain error"):
            rk4_steps.py_func(decay, *args, np.zeros(3))
        with pytest.raises(ValueError, match="math domain error"):
            rk4_steps(decay, *args, np.zeros(3))
    assert "inline double decay_" in rk4_steps.inspect_cxx()


@jit
def div_mod_table(a, b):
    """Python ints (int(...)) and NumPy int64 elements, // and % of every pair:
    operands in [0, 2**32) take a 32-bit division (ops/operators.hpp:
    narrow_division), all others the 64-bit one with its sign fix-up."""
    n, m = a.shape[0], b.shape[0]
    out = np.empty((4, n, m), dtype=np.int64)
    for i in range(n):
        for j in range(m):
            x = int(a[i])
            y = int(b[j])
            out[0, i, j] = x // y
            out[1, i, j] = x % y
            out[2, i, j] = a[i] // b[j]
            out[3, i, j] = a[i] % b[j]
    return out


def test_narrow_division_matches_cpython(check):
    edges = [0, 1, 2, 3, 7, 10, 2**31 - 1, 2**31, 2**32 - 3, 2**32 - 1, 2**32, 2**32 + 1, 2**40 + 3, 2**62,
             2**63 - 1]
    a = np.array(edges + [-v for v in edges[1:]], dtype=np.int64)  # -2**63 // -1 leaves int64 in CPython
    b = np.array([v for v in a.tolist() if v != 0], dtype=np.int64)
    check(div_mod_table, a, b)
    with pytest.raises(ZeroDivisionError):
        div_mod_table(np.array([5], dtype=np.int64), np.array([0], dtype=np.int64))


@jit
def truncate_all(x, out):
    for i in range(x.shape[0]):
        out[i] = int(x[i])
    return out


def test_int_of_float_fast_path_and_its_errors(check):
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.standard_normal(2000) * np.ldexp(1.0, rng.integers(0, 63, 2000)),
                        [0.0, -0.0, 0.5, -0.5, 0.999999, -0.999999, 5e-324, -9223372036854775808.0,
                         9223372036854774784.0, -9223372036854774784.0, 4503599627370497.0]])
    check(truncate_all, x, np.zeros(x.shape[0], dtype=np.int64))
    for bad in (float("nan"), float("inf"), float("-inf"), 9223372036854775808.0, -9223372036854777856.0):
        check(truncate_all, np.array([1.5, bad, 2.5]), np.zeros(3, dtype=np.int64))


@jit
def in_ranges(xs, ns):
    """`0 <= x < n` is one unsigned compare (tr::in_range): Python ints and
    np.int64 elements, negative and extreme values of both."""
    out = np.zeros((2, xs.shape[0], ns.shape[0]), dtype=np.bool_)
    for i in range(xs.shape[0]):
        for j in range(ns.shape[0]):
            x = int(xs[i])
            n = int(ns[j])
            out[0, i, j] = 0 <= x < n
            m = ns[j]
            out[1, i, j] = 0 <= xs[i] < m
    return out


def test_zero_to_n_range_test(check):
    edges = np.array([0, 1, 2, 63, 64, 65, -1, -2, -64, 2**62, 2**63 - 1, -(2**63), -(2**63) + 1], dtype=np.int64)
    check(in_ranges, edges, edges)
    assert "tr::in_range(" in in_ranges.inspect_cxx()


def humps(t, y):
    """A right-hand side of a few statements (benchmarks/ode_kernels.py's
    humps_deriv), its squares pow's."""
    a = t - 0.3
    b = t - 0.9
    return -2.0 * a / (a * a + 0.01) ** 2 - 2.0 * b / (b * b + 0.04) ** 2


@jit
def euler_steps(f, t0, y0, dt, n, out):
    t, y = t0, y0
    for i in range(n):
        y = y + dt * f(t, y)
        t = t + dt
        out[i] = y
    return t, y


def test_right_hand_side_of_statements_matches_cpython():
    got_out, expected_out = np.zeros(50_000), np.zeros(50_000)
    got = euler_steps(humps, 0.0, 1.0, 4e-5, 50_000, got_out)
    expected = euler_steps.py_func(humps, 0.0, 1.0, 4e-5, 50_000, expected_out)
    assert [g.hex() for g in got] == [e.hex() for e in expected]
    assert np.array_equal(got_out.view(np.uint64), expected_out.view(np.uint64))


@jit
def euler_fill(f, t0, t1, y0, n, t, y):
    """benchmarks/ode_kernels.py's Euler: each step reads back the t[i], y[i]
    the step before stored."""
    dt = (t1 - t0) / n
    t[0] = t0
    y[0] = y0
    for i in range(n):
        t[i + 1] = t[i] + dt
        y[i + 1] = y[i] + dt * f(t[i], y[i])


def test_solver_carrying_values_through_arrays():
    """CPython's bits over 50,000 steps; the solver is one copy, not per-CPU
    clones (its loop cannot vectorize: cxx/vector_clones.py), and the
    right-hand side is declared inline, so GCC can inline it into the loop."""
    got_t, got_y, expected_t, expected_y = (np.zeros(50_001) for _ in range(4))
    euler_fill(humps, 0.0, 2.0, 1.0, 50_000, got_t, got_y)
    euler_fill.py_func(humps, 0.0, 2.0, 1.0, 50_000, expected_t, expected_y)
    assert np.array_equal(got_t.view(np.uint64), expected_t.view(np.uint64))
    assert np.array_equal(got_y.view(np.uint64), expected_y.view(np.uint64))
    text = euler_fill.inspect_cxx()
    assert "TR_VECTOR_CLONES" not in text
    assert "inline double humps_" in text
    with pytest.raises(IndexError):  # one element short: the checked copy raises where Python does
        euler_fill(humps, 0.0, 2.0, 1.0, 10, np.zeros(11), np.zeros(10))
