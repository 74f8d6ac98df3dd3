"""How often NumPy's own results differ in the last bits from what a plain
C loop computes, on this machine: why compiled code calls NumPy's ufunc
loops (numpy/numpy_loops.hpp) and NumPy itself for products and norms
(python_calls.hpp) instead of the C library and loops of its own.

    python benchmarks/check_numpy_bits.py

Prints, for 1000 values uniform in [-10, 10] (seed 0), how many of NumPy's
tanh/exp results differ from the C library's, and for vectors of several
lengths whether np.dot and np.linalg.norm equal an in-order loop's sum."""
from __future__ import annotations

import ctypes
import ctypes.util
import math

import numpy as np


def main() -> None:
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    x = np.random.default_rng(0).uniform(-10, 10, 1000)
    for name, cname, dtype in (("tanh", "tanh", "float64"), ("exp", "exp", "float64"), ("exp", "expf", "float32")):
        c = ctypes.c_float if dtype == "float32" else ctypes.c_double
        fn = getattr(libm, cname)
        fn.restype, fn.argtypes = c, [c]
        a = x.astype(dtype)
        from_libm = np.array([fn(v) for v in a], dtype=dtype)
        print(f"np.{name} {dtype}: {int((getattr(np, name)(a) != from_libm).sum())} of 1000 differ from C's {cname}")
    rng = np.random.default_rng(1)
    for n in (3, 8, 31, 100, 1000, 12345):
        a, b = rng.random(n), rng.random(n)
        s = 0.0
        for u, v in zip(a.tolist(), b.tolist()):
            s += u * v
        q = 0.0
        for u in a.tolist():
            q += u * u
        print(f"n={n}: np.dot {'==' if np.dot(a, b) == s else '!='} in-order loop, "
              f"np.linalg.norm {'==' if np.linalg.norm(a) == math.sqrt(q) else '!='} in-order loop")


if __name__ == "__main__":
    main()
