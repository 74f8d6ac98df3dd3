"""np.random.* and random.* in @jit functions: the draws are NumPy's and
Python's own (random.*, np.random.seed and the np.random forms compiled code
does not draw, tests/diff/test_random_compiled.py, are compiled calls into
Python: library/python_calls.py), so a seeded sequence is the one CPython gives, the generators' states advance in Python too, and
the compiled code around the draws computes with the drawn values.  Each
test runs the compiled function and the plain one from the same seed and
compares the results and the state left behind."""
from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

from transpile import jit


def _quiet(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the fallback report
        return fn(*args)


def _same(got, expected):
    assert type(got) is type(expected), (got, expected)
    if isinstance(expected, tuple):
        for g, e in zip(got, expected):
            _same(g, e)
    elif isinstance(expected, np.ndarray):
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)
    else:
        assert got == expected


@jit
def legacy_draws(n, seed):
    np.random.seed(seed)
    s = 0.0
    for i in range(n):
        x = np.random.random()  # @jit.typing: () -> float
        g = np.random.randn()  # @jit.typing: () -> float
        s += x * i + g
    k = np.random.randint(0, 10)
    u = np.random.uniform(1.0, 2.0)
    v = np.random.normal(0.5, 2.0)
    a = np.random.rand(3)
    return s, k, u, v, a


@pytest.mark.parametrize("seed", [0, 7, 12345])
def test_legacy_global_state(seed):
    got = _quiet(legacy_draws, 20, seed)
    after_compiled = np.random.random()
    expected = legacy_draws.py_func(20, seed)
    after_python = np.random.random()
    _same(got, expected)
    assert after_compiled == after_python  # the global RandomState advanced the same way


@jit
def generator_draws(n, seed):
    rng = np.random.default_rng(seed)
    s = 0.0
    for i in range(n):
        x = rng.random()  # @jit.typing: () -> float
        s = s * 0.5 + x * i
    return s, rng.integers(0, 100), rng.uniform(0.0, 1.0), rng.normal(1.0, 0.1), rng.standard_normal(2)


@pytest.mark.parametrize("seed", [1, 2024])
def test_default_rng_generator(seed):
    _same(_quiet(generator_draws, 15, seed), generator_draws.py_func(15, seed))


@jit
def passed_generator(rng, n):
    s = 0.0
    for _ in range(n):
        s += rng.random()  # @jit.typing: () -> float
    return s


def test_generator_argument_advances_in_python():
    # a Generator argument is not a compiled type: the whole function runs in CPython
    a, b = np.random.default_rng(5), np.random.default_rng(5)
    _same(_quiet(passed_generator, a, 10), passed_generator.py_func(b, 10))
    assert a.random() == b.random()  # the caller's generator moved on as in CPython


@jit
def python_random(n, seed):
    random.seed(seed)
    s = 0.0
    for i in range(n):
        r = random.random()  # @jit.typing: () -> float
        g = random.gauss(0.0, 1.0)  # @jit.typing: () -> float
        s += r + g
    return s, random.randint(1, 6), random.uniform(2.0, 3.0)


@pytest.mark.parametrize("seed", [3, 99])
def test_python_random_module(seed):
    got = _quiet(python_random, 12, seed)
    after_compiled = random.random()
    expected = python_random.py_func(12, seed)
    after_python = random.random()
    _same(got, expected)
    assert after_compiled == after_python


def test_seeds_and_draws_compile_with_no_fallback():
    @jit(fullgraph=True)
    def one(seed):
        np.random.seed(seed)
        random.seed(seed)
        return np.random.random(), np.random.poisson(2.5), random.random(), random.randrange(10)

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = one(4)
    _same(got, one.py_func(4))


@jit
def unannotated_draws(n, seed):
    np.random.seed(seed)
    random.seed(seed)
    s = 0.0
    k = 0
    for i in range(n):
        x = np.random.random()
        g = np.random.normal(0.0, 2.0)
        j = np.random.randint(0, 10)
        r = random.random()
        u = random.uniform(-1, 1)
        d = random.randint(1, 6)
        s += x * i + g + r * u
        k += j * d
    return s, k


def test_draws_need_no_annotation():
    """Every draw here compiles: np.random's in compiled code, random.*'s as
    compiled calls into Python's generator (library/python_calls.py)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a JIT Fallback report would fail the test
        got = unannotated_draws(25, 11)
    expected = unannotated_draws.py_func(25, 11)
    _same(got, expected)


@jit(fullgraph=True)
def python_draws(n, seed, wide):
    random.seed(seed)
    s = 0.0
    k = 0
    for i in range(n):
        s += random.random() * i + random.uniform(-1.5, 2.5)
        k += random.randint(-3, 3) + random.randrange(10) + random.randrange(5, wide) % 1000
    return s, k, random.randrange(-2**62, 2**62), random.randint(0, 1)


@pytest.mark.parametrize("n,seed,wide", [(700, 0, 2**40), (1500, 3, 7), (50, 99, 2**63 - 1)])
def test_python_random_is_drawn_from_pythons_own_state(n, seed, wide):
    # compiled draws take random._inst's state (bridge/pyrandom.c): the same values, and Python's next
    # draw is the one it would have made (624-word regenerations crossed, getrandbits of 1 to 63 bits)
    got = python_draws(n, seed, wide)
    after_compiled = random.random()
    expected = python_draws.py_func(n, seed, wide)
    after_python = random.random()
    _same(got, expected)
    assert after_compiled == after_python


@jit(fullgraph=True)
def three_draws(lo, hi):
    return random.random(), random.randint(lo, hi), random.random()


def test_python_random_follows_the_module_as_it_changes(monkeypatch):
    random.seed(5)
    first = three_draws(1, 6)
    random.seed(5)
    assert first == three_draws.py_func(1, 6)
    monkeypatch.setattr(random, "random", lambda: 0.25)  # Python would call the new function
    assert three_draws(1, 6)[::2] == (0.25, 0.25)
    monkeypatch.undo()
    other = random.Random(11)
    monkeypatch.setattr(random, "random", other.random)  # another generator's state
    monkeypatch.setattr(random, "randint", other.randint)
    got = three_draws(1, 6)
    check = random.Random(11)
    assert got == (check.random(), check.randint(1, 6), check.random())


def test_python_randoms_errors_are_pythons():
    with pytest.raises(ValueError) as expected:
        three_draws.py_func(5, 1)
    with pytest.raises(ValueError) as got:
        three_draws(5, 1)
    assert str(got.value) == str(expected.value)


@jit
def choices(n, a):
    np.random.seed(3)
    c = np.random.choice(5)
    d = np.random.choice(a, 3)
    p = np.random.permutation(n)
    b = a.copy()
    np.random.shuffle(b)  # in place, through the array Python is handed
    return c, d, p, b, np.random.random()


def test_choice_permutation_and_shuffle_draw_numpys_stream(check):
    check(choices, 6, np.arange(10.0))
