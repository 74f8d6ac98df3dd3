"""Differential tests: the NumPy API in compiled code (creation, ufuncs,
reductions, linear algebra, where/clip/copy, shape functions, attributes)."""
from __future__ import annotations

import numpy as np
import pytest

from ._support import check_items, jit


def rand(shape, dtype="float64", seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-20 if np.dtype(dtype).kind == "i" else 0, 20, shape).astype(dtype)
    return (rng.standard_normal(shape) * 3).astype(dtype)


# --------------------------------------------------------------------------
# creation
# --------------------------------------------------------------------------


@jit
def creation(n, m):
    return (np.zeros(n), np.ones((n, m)), np.zeros((n, m), dtype=np.int32), np.ones(n, dtype=np.bool_),
            np.full((m, n), 2.5), np.full(n, 7), np.full(n, 3, dtype=np.float32), np.zeros(n, np.uint8),
            np.ones((2, n, m), dtype=np.complex128), np.full(n, True), np.zeros((n, m), dtype=float),
            np.ones(m, dtype=int))


@pytest.mark.parametrize("n,m", [(3, 4), (0, 2), (1, 1)])
def test_creation(check, n, m):
    check(creation, n, m)


@jit
def empty_then_fill(n):
    a = np.empty(n)
    b = np.empty((n, 2), dtype=np.int16)
    for i in range(n):
        a[i] = i * 0.5
        b[i, 0] = i
        b[i, 1] = -i
    return a, b


def test_empty_shape_and_dtype(check):
    check(empty_then_fill, 4)


@jit
def negative_size(n):
    return np.zeros(n)


def test_negative_dimension_raises_value_error(check):
    check(negative_size, -1)


@jit
def like(a):
    return (np.zeros_like(a), np.ones_like(a), np.full_like(a, 7), np.empty_like(a).shape,
            np.zeros_like(a, dtype=np.float32), np.ones_like(a, dtype=bool), np.full_like(a, 0.5, dtype=np.float64))


@pytest.mark.parametrize("a", [rand((2, 3)), rand((4,), "int32")], ids=["f64-2d", "i32-1d"])
def test_like(check, a):
    # full_like(int array, 0.5) would truncate; here 7 is exact for both
    check(like, a)


def test_like_of_views(check):
    # *_like of a Fortran or strided array has the same shape and dtype.
    check(like, np.asfortranarray(rand((2, 3))))


@jit
def aranges(n, start, step):
    return (np.arange(n), np.arange(start, n), np.arange(start, n, step), np.arange(n, dtype=np.float32),
            np.arange(0.5, n), np.arange(start, n, 0.5), np.arange(n, 0, -1))


@pytest.mark.parametrize("n,start,step", [(5, 1, 2), (0, 0, 1), (10, -3, 3), (3, 5, 1)])
def test_arange(check, n, start, step):
    check(aranges, n, start, step)


@jit
def arange_float(start, stop, step):
    return np.arange(start, stop, step)


@pytest.mark.parametrize("start,stop,step", [(0.0, 1.0, 0.1), (1.0, -1.0, -0.25), (0.0, 1.0, 0.3), (2.0, 1.0, 0.5)])
def test_arange_float(check, start, stop, step):
    check(arange_float, start, stop, step)


def test_arange_step_zero_raises(check):
    check(arange_float, 0.0, 1.0, 0.0)


@jit
def arange_numpy_int(n):
    return np.arange(n)


def test_arange_of_numpy_int32_is_int64(check):
    # NumPy gives the default integer (int64) for np.arange(np.int32(n)).
    check(arange_numpy_int, np.int32(5))


@jit
def linspaces(a, b, n):
    return (np.linspace(a, b, n), np.linspace(a, b), np.linspace(a, b, n, endpoint=False),
            np.linspace(a, b, num=n, dtype=np.float32))


@pytest.mark.parametrize("a,b,n", [(0.0, 1.0, 5), (-2.0, 3.0, 7), (1.0, 0.0, 4), (0.0, 1.0, 1), (0.0, 1.0, 0)])
def test_linspace(check, a, b, n):
    check(linspaces, a, b, n)


# --------------------------------------------------------------------------
# ufuncs
# --------------------------------------------------------------------------


@jit
def ufuncs_float(x):
    return (np.sqrt(np.abs(x)), np.exp(x), np.log(np.abs(x) + 1.0), np.sin(x), np.cos(x), np.tan(x),
            np.arctan(x), np.sinh(x), np.cosh(x), np.tanh(x), np.floor(x), np.ceil(x), np.trunc(x), np.rint(x),
            np.abs(x), np.absolute(x), np.sign(x), np.square(x), np.log10(np.abs(x) + 1.0), np.log2(np.abs(x) + 1.0),
            np.exp2(x), np.expm1(x), np.log1p(np.abs(x)), np.cbrt(x), np.arcsin(x / 10.0), np.arccos(x / 10.0),
            np.deg2rad(x), np.rad2deg(x), np.isnan(x), np.isinf(x), np.isfinite(x), np.signbit(x), np.fabs(x))


def test_ufuncs_float64(check):
    x = np.array([-3.7, -1.0, -0.5, -0.0, 0.0, 0.5, 1.5, 2.5, 3.2, 7.9])
    check(ufuncs_float, x)


def test_ufuncs_float64_2d_strided(check):
    # ufuncs on a non-contiguous 2-d view (a new specialization: other ndim and layout)
    check(ufuncs_float, rand((4, 6), seed=3)[::2, ::-2])


def test_ufuncs_float32():
    # float32 ufuncs: NumPy uses its own SIMD float32 kernels, which may differ
    # from the C library in the last bit, so values are compared with a
    # float32 tolerance here; dtypes must match exactly.
    x = np.array([-3.7, -1.0, -0.5, 0.0, 0.5, 1.5, 2.5, 3.2], dtype=np.float32)
    got, expected = ufuncs_float(x.copy()), ufuncs_float.py_func(x.copy())
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert type(g) is type(e) and g.dtype == e.dtype, (g, e)
        np.testing.assert_allclose(g, e, rtol=2e-6, atol=1e-6)


@jit
def ufuncs_binary(x, y):
    return (np.arctan2(x, y), np.hypot(x, y), np.maximum(x, y), np.minimum(x, y), np.fmax(x, y), np.fmin(x, y),
            np.power(np.abs(x), y), np.copysign(x, y), np.fmod(x, y), np.add(x, y), np.multiply(x, y),
            np.subtract(x, y), np.divide(x, y), np.floor_divide(x, y), np.remainder(x, y), np.greater(x, y),
            np.logical_and(x > 0, y > 0), np.logical_or(x > 0, y > 0), np.logical_not(x > 0))


def test_ufuncs_binary(check):
    x = np.array([1.0, -2.0, 3.5, -0.5, 0.0, np.nan])
    y = np.array([2.0, 3.0, -1.5, -0.25, 1.0, 1.0])
    with np.errstate(invalid="ignore"):
        check(ufuncs_binary, x, y)


def test_ufuncs_binary_broadcast(check):
    check(ufuncs_binary, rand((3, 4), seed=4), rand((4,), seed=5))


@jit
def ufuncs_int(a, b):
    return (np.sqrt(a), np.abs(a), np.square(a), np.sign(a), np.exp(a), np.maximum(a, 3), np.negative(a),
            np.sqrt(b), np.abs(b), np.square(b), np.exp(b), np.maximum(b, 3), np.maximum(a, b))


def test_ufuncs_int_arrays(check):
    # sqrt/exp of int64/int32 arrays are float64.  (int8/uint8 would give
    # float16 in NumPy, a dtype outside the compiled subset.)
    with np.errstate(invalid="ignore", over="ignore"):
        check_items(check, ufuncs_int, rand((5,), "int64", seed=6), rand((5,), "int32", seed=7))


@jit
def ufuncs_scalar(x):
    return np.sqrt(x), np.exp(x), np.sin(x), np.floor(x), np.abs(x), np.arctan2(x, 2.0), np.maximum(x, 1)


@pytest.mark.parametrize("x", [2.0, -1.5, 0.0, 4, np.float32(2.25), np.int16(-3)])
def test_ufuncs_on_scalars_give_numpy_scalars(check, x):
    with np.errstate(invalid="ignore"):
        if isinstance(x, np.float32):
            got, expected = ufuncs_scalar(x), ufuncs_scalar.py_func(x)
            for g, e in zip(got, expected):
                # float32 transcendental functions: tolerance as in test_ufuncs_float32
                assert type(g) is type(e)
                np.testing.assert_allclose(g, e, rtol=2e-6)
        else:
            check(ufuncs_scalar, x)


def test_ufunc_domain_gives_nan_not_error(check):
    # NumPy: log(0) = -inf, sqrt(-1) = nan, with warnings, never ValueError.
    with np.errstate(invalid="ignore", divide="ignore"):
        check(ufuncs_domain, np.array([0.0, -1.0, 1.0]))


@jit
def ufuncs_domain(x):
    return np.log(x), np.sqrt(x), np.arcsin(x - 1.0), np.log10(x)


@jit
def ufuncs_complex(z):
    return np.abs(z), np.exp(z), np.sqrt(z), np.conjugate(z), z.real, z.imag, np.square(z)


def test_ufuncs_complex(check):
    check(ufuncs_complex, np.array([1 + 2j, -1 - 1j, 0j, 3.5 - 0.5j]))


# --------------------------------------------------------------------------
# reductions
# --------------------------------------------------------------------------


@jit
def reductions(a):
    return np.sum(a), np.prod(a), np.mean(a), np.min(a), np.max(a), np.argmin(a), np.argmax(a)


@jit
def reduction_methods(a):
    return a.sum(), a.prod(), a.mean(), a.min(), a.max(), a.argmin(), a.argmax()


@pytest.mark.parametrize("a", [
    np.array([3.0, -1.0, 4.0, 1.5, -5.0, 9.0, 2.0, 6.0]),
    np.array([[3.0, -1.0, 4.0], [1.5, -5.0, 9.0]]),
    np.array([2, 7, -1, 8, -2, 8, 1], dtype=np.int64),
], ids=["f64-1d", "f64-2d", "i64-1d"])
def test_reductions(check, a):
    check(reductions, a)


@pytest.mark.parametrize("a", [np.array([[3.0, -1.0, 4.0], [1.5, -5.0, 9.0]]), np.array([[2.0, 7.0], [9.0, -1.0]])])
def test_reduction_methods(check, a):
    check(reduction_methods, a)


@jit
def reduction_dtypes(i8, u16, b1, i32, f32):
    # sum/prod of small ints accumulate in the default int (int64/uint64); sum
    # of bools is an int64 count; min/max keep the dtype; mean is float64
    return (np.sum(i8), np.prod(i8), np.mean(i8), np.min(i8), np.argmax(i8), u16.sum(), u16.prod(), u16.mean(),
            u16.max(), b1.sum(), b1.mean(), b1.min(), b1.argmin(), i32.sum(), i32.prod(), i32.max(), i32.argmin(),
            f32.max(), f32.argmin(), i8.sum(axis=0))


def test_reduction_result_dtypes(check):
    check_items(check, reduction_dtypes, np.array([5, -3, 7, 1], dtype=np.int8), np.array([5, 3, 7, 1], dtype=np.uint16),
                np.array([True, False, True]), np.array([4, -3, 2], dtype=np.int32),
                np.array([1.5, -2.5, 0.0], dtype=np.float32))


def test_reductions_strided(check):
    check(reductions, np.arange(20.0)[::-3])
    check(reductions, np.asfortranarray(rand((3, 4), seed=7)))


def test_reductions_float32():
    # NumPy sums float32 pairwise in float32; the compiled order of additions
    # may differ, so sum/mean/prod are compared with a float32 tolerance.
    a = rand((50,), "float32", seed=8)
    got, expected = reductions(a.copy()), reductions.py_func(a.copy())
    for g, e in zip(got, expected):
        assert type(g) is type(e), (g, e)
        np.testing.assert_allclose(g, e, rtol=1e-5)


def test_reductions_with_nan(check):
    # min/max propagate NaN; argmin/argmax give the first NaN
    with np.errstate(invalid="ignore"):
        check(reductions, np.array([1.0, np.nan, -2.0, np.nan]))


def test_reductions_ties_give_first_index(check):
    check(reductions, np.array([2.0, 5.0, -1.0, 5.0, -1.0]))


@jit
def min_of(a):
    return np.min(a)


@jit
def argmax_of(a):
    return a.argmax()


@jit
def sum_mean_of(a):
    return a.sum(), a.prod()


def test_empty_reductions(check):
    # min/argmax of an empty array raise ValueError; sum/prod give the identity.
    check(min_of, np.zeros(0))
    check(argmax_of, np.zeros(0))
    check(sum_mean_of, np.zeros(0))


@jit
def axis_reductions(a):
    return (np.sum(a, axis=0), np.sum(a, axis=1), a.sum(axis=-1), np.mean(a, axis=0), a.mean(1),
            np.min(a, axis=0), a.max(axis=1), np.argmin(a, axis=0), a.argmax(axis=1), np.prod(a, axis=0),
            np.sum(a, 0))


@pytest.mark.parametrize("a", [rand((3, 4), seed=9), np.asfortranarray(rand((3, 4), seed=10)),
                               rand((5, 6), seed=11)[1::2, ::-2]], ids=["C", "F", "view"])
def test_axis_reductions_2d(check, a):
    check(axis_reductions, a)


def test_axis_reductions_int(check):
    check(axis_reductions, rand((3, 4), "int32", seed=12))


@jit
def axis_reductions_3d(a):
    return np.sum(a, axis=0), a.sum(axis=1), a.max(axis=2), np.argmin(a, axis=1), a.mean(axis=-1)


def test_axis_reductions_3d(check):
    check(axis_reductions_3d, rand((2, 3, 4), seed=13))


# --------------------------------------------------------------------------
# dot / matmul / @
# --------------------------------------------------------------------------


@jit
def products(a, b):
    return np.dot(a, b), np.matmul(a, b), a @ b, a.dot(b)


@pytest.mark.parametrize("sa,sb", [((5,), (5,)), ((3, 5), (5,)), ((5,), (5, 2)), ((3, 5), (5, 2)), ((1, 1), (1, 1)),
                                   ((0,), (0,))])
def test_dot_matmul_float64(check, sa, sb):
    check(products, rand(sa, seed=14), rand(sb, seed=15))


def test_dot_int(check):
    # int32 . int32 stays int32
    check(products, rand((3, 4), "int32", seed=16), rand((4, 2), "int32", seed=17))


def test_dot_views(check):
    check(products, rand((4, 6), seed=18)[:, ::2], np.asfortranarray(rand((3, 2), seed=19)))
    check(products, rand((4, 3), seed=20).T, rand((4, 3), seed=21))


def test_dot_mixed_dtypes(check):
    check(products, rand((3, 4), "float32", seed=22), rand((4,), "float64", seed=23))


@pytest.mark.parametrize("sa,sb", [((3,), (4,)), ((2, 3), (2,)), ((2, 3), (2, 3))])
def test_dot_shape_mismatch_raises_value_error(check, sa, sb):
    check(products, rand(sa, seed=24), rand(sb, seed=25))


# --------------------------------------------------------------------------
# where, clip, copy, astype
# --------------------------------------------------------------------------


@jit
def wheres(a, b):
    return np.where(a > b, a, b), np.where(a > 0, a, 0.0), np.where(a < 0, -1, 1), np.where(b > 0, b, a[0])


def test_where(check):
    check(wheres, rand((3, 4), seed=26), rand((4,), seed=27))


@jit
def where_f32(a):
    return np.where(a > 0, a, 0), np.where(a > 0, a, 0.5)


def test_where_keeps_float32_with_python_scalars(check):
    # NEP 50: the Python scalar does not widen float32
    check(where_f32, rand((5,), "float32", seed=28))


@jit
def clips(f64, f32, i16):
    # NEP 50: Python-float bounds keep float32; int16 with int bounds stays int16
    return (np.clip(f64, -1.0, 2.0), f64.clip(0, 1), np.clip(f64, a_min=-0.5, a_max=0.5), np.clip(f32, -1.0, 2.0),
            f32.clip(0, 1), np.clip(i16, -3, 5), i16.clip(0, 1), np.clip(i16, -0.5, 0.5))


def test_clip(check):
    check_items(check, clips, rand((2, 5), seed=29), rand((6,), "float32", seed=30), rand((6,), "int16", seed=31))


@jit
def copies(a):
    b = np.copy(a)
    c = a.copy()
    b[0] = 100.0
    c[-1] = -100.0
    return a, b, c


def test_copy_is_independent(check):
    check(copies, np.arange(4.0))
    check(copies, np.arange(8.0)[::2])


@jit
def astypes(a):
    return a.astype(np.float32), a.astype(np.int32), a.astype(bool), a.astype(float), a.astype(np.uint8), \
        a.astype(np.complex128), a.astype(int)


def test_astype(check):
    # float -> int truncates toward zero; negative -> uint8 wraps like a C cast
    with np.errstate(invalid="ignore"):
        check(astypes, np.array([1.7, -2.7, 0.0, 255.9, 3.5]))


def test_astype_from_int(check):
    check(astypes, np.array([[1, -2], [300, 0]], dtype=np.int64))


# --------------------------------------------------------------------------
# reshape, transpose, ravel
# --------------------------------------------------------------------------


@jit
def reshapes(a):
    return a.reshape(3, 4), a.reshape((2, 6)), np.reshape(a, (4, 3)), a.reshape(-1, 2), a.reshape((2, -1, 3)), \
        a.reshape(12)


def test_reshape(check):
    check(reshapes, np.arange(12.0))


def test_reshape_wrong_size_raises_value_error(check):
    check(reshapes, np.arange(10.0))


@jit
def reshape_view_writes(a):
    b = a.reshape(2, 3)
    b[1, 1] = -1.0  # a reshape of a contiguous array is a view: the caller sees it
    return b


def test_reshape_is_view(check):
    check(reshape_view_writes, np.arange(6.0))


@jit
def reshape_2d_to_1d(a):
    b = a.reshape(-1)
    b[0] = 42.0  # a copy when a is not contiguous: the caller does not see it
    return b


def test_reshape_of_non_contiguous_copies(check):
    check(reshape_2d_to_1d, np.arange(24.0).reshape(4, 6)[::2, 1:4])
    check(reshape_2d_to_1d, np.arange(6.0).reshape(2, 3))


@jit
def transposes(a):
    t = a.T
    u = np.transpose(a)
    v = a.transpose()
    t[0, 1] = 99.0  # a view of a
    return t, u, v, t.shape


def test_transpose(check):
    check(transposes, np.arange(6.0).reshape(2, 3))
    check(transposes, np.asfortranarray(np.arange(12.0).reshape(3, 4)))


@jit
def transpose_3d(a):
    return a.T, np.transpose(a).shape


def test_transpose_3d(check):
    check(transpose_3d, rand((2, 3, 4), seed=32))


@jit
def ravels(a):
    r = np.ravel(a)
    f = a.flatten()
    r2 = a.ravel()
    f[0] = -7.0
    return r, f, r2


def test_ravel_flatten(check):
    check(ravels, np.arange(6.0).reshape(2, 3))
    check(ravels, np.asfortranarray(np.arange(6.0).reshape(2, 3)))  # ravel is in C order
    check(ravels, np.arange(12.0).reshape(3, 4)[:, ::2])


# --------------------------------------------------------------------------
# attributes
# --------------------------------------------------------------------------


@jit
def attributes(a):
    return a.shape, a.ndim, a.size, a.shape[0], a.shape[-1], len(a)


@pytest.mark.parametrize("a", [np.zeros(5), np.zeros((2, 3)), np.zeros((2, 0, 4)), np.zeros((1, 2, 3, 4))[..., ::2]],
                         ids=["1d", "2d", "3d-empty", "4d-view"])
def test_attributes(check, a):
    check(attributes, a)


@jit
def dtype_as_argument(a, b, c, d):
    z = np.zeros(a.shape, dtype=a.dtype)
    o = np.ones(3, dtype=b.dtype)
    f = np.full((2, 2), 5, dtype=a.dtype)
    e = b.astype(a.dtype)
    return (z, o, f, e, np.arange(4, dtype=b.dtype), np.zeros(c.shape, dtype=c.dtype), np.ones(3, dtype=d.dtype),
            d.astype(c.dtype), np.arange(4, dtype=d.dtype), np.ones_like(c, dtype=d.dtype))


def test_dtype_attribute_as_dtype_argument(check):
    # (complex -> uint8 discards the imaginary part and wraps, as NumPy does)
    with np.errstate(all="ignore"):
        check_items(check, dtype_as_argument, rand((2, 3), "float32", seed=33), rand((3,), "int16", seed=34),
                    rand((2, 3), "uint8", seed=35), rand((3,), "complex128", seed=36))


@jit
def shape_unpack(a):
    n, m = a.shape
    out = np.zeros((m, n))
    for i in range(n):
        for j in range(m):
            out[j, i] = a[i, j]
    return out


def test_shape_unpacking(check):
    check(shape_unpack, rand((3, 5), seed=35))


@jit
def clips_with_one_bound(a, x):
    return (np.clip(a, 0.5, None), np.clip(a, None, 0.5), a.clip(min=0.2), a.clip(max=0.3), np.clip(x, None, 1.0),
            a.clip(0.1, 0.9))


@pytest.mark.parametrize("a,x", [(np.array([0.1, 0.7, np.nan, 2.0]), 3.5), (np.arange(4), 0.25),
                                 (np.array([0.1, 0.7, 2.0], np.float32), np.float64(2.0))])
def test_clip_with_one_bound(check, a, x):
    """A None (or missing) bound clips on the other side only, with np.maximum's / np.minimum's dtype."""
    check(clips_with_one_bound, a, x)


@jit
def array_sizes(a, b):
    return a.nbytes, b.nbytes, b[::2].nbytes, a.itemsize * a.size == a.nbytes


def test_nbytes(check):
    check(array_sizes, np.zeros((3, 5), np.float32), np.arange(7, dtype=np.int16))
    check(array_sizes, np.zeros((0, 4)), np.arange(1, dtype=np.complex128))
