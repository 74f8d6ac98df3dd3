"""The Numba drop-in (transpile/numba_compat): Numba-style code run
unchanged except its import, against the undecorated functions."""
from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest

from transpile.hir import types as T
from transpile.numba_compat import NumbaCompatWarning, jit, njit, typed, types, vectorize

from ..conftest import assert_same, run_both
from . import numba_style as ns


def test_njit_functions_match_python():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((5, 3))
    run_both(ns.trapz, np.linspace(0.0, 1.0, 11) ** 2, 0.1)
    run_both(ns.pairwise, X)
    run_both(ns.row_norms, X)
    # nopython -> fullgraph; index checks stay on unless boundscheck=False is given (CPython raises IndexError)
    assert ns.trapz.options.fullgraph and ns.trapz.options.boundscheck and ns.trapz.options.cache
    assert ns.row_norms.options.jit_level == "O1"  # parallel=True


def test_eager_signatures_compile_at_decoration():
    assert ns.horner.signatures == [(T.Array("float64", 1, "A"), T.FLOAT)]
    assert set(ns.collatz_steps.signatures) == {(T.INT,), (T.FLOAT,)}
    run_both(ns.horner, np.array([1.0, -2.0, 0.5]), 1.5)
    run_both(ns.collatz_steps, 27)
    run_both(ns.collatz_steps, 27.0)  # CPython's float result types, not Numba's int64 signature
    with pytest.warns(NumbaCompatWarning, match="returns int, not the declared float64"):
        @njit("float64(int64)")
        def ident(x):
            return x
    assert_same(ident(3), 3)


def test_fastmath_and_typed_containers():
    from transpile.build.toolchain import flags

    a, b = np.arange(1000.0), np.linspace(0, 1, 1000)
    assert ns.dot(a, b) == pytest.approx(ns.dot.py_func(a, b), rel=1e-12)
    assert "-fassociative-math" in flags(ns.dot.options) and "-ffp-contract=off" not in flags(ns.dot.options)
    # a fastmath library must not switch the process to flush-to-zero (GCC's crtfastmath.o does, at load)
    tiny = np.float64(1e-310)
    assert tiny / 10.0 != 0.0 and np.nextafter(0.0, 1.0) != 0.0
    assert "-ffp-contract=off" in flags(ns.trapz.options)
    lst = typed.List([1.5, 2.5])
    lst.append(3.0)
    run_both(ns.total, lst)
    run_both(ns.positives, np.array([1.5, -2.0, 3.0, 0.25, -1.0, 4.0]))  # typed.List()/Dict.empty in compiled code
    assert typed.List.empty_list(types.float64) == [] and typed.Dict.empty(types.int64, types.float64) == {}


def _elementwise(fn, dtype, *args):
    """What applying the undecorated function element by element gives."""
    return np.vectorize(fn.__wrapped__, otypes=[dtype])(*args)


def test_vectorize_broadcasting_out_reduce():
    x = np.linspace(-3, 3, 12).reshape(3, 4)
    row = np.array([0.5, -1.0, 2.0, 0.0])
    assert_same(ns.soft_max(x, row), _elementwise(ns.soft_max, np.float64, x, row))
    x32 = x.astype(np.float32)
    # as NumPy resolves a ufunc's loops: the first declared one the inputs cast to safely (float64 comes first)
    assert ns.soft_max(x32, x32).dtype == np.float64
    assert ns.soft_max(x32.astype(np.float16), x32.astype(np.float16)).dtype == np.float64
    assert_same(ns.soft_max(1.0, 2.0), _elementwise(ns.soft_max, np.float64, 1.0, 2.0)[()])
    out = np.zeros((3, 4))
    assert ns.soft_max(x, 1.0, out=out) is out
    assert_same(out, _elementwise(ns.soft_max, np.float64, x, 1.0))
    for axis in (0, 1, None):
        expected = np.apply_along_axis(lambda r: functools.reduce(ns.soft_max.__wrapped__, r), axis or 0,
                                       x if axis is not None else x.reshape(-1))
        assert_same(ns.soft_max.reduce(x, axis=axis), expected if axis is not None else expected[()])
    assert_same(ns.soft_max.reduce(np.empty((2, 0)), axis=1), np.zeros(2))  # identity=0
    assert_same(ns.soft_max.outer(row, row[:2]), _elementwise(ns.soft_max, np.float64, row[:, None], row[:2]))
    assert ns.soft_max.types == ["dd->d", "ff->f"] and ns.soft_max.nin == 2 and ns.soft_max.nout == 1
    with pytest.raises(TypeError, match="not supported for the input types"):
        ns.soft_max(np.arange(3, dtype=np.complex128), 1.0)
    with pytest.raises(ValueError):
        ns.soft_max(np.ones(3), np.ones(4))
    assert_same(ns.halve(np.arange(5)), _elementwise(ns.halve, np.float64, np.arange(5)))  # lazy: types from the call
    assert_same(ns.sigmoid(x), _elementwise(ns.sigmoid, np.float64, x))  # target="parallel"


def test_guvectorize():
    x = np.arange(6.0).reshape(2, 3)
    y = np.array([10.0, 20.0])
    assert_same(ns.shift(x, y[:, None][:, 0]), x + y[:, None])
    res = np.empty_like(x)
    ns.shift(x, 1.0, res)  # outputs may be passed after the inputs
    assert_same(res, x + 1.0)
    expected = np.empty(2)
    for k in range(2):  # the undecorated kernel on each row
        ns.inner.__wrapped__(x[k], x[k], expected[k:k + 1])
    assert_same(ns.inner(x, x), expected)
    assert_same(ns.inner(x[0], x[1]), np.float64(np.dot(x[0], x[1])))
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        ns.inner(x, np.ones((2, 4)))


def test_jitclass_spec_and_instances():
    v = np.array([1.0, 2.0])
    p = ns.Particle(2.0, v)
    assert_same(p.kinetic(), 0.5 * 2.0 * (v ** 2).sum())  # what the plain class computes (np.float64)
    assert p.velocity is v
    with pytest.raises(TypeError, match="spec must be"):
        from transpile.numba_compat import jitclass

        jitclass(42)


def test_options_that_cannot_be_honoured():
    with pytest.warns(NumbaCompatWarning, match="error_model='numpy' is not honoured"):
        jit(error_model="numpy")
    with pytest.raises(NotImplementedError, match="target='cuda'"):
        vectorize(["float64(float64)"], target="cuda")
    with pytest.raises(TypeError, match="unknown Numba option"):
        njit(parallell=True)
    with pytest.raises(ValueError, match="contradict"):
        njit(nopython=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        njit(cache=False, looplift=True, nogil=True)  # accepted: no effect on results (the GIL is released anyway)


def test_imports_from_transpile():
    import transpile
    from transpile import guvectorize, njit as nj, vectorize as vec  # noqa: F401

    assert nj is njit and vec is vectorize and transpile.numba_compat.f8 == types.float64


def test_numbas_option_names_work_on_transpile_jit():
    """`from numba import jit` changed to `from transpile import jit`: nopython=True is fullgraph=True (a
    statement that cannot compile is an error, not a silent fallback), parallel=True is jit_level O1."""
    import transpile
    from transpile.diagnostics import TranspileError

    def roll(a):
        return np.roll(a, [1])  # a list shift: np.roll runs as Python

    with pytest.raises(TranspileError):
        transpile.jit(roll, nopython=True, nogil=True)(np.arange(3.0))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # accepted without an OptionWarning
        doubled = transpile.jit(lambda a: a * 2.0, parallel=True, cache=True)
        assert doubled.options.jit_level == "O1"
        assert np.array_equal(doubled(np.arange(3.0)), np.arange(3.0) * 2.0)


def test_thread_count_names_drive_prange(monkeypatch):
    """numba.set_num_threads(n) before a parallel kernel: the runtime reads the
    count at each launch (TRANSPILE_NUM_THREADS)."""
    from transpile import numba_compat as numba

    monkeypatch.setenv("TRANSPILE_NUM_THREADS", "1")  # recorded: the variable is restored after the test
    monkeypatch.delenv("TRANSPILE_NUM_THREADS")
    assert numba.get_num_threads() == numba.config.NUMBA_NUM_THREADS >= 1
    numba.set_num_threads(1)
    assert numba.get_num_threads() == 1 and numba.get_thread_id() == 0
    with pytest.raises(ValueError, match="between 1 and"):
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS + 1)
    with pytest.raises(TypeError):
        numba.set_num_threads(1.5)
    run_both(ns.parallel_sum, np.arange(100.0))


def test_literal_unroll_and_unavailable_names():
    from transpile import numba_compat as numba

    run_both(ns.unrolled, (1.5, 2.5, 4.0))
    for name in ("cfunc", "stencil"):
        with pytest.raises(NotImplementedError, match=f"numba.{name} is not available with transpile"):
            getattr(numba, name)("float64(float64)")
