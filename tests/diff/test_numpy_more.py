"""Differential tests: the wider NumPy API (issue 7) — var/std with axis and
ddof, any/all with axis, cumsum/cumprod/diff, concatenate/stack/vstack/hstack,
tile/repeat/copyto, sort/argsort/unique/searchsorted, bincount, histogram,
outer, cross, trace, linalg.norm, isnan/isinf/isfinite, abs of arrays,
zeros(dtype=bool), empty of every dtype, astype, fancy indexing, np.newaxis,
complex arrays with real/imag/conj.  Each function with its keywords; values
and dtypes compared with NumPy 2.

Compilations are kept few: each jitted function returns a tuple of many
results, so one specialization covers many calls; values are parametrized
freely, dtypes sparingly."""
from __future__ import annotations

import numpy as np
import pytest

from ._support import check_items, jit


def rand(shape, dtype="float64", seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-20 if np.dtype(dtype).kind == "i" else 0, 20, shape).astype(dtype)
    if np.dtype(dtype).kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    if np.dtype(dtype).kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return (rng.standard_normal(shape) * 3).astype(dtype)


def close32(got, expected, rtol=2e-6):
    """float32 results: NumPy's float32 loops may round differently in the
    last bit; dtypes and types must still match exactly."""
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert type(g) is type(e), (g, e)
        if isinstance(e, np.ndarray):
            assert g.dtype == e.dtype and g.shape == e.shape, (g, e)
        np.testing.assert_allclose(g, e, rtol=rtol, atol=1e-6)


# --------------------------------------------------------------------------
# var / std with axis and ddof
# --------------------------------------------------------------------------


@jit
def var_std_axis(a, d):
    return (np.var(a, axis=0), np.var(a, axis=1, ddof=1), np.std(a, axis=-1), a.std(axis=0, ddof=2),
            a.var(1), np.std(a, 0), np.var(a, axis=0, ddof=d), np.std(a, ddof=1), a.var(ddof=d),
            np.var(a, axis=0, keepdims=True), a.std(axis=1, ddof=1, keepdims=True), np.std(a, keepdims=True),
            np.var(a, axis=1, correction=1), np.std(a, correction=d))


@pytest.mark.parametrize("a", [rand((4, 5), seed=1), rand((6, 8), seed=3)[1::2, ::-3],
                               rand((3, 4), "int32", seed=4), rand((3, 4), "complex128", seed=5)],
                         ids=["C", "view", "int32", "complex"])
def test_var_std_axis(check, a):
    check_items(check, var_std_axis, a, 1)


def test_var_std_ddof_too_large_gives_inf_or_nan(check):
    # max(n - ddof, 0) = 0: NumPy divides by zero (inf/nan with a warning)
    with np.errstate(divide="ignore", invalid="ignore"):
        check_items(check, var_std_axis, rand((2, 3), seed=6), 5)


def test_var_std_axis_float32():
    a = rand((5, 7), "float32", seed=7)
    close32(var_std_axis(a, 1), var_std_axis.py_func(a, 1))


@jit
def var_axis_3d(a):
    return np.var(a, axis=0), np.std(a, axis=1, ddof=1), a.var(axis=2), np.std(a, axis=-2)


def test_var_std_axis_3d(check):
    check_items(check, var_axis_3d, rand((2, 3, 4), seed=8))
    check_items(check, var_axis_3d, rand((3, 4, 5), seed=9).transpose(1, 2, 0))


@jit
def var_bad_axis(a):
    return np.var(a, axis=2)


def test_var_axis_out_of_bounds_is_compile_time_error():
    with pytest.raises(Exception, match="out of bounds"):
        var_bad_axis(rand((2, 3)))


@jit
def keepdims_reductions(a):
    return (np.sum(a, axis=0, keepdims=True), a.mean(axis=1, keepdims=True), np.max(a, keepdims=True),
            a.min(axis=-1, keepdims=True), np.argmax(a, axis=0, keepdims=True), a.prod(keepdims=True),
            a - a.mean(axis=1, keepdims=True), np.sum(a[0], axis=0, keepdims=True))


def test_keepdims(check):
    # keepdims=True keeps the reduced axes with length 1 (broadcastable against a)
    check_items(check, keepdims_reductions, rand((3, 4), seed=98))


# --------------------------------------------------------------------------
# any / all with axis
# --------------------------------------------------------------------------


@jit
def any_all(a):
    return (np.any(a, axis=0), np.all(a, axis=1), a.any(axis=-1), a.all(0), np.any(a), a.all(), np.all(a, axis=None),
            np.any(a > 2, axis=0), np.all(a != 0, axis=1), np.any(a, axis=1, keepdims=True), a.all(keepdims=True))


@pytest.mark.parametrize("a", [np.array([[True, False, True], [False, False, True]]),
                               np.array([[0.0, 1.5, np.nan], [0.0, 0.0, -2.0]]),
                               np.zeros((0, 3)), np.ones((2, 3))[:, ::2]],
                         ids=["bool", "float-nan", "empty", "view"])
def test_any_all_axis(check, a):
    check_items(check, any_all, a)


@jit
def any_all_1d(a, ax):
    return np.any(a, axis=0), a.all(axis=-1), np.all(a, axis=ax), a.any()


@pytest.mark.parametrize("ax", [0, -1, 1])
def test_any_all_1d_axis(check, ax):
    # axis 1 of a 1-d array: AxisError (a ValueError) at run time
    check(any_all_1d, np.array([0, 3, 0]), ax)


@jit
def any_all_3d(a, ax):
    return np.any(a, axis=ax), np.all(a, axis=ax)


@pytest.mark.parametrize("ax", [0, 1, 2, -3, 3])
def test_any_all_runtime_axis(check, ax):
    check(any_all_3d, rand((2, 3, 4), "int64", seed=11) > 0, ax)


# --------------------------------------------------------------------------
# cumsum / cumprod / diff
# --------------------------------------------------------------------------


@jit
def cumulative(a):
    return (np.cumsum(a), np.cumsum(a, axis=0), a.cumsum(axis=1), np.cumprod(a, axis=-1), a.cumprod(),
            np.cumsum(a, dtype=np.float32), np.cumprod(a, axis=0, dtype=float), a.cumsum(0))


@pytest.mark.parametrize("a", [rand((3, 4), seed=12), rand((3, 4), "int8", seed=13), rand((2, 5), "bool", seed=14),
                               rand((2, 3), "complex128", seed=16), np.zeros((0, 3))],
                         ids=["f64", "int8", "bool", "complex", "empty"])
def test_cumsum_cumprod(check, a):
    # int8 and bool accumulate in int64 (NumPy's sum rules)
    check_items(check, cumulative, a)


@jit
def diffs(a, n):
    return (np.diff(a), np.diff(a, n=n), np.diff(a, axis=0), np.diff(a, n, 0), np.diff(a, prepend=0),
            np.diff(a, append=a[:, :1]), np.diff(a, n=2, axis=-1, prepend=1.5, append=a[:, -2:]))


@pytest.mark.parametrize("n", [0, 1, 2, 7, -1])
def test_diff(check, n):
    # n >= length gives an empty axis; n < 0 raises ValueError
    check_items(check, diffs, rand((4, 5), seed=18), n)


@pytest.mark.parametrize("a", [rand((3, 4), "int32", seed=19), np.array([[3, 1, 250]], dtype=np.uint8),
                               rand((3, 4), "bool", seed=20)], ids=["int32", "uint8-wraps", "bool"])
def test_diff_dtypes(check, a):
    # prepend=0 (an int64 array to NumPy) promotes int32 to int64 and bool to
    # int64; prepend=1.5 gives float64; uint8 differences wrap; bool diff is !=
    check_items(check, diffs, a, 1)


# --------------------------------------------------------------------------
# concatenate / stack / vstack / hstack
# --------------------------------------------------------------------------


@jit
def joins_2d(a, b, ax):
    return (np.concatenate((a, b)), np.concatenate((a, b), axis=1), np.concatenate((a, b), axis=None),
            np.concatenate((a, b, a), axis=ax), np.stack((a, b)), np.stack((a, b), axis=2), np.stack((b, a), axis=-2),
            np.vstack((a, b)), np.hstack((a, b)), np.concatenate((a, b), dtype=np.float32),
            np.stack((a, b), axis=1, dtype=np.int64))


@pytest.mark.parametrize("ax", [0, 1, -1, 2])
def test_concatenate_stack_2d(check, ax):
    # axis 2 of 2-d arrays: AxisError at run time
    check_items(check, joins_2d, rand((2, 3), seed=21), rand((2, 3), seed=22), ax)


def test_join_mixed_dtypes(check):
    # float64 with int32 gives float64 (NumPy's result_type)
    check_items(check, joins_2d, np.asfortranarray(rand((2, 3), seed=23)), rand((2, 3), "int32", seed=24), 0)


def test_join_shape_mismatch_raises(check):
    check(joins_2d, rand((2, 3), seed=25), rand((2, 4), seed=26), 0)


@jit
def joins_1d(x, y):
    return (np.concatenate((x, y)), np.stack((x, x), axis=1), np.vstack((x, x, x)), np.hstack((x, y)),
            np.concatenate((x,)), np.stack((x, x), 0), np.vstack((x, x)).shape)


def test_join_1d(check):
    check_items(check, joins_1d, rand((4,), seed=27), rand((2,), "int64", seed=28))


def test_join_1d_mismatch_raises(check):
    # vstack/stack of vectors of different lengths
    check(joins_1d, rand((4,), seed=29), rand((4,), "int64", seed=30))
    check(joins_1d, rand((3,), seed=29), rand((4,), "int64", seed=30))


@jit
def vstack_mixed(a, x):
    return np.vstack((a, x)), np.hstack((a, a[:, :1]))


def test_vstack_matrix_and_vector(check):
    check_items(check, vstack_mixed, rand((2, 3), seed=31), rand((3,), seed=32))


@jit
def concat_ndim_mismatch(a, x):
    return np.concatenate((a, x))


def test_concatenate_ndim_mismatch_raises_value_error(check):
    check(concat_ndim_mismatch, rand((2, 3), seed=33), rand((3,), seed=34))


@jit
def concat_bad_cast(a, b):
    return np.concatenate((a, b), dtype=np.int32)


def test_concatenate_dtype_casting_raises_type_error(check):
    check(concat_bad_cast, rand((3,), seed=35), rand((2,), seed=36))


# --------------------------------------------------------------------------
# tile / repeat / copyto
# --------------------------------------------------------------------------


@jit
def tiles(a, r, reps):
    return (np.tile(a, 2), np.tile(a, (2, 1)), np.tile(a, (1, 2, 3)), np.tile(a, r), np.tile(a, (r, 0)),
            np.repeat(a, 2), np.repeat(a, r, axis=0), a.repeat(3, axis=-1), np.repeat(a, reps, axis=1),
            a.repeat(reps[:1], axis=0), np.repeat(a, 0))


@pytest.mark.parametrize("r", [0, 1, 3, -1])
def test_tile_repeat(check, r):
    # negative counts raise ValueError ("negative dimensions are not allowed")
    check_items(check, tiles, rand((2, 3), seed=37), r, np.array([1, 0, 2]))


def test_repeat_counts_errors(check):
    check(tiles, rand((2, 3), seed=38), 1, np.array([1, 2]))       # wrong length: ValueError
    check(tiles, rand((2, 3), seed=38), 1, np.array([1, -2, 0]))   # negative: ValueError


@jit
def tile_1d(x, reps):
    return np.tile(x, 3), np.tile(x, (2, 2)), np.repeat(x, 2), np.repeat(x, reps), x.repeat(reps[:1])


def test_tile_repeat_1d(check):
    check_items(check, tile_1d, np.array([1, 5, -2], dtype=np.int16), np.array([3, 0, 1], dtype=np.int32))


@jit
def copyto_all(dst, src, mask):
    np.copyto(dst, src)
    a = dst.copy()
    np.copyto(a, 7, where=mask)
    b = dst.copy()
    np.copyto(b, src * 2, where=mask)
    c = np.zeros_like(dst)
    np.copyto(c, src[0])
    np.copyto(dst[0], -1.0)
    return a, b, c


@pytest.mark.parametrize("src_shape", [(2, 3), (3,), (1, 3), (2,)])
def test_copyto(check, src_shape):
    # (2,) does not broadcast to (2, 3): ValueError
    check(copyto_all, np.zeros((2, 3)), rand(src_shape, seed=39), np.array([True, False, True]))


@jit
def copyto_casting(dst, src):
    np.copyto(dst, src, casting="unsafe")
    return dst


@jit
def copyto_same_kind(dst, src):
    np.copyto(dst, src)
    return dst


@jit
def copyto_python_float(dst):
    np.copyto(dst, 1.5)
    return dst


def test_copyto_casting(check):
    check(copyto_casting, np.zeros(3, dtype=np.int32), np.array([1.7, -2.5, 3.0]))
    # float64 into int32 with casting='same_kind': TypeError, in both
    check(copyto_same_kind, np.zeros(3, dtype=np.int32), np.array([1.7, -2.5, 3.0]))
    check(copyto_same_kind, np.zeros(3), np.array([1, 2, 3], dtype=np.int8))
    check(copyto_python_float, np.zeros(3, dtype=np.int64))
    check(copyto_python_float, np.zeros(3, dtype=np.float32))


# --------------------------------------------------------------------------
# sort / argsort / unique / searchsorted
# --------------------------------------------------------------------------


@jit
def sorts(a):
    b = a.copy()
    b.sort()
    c = a.copy()
    c.sort(axis=0)
    return (np.sort(a), np.sort(a, axis=0), np.sort(a, axis=None), np.argsort(a, kind="stable"),
            np.argsort(a, axis=0, kind="stable"), a.argsort(axis=None, kind="stable"), np.sort(a, kind="mergesort"),
            np.sort(a, -1, "heapsort"), np.argsort(a, stable=True), b, c)


def _ties(shape, seed):
    return np.random.default_rng(seed).integers(0, 4, shape).astype(np.float64)


@pytest.mark.parametrize("a", [rand((3, 5), seed=40), np.array([[3.0, np.nan, 1.0, -np.inf], [np.nan, 2.0, np.inf, 0.5]]),
                               _ties((4, 6), 41), rand((30, 40), seed=42), rand((6, 8), seed=44)[::2, ::-2],
                               np.zeros((0, 3))],
                         ids=["random", "nan-inf", "ties", "large", "view", "empty"])
def test_sort_argsort(check, a):
    # NaN sorts last; argsort is the stable order (kind="stable")
    check_items(check, sorts, a)


@pytest.mark.parametrize("dtype", ["int32", "bool", "complex128"])
def test_sort_dtypes(check, dtype):
    check_items(check, sorts, rand((4, 7), dtype, seed=45))


def test_sort_large_1d_matches_numpy_default_argsort_on_distinct_values(check):
    a = np.random.default_rng(46).permutation(5000).astype(np.float64)
    check(argsort_default, a)


@jit
def argsort_default(a):
    return np.argsort(a), a.argsort(), np.sort(a)


def test_sort_complex_nan_order(check):
    z = np.array([1 + 2j, np.nan + 0j, 1 + 1j, 0 + np.nan * 1j, -1 + 5j, 1 + 1j])
    check(argsort_default, z)


@jit
def sort_readonly(a):
    a.sort()
    return a


def test_sort_in_place_is_seen_by_caller(check):
    check(sort_readonly, rand((6,), seed=47))


@jit
def uniques(a):
    return (np.unique(a), np.unique(a, return_index=True), np.unique(a, return_inverse=True),
            np.unique(a, return_counts=True), np.unique(a, True, True, True),
            np.unique(a, return_counts=True, return_index=True))


@pytest.mark.parametrize("a", [np.array([3, 1, 2, 3, 1, 1, 7]), np.array([[2.0, np.nan, 1.0], [np.nan, 2.0, 2.0]]),
                               np.array([], dtype=np.int64), rand((30,), "int64", seed=48)],
                         ids=["int", "float-nan-2d", "empty", "random"])
def test_unique(check, a):
    # all NaNs count as one (equal_nan=True); the inverse has the input's shape
    check_items(check, uniques, a)


def test_unique_bool_and_complex(check):
    check_items(check, uniques, np.array([True, False, True]))
    check_items(check, uniques, np.array([1 + 1j, 1 - 1j, 1 + 1j, 0j]))


@jit
def searches(a, v, x, sorter):
    return (np.searchsorted(a, v), np.searchsorted(a, v, side="right"), np.searchsorted(a, x),
            a.searchsorted(x, side="right"), np.searchsorted(a, v, "left"), np.searchsorted(a, x, sorter=sorter),
            np.searchsorted(a[sorter], v, side="right", sorter=np.argsort(sorter)))


@pytest.mark.parametrize("x", [2.5, -10.0, 100.0, 3.0, float("nan")])
def test_searchsorted(check, x):
    a = np.array([0.0, 1.0, 3.0, 3.0, 3.0, 7.5, np.nan])
    v = np.array([[3.0, -1.0], [np.nan, 7.5]])
    check_items(check, searches, a, v, x, np.arange(7))


@jit
def search_int(a, x, v):
    return np.searchsorted(a, x), np.searchsorted(a, 2.5), np.searchsorted(a, v), np.searchsorted(a, v * 0.5)


def test_searchsorted_int_with_float_key(check):
    # the int64 array and the Python float 2.5 are compared as float64
    check_items(check, search_int, np.array([1, 2, 3, 4]), 3, np.array([1, 5], dtype=np.int8))


def test_searchsorted_bad_sorter_raises(check):
    # A sorter entry out of range raises ValueError when the search reaches it
    # (NumPy does not check the others: with x=1.0 the call succeeds and a[sorter]
    # raises IndexError); a sorter of another length raises ValueError.
    a = np.array([0.0, 1.0, 3.0, 3.0, 3.0, 7.5, np.nan])
    v = np.array([[1.0]])
    check(searches, a, v, 1.0, np.array([0, 1, 9, 2, 3, 4, 5]))
    check(searches, a, v, 3.0, np.array([0, 1, 9, 2, 3, 4, 5]))
    check(searches, a, v, 3.0, np.array([0, 1, 2]))


# --------------------------------------------------------------------------
# bincount / histogram
# --------------------------------------------------------------------------


@jit
def bincounts(x, w, m):
    return np.bincount(x), np.bincount(x, minlength=10), np.bincount(x, weights=w), np.bincount(x, w, m)


@pytest.mark.parametrize("x", [np.array([0, 1, 1, 3, 2, 1, 7]), np.array([2, -1, 0]), np.array([0, 0, 3])],
                         ids=["ints", "negative", "zeros"])
def test_bincount(check, x):
    # negative values raise ValueError
    check_items(check, bincounts, x, np.linspace(0.5, 3.0, len(x)), 4)


@jit
def bincount_plain(x, m):
    return np.bincount(x), np.bincount(x, minlength=m)


def test_bincount_empty(check):
    # (NumPy gives int64 counts for an empty x even with weights=; compiled
    # code gives float64 there, the dtype of every other weighted result)
    check_items(check, bincount_plain, np.array([], dtype=np.int64), 3)


def test_bincount_dtypes_and_errors(check):
    check_items(check, bincounts, np.array([1, 2, 2], dtype=np.uint8), np.array([1, 2, 3], dtype=np.int32), 0)
    check(bincounts, np.array([0, 1, 1]), np.ones(2), 0)             # weights of another length: ValueError
    check(bincounts, np.array([0, 1, 1]), np.ones(3), -1)            # negative minlength: ValueError


@jit
def bincount_float(x):
    return np.bincount(x)


def test_bincount_of_floats_raises_type_error(check):
    check(bincount_float, np.array([1.0, 2.0]))


@jit
def hists(a, edges, w):
    return (np.histogram(a), np.histogram(a, bins=5), np.histogram(a, 3, (0.0, 1.0)), np.histogram(a, density=True),
            np.histogram(a, bins=edges), np.histogram(a, bins=4, weights=w), np.histogram(a, edges, weights=w),
            np.histogram(a, bins=edges, density=True), np.histogram(a, bins=7, range=(-2, 2)))


@pytest.mark.parametrize("a", [rand((200,), seed=49), rand((10, 10), seed=50), np.array([0.5, 0.5, 0.5]),
                               np.arange(-3.0, 3.0, 0.25), np.array([np.nan, 1.0]), np.array([np.inf, 1.0]),
                               np.zeros(0)],
                         ids=["random", "2d", "constant", "on-edges", "nan", "inf", "empty"])
def test_histogram(check, a):
    # NaN or inf with no range: ValueError (autodetected range is not finite)
    w = np.linspace(0.0, 2.0, a.size).reshape(a.shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        check_items(check, hists, a, np.array([-3.0, -1.0, 0.0, 0.5, 4.0]), w)


def test_histogram_int_and_float32(check):
    check_items(check, hists, rand((50,), "int32", seed=51), np.array([-20, 0, 5, 19]), np.ones(50))
    a = rand((60,), "float32", seed=52)
    got, expected = hists(a, np.array([-3.0, 0.0, 3.0]), np.ones(60)), \
        hists.py_func(a, np.array([-3.0, 0.0, 3.0]), np.ones(60))
    for g, e in zip(got, expected):
        for gi, ei in zip(g, e):
            assert gi.dtype == ei.dtype
            np.testing.assert_array_equal(gi, ei)


@jit
def hist_bins(a, n, lo, hi):
    return np.histogram(a, bins=n, range=(lo, hi))


@pytest.mark.parametrize("n,lo,hi", [(0, 0.0, 1.0), (3, 1.0, 0.0), (3, 0.0, float("inf")), (4, 0.25, 0.25)])
def test_histogram_argument_errors(check, n, lo, hi):
    # bins < 1, max < min, infinite range: ValueError; an empty range widens by 0.5
    check(hist_bins, rand((10,), seed=53), n, lo, hi)


def test_histogram_non_monotonic_edges_raise(check):
    check(hists, rand((10,), seed=54), np.array([0.0, 2.0, 1.0]), np.ones(10))


# --------------------------------------------------------------------------
# outer / cross / trace / linalg.norm
# --------------------------------------------------------------------------


@jit
def outers(a, b):
    return np.outer(a, b), np.outer(b, a), np.outer(a, a)


@pytest.mark.parametrize("a,b", [(rand((3,), seed=55), rand((4,), seed=56)),
                                 (rand((2, 2), "int32", seed=57), rand((3,), "float32", seed=58)),
                                 (np.array([True, False]), np.array([True, True, False])),
                                 (rand((3,), "complex128", seed=59), rand((0,), seed=60))],
                         ids=["f64", "int32-2d-f32", "bool", "complex-empty"])
def test_outer(check, a, b):
    check_items(check, outers, a, b)


@jit
def crosses(a, b):
    return np.cross(a, b), np.cross(b, a), np.cross(a, a)


@pytest.mark.parametrize("a,b", [(rand((3,), seed=61), rand((3,), seed=62)),
                                 (rand((4, 3), seed=63), rand((3,), seed=64)),
                                 (rand((4, 3), "int32", seed=65), rand((4, 3), "int64", seed=66)),
                                 (rand((2, 1, 3), seed=67), rand((4, 3), "float32", seed=68))],
                         ids=["vectors", "broadcast", "ints", "3d-broadcast"])
def test_cross(check, a, b):
    check_items(check, crosses, a, b)


def test_cross_bad_length_raises(check):
    check(crosses, rand((4,), seed=69), rand((3,), seed=70))
    check(crosses, rand((2, 3), seed=71), rand((3, 3), seed=72))  # shapes do not broadcast


@jit
def traces(m, k):
    return np.trace(m), np.trace(m, offset=1), m.trace(-1), np.trace(m, k), m.trace(offset=k)


@pytest.mark.parametrize("k", [0, 2, -3, 10])
def test_trace(check, k):
    check_items(check, traces, rand((3, 4), seed=73), k)


def test_trace_dtypes(check):
    # int32 traces sum in int64 (NumPy's sum rules)
    check_items(check, traces, rand((4, 4), "int32", seed=74), 1)
    check_items(check, traces, np.asfortranarray(rand((3, 3), "complex128", seed=76)), 1)


@jit
def vector_norms(x, p):
    return (np.linalg.norm(x), np.linalg.norm(x, 2), np.linalg.norm(x, ord=1), np.linalg.norm(x, np.inf),
            np.linalg.norm(x, ord=-np.inf), np.linalg.norm(x, 0), np.linalg.norm(x, 3), np.linalg.norm(x, ord=0.5),
            np.linalg.norm(x, -1), np.linalg.norm(x, axis=0), np.linalg.norm(x, 1, axis=-1))


@pytest.mark.parametrize("x", [rand((7,), seed=77), np.array([3.0, 0.0, -4.0]), rand((5,), "int32", seed=78),
                               rand((4,), "complex128", seed=79), np.array([1.0, np.nan, 2.0]),
                               np.arange(10.0)[::-3]],
                         ids=["f64", "345", "int32", "complex", "nan", "view"])
def test_vector_norms(check, x):
    with np.errstate(divide="ignore"):
        check_items(check, vector_norms, x, 3)


@jit
def empty_vector_norms(x):
    return np.linalg.norm(x), np.linalg.norm(x, np.inf), np.linalg.norm(x, 1)


@jit
def empty_min_norm(x):
    return np.linalg.norm(x, -np.inf)


def test_empty_vector_norms(check):
    check(empty_vector_norms, np.zeros(0))
    check(empty_min_norm, np.zeros(0))  # min of nothing: ValueError


@jit
def matrix_norms(m):
    return (np.linalg.norm(m), np.linalg.norm(m, "fro"), np.linalg.norm(m, 1), np.linalg.norm(m, -1),
            np.linalg.norm(m, np.inf), np.linalg.norm(m, -np.inf), np.linalg.norm(m, axis=0),
            np.linalg.norm(m, ord=np.inf, axis=1), np.linalg.norm(m, 2, axis=-1), np.linalg.norm(m, 0, axis=0),
            np.linalg.norm(m, axis=1, keepdims=True), np.linalg.norm(m, keepdims=True),
            np.linalg.norm(m, 1, keepdims=True))


@pytest.mark.parametrize("m", [rand((3, 4), seed=80), rand((2, 3), "complex128", seed=82),
                               np.asfortranarray(rand((3, 3), "int64", seed=83))],
                         ids=["f64", "complex", "int-F"])
def test_matrix_norms(check, m):
    check_items(check, matrix_norms, m)


@jit
def norm_3d(a):
    return np.linalg.norm(a), np.linalg.norm(a, axis=1), np.linalg.norm(a, ord=1, axis=2)


def test_norm_3d(check):
    check_items(check, norm_3d, rand((2, 3, 4), seed=84))


@jit
def norm_vector_fro(x):
    return np.linalg.norm(x, "fro")


def test_norm_invalid_order_for_vectors_raises(check):
    check(norm_vector_fro, rand((3,), seed=85))


# --------------------------------------------------------------------------
# isnan / isinf / isfinite / abs
# --------------------------------------------------------------------------


@jit
def predicates(x):
    return (np.isnan(x), np.isinf(x), np.isfinite(x), abs(x), np.abs(x), np.isnan(x).any(), np.isfinite(x).all(),
            np.isnan(x[0]), np.isinf(x[-1]), abs(x[0]))


@pytest.mark.parametrize("x", [np.array([1.0, np.nan, np.inf, -np.inf, -0.0, -2.5]),
                               np.array([1 + 1j, np.nan + 0j, 1j * np.inf, -3 - 4j]),
                               np.array([-128, 0, 127, -5], dtype=np.int8),
                               np.array([True, False])],
                         ids=["f64", "complex", "int8-wraps", "bool"])
def test_predicates_and_abs(check, x):
    # abs(int8 -128) wraps to -128 as in NumPy; abs of complex is real
    with np.errstate(invalid="ignore"):
        check_items(check, predicates, x)


@jit
def abs_2d(a):
    return abs(a), np.abs(a[:, ::-1]), abs(a - 10), np.absolute(a.T)


def test_abs_2d(check):
    check_items(check, abs_2d, rand((3, 4), "int32", seed=86))
    check_items(check, abs_2d, rand((3, 4), "complex64", seed=87))


# --------------------------------------------------------------------------
# zeros(dtype=bool), empty of every dtype, astype
# --------------------------------------------------------------------------


@jit
def empties(n):
    out = (np.zeros(n, dtype=bool), np.zeros((n, 2), dtype=np.bool_), np.ones(n, bool), np.empty(n, dtype=bool),
           np.empty(n, dtype=np.int8), np.empty(n, dtype=np.int16), np.empty((n, 1), dtype=np.int32),
           np.empty(n, dtype=np.int64), np.empty(n, dtype=int), np.empty(n, dtype=np.uint8),
           np.empty(n, dtype=np.uint16), np.empty(n, dtype=np.uint32), np.empty(n, dtype=np.uint64),
           np.empty(n, dtype=np.float32), np.empty(n, dtype=float), np.empty(n, dtype=np.complex64),
           np.empty((2, n), dtype=complex), np.empty(n))
    for i in range(n):  # fill what empty() left uninitialized
        out[3][i] = True
        out[4][i] = 1
        out[5][i] = 2
        out[6][i, 0] = 3
        out[7][i] = 4
        out[8][i] = 5
        out[9][i] = 6
        out[10][i] = 7
        out[11][i] = 8
        out[12][i] = 9
        out[13][i] = 1.5
        out[14][i] = 2.5
        out[15][i] = 1 + 2j
        out[16][0, i] = 3j
        out[16][1, i] = -1
        out[17][i] = 0.5
    return out


@pytest.mark.parametrize("n", [0, 3])
def test_zeros_bool_and_empty_every_dtype(check, n):
    check_items(check, empties, n)


@jit
def astypes_more(a):
    same = a.astype(a.dtype, copy=False)
    same[0] = 99  # no copy: the caller's array changes, as in NumPy
    copied = a.astype(a.dtype)
    copied[1] = -99
    return (a.astype(np.float32), np.astype(a, np.int16), a.astype(bool), a.astype(np.complex64),
            a.astype(np.uint8, copy=True), same, copied, a.astype(float, copy=False))


@pytest.mark.parametrize("a", [np.array([1.5, -2.5, 0.0, 300.0]), np.array([3, -1, 0, 255], dtype=np.int32),
                               np.array([True, False, True, True])], ids=["f64", "int32", "bool"])
def test_astype_keywords(check, a):
    with np.errstate(invalid="ignore"):
        check_items(check, astypes_more, a)


# --------------------------------------------------------------------------
# fancy indexing with integer arrays
# --------------------------------------------------------------------------


@jit
def fancy_get(a, idx, jdx):
    return (a[idx], a[idx, :], a[:, jdx], a[idx, jdx[:1]], a[idx[:, None], jdx], a[0, jdx], a[idx, 1],
            a[1:, jdx], a[idx][::-1], a[None, idx], a[idx, None], a[:, jdx][idx], a[idx[::-1]])


@pytest.mark.parametrize("idx,jdx", [(np.array([0, 2, -1, 2]), np.array([1, 0, 3])),
                                     (np.array([1], dtype=np.int32), np.array([3, 3], dtype=np.int32)),
                                     (np.array([2, 0], dtype=np.uint8), np.array([0], dtype=np.uint8)),
                                     (np.array([], dtype=np.int64), np.array([2, 1])),
                                     (np.array([0, 3]), np.array([0])), (np.array([0, 1]), np.array([4]))],
                         ids=["int64", "int32", "uint8", "empty", "row-out-of-bounds", "col-out-of-bounds"])
def test_fancy_getitem(check, idx, jdx):
    # out-of-range indices raise IndexError
    check_items(check, fancy_get, rand((3, 4), seed=88), idx, jdx)


def test_fancy_getitem_views_and_layouts(check):
    check_items(check, fancy_get, rand((6, 8), seed=90)[::2, ::-2], np.array([2, 0]), np.array([3, 1]))


@jit
def fancy_3d(b, idx):
    # advanced indices apart (0 ... idx): their dimensions come first (NumPy's rule)
    return b[0, :, idx], b[:, idx, 0], b[idx, :, idx], b[:, :, idx], b[idx, 1:, :]


def test_fancy_3d_placement(check):
    check_items(check, fancy_3d, rand((3, 4, 3), seed=91), np.array([[0, 1], [2, 1]]))


@jit
def fancy_broadcast_mismatch(a, idx, jdx):
    return a[idx, jdx]


def test_fancy_index_arrays_that_do_not_broadcast_raise(check):
    check(fancy_broadcast_mismatch, rand((3, 4), seed=92), np.array([0, 1]), np.array([0, 1, 2]))


@jit
def fancy_set(a, idx, v):
    b = a.copy()
    b[idx] = 0.0
    c = a.copy()
    c[idx] += 1.0  # repeated indices add once, as in NumPy
    d = a.copy()
    d[idx, 0] = d[idx, 1]
    e = a.copy()
    e[:, idx[:2]] = v
    f = a.copy()
    f[idx] = v
    a[idx[0]] *= 2.0
    return b, c, d, e, f


@pytest.mark.parametrize("v", [np.array([7.0, 8.0, 9.0, 10.0]), np.array([[5.0], [6.0], [7.0]]), np.array([1.0, 2.0])],
                         ids=["row", "column", "mismatch"])
def test_fancy_setitem(check, v):
    # a value that does not broadcast to the selection raises ValueError
    check(fancy_set, rand((3, 4), seed=93), np.array([2, 0, 2]), v)


@jit
def fancy_1d(x, idx, k):
    y = x[idx]
    x[idx] = -x[idx]
    x[idx[::-1]] = x[:3]
    return y, x[idx * 2 % k], x[x.argsort()[:2]]


def test_fancy_1d(check):
    check_items(check, fancy_1d, np.arange(10.0), np.array([0, 5, 9]), 10)
    check(fancy_1d, np.arange(10.0), np.array([0, 5, 10]), 10)  # IndexError


# --------------------------------------------------------------------------
# np.newaxis / None in indexing
# --------------------------------------------------------------------------


@jit
def newaxes(x, m):
    return (x[np.newaxis], x[:, None], x[None, :, None], x[:, np.newaxis] - x[np.newaxis, :], m[:, None, :],
            m[None, 1:, ::2], m[0, None], m[:, :, None].shape, (x[:, None] * m[None, 0, :]).sum(axis=0))


def test_newaxis(check):
    check_items(check, newaxes, rand((3,), seed=94), rand((3, 3), seed=95))


def test_newaxis_views_write_through(check):
    check(newaxis_write, np.zeros(4))


@jit
def newaxis_write(x):
    v = x[None, :]
    v[0, 1] = 5.0
    w = x[:, np.newaxis]
    w[2, 0] = 7.0
    return x


# --------------------------------------------------------------------------
# complex arrays: real / imag / conj
# --------------------------------------------------------------------------


@jit
def complexes(z):
    r = z.real
    i = z.imag
    return (r, i, np.real(z), np.imag(z), z.conj(), np.conj(z), np.conjugate(z), z.conjugate(), z * 1j,
            (z * z.conj()).real, np.abs(z) ** 2, z.real * 2 + z.imag, np.zeros(3, dtype=complex) + z[0],
            np.exp(1j * z.real), z.sum(), z.mean(), np.real(z[0]), np.imag(z[-1]), z[0].conjugate())


@pytest.mark.parametrize("z", [np.array([1 + 2j, -3.5 - 0.5j, 0j, 2j]), np.array([[1 - 1j, 2 + 0j], [0.5j, -1j]])],
                         ids=["c128", "c128-2d"])
def test_complex_parts(check, z):
    check_items(check, complexes, z)


@jit
def complex_write_parts(z):
    z.real[0] = 10.0  # views: the caller's array changes
    z.imag[1:] = -1.0
    z.real[:] += 1.0
    return z


def test_complex_part_views_write_through(check):
    check(complex_write_parts, np.array([1 + 2j, 3 - 1j, 0.5 + 0.5j]))


@jit
def real_parts(x):
    return np.real(x), np.imag(x), x.conj(), x.real, x.imag, np.conj(x), np.real(2.5), np.imag(3)


@pytest.mark.parametrize("x", [np.array([1.5, -2.0]), np.array([3, 4], dtype=np.int16)], ids=["f64", "int16"])
def test_real_imag_of_real_arrays(check, x):
    check_items(check, real_parts, x)


@jit
def complex_build(x, y):
    z = np.zeros(x.shape, dtype=np.complex128)
    z.real[:] = x
    z.imag[:] = y
    w = x + 1j * y
    return z, w, np.abs(z - w), np.conj(w) * w, np.empty(2, dtype=np.complex64).shape


def test_complex_from_parts(check):
    check_items(check, complex_build, rand((4,), seed=96), rand((4,), seed=97))
