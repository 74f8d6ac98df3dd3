"""np.random draws compiled (library/random_lib.py, transpile_rt/numpy/random.hpp):
the draws of the global RandomState (one value, or an array for an integer size) run in C++ on NumPy's own MT19937
state and cached Gaussian, so from one seed the compiled function and the
undecorated one give the same values bit for bit, leave the same state, and
Python draws before, between and after compiled ones continue one stream.
Every function here is @jit(fullgraph=True): a draw that fell back to Python
would fail the test instead of passing it vacuously."""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from tests.diff._support import jit
from transpile import jit as jit_fallback
from transpile.diagnostics import TranspileError, TranspileFallbackWarning


def _same_state(a, b):
    assert a[0] == b[0] and a[2:] == b[2:], (a[2:], b[2:])
    np.testing.assert_array_equal(a[1], b[1])


def _same(got, expected):
    assert type(got) is type(expected), (got, expected)
    if isinstance(expected, tuple):
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            _same(g, e)
    elif isinstance(expected, np.ndarray):
        assert got.dtype == expected.dtype and got.shape == expected.shape
        assert got.tobytes() == expected.tobytes()  # bit for bit
    else:
        assert got == expected or (got != got and expected != expected)


@jit
def many(n, lo, hi, scale, floats, ints):
    # every compiled form, several per iteration: randn/normal share the cached Gaussian
    for i in range(n):
        floats[i, 0] = np.random.random()
        floats[i, 1] = np.random.uniform(lo, hi)
        floats[i, 2] = np.random.normal(1.5, scale)
        floats[i, 3] = np.random.randn() if i % 3 else np.random.standard_normal()
        floats[i, 4] = np.random.rand() + np.random.random_sample()
        floats[i, 5] = np.random.uniform(low=np.float32(0.25), high=4) + np.random.normal(scale=scale, loc=-1.0)
        ints[i, 0] = np.random.randint(0, 10)
        ints[i, 1] = np.random.randint(7)
        ints[i, 2] = np.random.randint(-(2 ** 40), 2 ** 62)  # 64-bit ranges: NumPy's masked rejection
        ints[i, 3] = np.random.randint(np.int8(-3), high=np.uint32(4000000000))
        ints[i, 4] = np.random.randint(True, 3)
    return np.random.random(), np.random.randint(5, 6), np.random.normal(), np.random.uniform(2.0, 1.0)


def _run_many(fn, seed, n):
    np.random.seed(seed)
    floats, ints = np.zeros((n, 6)), np.zeros((n, 5), np.int64)
    result = fn(n, -2.5, 7, 0.5, floats, ints)
    return result, floats, ints, np.random.mtrand._rand.get_state()


@pytest.mark.parametrize("seed", [0, 12345])
def test_seeded_sequences_bit_identical(seed):
    got = _run_many(many, seed, 100)  # 3 Gaussians an iteration + 1: one is left cached
    expected = _run_many(many.py_func, seed, 100)
    _same(got[:3], expected[:3])
    _same_state(got[3], expected[3])
    assert got[3][3] == 1  # has_gauss, also in the state NumPy reports


@jit
def few(k):
    s = 0.0
    for _ in range(k):
        s += np.random.randn()
    return s, np.random.random(), np.random.randint(1, 1000)


def test_interleaved_with_python_draws():
    def session(fn):
        np.random.seed(99)
        out = [np.random.randn()]  # leaves the second Gaussian cached in the RandomState
        out.append(fn(3))  # uses it first, leaves one cached again (3 + 1 cached = 2 pairs)
        out.append(np.random.randn())  # Python takes the one compiled code cached
        out.append(np.random.random(size=3))
        out.append(fn(2))
        st = np.random.get_state()
        st = st[:3] + (1, 0.125)  # a cached value set from Python: compiled code returns it first
        np.random.set_state(st)
        out.append(fn(1))
        out.append(np.random.standard_normal(size=2))
        return tuple(out), np.random.get_state()

    got, got_state = session(few)
    expected, expected_state = session(few.py_func)
    _same(got, expected)
    _same_state(got_state, expected_state)
    assert got[5][0] == 0.125


@jit
def failing(which):
    x = np.random.random()
    if which == 0:
        x += np.random.uniform(0.0, np.inf)
    elif which == 1:
        x += np.random.normal(0.0, -0.0)
    elif which == 2:
        x += np.random.randint(5, 5)
    elif which == 3:
        x += np.random.randint(0)
    elif which == 4:
        x += np.random.uniform(np.nan, 1.0)
    return x, np.random.normal(np.inf, 0.0), np.random.normal(0.0, np.nan)


def _same_outcome(jitted, seed, *args):
    """The compiled and the undecorated function from one seed: the same value or
    exception, and the same state after (a refused draw consumes nothing, as in NumPy)."""
    outcome = []
    for fn in (jitted, jitted.py_func):
        np.random.seed(seed)
        try:
            outcome.append((fn(*args), None))
        except Exception as exc:  # noqa: BLE001 - compared below
            outcome.append((None, (type(exc), str(exc))))
        outcome[-1] += (np.random.mtrand._rand.get_state(),)
    (got, got_err, got_state), (expected, expected_err, expected_state) = outcome
    assert got_err == expected_err, args
    _same(got, expected)
    _same_state(got_state, expected_state)


def test_errors_and_edge_values_match_numpy():
    for which in range(6):
        _same_outcome(failing, which, which)


@jit
def burst(n):
    s = 0.0
    for _ in range(n):
        s += np.random.random()
    return s


def test_draws_hold_the_bit_generators_lock():
    # Another thread fills arrays without the GIL (NumPy holds the BitGenerator's lock then) while compiled
    # code draws with the GIL.  Each draw consuming its two 32-bit words atomically, the state after both is
    # the seeded state advanced by their total, however they interleaved.
    burst(1)
    n, size = 300_000, 1_000_000
    started, done, fills = threading.Event(), threading.Event(), []

    def filler():
        started.set()
        while not done.is_set():
            np.random.random(size)
            fills.append(size)

    np.random.seed(7)
    thread = threading.Thread(target=filler)
    thread.start()
    started.wait()
    time.sleep(0.002)  # the filler takes the GIL and lets go of it inside a fill, where burst() meets it
    burst(n)
    done.set()
    thread.join()
    after = np.random.mtrand._rand.get_state()
    np.random.seed(7)
    np.random.random(n + sum(fills))
    _same_state(after, np.random.mtrand._rand.get_state())


@jit
def sized(n, m, k, which):
    if which == 1:
        return np.random.randint(5, 5, size=k)  # an empty shape: NumPy returns before checking the bounds
    if which == 2:
        return np.random.randint(0, size=(m, k))
    if which == 3:
        return np.random.uniform(0.0, np.inf, size=-1)
    a = np.random.random(n)
    b = np.random.rand(n, m)
    c = np.random.randn(k)
    d = np.random.uniform(-1.0, 3.0, size=(m, n))
    e = np.random.normal(2.0, 0.5, n) + np.random.standard_normal(size=n)
    f = np.random.randint(0, 7, size=(n, m, k))
    g = np.random.randint(2 ** 40, size=m) + np.random.randint(-3, np.int16(9), np.int32(m))
    h = np.random.random_sample(size=(n,))
    return a, b, c, d, e, f, g, h, np.random.randn()


def test_sized_draws_fill_in_numpys_order():
    for args in ((3, 4, 5, 0), (0, 2, 1, 0), (1, 1, 0, 0), (-1, 2, 3, 0), (2, 2, 0, 1), (2, 2, 3, 1),
                 (2, 0, 3, 2), (2, 2, 3, 2), (2, 2, 3, 3)):
        _same_outcome(sized, 11, *args)


def _draw_in_a_thread():
    out = []
    thread = threading.Thread(target=lambda: out.append(np.random.random()))
    thread.start()
    thread.join(timeout=20)
    assert out, "the other thread never got the BitGenerator's lock"
    return out[0]


def test_python_code_between_draws_finds_the_lock_free():
    # the lock compiled draws hold goes back before Python runs (here a fallback statement joining a thread
    # that draws): no deadlock, and one stream in program order
    def joined(n):
        s = 0.0
        for i in range(n):
            s = s * 0.5 + np.random.random()
            t = _draw_in_a_thread()  # @jit.typing: () -> float
            s += np.random.randn() * t
        return s

    compiled = jit_fallback(joined)
    np.random.seed(5)
    with pytest.warns(TranspileFallbackWarning):
        got = compiled(3)
    np.random.seed(5)
    assert got == joined(3)


def test_forms_not_compiled_are_precise_errors_under_fullgraph():
    def sized(n):
        return np.random.random(size=n * 1.0)

    def typed(n):
        return np.random.randint(0, n, dtype=np.int32)

    def floats_to_randint(x):
        return np.random.randint(0, x)

    cases = ((sized, 3, "size of float"), (typed, 3, "dtype="), (floats_to_randint, 2.5, r"randint\(\) of float"))
    for fn, arg, words in cases:
        with pytest.raises(TranspileError, match=words):
            jit(fn)(arg)


@jit
def _draws_after_helper():
    return 10.0 * np.random.random()


@jit
def draws_in_python_order(a, i, which):
    if which == 0:  # the helper's draw comes first in Python, though it is the left operand of a call
        return _draws_after_helper() - np.random.random()
    if which == 1:
        return a[i] + np.random.random()  # an IndexError comes before the draw: the state stays untouched
    if which == 2:
        return a[i] + np.random.random(3)  # the same for a sized draw (an array operand)
    return (a + a[:i]) * np.random.random(3)  # a broadcasting ValueError before the draw


def test_draws_happen_in_pythons_order_among_other_operands():
    for args in ((np.ones(3), 0, 0), (np.ones(3), 1, 1), (np.ones(3), 5, 1), (np.ones(3), 1, 2),
                 (np.ones(3), 5, 2), (np.ones(3), 3, 3), (np.ones(3), 2, 3)):
        _same_outcome(draws_in_python_order, 13, *args)
