"""Array expressions large enough to be evaluated in parallel (more than
2 * TR_EXPR_GRAIN elements on the CPU, more than TR_CUDA_EXPR_MIN on a GPU),
undecorated: test_array_expr_parallel.py compiles them at jit_level="O1"
(backend="cpu") and for backend="cuda", and compares with NumPy."""
import numpy as np

from transpile import prange

N = 100_003  # not a multiple of 16: thread shares end inside a row
R, C = 301, 331  # 99,631 elements; rows of odd length


def elementwise(a, b, c, m, v, col, i32, f32, u8):
    """Fused ufuncs, broadcasting, strided / negative-stride / transposed
    views, mixed dtypes, np.where, astype, a strided destination, and
    assignments whose source overlaps the destination."""
    r1 = np.sqrt(a * a + b * b) * np.exp(-c)
    r2 = m * v + col                      # (R, C) * (C,) + (R, 1)
    r3 = a[::-1] * 2.0 - b                # negative stride
    r4 = m.T * 0.5 + 1.0                  # a transposed (Fortran-order) source
    r5 = m[::2, ::-3] - m[1::2, ::3][0]   # 2-D strided, reversed, and a broadcast row
    r6 = i32 * 0.5 + f32                  # int32, Python float, float32 -> float64
    r7 = u8 + i32                         # uint8 + int32 -> int32
    r8 = np.where(a > b, a, -b)
    r9 = (a * 3.0).astype(np.float32)
    o = np.zeros(2 * a.shape[0])
    o[::2] = a * b                        # a strided destination
    x = a.copy()
    x[1:] = x[:-1] + 1.0                  # overlap: NumPy reads the old values
    y = a.copy()
    y[:] = y * 2.0 + y                    # element for element: no temporary needed
    z = m.copy()
    z[1:, :] = z[:-1, ::-1] * 0.5
    return r1, r2, r3, r4, r5, r6, r7, r8, r9, o, x, y, z


def elementwise_args():
    rng = np.random.default_rng(11)
    a, b, c = rng.random(N), rng.random(N), rng.random(N)
    m = rng.random((R, C))
    v, col = rng.random(C), rng.random((R, 1))
    i32 = rng.integers(-1000, 1000, N, dtype=np.int32)
    f32 = rng.random(N, dtype=np.float32)
    u8 = rng.integers(0, 255, N, dtype=np.uint8)
    return a, b, c, m, v, col, i32, f32, u8


def int_power(a, b):
    """NumPy raises ValueError for a negative integer exponent: the one
    elementwise operation that can raise."""
    return a ** b


def rows(m, out):
    """Array expressions inside a prange body: evaluated on the thread that
    runs the iteration (no nested teams)."""
    for i in prange(m.shape[0]):
        out[i] = np.sqrt(m[i] * m[i] + 1.0) - m[i]
    return out


def scalar_only(a):
    """Element reads only: no array expression, so no -fopenmp at O1."""
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s
