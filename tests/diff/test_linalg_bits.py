"""Floating-point products and norms give NumPy's bits: np.dot, np.matmul, @,
.dot() and np.linalg.norm of float and complex arrays are computed by NumPy
itself (python_calls.hpp), since its BLAS (kernel-specific summation
order) and its pairwise sums decide the last bits.  Sizes here are large
enough that a plain loop sums in another order (benchmarks/check_numpy_bits.py:
dots and norms of 100+ elements here); 12 of these 16 tests fail on the
loops compiled code had before."""
import numpy as np
import pytest

from ._support import jit


def rand(shape, dtype="float64", seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


@jit
def products(a, b):
    return np.dot(a, b), np.matmul(a, b), a @ b, a.dot(b)


@pytest.mark.parametrize("sa,sb,dtype", [((1000,), (1000,), "float64"), ((17, 23), (23, 9), "float64"),
                                         ((40, 64), (64,), "float64"), ((64,), (64, 33), "float32"),
                                         ((12, 20), (20, 7), "complex128")],
                         ids=["vv", "mm", "mv", "vm-f32", "mm-complex"])
def test_products_give_numpys_bits(check_bits, sa, sb, dtype):
    check_bits(products, rand(sa, dtype, 1), rand(sb, dtype, 2))


def test_products_of_views_and_mixed_dtypes(check_bits):
    a = rand((30, 50), seed=3)
    check_bits(products, a[:, ::2], np.asfortranarray(rand((25, 11), seed=4)))
    check_bits(products, rand((50, 30), "float32", seed=5).T, rand((50,), seed=6))
    check_bits(products, np.arange(60).reshape(3, 20), rand((20, 4), seed=7))  # int . float


@jit
def product_in_expression(a, b, c):
    return (a * 2.0) @ b + c, np.dot(a, b[:, 0]).sum()


def test_product_of_an_expression(check_bits):
    check_bits(product_in_expression, rand((9, 31), seed=8), rand((31, 5), seed=9), rand((9, 5), seed=10))


def same_error(fn, *args):
    with pytest.raises(Exception) as expected:
        fn.py_func(*args)
    with pytest.raises(type(expected.value)) as got:
        fn(*args)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("sa,sb", [((3,), (4,)), ((2, 3), (2, 3)), ((5, 2), (3,))])
def test_misaligned_products_raise_numpys_error(sa, sb):
    same_error(products, rand(sa, seed=11), rand(sb, seed=12))


@jit
def vector_norms(x, axis):
    return (np.linalg.norm(x), np.linalg.norm(x, 2), np.linalg.norm(x, 1), np.linalg.norm(x, np.inf),
            np.linalg.norm(x, 0), np.linalg.norm(x, 3), np.linalg.norm(x, 0.5), np.linalg.norm(x, -1),
            np.linalg.norm(x, axis=0), np.linalg.norm(x, 1, axis=axis), np.linalg.norm(x, keepdims=True))


@pytest.mark.parametrize("x", [rand((1000,), seed=13), rand((257,), "float32", seed=14),
                               rand((300,), "complex128", seed=15), np.arange(500)],
                         ids=["f64", "f32", "complex", "int"])
def test_vector_norms_give_numpys_bits(check_bits, x):
    with np.errstate(divide="ignore"):
        check_bits(vector_norms, x, -1)


@jit
def matrix_norms(m, axis):
    return (np.linalg.norm(m), np.linalg.norm(m, "fro"), np.linalg.norm(m, 1), np.linalg.norm(m, -np.inf),
            np.linalg.norm(m, axis=axis), np.linalg.norm(m, 3, axis=0), np.linalg.norm(m, axis=1, keepdims=True))


def test_matrix_norms_give_numpys_bits(check_bits):
    check_bits(matrix_norms, rand((120, 70), seed=16), 1)
    check_bits(matrix_norms, rand((70, 120), seed=17).T, 0)


def test_norm_of_a_bad_axis_raises_numpys_error():
    same_error(vector_norms, rand((10,), seed=18), 3)
