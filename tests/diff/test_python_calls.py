"""NumPy functions compiled code calls in NumPy itself (library/python_calls.py):
np.linalg (LAPACK's bits), np.round, np.interp, np.convolve, the nan-aware
reductions and the rest of the listed functions compile with no fallback
(the suite's @jit has fullgraph=True) and give NumPy's values, types and
exceptions bit for bit; the function is looked up when the call runs, as
Python would, and a result of another type is a TypeError, never a
conversion."""
from __future__ import annotations

import cmath
import math

import numpy as np
import pytest

from transpile import jit as plain_jit
from transpile.diagnostics import UnsupportedSyntaxError

from ._support import jit


def spd(n, seed, dtype="float64"):
    rng = np.random.default_rng(seed)
    m = rng.standard_normal((n, n))
    return (m @ m.T + n * np.eye(n)).astype(dtype)


@jit
def linear_algebra(a, b):
    q, r = np.linalg.qr(a)
    u, s, vh = np.linalg.svd(a)
    w, v = np.linalg.eigh(a)
    sign, logdet = np.linalg.slogdet(a)
    x, residuals, rank, sv = np.linalg.lstsq(a, b, rcond=None)
    return (np.linalg.solve(a, b), np.linalg.inv(a), np.linalg.det(a), sign, logdet, q, r, u, s, vh, w, v,
            np.linalg.cholesky(a), np.linalg.pinv(a), np.linalg.matrix_power(a, 3), np.linalg.matrix_rank(a),
            np.linalg.cond(a), x, residuals, rank, sv, np.linalg.eigvalsh(a))


@pytest.mark.parametrize("n,dtype", [(5, "float64"), (8, "float32")])
def test_linear_algebra_gives_lapacks_bits(check_bits, n, dtype):
    a = spd(n, n, dtype)
    b = np.random.default_rng(1).standard_normal(n).astype(dtype)
    check_bits(linear_algebra, a, b)


@jit
def solve_only(a, b):
    return np.linalg.solve(a, b) * 2.0


def test_numpys_exception_comes_through(check):
    singular = np.ones((3, 3))
    check(solve_only, singular, np.ones(3))  # LinAlgError: Singular matrix, same type and message
    check(solve_only, np.eye(3), np.ones(4))  # a shape mismatch: NumPy's ValueError


@jit
def numpy_functions(x, y, k):
    # y holds NaNs for the nan-aware reductions; k is an int array
    return (np.round(x, 3), np.around(x, decimals=-1), np.round(k, -1), np.nonzero(k), np.flatnonzero(k),
            np.argwhere(k), np.count_nonzero(k), np.count_nonzero(k, axis=0), np.roll(x, 3), np.roll(k, -1, axis=0),
            np.interp(0.25, np.sort(x), x), np.interp(x, np.sort(x), x), np.convolve(x, x, mode="same"),
            np.correlate(x, x), np.polyval(np.polyfit(x, 2.0 * x + 1.0, 1), x), np.trapezoid(x),
            np.nanmean(y), np.nanstd(y), np.nanmedian(y), np.nansum(y), np.nanargmax(y), np.nanpercentile(y, 40.0),
            np.partition(x, 3), np.argpartition(x, 3), np.isclose(x, x + 1e-12), np.allclose(x, x),
            np.array_equal(k, k), np.digitize(x, np.array([-1.0, 0.0, 1.0])), np.insert(x, 2, 7.5),
            np.delete(k, 1), np.append(x, y), np.frexp(x), np.modf(x), np.gcd(k, 6), np.ptp(x),
            np.average(x, weights=np.abs(x)), np.isin(k, k[:2]), np.union1d(k, k + 3), np.cumulative_sum(x))


def test_numpy_functions_give_numpys_results(check_bits):
    rng = np.random.default_rng(7)
    x = rng.standard_normal(12) * 100.0
    y = rng.standard_normal(9)
    y[[2, 5]] = np.nan
    k = rng.integers(-3, 4, 10)
    check_bits(numpy_functions, x, y, k)


@jit
def det_twice(a):
    return np.linalg.det(a) + np.linalg.det(a)


def test_the_function_is_looked_up_when_the_call_runs(monkeypatch):
    a = spd(4, 2)
    assert det_twice(a) == det_twice.py_func(a)
    monkeypatch.setattr(np.linalg, "det", lambda m: np.float64(m.sum()))  # Python would call the new one
    assert det_twice(a) == det_twice.py_func(a) == 2.0 * a.sum()
    monkeypatch.setattr(np.linalg, "det", lambda m: float(m.sum()))  # a Python float, not np.float64
    with pytest.raises(TypeError, match=r"numpy\.linalg\.det\(\) is a value of type 'float'"):
        det_twice(a)


def shifted_by_list(a):
    return np.roll(a, [1, 1], axis=(0, 1))


def test_arguments_compiled_code_cannot_pass_run_as_python():
    a = np.arange(12.0).reshape(3, 4)
    with pytest.raises(UnsupportedSyntaxError, match=r"np\.roll\(\) of a list.*runs as Python"):
        plain_jit(shifted_by_list, fullgraph=True)(a)
    with pytest.warns(Warning, match="JIT Fallback"):
        got = plain_jit(shifted_by_list)(a)
    np.testing.assert_array_equal(got, shifted_by_list(a))


@jit
def tuples_and_math(a, i, x):
    return (np.unravel_index(i, a.shape), np.ravel_multi_index((1, i % 4), (3, 4)), np.roll(a, (1, -1), axis=(0, 1)),
            math.fsum(a[0]), math.isqrt(i), math.comb(i, 3), math.isclose(x, x + 1e-10),
            math.isclose(x, x + 1e-10, rel_tol=1e-12), math.isclose(x, 0.0, abs_tol=abs(x)), math.frexp(x),
            math.remainder(x, 0.75), math.prod(a[1]))


@pytest.mark.parametrize("i,x", [(7, 1.5), (11, -0.1), (3, 0.0)])
def test_tuples_of_numbers_and_math_functions(check_bits, i, x):
    check_bits(tuples_and_math, np.arange(12.0).reshape(3, 4) * 0.1, i, x)


@jit
def complex_functions(z, x):
    return (cmath.sqrt(z), cmath.exp(z), cmath.log(z), cmath.log(z, 2.0), cmath.log10(z), cmath.sin(z),
            cmath.acos(z), cmath.atanh(z), cmath.sqrt(x), cmath.acosh(x), cmath.phase(z), cmath.polar(z),
            cmath.rect(abs(x), 0.5), cmath.isfinite(z), cmath.isclose(z, z * 1.0000000001))


@pytest.mark.parametrize("z,x", [(1.5 - 2j, -3.0), (complex(0.0, -0.0), 0.5), (complex(-1e300, 1e-300), -0.0)])
def test_cmath_gives_cpythons_bits(check_bits, z, x):
    check_bits(complex_functions, z, x)


def test_cmath_errors_are_cpythons(check):
    check(complex_functions, complex(0.0, 0.0), 1.0)  # log(0): ValueError math domain error


@jit
def inverse_plus_one(a):
    return np.linalg.inv(a) + 1.0


def test_strided_results_are_copied_or_refused(monkeypatch):
    a = spd(3, 4)
    # compiled first with NumPy's own inv: the call into Python finds the patched one when it runs
    # (patched before the first call, the lambda would be compiled as the helper it then is)
    np.testing.assert_array_equal(inverse_plus_one(a), inverse_plus_one.py_func(a))
    # a new F-ordered array: copied to C order, the values NumPy's
    monkeypatch.setattr(np.linalg, "inv", lambda m: np.asfortranarray(m * 2.0))
    np.testing.assert_array_equal(inverse_plus_one(a), a * 2.0 + 1.0)
    # a strided view of the argument itself: compiled code cannot hold it as NumPy does
    monkeypatch.setattr(np.linalg, "inv", lambda m: m.T)
    with pytest.raises(TypeError, match="strided view of an argument"):
        inverse_plus_one(a)


@jit
def taken(a, idx):
    return np.take(a, idx), np.take(a, idx, axis=0), np.take(a.reshape(2, -1), idx % 2, axis=1)


def test_np_take_with_an_index_array(check):
    """Typed on sample arguments: its integer ones must index the others (the
    first samples, 1..4, do not: it was refused)."""
    a = np.arange(8.0)
    check(taken, a, np.array([0, 7, 3]))
    check(taken, a, np.array([0, 9]))  # IndexError, as NumPy's


@jit
def decomposition_taken_apart(a):
    w, v = np.linalg.eigh(a)
    sign, logdet = np.linalg.slogdet(a)
    return w, v, sign, logdet, np.linalg.svd(a)[1]


def _eigh_whole(a):
    return np.linalg.eigh(a)


def test_named_tuple_results_are_taken_apart_or_left_to_python(check):
    """NumPy 2's EighResult, SlogdetResult, ...: unpacked or indexed, their items
    compile; kept whole, compiled code would hand out a plain tuple (another
    type, another repr), so that statement runs as Python."""
    import warnings

    from transpile import jit as plain_jit
    from transpile.diagnostics import TranspileFallbackWarning

    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    check(decomposition_taken_apart, a)
    with pytest.raises(Exception, match="returns EighResult, a named tuple"):
        jit(_eigh_whole)(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        assert type(plain_jit(_eigh_whole)(a)) is type(np.linalg.eigh(a))
