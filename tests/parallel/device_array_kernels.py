"""Functions over device arrays (objects with __cuda_array_interface__),
undecorated: tests/parallel/test_cuda_array_interface.py decorates them."""
import numpy as np

from transpile import prange


def scale_sum(x, out, alpha):
    """Device arrays in a kernel (read, write, reduction) and shape queries on the host."""
    s = 0.0
    for i in prange(x.shape[0]):
        out[i] = alpha * x[i] + 1.0
        s += out[i]
    return s, len(x), x.size, x.ndim


def rows(a, h, b):
    """A 2-D device array (any strides) beside NumPy arrays (copied to the GPU and back)."""
    n, m = a.shape
    for i in prange(n):
        t = 0.0
        for j in range(m):
            t += a[i, j] * h[j]
        b[i] = t
    return b


def read_on_host(x):
    return x[0] + 1.0


def returned(x, out):
    for i in prange(x.shape[0]):
        out[i] = 2.0 * x[i]
    return out, x.shape[0]


def returned_on_one_path(x, flag):
    if flag:
        return x
    return np.zeros(3)


def rebound(x):
    x = np.zeros(3)
    return x[0]


def array_expression(x, out):
    for i in prange(out.shape[0]):
        out[i] = 1.0
    return (x * 2.0).sum()


def passed_on(x):
    return np.sum(x)


def host_loop(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
    return s


def writes(x):
    for i in prange(x.shape[0]):
        x[i] = 0.0
