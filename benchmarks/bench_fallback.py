"""JIT Fallback overhead: a loop of 10^5 iterations with one statement that
runs as Python among compiled ones.

Prints the per-iteration cost of the callback and the whole loop against
CPython running the same function (medians of several runs, one process).

    python benchmarks/bench_fallback.py
"""
from __future__ import annotations

import operator
import warnings

import numpy as np

from timing import median_time
from transpile import TranspileFallbackWarning, jit

N = 100_000


def mixed(a, n):
    s = 0.0
    t = 0.0
    for i in range(n):
        x = a[i % 64] * 1.5 + 0.25
        s += x * x
        w = operator.pos(x)  # a call into the standard library: runs as Python (JIT Fallback)
        t += w
    return s + t


def compiled_only(a, n):
    s = 0.0
    t = 0.0
    for i in range(n):
        x = a[i % 64] * 1.5 + 0.25
        s += x * x
        w = x
        t += w
    return s + t


def main():
    a = np.random.default_rng(0).random(64)
    jit_mixed = jit(mixed)
    jit_plain = jit(compiled_only)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        assert abs(jit_mixed(a, N) - mixed(a, N)) < 1e-6 * abs(mixed(a, N))
    jit_plain(a, N)
    t_py = median_time(mixed, a, N)
    t_mixed = median_time(jit_mixed, a, N)
    t_plain = median_time(jit_plain, a, N)
    per_callback = (t_mixed - t_plain) / N
    print(f"loop of {N} iterations, one fallback statement per iteration (medians of 7 runs)")
    print(f"  CPython, whole function          {t_py * 1e3:9.2f} ms")
    print(f"  transpile with the fallback      {t_mixed * 1e3:9.2f} ms   ({t_py / t_mixed:.2f}x CPython's speed)")
    print(f"  transpile, same loop all compiled{t_plain * 1e3:9.2f} ms")
    print(f"  cost of one callback             {per_callback * 1e9:9.0f} ns   (target <= 1000 ns)")


if __name__ == "__main__":
    main()
