"""Functions with statements outside the compiled subset (JIT Fallback).
Line numbers matter to the tests: add new functions at the end."""
import math
import statistics

import numpy as np

from transpile import jit

SCALE = 2.0
DT = np.float32


@jit
def median_loop(a, n):
    s = 0.0
    for i in range(n):
        m = statistics.median([a[i], 1.0, 3.0])
        s += m * SCALE
    return s


@jit
def branchy(a, flag):
    total = a.sum()
    if flag > 0:
        label = f"positive {flag}"
        total += len(label)
    else:
        total -= 1.0
    return total


@jit
def scale_in_place(a, k):
    for i in range(a.shape[0]):
        a[i] = a[i] * 2
    np.multiply(a, k, out=a)
    a[0] += 1.0
    return a


@jit
def list_flow(n):
    xs = [i * i for i in range(n)]
    xs.append(n)
    return xs


@jit
def list_then_number(n):
    xs = list(range(n))
    total = sum(xs)
    return total * 0.5


@jit
def annotated_float32(a):
    v = statistics.fmean(a.tolist())  # @jit.typing: () -> float32
    return v * 2


@jit
def annotated_int(a):
    # @jit.typing: () -> int64
    k = len(list(filter(lambda v: v > 0, a)))  # filter() runs as Python
    return k + 1


@jit
def annotated_array(n):
    x = np.asarray([float(i) for i in range(n)])  # @jit.typing: () -> float64[:]
    return x * 2.0


@jit
def annotated_tensor(n):
    x = np.array(list(range(n)), dtype=np.float32)  # @jit.typing: () -> tensor_type[float32]
    return x + 1


@jit
def annotated_2d(n):
    x = np.array([[i, i + 1] for i in range(n)], dtype=np.float64)  # @jit.typing: () -> float64[:, :]
    return x.sum(axis=0)


@jit
def annotated_name(n):
    x = statistics.fmean([n, n]) + 0.5  # @jit.typing: () -> {DT}
    return x


@jit
def annotated_bool(a):
    ok = bool(any(v > 2 for v in a.tolist()))  # @jit.typing: () -> bool
    return ok


@jit
def annotated_complex(x):
    z = complex(x, 1) ** 0.5  # @jit.typing: () -> complex128
    return z * 2


@jit
def mismatched(n):
    x = "not a number".title()[:n]  # @jit.typing: () -> float32
    return x


@jit
def malformed(n):
    x = statistics.fmean([n])  # @jit.typing: float32
    return n


@jit
def raises_inside(a):
    s = a.sum()
    d = dict(a=1)  # dict(**kw) is not compiled: d is a Python object
    return s + d["missing"]


@jit
def any_to_float(a):
    m = statistics.median(a.tolist())
    return m * 3 + 1


@jit
def any_bad_conversion(n):
    word = "abc".zfill(n)
    return word + 1


@jit
def reads_global_live(x):
    g = SCALE * 1
    y = statistics.fmean([SCALE])
    return x * g + y


def make_gen(n):
    for i in range(n):
        yield i


gen = jit(make_gen)


@jit
def whole_generator(n):
    total = 0
    for i in range(n):
        yield i


@jit
def neighbours(a):
    xs = list(a.tolist())
    xs.sort()
    xs.reverse()
    top = xs[0]
    return top + a[0]


@jit
def fullgraph_many(a):
    xs = lambda *a: 1  # noqa: E731  (star parameters: not compiled)
    with open(__file__) as f:
        pass
    d = {1: 2}.popitem()
    return a


@jit
def complex_trig(z, w):
    """Ufuncs whose complex loops the runtime lacks: those statements run in CPython."""
    s = np.sin(z) * 2.0
    m = np.arctan(z) + w
    return s + m + np.sqrt(z), np.log10(z[0])
