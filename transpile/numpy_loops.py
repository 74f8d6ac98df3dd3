"""What the installed NumPy's loops compute where their bits depend on the
CPU NumPy dispatched to.  On CPUs with fused multiply-add (x86-64 with FMA3 or
AVX-512, AArch64), NumPy's complex multiply and square loops (arrays, and
ufunc calls on scalars) compute re = fma(ar, br, -ai*bi), im = fma(ar, bi,
ai*br); elsewhere, and in its scalar operators (np.complex128 * np.complex128),
two roundings.  About a quarter of random products differ in the last bit, so
compiled code asks NumPy once per process which it does and computes the same
(TR_NUMPY_CMUL_FMA in the generated module, cxx/prelude.py); the answer is
part of every cache key, so a cache shared by machines of different CPUs
never hands one of them the other's bits."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

# Operands whose product's real part differs by fusing: (1 + e)**2 - 1 with
# e = 2**-30 (complex128) or 2**-12 (complex64) loses e**2 when rounded twice.
_PROBES = ((np.complex64, 2.0 ** -12, 0), (np.complex128, 2.0 ** -30, 1))


@lru_cache(maxsize=1)
def complex_multiply_fma() -> int:
    """Which of NumPy's loops fuse: bit 0 complex64 multiply, bit 1 complex128
    multiply, bit 2 complex64 square, bit 3 complex128 square."""
    bits = 0
    for dtype, e, shift in _PROBES:
        a = np.full(16, complex(1 + e, 1), dtype=dtype)
        fused = dtype(complex(2 * e + e * e, 0)).real
        bits |= int(np.multiply(a, a)[0].real == fused) << shift
        bits |= int(np.square(a)[0].real == fused) << (shift + 2)
    return bits
