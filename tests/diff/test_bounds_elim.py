"""Bounds-check elimination (passes/bounds.py) against CPython: indices the
analysis proves in range, and loops run unchecked under a guard, still give
CPython's values, and every index that is out of range still raises NumPy's
IndexError with its message, at the same iteration (the arrays written
before it match), with the line of the statement in the note."""
import copy

import numpy as np
import pytest

from ..golden import fast_path_funcs
from ._support import jit


def run_same(fn, *args):
    """Compiled and plain results (or exceptions: type, message) and the
    arguments' contents afterwards are the same; returns the exception."""
    py_args, jit_args = copy.deepcopy(args), copy.deepcopy(args)
    outcomes = []
    for call, a in ((fn.py_func, py_args), (fn, jit_args)):
        try:
            outcomes.append(("value", call(*a), None))
        except Exception as exc:  # noqa: BLE001 - the exception is the behaviour compared
            outcomes.append(("raise", type(exc), exc))
    (pk, pv, pe), (jk, jv, je) = outcomes
    assert pk == jk, f"python: {pk} {pv!r} {pe!r}, compiled: {jk} {jv!r} {je!r}"
    if pk == "raise":
        assert jv is pv and str(je) == str(pe), (pe, je)
    elif isinstance(pv, np.ndarray):
        np.testing.assert_array_equal(jv, pv)
    else:
        assert type(jv) is type(pv) and jv == pv, (jv, pv)
    for j, p in zip(jit_args, py_args):
        if isinstance(p, np.ndarray):
            np.testing.assert_array_equal(j, p)
    return je


def note_line(exc) -> int:
    notes = [n for n in getattr(exc, "__notes__", []) if "raised in compiled code at" in n]
    assert notes, exc
    return int(notes[0].rsplit(":", 1)[1])


def line_of(fn, text: str) -> int:
    import inspect

    lines, first = inspect.getsourcelines(fn.py_func)
    return first + next(i for i, line in enumerate(lines) if text in line)


@jit
def add_into(out, a, b):
    for i in range(a.shape[0]):
        out[i] = a[i] + b[i]
    return out


@pytest.mark.parametrize("n_out, n_b", [(6, 6), (6, 4), (3, 6), (0, 6)])
def test_guard_fails_partway(n_out, n_b):
    """b or out shorter than a: the checked copy of the loop runs and raises
    at the first bad index, after writing the elements before it."""
    exc = run_same(add_into, np.zeros(n_out), np.arange(6.0), np.arange(n_b) * 10.0)
    if exc is not None:
        assert isinstance(exc, IndexError)
        assert note_line(exc) == line_of(add_into, "out[i] = a[i] + b[i]")


@jit
def shifted(a, k):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i - k]
    return s


@pytest.mark.parametrize("k", [0, 1, 5, 6, -1, 7])
def test_negative_indices_wrap_or_raise(k):
    """i - k below zero wraps as in Python; below -len it raises."""
    run_same(shifted, np.arange(6.0), k)


@jit
def reversed_sum(a, n):
    s = 0.0
    for i in range(n - 1, -1, -1):
        s = s * 0.5 + a[i]
    return s


@pytest.mark.parametrize("n", [0, 4, 5, 6])
def test_negative_step(n):
    run_same(reversed_sum, np.arange(5.0), n)


one_past = jit(fast_path_funcs.one_past)


def test_offset_past_the_end_still_raises():
    exc = run_same(one_past, np.arange(4.0))
    assert isinstance(exc, IndexError) and "index 4 is out of bounds for axis 0 with size 4" in str(exc)


rebinds = jit(fast_path_funcs.rebinds)


@pytest.mark.parametrize("nb", [2, 3, 8])
def test_array_rebound_in_the_loop(nb):
    run_same(rebinds, np.arange(6.0), np.arange(nb) * 2.0)


@jit
def bound_grows(a, k):
    s = 0.0
    for j in range(3):
        for i in range(k):
            s += a[i]
        k = k + 2
    return s


@pytest.mark.parametrize("k", [1, 2])
def test_bound_variable_reassigned_between_loops(k):
    run_same(bound_grows, np.arange(5.0), k)


@jit
def bound_moves_inside(a, n):
    s = 0.0
    for i in range(n):
        n = n - 1
        s += a[i]
    return s, n


@pytest.mark.parametrize("n", [3, 5, 7])
def test_bound_variable_reassigned_inside(n):
    run_same(bound_moves_inside, np.arange(5.0), n)


counter_reassigned = jit(fast_path_funcs.counter_reassigned)


def test_counter_reassigned_in_the_body():
    run_same(counter_reassigned, np.arange(5.0))


@jit
def hist(x, nbins, m):
    counts = np.zeros(m, dtype=np.int64)
    for i in range(x.shape[0]):
        b = int(x[i] * nbins)
        if 0 <= b < nbins:
            counts[b] += 1
    return counts


@pytest.mark.parametrize("m", [4, 3])
def test_tested_index_with_mismatched_array(m):
    run_same(hist, np.array([0.1, 0.9, 0.6, 0.3, 0.95]), 4, m)


@jit
def rebound_after_test(x, nbins, small):
    counts = np.zeros(nbins, dtype=np.int64)
    for i in range(x.shape[0]):
        b = int(x[i] * nbins)
        if 0 <= b < nbins:
            counts = small
            counts[b] += 1
    return counts


def test_tested_index_array_rebound_after_the_test():
    run_same(rebound_after_test, np.array([0.1, 0.9]), 4, np.zeros(2, dtype=np.int64))


@jit
def doubled(a, out):
    for i, v in enumerate(a):
        out[i] = 2.0 * v
    return out


@pytest.mark.parametrize("n_out", [5, 3])
def test_enumerate_index(n_out):
    run_same(doubled, np.arange(5.0), np.zeros(n_out))


stencil = jit(fast_path_funcs.bench.stencil2d)


@pytest.mark.parametrize("shape_out", [(6, 7), (4, 7), (6, 3), (1, 1)])
def test_stencil_guard(shape_out):
    u = np.arange(42.0).reshape(6, 7) ** 1.5
    exc = run_same(stencil, u, np.zeros(shape_out))
    if exc is not None:
        assert note_line(exc) == line_of(stencil, "out[i, j] = 0.25")


@jit
def fixed_columns(pos, mass):
    n = pos.shape[0]
    acc = np.zeros_like(pos)
    for i in range(n):
        for j in range(n):
            acc[i, 0] += mass[j] * (pos[j, 0] - pos[i, 0])
            acc[i, 2] += mass[j] * (pos[j, 2] - pos[i, 2])
    return acc


@pytest.mark.parametrize("cols, nm", [(3, 4), (2, 4), (3, 2)])
def test_constant_columns_guard(cols, nm):
    """pos[j, 2] needs 3 columns and mass[j] n masses: the guard before the
    loop fails and the checked loop raises where Python does."""
    run_same(fixed_columns, np.arange(4.0 * cols).reshape(4, cols), np.arange(nm) + 1.0)


@jit
def hoisted_index(a, k, n):
    s = 0.0
    for i in range(n):
        s += a[k] * i
    return s


@pytest.mark.parametrize("k, n", [(2, 3), (-1, 3), (9, 3), (9, 0), (-10, 2)])
def test_loop_invariant_index(k, n):
    run_same(hoisted_index, np.arange(5.0), k, n)


@jit
def inner(a, i):
    return a[i] * 2.0


@jit
def outer(a, n):
    s = 0.0
    for i in range(n):
        s += inner(a, i)
    return s


def test_error_in_a_callee_names_the_callee_line():
    exc = run_same(outer, np.arange(3.0), 5)
    assert isinstance(exc, IndexError)
    assert note_line(exc) == line_of(inner, "return a[i] * 2.0")


@jit
def strided_view_loop(a):
    b = a[::2]
    s = 0.0
    for i in range(b.shape[0]):
        s += b[i] * a[2 * i]
    return s


@pytest.mark.parametrize("n", [0, 5, 6])
def test_views(n):
    run_same(strided_view_loop, np.arange(float(n)))


@jit
def generator_index(a, n):
    s = 0.0
    for i in range(n):
        s += sum(a[j] for j in range(i + 2))
    return s


@pytest.mark.parametrize("n", [2, 4, 5])
def test_generator_target_is_not_loop_invariant(n):
    """j is assigned by the generator on every iteration: an index of it
    cannot be checked once before the loop."""
    run_same(generator_index, np.arange(5.0), n)
