"""prange: a range whose iterations are independent.

    from transpile import jit, prange

    @jit
    def total(a):
        s = 0.0
        for i in prange(a.shape[0]):
            s += a[i]          # a reduction: each thread sums a part
        return s

In Python (and when a function runs as Python) prange is range.  Compiled,
a prange loop runs its iterations in parallel: on OpenMP threads for
backend="cpu" (TRANSPILE_NUM_THREADS sets how many), as a CUDA kernel for
backend="cuda", as an Ascend C kernel for backend="ascend".  Variables the
body assigns belong to one iteration; scalars the body only updates with
`+=`, `-=`, `*=`, `|=`, `&=` or `^=` are reductions; `h[k] += v` on a shared
array with k other than the loop variable is an atomic update.  See
docs/architecture.md, "Parallel loops and device backends".
"""
from __future__ import annotations


def prange(*args):
    """range(*args), marked parallel for compiled code."""
    return range(*args)


__all__ = ["prange"]
