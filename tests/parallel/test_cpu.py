"""prange on backend="cpu" (OpenMP threads): differential tests against
CPython with TRANSPILE_NUM_THREADS=1 and 2, errors inside parallel loops,
and the loops that must run in order."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from transpile import prange

from . import kernels as k
from .forking import result_in_forked_child

THREADS = ["1", "2"]


@pytest.fixture(params=THREADS, ids=lambda n: f"threads={n}")
def threads(request, monkeypatch):
    monkeypatch.setenv("TRANSPILE_NUM_THREADS", request.param)
    return int(request.param)


def close(got, expected):
    """Parallel reductions add in another order: equal up to rounding."""
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected):
            close(g, e)
        return
    assert type(got) is type(expected), (got, expected)
    if isinstance(expected, np.ndarray):
        assert got.dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_allclose(got, expected, rtol=1e-12)
    elif isinstance(expected, (float, complex)):
        assert got == pytest.approx(expected, rel=1e-12)
    else:
        assert got == expected


def test_prange_is_range_in_python():
    assert list(prange(5)) == list(range(5))
    assert list(prange(2, 11, 3)) == list(range(2, 11, 3))


@pytest.mark.parametrize("a", [np.linspace(0.0, 1.0, 10001), np.linspace(0.0, 0.99, 20)[::3]],
                         ids=["10001", "strided"])
def test_reductions(threads, a):
    close(k.stats(a), k.stats.py_func(a))


def test_reductions_of_no_iterations_keep_the_initial_values(threads):
    # (values only: Python keeps s a float when the loop never runs, compiled code types it float64)
    assert k.stats(np.zeros(0)) == k.stats.py_func(np.zeros(0)) == (0.0, 0.0, 0, 1.0, 0, 0j)


def test_reductions_are_deterministic_for_a_thread_count(threads):
    a = np.random.default_rng(1).random(100_000)
    assert k.stats(a)[0] == k.stats(a)[0]


@pytest.mark.parametrize("n, nbins", [(50_000, 16), (5_000, 4096)], ids=["thread-copies", "atomics"])
def test_histogram(threads, n, nbins):
    # few bins: each thread fills its own copy; many bins for few samples: atomic updates
    x = np.random.default_rng(2).random(n)
    h, w = k.histogram(x, nbins)
    eh, ew = k.histogram.py_func(x, nbins)
    np.testing.assert_array_equal(h, eh)
    np.testing.assert_array_equal(w, ew)
    assert h.sum() == x.size


def test_stencil(threads):
    u = np.zeros((40, 33))
    u[0] = 1.0
    u[:, 0] = 0.5
    close(k.stencil(u.copy(), 7), k.stencil.py_func(u.copy(), 7))


def test_private_temporaries_and_continue(threads):
    a = np.random.default_rng(3).random((37, 5)) * 2
    a[::4] *= 0.1
    close(k.rows(a, np.zeros(37)), k.rows.py_func(a, np.zeros(37)))


def test_iteration_variables_that_are_python_or_numpy_floats_by_path(threads):
    a = np.arange(1.0, 13.0).reshape(3, 4)
    for scale in (0, 1):
        np.testing.assert_array_equal(k.row_means(a, scale), k.row_means.py_func(a, scale))
    with pytest.raises(ZeroDivisionError, match="float division by zero"):  # acc stays 0.0, a Python float
        k.row_means(np.zeros((2, 0)), 0)
    with pytest.raises(ZeroDivisionError):
        k.row_means.py_func(np.zeros((2, 0)), 0)


def test_step_and_empty_range(threads):
    assert k.stepped(100) == k.stepped.py_func(100)
    assert k.stepped(0) == k.stepped.py_func(0) == (0, 0)


def test_error_of_the_lowest_iteration_is_raised_after_the_loop(threads):
    a = np.arange(1000.0)
    with pytest.raises(IndexError) as py:
        k.first_error.py_func(a, 300)
    with pytest.raises(IndexError) as got:
        k.first_error(a, 300)
    assert str(got.value) == str(py.value) == "index 1299 is out of bounds for axis 0 with size 1000"
    line = next(i for i, text in enumerate(open(k.__file__), 1) if "s += a[i + a.shape[0]]" in text)
    assert any(f"kernels.py:{line}" in note for note in getattr(got.value, "__notes__", []))
    assert k.first_error(a, 2000) == k.first_error.py_func(a, 2000)  # no error: the process is fine


def test_nested_prange_runs_in_order_inside(threads):
    a = np.random.default_rng(4).random((13, 17))
    close(k.nested(a), k.nested.py_func(a))
    assert "prange loop run in order: a prange loop nested in another" in k.nested.inspect_cxx()


def test_fallback_in_the_body_makes_the_loop_sequential(threads):
    a = np.linspace(0.0, 1.0, 50)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = k.with_fallback(a)
    assert got == pytest.approx(k.with_fallback.py_func(a), rel=1e-12)
    text = k.with_fallback.inspect_cxx()
    assert "tr::par::for_range" not in text and "prange loop run in order" in text
    reasons = [r["reason"] for r in k.with_fallback.fallbacks()]
    assert any("runs in order" in r for r in reasons), reasons
    _ = caught  # the warning is printed on the first compilation only (the cache may have it)


def test_generated_code_uses_the_backend_layer():
    k.stats(np.ones(3))
    text = k.stats.inspect_cxx()
    assert '#include "transpile_rt/backend/parallel.hpp"' in text
    assert "struct tr_prange_stats_" in text and "TR_HD void operator()(int64_t tr_iv" in text
    assert "tr::par::reduce<tr::op::add>(s)" in text and "tr::par::reduce<tr::op::mul>(prod)" in text
    assert "tr::par::reduce<tr::op::bitor_>(bits)" in text
    k.histogram(np.ones(3) * 0.5, 2)
    text = k.histogram.inspect_cxx()
    assert "tr::par::update(tr_private_h, " in text and "tr::par::update(tr_private_w, " in text
    assert "tr::par::reduce_array<tr::op::add>(&tr_prange_histogram_" in text


def test_module_without_prange_is_built_without_openmp(tmp_path):
    from transpile.build.toolchain import command
    from transpile.options import make_options

    plain, par = tmp_path / "plain.cpp", tmp_path / "par.cpp"
    plain.write_text('#include "transpile_rt/array.hpp"\n')
    par.write_text('#include "transpile_rt/backend/parallel.hpp"\n')
    opts = make_options()
    assert "-fopenmp" not in command(str(plain), "x.so", opts)
    assert "-fopenmp" in command(str(par), "x.so", opts)


def test_bad_thread_count_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("TRANSPILE_NUM_THREADS", "many")
    with pytest.raises(ValueError, match="TRANSPILE_NUM_THREADS must be a positive integer, not 'many'"):
        k.stepped(10)


def _child_sum(queue):
    queue.put(k.stats(np.linspace(0.0, 1.0, 1001))[0])


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork()")
def test_prange_in_a_forked_child_does_not_hang(monkeypatch):
    monkeypatch.setenv("TRANSPILE_NUM_THREADS", "2")
    a = np.linspace(0.0, 1.0, 1001)
    expected = k.stats(a)[0]  # the parent's OpenMP threads exist now
    assert result_in_forked_child(_child_sum, "a prange loop") == pytest.approx(expected, rel=1e-12)
