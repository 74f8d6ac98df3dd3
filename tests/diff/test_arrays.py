"""Differential tests: array arithmetic, promotion, layouts, indexing and the
errors NumPy raises.  Every dtype pair or layout is a new compiled
specialization, so they are chosen deliberately rather than exhaustively."""
from __future__ import annotations

import numpy as np
import pytest

from transpile import jit as _jit

from ._support import check_items, jit


def values(dtype, shape, seed=0, nonzero=False):
    """Deterministic test values of a dtype (negative ones for signed kinds)."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    dt = np.dtype(dtype)
    if dt.kind == "b":
        out = rng.integers(0, 2, n).astype(bool)
    elif dt.kind == "u":
        out = rng.integers(1 if nonzero else 0, min(np.iinfo(dt).max, 200), n).astype(dt)
    elif dt.kind == "i":
        out = rng.integers(-min(np.iinfo(dt).max, 100), min(np.iinfo(dt).max, 100), n).astype(dt)
        if nonzero:
            out[out == 0] = 3
    elif dt.kind == "f":
        out = (rng.standard_normal(n) * 10).astype(dt)
    else:
        out = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dt)
    return out.reshape(shape)


# --------------------------------------------------------------------------
# arithmetic and NumPy 2 promotion between arrays
# --------------------------------------------------------------------------


@jit
def arith(a, b):
    return a + b, a * b, a - b, a / b


@jit
def arith_promotions(b1, i8, u8, i16, i32, u32, i64, u64, f32, f64, c128):
    # One specialization for many dtype pairs (NumPy 2 promotion); each
    # array has its own dtype, all have shape (3, 4).
    return (
        i8 + i8, i8 * u8, i16 - i32, u32 + i64, u64 + i64, u64 * u64, f32 + f32, f32 * i16, f32 - i32,
        f32 + f64, f64 * c128, u8 - f32, i64 / f64, c128 / i32, i8 / i8, u64 / u64, i16 / f32,
        u8 + i8, u32 - i32, i64 * u8, b1 + i8, b1 * f32, c128 - f32, u64 - u8, u32 * f32, i32 / i16,
        b1 + u64, c128 * c128, f64 - i8, u8 * u8,
    )


PROMOTION_DTYPES = ["bool", "int8", "uint8", "int16", "int32", "uint32", "int64", "uint64", "float32", "float64",
                    "complex128"]


@pytest.mark.parametrize("seed", [1, 2])
def test_array_arith_promotion(check, seed):
    arrays = [values(d, (3, 4), seed + k, nonzero=True) for k, d in enumerate(PROMOTION_DTYPES)]
    with np.errstate(over="ignore"):  # int8 products wrap, as in NumPy
        check_items(check, arith_promotions, *arrays)


def test_array_arith_same_dtype_different_shapes(check):
    with np.errstate(over="ignore"):
        check(arith, values("int64", (3, 4), 1), values("int64", (4,), 2, nonzero=True))


@jit
def bool_arith(a, b):
    return a + b, a * b, a & b, a | b, a ^ b, ~a, a / b


def test_bool_array_arith(check):
    # bool + bool is logical or, bool * bool logical and, bool / bool float64
    with np.errstate(divide="ignore", invalid="ignore"):
        check(bool_arith, np.array([True, True, False, False]), np.array([True, False, True, False]))


@_jit
def bool_subtract(a, b):
    return a - b


def test_bool_array_subtract_raises_type_error(check):
    # NumPy refuses `-` on booleans (TypeError); compiled code must not
    # silently compute it.  (Default options: the construct NumPy rejects may
    # be rejected at compile time and run as Python, which raises the same
    # TypeError.)
    check(bool_subtract, np.array([True, False]), np.array([True, True]))


@jit
def bool_int_arith(a, b):
    return a + b, a * b


def test_bool_with_int_array(check):
    check(bool_int_arith, np.array([True, False, True]), np.array([5, -3, 7], dtype=np.int16))


@jit
def int_floor_mod(a, b):
    return a // b, a % b


@jit
def small_int_floor_mod(i8a, i8b, u16a, u16b):
    return i8a // i8b, i8a % i8b, u16a // u16b, u16a % u16b, i8a // u16b, u16a % i8b


def test_int_array_floor_div_mod(check):
    check(int_floor_mod, values("int64", (10,), 3), values("int64", (10,), 4, nonzero=True))
    check_items(check, small_int_floor_mod, values("int8", (10,), 3), values("int8", (10,), 4, nonzero=True),
                values("uint16", (10,), 5), values("uint16", (10,), 6, nonzero=True))


def test_int_array_floor_div_mod_by_zero_is_zero(check):
    # NumPy arrays do not raise ZeroDivisionError: integer // 0 and % 0 give 0.
    a = np.array([7, -7, 0, 5], dtype=np.int64)
    b = np.array([0, 0, 0, 2], dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        check(int_floor_mod, a, b)


def test_float_array_floor_div_mod(check):
    a = np.array([7.5, -7.5, 7.5, -7.5, 0.0, 1.0, -1.0, np.inf])
    b = np.array([2.0, 2.0, -2.0, -2.0, 3.0, 0.0, 0.0, 2.0])
    with np.errstate(divide="ignore", invalid="ignore"):
        check(int_floor_mod, a, b)


def test_float_array_division_by_zero_is_ieee(check):
    a = np.array([1.0, -1.0, 0.0, np.nan])
    b = np.zeros(4)
    with np.errstate(divide="ignore", invalid="ignore"):
        check(arith, a, b)


@jit
def array_with_python_scalars(f32, i8, u8, i64, c128, b1):
    # float32 * 2.0 stays float32, int8 + 1 stays int8, int8 + 1.5 is float64 ...
    # (bool - 3 is allowed: with a Python int the subtraction runs in int64.)
    return (f32 * 2, f32 + 1.5, f32 - 3, 2 * f32, 1 - f32, f32 / 2, f32 * True,
            i8 * 2, i8 + 1.5, i8 - 3, 2 * i8, 1 - i8, i8 / 2, i8 * True,
            u8 * 2, u8 + 1.5, u8 - 3, 2 * u8, 1 - u8, u8 / 2, u8 * True,
            i64 * 2, i64 + 1.5, i64 - 3, 2 * i64, 1 - i64, i64 / 2, i64 * True,
            c128 * 2, c128 + 1.5, c128 - 3, 2 * c128, 1 - c128, c128 / 2, c128 * True,
            b1 * 2, b1 + 1.5, b1 - 3, 2 * b1, 1 - b1, b1 / 2, b1 * True, f32 * 1j, i8 + 1j)


def test_array_with_python_scalars_nep50(check):
    arrays = [values(d, (5,), 7) for d in ("float32", "int8", "uint8", "int64", "complex128", "bool")]
    with np.errstate(over="ignore"):
        check_items(check, array_with_python_scalars, *arrays)


@jit
def array_with_numpy_scalars(f32, i8, f64, i32, s64, si64, s32, su32):
    # a NumPy scalar is not weak: float32 array * float64 scalar is float64,
    # int8 array + int64 scalar is int64, ...
    return f32 * s64, s64 - f32, i8 * si64, si64 - i8, f64 * s32, s32 - f64, i32 * su32, su32 - i32


def test_array_with_numpy_scalar(check):
    check_items(check, array_with_numpy_scalars, values("float32", (4,), 8), values("int8", (4,), 8),
                values("float64", (4,), 8), values("int32", (4,), 8), np.float64(2.5), np.int64(3), np.float32(0.5),
                np.uint32(7))


@jit
def powers(i, f, h):
    return i ** 2, i ** 3, i * i * i, f ** 2, f ** 0.5, f ** 3, h ** 2, h ** 3, h ** 0.5, i ** 0


def test_array_power(check):
    with np.errstate(invalid="ignore"):
        check_items(check, powers, values("int64", (6,), 9), values("float64", (6,), 9), values("float32", (6,), 9))


@jit
def array_power_array(a, b):
    return a ** b


def test_int_array_negative_power_raises(check):
    # NumPy: "Integers to negative integer powers are not allowed." (ValueError)
    check(array_power_array, np.array([2, 3], dtype=np.int64), np.array([2, -1], dtype=np.int64))
    check(array_power_array, np.array([2, 3], dtype=np.int64), np.array([2, 3], dtype=np.int64))


def test_float_array_power_array(check):
    with np.errstate(invalid="ignore"):
        check(array_power_array, np.array([2.0, -8.0, 0.5, 4.0]), np.array([0.5, 0.5, -2.0, 1.5]))


@jit
def comparisons(a, b):
    return a < b, a <= b, a == b, a != b, a > 0, 0.5 >= a


@jit
def mixed_comparisons(i32, f32, u8, i8):
    return i32 < f32, i32 == f32, u8 > i8, u8 <= i8, i8 == u8, f32 >= 0.5, u8 != 3


def test_array_comparisons(check):
    a = values("float64", (5,), 10)
    b = values("float64", (5,), 11)
    a[0] = b[0] = 7
    check(comparisons, a, b)


def test_array_comparisons_mixed_dtypes(check):
    i32, f32, u8, i8 = (values(d, (5,), 12 + k) for k, d in enumerate(("int32", "float32", "uint8", "int8")))
    i32[0] = f32[0] = u8[0] = i8[0] = 7
    check_items(check, mixed_comparisons, i32, f32, u8, i8)


@jit
def unary_ops(i16, f32, c128, i32, u8, b1):
    return -i16, +i16, abs(i16), -f32, +f32, abs(f32), -c128, +c128, abs(c128), ~i32, ~u8, ~b1, -u8


def test_array_unary(check):
    arrays = [values(d, (2, 3), 12) for d in ("int16", "float32", "complex128", "int32", "uint8", "bool")]
    check_items(check, unary_ops, *arrays)


@jit
def expression_chain(a, b, c):
    return (a * b + c) / (1.0 + a * a) - c * 0.5


@pytest.mark.parametrize("level", ["O0", "O1"])
def test_expression_chain(check, level):
    a, b, c = values("float64", (4, 5), 13), values("float64", (4, 5), 14), values("float64", (5,), 15)
    fn = expression_chain if level == "O0" else expression_chain_o1
    check(fn, a, b, c)


@_jit(jit_level="O1", fullgraph=True)
def expression_chain_o1(a, b, c):
    return (a * b + c) / (1.0 + a * a) - c * 0.5


# --------------------------------------------------------------------------
# broadcasting
# --------------------------------------------------------------------------


@jit
def bcast_add(a, b):
    return a + b


@pytest.mark.parametrize("sa,sb", [((3, 4), (4,)), ((3, 1), (1, 4)), ((3, 1), (4,)), ((1, 1), (2, 3)), ((2, 3), (2, 3)),
                                   ((0, 3), (3,)), ((3, 4), (1, 4))])
def test_broadcast_2d(check, sa, sb):
    a = values("float64", sa, 16)
    b = values("float64", sb, 17)
    if len(sb) == 1:
        check(bcast_add_2d_1d, a, b)
    else:
        check(bcast_add, a, b)


@jit
def bcast_add_2d_1d(a, b):
    return a + b, b + a


@pytest.mark.parametrize("sa,sb", [((3, 4), (3,)), ((2, 3), (4,))])
def test_broadcast_mismatch_raises_value_error(check, sa, sb):
    check(bcast_add_2d_1d, values("float64", sa), values("float64", sb))
    with pytest.raises(ValueError):
        bcast_add_2d_1d(values("float64", sa), values("float64", sb))


def test_broadcast_mismatch_same_ndim(check):
    check(bcast_add, values("float64", (2, 3)), values("float64", (3, 2)))


@jit
def bcast_3d(a, b, c):
    return a * b + c


def test_broadcast_3d(check):
    check(bcast_3d, values("float64", (2, 3, 4), 1), values("float64", (3, 1), 2), values("float64", (2, 1, 4), 3))


@jit
def outer_newaxis(a, b):
    return a[:, np.newaxis] * b[np.newaxis, :], a[:, None] - b


def test_newaxis_outer(check):
    check(outer_newaxis, np.arange(3.0), np.arange(4.0) + 0.5)


@jit
def newaxis_shapes(a):
    return a[np.newaxis].shape, a[:, np.newaxis, :].shape, a[:, :, None].shape, a[None, 1].shape


def test_newaxis_shapes(check):
    check(newaxis_shapes, np.zeros((2, 3)))


# --------------------------------------------------------------------------
# in-place operations and writes visible to the caller
# --------------------------------------------------------------------------


@jit
def inplace_ops(a, b):
    a += b
    a *= 2.0
    a -= 1
    a /= 4
    return a


def test_inplace_ops_visible_to_caller(check):
    check(inplace_ops, values("float64", (3, 4), 20), values("float64", (4,), 21))


@jit
def inplace_int(a, b):
    a += b
    a //= 2
    a %= 5
    a <<= 1
    a |= 1


def test_inplace_int_visible_to_caller(check):
    check(inplace_int, values("int32", (6,), 22), values("int32", (6,), 23))


@_jit
def inplace_int_float(a):
    a += 1.5


def test_inplace_int_plus_float_raises_type_error(check):
    # NumPy: Cannot cast ufunc 'add' output from float64 to int64 (UFuncTypeError,
    # a TypeError).  Default options, as for bool_subtract above.
    check(inplace_int_float, np.arange(3))
    with pytest.raises(TypeError):
        inplace_int_float(np.arange(3))


@jit
def inplace_float32_with_float64(a, b):
    a += b  # same_kind casting: float64 -> float32 is allowed in place


def test_inplace_downcast_same_kind(check):
    check(inplace_float32_with_float64, values("float32", (5,), 24), values("float64", (5,), 25))


@jit
def inplace_on_view(a):
    a[1:-1] += 10.0
    a[::2] *= -1.0
    v = a[2:]
    v[0] = 99.0
    a[-1] = a[0] + a[1]


def test_inplace_on_views(check):
    check(inplace_on_view, np.arange(7.0))


@jit
def set_slices(a, b):
    a[0] = 5.0            # a whole row from a scalar
    a[1, :] = b           # a row from an array
    a[:, 0] = -1.0        # a column
    a[2:, 1:] = b[1:]     # a block, broadcast over rows
    a[::2, ::2] = 7.0


def test_set_slices(check):
    check(set_slices, np.zeros((4, 3)), np.array([1.0, 2.0, 3.0]))


@jit
def set_slice_wrong_shape(a, b):
    a[0:2] = b


def test_set_slice_shape_mismatch_raises_value_error(check):
    check(set_slice_wrong_shape, np.zeros(5), np.ones(3))
    check(set_slice_wrong_shape, np.zeros(5), np.ones(2))


@jit
def write_through_fortran(a):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            a[i, j] = i * 10 + j


def test_write_fortran_and_views(check):
    check(write_through_fortran, np.asfortranarray(np.zeros((3, 4))))
    check(write_through_fortran, np.zeros((6, 8))[::2, 1::3])
    check(write_through_fortran, np.zeros((3, 4)).T)


@jit
def overlapping_inplace(a):
    a[1:] += a[:-1]  # NumPy buffers overlapping operands: the result uses the old values
    return a


def test_overlapping_inplace(check):
    check(overlapping_inplace, np.arange(6.0))


@jit
def self_assign_reversed(a):
    a[:] = a[::-1]
    return a


def test_overlapping_assign_reversed(check):
    check(self_assign_reversed, np.arange(5.0))


# --------------------------------------------------------------------------
# layouts: C, Fortran and non-contiguous views as arguments
# --------------------------------------------------------------------------


@jit
def weighted(a, w):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j] * w[j]
    return s, a * w + 1.0


BASE = np.arange(48.0).reshape(6, 8)


@pytest.mark.parametrize("make", [
    lambda: BASE.copy(),                        # C
    lambda: np.asfortranarray(BASE),            # Fortran
    lambda: BASE[1::2, ::3],                    # strided view
    lambda: BASE.T[::-1, 2:],                   # transposed, negative stride
    lambda: BASE[:, 1:5],                       # non-contiguous rows
], ids=["C", "F", "strided", "transposed-reversed", "column-slice"])
def test_layouts_as_arguments(check, make):
    a = make()
    check(weighted, a, np.linspace(0.0, 1.0, a.shape[1]))


def test_one_d_views(check):
    check(weighted_1d, np.arange(10.0)[::-2])
    check(weighted_1d, np.arange(20.0).reshape(4, 5)[:, 2])


@jit
def weighted_1d(a):
    return a * 2.0, a[1], a.sum()


# --------------------------------------------------------------------------
# 0-d to 4-d
# --------------------------------------------------------------------------


@jit
def zero_d(a):
    x = a[()]
    a[()] = x + 1.0
    a[()] *= 2.0
    return x


def test_zero_d_array_indexing(check):
    check(zero_d, np.array(2.5))


@jit
def zero_d_arith(a, b):
    return a + 1.0, a * b


def test_zero_d_array_arithmetic_gives_numpy_scalar(check):
    # Arithmetic on 0-d arrays gives a NumPy scalar, as in NumPy.
    check(zero_d_arith, np.array(2.5), np.array(4.0))


@jit
def zero_d_shape(a):
    return a.shape, a.ndim, a.size


def test_zero_d_attributes(check):
    check(zero_d_shape, np.array(3))


@jit
def three_d(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                s += a[i, j, k] * (i - j + k)
    return s, a[1], a[-1, 1:, ::2], a[:, 0, 0]


def test_three_d(check):
    check(three_d, values("float64", (3, 4, 5), 30))


@jit
def four_d(a, b):
    a[0, 1, 2, 3] = -1
    return a + b, a[1, :, -1], a[:, :, :, 0], a.shape, a[1, 2, 3, 4]


def test_four_d(check):
    check(four_d, values("int64", (2, 3, 4, 5), 31), values("int64", (4, 5), 32))


# --------------------------------------------------------------------------
# indexing
# --------------------------------------------------------------------------


@jit
def get_item(a, i):
    return a[i]


@pytest.mark.parametrize("i", [0, 3, -1, -5, 4])
def test_index_1d(check, i):
    check(get_item, np.array([1.5, 2.5, 3.5, 4.5, 5.5]), i)


@jit
def get_items(i32, f32, b1, u64, c128, i):
    return i32[i], f32[i], b1[i], u64[i], c128[i], f32[i] * 2.0, i32[i] + 1


def test_index_gives_numpy_scalar_of_dtype(check):
    arrays = [values(d, (4,), 33) for d in ("int32", "float32", "bool", "uint64", "complex128")]
    check_items(check, get_items, *arrays, 2)
    check_items(check, get_items, *arrays, -4)


@pytest.mark.parametrize("i", [5, -6, 100, -100])
def test_index_out_of_bounds_1d(check, i):
    check(get_item, np.arange(5.0), i)


@pytest.mark.parametrize("i", [5, -6])
def test_index_error_message_matches_numpy(i):
    a = np.arange(5.0)
    with pytest.raises(IndexError) as expected:
        get_item.py_func(a, i)
    with pytest.raises(IndexError) as got:
        get_item(a, i)
    assert str(got.value) == str(expected.value)


@jit
def get_item_2d(a, i, j):
    return a[i, j], a[i][j], a[i]


@pytest.mark.parametrize("i,j", [(0, 0), (2, 3), (-1, -1), (-3, 1)])
def test_index_2d(check, i, j):
    check(get_item_2d, values("float64", (3, 4), 34), i, j)


@pytest.mark.parametrize("i,j", [(3, 0), (0, 4), (-4, 0), (1, -5)])
def test_index_2d_out_of_bounds(check, i, j):
    check(get_item_2d, values("float64", (3, 4), 34), i, j)


def test_index_2d_error_message_names_axis():
    a = np.zeros((3, 4))
    with pytest.raises(IndexError) as expected:
        get_item_2d.py_func(a, 1, 7)
    with pytest.raises(IndexError) as got:
        get_item_2d(a, 1, 7)
    assert str(got.value) == str(expected.value)  # "index 7 is out of bounds for axis 1 with size 4"


@jit
def set_item(a, i, v):
    a[i] = v
    return a


@pytest.mark.parametrize("i", [0, -1, 5, -6])
def test_set_item_bounds(check, i):
    check(set_item, np.zeros(5), i, 3.5)


def test_set_item_casts_to_array_dtype(check):
    # Storing a float into an int array truncates, as in NumPy.
    check(set_item, np.zeros(3, dtype=np.int32), 1, 2.75)
    check(set_item, np.zeros(3, dtype=np.int32), -1, -2.75)


@jit
def set_item_unchecked(a, i, v):
    a[i] = v
    return a[i] * 2


set_item_unchecked_nb = _jit(set_item_unchecked.py_func, boundscheck=False, fullgraph=True)


@pytest.mark.parametrize("i", [0, 4, -1, -5])
def test_boundscheck_false_in_bounds(check, i):
    check(set_item_unchecked_nb, np.arange(5.0), i, 1.25)


@jit
def index_with_numpy_int(a, i):
    return a[i], a[i - 1]


def test_index_with_numpy_integers(check):
    check(index_with_numpy_int, np.arange(6.0), np.int32(3))
    check(index_with_numpy_int, np.arange(6.0), np.uint8(5))


@jit
def slices_1d(a):
    return a[1:4], a[::2], a[::-1], a[-2:], a[:-2], a[5:1:-2], a[100:], a[-100:2], a[3:3], a[::-3]


def test_slices_1d(check):
    check(slices_1d, np.arange(10.0))
    check(slices_1d, np.arange(3.0))


@jit
def slice_vars(a, start, stop, step):
    return a[start:stop:step]


@pytest.mark.parametrize("start,stop,step", [(0, 10, 1), (1, 8, 3), (9, 0, -2), (-1, -11, -1), (2, 2, 1),
                                             (-3, 100, 1), (8, -100, -3), (0, 5, 10)])
def test_slices_with_variables(check, start, stop, step):
    check(slice_vars, np.arange(10.0), start, stop, step)


def test_slice_step_zero_raises_value_error(check):
    check(slice_vars, np.arange(10.0), 0, 5, 0)


@jit
def slices_2d(a):
    return a[1:, ::2], a[::-1, 1], a[2, ::-1], a[:, -1], a[1:3, 1:3], a[-1:, :1]


def test_slices_2d(check):
    check(slices_2d, np.arange(20).reshape(4, 5))


@jit
def slice_of_slice(a):
    b = a[1:-1]
    c = b[::2]
    c[0] = -5.0
    return c[1:], b.shape


def test_slice_of_slice_is_view(check):
    check(slice_of_slice, np.arange(9.0))


@jit
def mask_get(a, t):
    return a[a > t], a[(a > t) & (a < 2 * t)]


@pytest.mark.parametrize("t", [0.0, 5.0, 100.0])
def test_boolean_mask_get(check, t):
    check(mask_get, values("float64", (12,), 40), t)


def test_boolean_mask_get_2d(check):
    # A mask with the array's shape selects into a 1-d array (C order).
    check(mask_get, np.asfortranarray(values("float64", (3, 4), 41)), 1.0)


@jit
def mask_set(a, t):
    a[a > t] = 0.0
    a[a < -t] *= 2.0
    return a


def test_boolean_mask_set(check):
    check(mask_set, values("float64", (3, 4), 42), 5.0)


@jit
def mask_set_from_array(a, b):
    m = b > 0
    a[m] = b[m]
    return a


def test_boolean_mask_set_from_array(check):
    check(mask_set_from_array, np.zeros(6), np.array([1.0, -1.0, 2.0, 0.0, -3.0, 4.0]))


@jit
def mask_wrong_shape(a, m):
    return a[m]


def test_boolean_mask_wrong_shape_raises_index_error(check):
    check(mask_wrong_shape, np.arange(5.0), np.array([True, False, True]))


@jit
def mask_from_argument(a, m):
    return a[m].sum(), a[~m]


def test_boolean_mask_argument(check):
    check(mask_from_argument, np.arange(5.0), np.array([True, False, True, True, False]))


# --------------------------------------------------------------------------
# read-only arrays
# --------------------------------------------------------------------------


def readonly(a):
    a.flags.writeable = False
    return a


@jit
def read_sum(a):
    s = 0.0
    for x in a:
        s += x
    return s, a * 2.0


def test_read_only_array_can_be_read(check):
    check(read_sum, readonly(np.arange(4.0)))


@jit
def write_elem(a):
    a[0] = 1.0


def test_write_to_read_only_raises_value_error(check):
    # NumPy: "assignment destination is read-only"
    check(write_elem, readonly(np.zeros(3)))
    with pytest.raises(ValueError):
        write_elem(readonly(np.zeros(3)))


@jit
def write_inplace(a):
    a += 1.0


def test_inplace_on_read_only_raises_value_error(check):
    check(write_inplace, readonly(np.zeros(3)))


@jit
def one_axis_masks(x, rows, cols):
    return x[rows], x[:, cols], x[rows, 1], x[rows, 1:], x[rows][:, cols]


@jit
def one_axis_mask_stores(x, rows, cols, v):
    x[rows] = 0.0
    x[:, cols] += 1.0
    x[1:, cols] = v
    return x


def test_a_1d_mask_beside_other_indices_covers_one_axis(check):
    x = np.arange(12.0).reshape(3, 4)
    rows, cols = np.array([True, False, True]), np.array([False, True, True, False])
    check(one_axis_masks, x, rows, cols)
    check(one_axis_masks, x, np.zeros(3, bool), np.ones(8, bool)[::2])
    check(one_axis_mask_stores, x, rows, cols, np.array([[7.0], [8.0]]))


def test_a_1d_mask_of_the_wrong_length_raises_numpys_index_error(check):
    x = np.arange(12.0).reshape(3, 4)
    check(one_axis_masks, x, np.ones(4, bool), np.ones(4, bool))  # axis 0
    check(one_axis_masks, x, np.ones(3, bool), np.ones(3, bool))  # axis 1
