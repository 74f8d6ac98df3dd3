"""Differential tests: NumPy's functions of array axes in compiled code
(transpose with axes, swapaxes, moveaxis, expand_dims, squeeze,
atleast_1d/2d/3d, diag) and `...` beside other indices: values, dtypes,
shapes, views sharing the argument's memory, and NumPy's exceptions."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from transpile import jit as plain_jit
from transpile.diagnostics import TranspileFallbackWarning

from ._support import check_items, jit


def rand(shape, dtype="float64", seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-20, 20, shape).astype(dtype)
    if np.dtype(dtype).kind == "b":
        return rng.random(shape) < 0.5
    return (rng.standard_normal(shape) * 3).astype(dtype)


def same_error(fn, *args):
    """The compiled function raises what NumPy raises: the same type and message."""
    with pytest.raises(Exception) as expected:
        fn.py_func(*args)
    with pytest.raises(Exception) as got:
        fn(*args)
    assert type(got.value) is type(expected.value), (got.value, expected.value)
    assert str(got.value) == str(expected.value)


ARRAYS_3D = [rand((2, 3, 4)), np.asfortranarray(rand((2, 3, 4), seed=1)), rand((4, 6, 8), seed=2)[::2, 1::2, ::-2],
             rand((2, 3, 4), "int32", seed=3), rand((2, 3, 4), "bool", seed=4), np.zeros((0, 3, 2))]
IDS_3D = ["c", "f", "strided", "int32", "bool", "empty"]


# --------------------------------------------------------------------------
# permutations: transpose with axes, swapaxes, moveaxis
# --------------------------------------------------------------------------


@jit
def permutations(a):
    return (a.transpose(2, 1, 0), a.transpose((2, 0, 1)), a.transpose(None), a.transpose(-1, 0, 1),
            np.transpose(a, (1, 0, 2)), np.transpose(a, axes=(0, 2, 1)), np.transpose(a), np.transpose(a, (0, 1, 2)),
            np.swapaxes(a, 0, 2), a.swapaxes(-1, 0), np.swapaxes(a, 1, 1), np.swapaxes(a, axis1=0, axis2=1),
            np.moveaxis(a, 0, -1), np.moveaxis(a, (0, 1), (2, 0)), np.moveaxis(a, source=-1, destination=0),
            np.moveaxis(a, (), ()), np.transpose(a, (2, 1, 0))[1:, ::2].sum(axis=0))


@pytest.mark.parametrize("a", ARRAYS_3D, ids=IDS_3D)
def test_permutations(check, a):
    check_items(check, permutations, a)


@jit
def permutations_low(a, b):
    return np.transpose(a), a.transpose(()), np.swapaxes(b, 0, -1), np.moveaxis(b, 0, 0), b.transpose(0), b.T


def test_permutations_of_0d_and_1d(check):
    check_items(check, permutations_low, np.array(2.5), rand((5,), "int64"))


# --------------------------------------------------------------------------
# new and dropped axes: expand_dims, squeeze, atleast_nd
# --------------------------------------------------------------------------


@jit
def new_axes(a):
    return (np.expand_dims(a, 0), np.expand_dims(a, -1), np.expand_dims(a, axis=1), np.expand_dims(a, (0, -1)),
            np.expand_dims(a, (3, 0, 1)), np.expand_dims(a, ()), np.atleast_1d(a), np.atleast_2d(a),
            np.atleast_3d(a), np.expand_dims(a, 0) * 2)


@pytest.mark.parametrize("a", [rand((3, 4)), np.asfortranarray(rand((3, 4), seed=5)), rand((6, 8), seed=6)[::2, ::-3],
                               rand((3, 4), "uint8", seed=7), np.zeros((0, 4), np.complex128)],
                         ids=["c", "f", "strided", "uint8", "empty-complex"])
def test_new_axes(check, a):
    check_items(check, new_axes, a)


@jit
def at_least(x, a0, a1, a2, a3):
    return (np.atleast_1d(x), np.atleast_2d(x), np.atleast_3d(x), np.atleast_1d(a0), np.atleast_2d(a0),
            np.atleast_3d(a0), np.atleast_1d(a1), np.atleast_2d(a1), np.atleast_3d(a1), np.atleast_3d(a2),
            np.atleast_3d(a3), np.atleast_2d(a1[::-2]))


@pytest.mark.parametrize("x", [2.5, 3, True, np.float32(1.5)], ids=["float", "int", "bool", "float32"])
def test_atleast(check, x):
    check_items(check, at_least, x, np.array(7, np.int16), rand((5,)), rand((2, 3), "int32"), rand((2, 1, 3)))


@jit
def squeezes(a):
    return (np.squeeze(a, 0), np.squeeze(a, (0, 2)), np.squeeze(a, axis=-1), a.squeeze(axis=2), a.squeeze(0),
            np.squeeze(a, ()), np.squeeze(a, (-3, -1)).sum(), np.squeeze(np.expand_dims(a, 1), (0, 1)))


@pytest.mark.parametrize("a", [rand((1, 4, 1)), rand((1, 6, 1), "int8", seed=8)[:, ::2], np.zeros((1, 0, 1), bool),
                               np.asfortranarray(rand((1, 3, 1), seed=9))], ids=["c", "strided-int8", "empty", "f"])
def test_squeeze_with_axis(check, a):
    check_items(check, squeezes, a)


@jit
def squeeze_0d(a):
    return np.squeeze(a), a.squeeze(), np.squeeze(a, ())


def test_squeeze_of_0d_needs_no_axis(check):
    check_items(check, squeeze_0d, np.array(4.0))


@jit
def squeeze_no_axis(a):
    return np.squeeze(a)


def test_squeeze_without_axis_is_refused_with_a_hint():
    with pytest.raises(Exception, match="pass axis="):
        squeeze_no_axis(rand((1, 3)))


@jit
def squeeze_runtime_axis(a, k):
    return np.squeeze(a, k)


def test_runtime_axes_are_refused():
    with pytest.raises(Exception, match="must be known while compiling"):
        squeeze_runtime_axis(rand((1, 3)), 0)


# --------------------------------------------------------------------------
# diag
# --------------------------------------------------------------------------


@jit
def diags(v, a, k):
    return (np.diag(v), np.diag(v, 1), np.diag(v, -2), np.diag(v, k), np.diag(v, k=-k),
            np.diag(a), np.diag(a, 1), np.diag(a, -1), np.diag(a, k), np.diag(a, k=-k), np.diag(a, 7), np.diag(a, -9),
            np.diag(a.T), np.diag(np.diag(v)) + 1)


@pytest.mark.parametrize("k", [0, 2, 5, -3])
def test_diag(check, k):
    check_items(check, diags, rand((4,)), rand((3, 5), seed=10), k)


@pytest.mark.parametrize("dtype", ["int16", "bool", "complex128", "float32"])
def test_diag_dtypes_and_strides(check, dtype):
    check_items(check, diags, rand((9,), dtype)[::-3], rand((6, 10), dtype, seed=11)[::2, 1::2], 1)
    check_items(check, diags, np.zeros(0, dtype), np.zeros((0, 3), dtype), -1)


@jit
def diag_bad(a, k):
    return np.diag(a, k)


def test_diag_errors():
    same_error(diag_bad, rand((2, 2, 2)), 0)  # ValueError: Input must be 1- or 2-d.
    same_error(diag_bad, np.array(1.0), 0)
    same_error(diag_bad, rand((3,)), 2**62)  # ValueError: array is too big
    same_error(diag_bad, rand((3,)), -2**63)  # ValueError: Maximum allowed dimension exceeded


@jit
def diag_store(a):
    d = np.diag(a)
    d[0] = 1.0
    return d


@jit
def diag_view(a):
    return np.diag(a), a.T


def test_diag_of_2d_is_read_only():
    same_error(diag_store, rand((3, 3)))  # ValueError: assignment destination is read-only
    a = rand((3, 3))
    got, expected = diag_view(a), diag_view.py_func(a)
    assert [g.flags.writeable for g in got] == [e.flags.writeable for e in expected] == [False, True]
    assert np.shares_memory(got[0], a)  # a view, returned read-only as NumPy's (bridge/box.c)


# --------------------------------------------------------------------------
# views: writes through them reach the argument, as in NumPy
# --------------------------------------------------------------------------


@jit
def write_through_views(a):
    np.swapaxes(a, 0, 2)[1, 0, 0] = -1
    a.transpose(1, 2, 0)[2, 3, 1] = -2
    np.moveaxis(a, 0, -1)[0, 1, 0] += 5
    np.expand_dims(a, 0)[0, 0, 0, 3] = -3
    np.squeeze(a[:1], 0)[2, 2] = -4
    np.atleast_3d(a[0, 0])[0, 1, 0] = -6
    a[..., 0] = 7
    a[1, ...] += 1
    a[..., 1:3] *= 2
    a[..., None][0, 0, 3] = -5
    return a


@pytest.mark.parametrize("a", ARRAYS_3D[:4], ids=IDS_3D[:4])
def test_writes_through_views_reach_the_argument(check, a):
    check(write_through_views, a)


@jit
def views(a, v):
    return (a.transpose(2, 0, 1), np.swapaxes(a, 0, 1), np.moveaxis(a, -1, 0), np.expand_dims(a, 1),
            np.squeeze(a[:1], 0), np.atleast_3d(v), np.diag(a[0]), a[..., 1], a[0, ...], a[..., None], np.atleast_1d(a))


def test_views_share_memory_with_the_argument():
    a, v = rand((2, 3, 4)), rand((5,))
    for got, expected in zip(views(a, v), views.py_func(a, v)):
        assert np.shares_memory(expected, a) or np.shares_memory(expected, v)
        assert np.shares_memory(got, a) == np.shares_memory(expected, a)
        assert np.shares_memory(got, v) == np.shares_memory(expected, v)
        assert (got.shape, got.dtype) == (expected.shape, expected.dtype)
        # the strides of length-1 axes are NumPy's choice and never used
        assert [s for n, s in zip(got.shape, got.strides) if n != 1] == \
            [s for n, s in zip(expected.shape, expected.strides) if n != 1]
    new = diags(v, a[0], 1)
    assert not any(np.shares_memory(new[i], v) for i in range(5))


# --------------------------------------------------------------------------
# NumPy's exceptions for bad constant axes
# --------------------------------------------------------------------------


@jit
def bad_axes(a, which):
    if which == 0:
        return np.sum(np.transpose(a, (0, 3, 1)))  # AxisError
    if which == 1:
        return np.sum(a.transpose(0, 0, 1))  # ValueError: repeated axis in transpose
    if which == 2:
        return np.sum(a.transpose(1, 0))  # ValueError: axes don't match array
    if which == 3:
        return np.sum(np.swapaxes(a, 0, 3))  # AxisError: axis2: ...
    if which == 4:
        return np.sum(np.moveaxis(a, -4, 0))  # AxisError: source: ...
    if which == 5:
        return np.sum(np.moveaxis(a, (0, 0), (1, 2)))  # ValueError: repeated axis in `source` argument
    if which == 6:
        return np.sum(np.moveaxis(a, (0, 1), (1,)))  # ValueError: ... must have the same number of elements
    if which == 7:
        return np.sum(np.expand_dims(a, 4))  # AxisError
    if which == 8:
        return np.sum(np.expand_dims(a, (1, -4)))  # ValueError: repeated axis
    if which == 9:
        return np.sum(np.squeeze(a, 3))  # AxisError
    if which == 10:
        return np.sum(np.squeeze(a, (0, 0)))  # ValueError: duplicate value in 'axis'
    if which == 11:
        return np.sum(np.squeeze(a, 1))  # ValueError: cannot select an axis to squeeze out ... (at run time)
    return np.sum(np.squeeze(a, 0))


@pytest.mark.parametrize("which", range(12))
def test_bad_axes_raise_numpys_exceptions(which):
    same_error(bad_axes, rand((1, 3, 4)), which)


def test_bad_axes_are_axis_errors():
    with pytest.raises(np.exceptions.AxisError, match="axis 3 is out of bounds for array of dimension 3"):
        bad_axes(rand((1, 3, 4)), 0)
    assert bad_axes(rand((1, 3, 4)), 12) == bad_axes.py_func(rand((1, 3, 4)), 12)


# --------------------------------------------------------------------------
# `...` beside other indices
# --------------------------------------------------------------------------


@jit
def ellipsis_reads(a, i):
    return (a[..., 0], a[0, ...], a[..., 1:3], a[..., None], a[None, ..., -1], a[1, ..., 2], a[..., ::-1],
            a[i, ..., i], a[..., i, :], a[...], a[..., 0, 0, 0], a[0, 0, 0, ...], a[:, ..., :], a[..., None, 1:, None])


@pytest.mark.parametrize("a", ARRAYS_3D[:5], ids=IDS_3D[:5])
def test_ellipsis_reads(check, a):
    check_items(check, ellipsis_reads, a, 1)
    check_items(check, ellipsis_reads, a, -2)


@jit
def ellipsis_low(a, b):
    return a[..., 0], a[0, ...], a[..., None], a[...], b[...], b[..., None], b[None, ...]


def test_ellipsis_on_1d_and_0d_gives_arrays(check):
    """With `...`, NumPy gives a 0-d array where a[0] gives a scalar."""
    check_items(check, ellipsis_low, rand((4,), "int32"), np.array(2.5))


@jit
def ellipsis_stores(a, v):
    a[..., 0] = v
    a[1, ...] = -1.5
    a[..., 1:3] += 1
    a[...] *= 2
    a[..., None][:, 0, 0] = 9
    return a


@pytest.mark.parametrize("a", [rand((3, 4)), np.asfortranarray(rand((3, 4), seed=12)), rand((6, 8), seed=13)[::2, ::2]],
                         ids=["c", "f", "strided"])
def test_ellipsis_stores(check, a):
    check(ellipsis_stores, a, np.arange(3.0))


@jit
def two_ellipses(a):
    return a[..., 0, ...]


@jit
def ellipsis_and_index_array(a, idx):
    return a[..., idx]


def test_ellipsis_refusals():
    with pytest.raises(Exception, match=r"an index can only have a single ellipsis \('...'\)"):
        two_ellipses(rand((2, 3)))
    with pytest.raises(Exception, match="write the axes it stands for as ':'"):
        ellipsis_and_index_array(rand((2, 3)), np.array([0, 1]))
    # without fullgraph the statement runs as Python (warned when compiled, not when loaded from the cache):
    # NumPy's IndexError
    fallback = plain_jit(two_ellipses.py_func)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        with pytest.raises(IndexError, match="single ellipsis"):
            fallback(rand((2, 3)))


@jit
def expanded(a):
    return np.expand_dims(a, 0), np.expand_dims(a, 1), np.expand_dims(a, -1), np.expand_dims(a, (0, 2))


def test_expand_dims_strides_are_reshapes():
    """np.expand_dims reshapes: a new length-1 axis has the stride of the block it
    joins (48 before a (2, 3) float64 array's first axis), where a[None] has 0."""
    for a in (np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)[:, ::2], np.arange(3.0),
              np.arange(6.0).reshape(2, 3).T):
        got, expected = expanded(a), expanded.py_func(a)
        assert [g.strides for g in got] == [e.strides for e in expected]
        assert all(np.array_equal(g, e) and np.shares_memory(g, a) for g, e in zip(got, expected))


def _diag_flags_in_python(x):
    y = np.diag(x)
    flags = y.flags.writeable  # runs as Python: reads the compiled view
    return flags


def test_a_read_only_view_reaches_python_read_only():
    """Probe find: a statement run as Python saw np.diag's view of a 2-d array as writable."""
    import warnings

    from transpile import jit as plain_jit

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert plain_jit(_diag_flags_in_python)(np.eye(2)) is _diag_flags_in_python(np.eye(2)) is False
