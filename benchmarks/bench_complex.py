"""Complex array arithmetic against NumPy's own loops, bit for bit first.

NumPy's complex multiply loop fuses multiply-adds on CPUs that have them
(transpile/numpy_loops.py); jit_level O0 builds for x86-64's baseline, where
the fused product is a call to libm's fma, O1 for this CPU.

    python benchmarks/bench_complex.py [--n 1000000] [--rounds 15]

Prints the minimum wall time per call over interleaved rounds (builds
untiered) and the load average.
"""
import argparse
import os
import tempfile
import time

os.environ.setdefault("TRANSPILE_CACHE_DIR", tempfile.mkdtemp(prefix="transpile-bench-"))
os.environ.setdefault("TRANSPILE_TIERED", "0")

import numpy as np  # noqa: E402

from transpile import jit  # noqa: E402


def multiply(x, y):
    return x * y


def divide(x, y):
    return x / y


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1_000_000, help="complex128 elements")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    x = rng.standard_normal(2 * args.n).view(np.complex128)
    y = x[::-1].copy()
    for fn in (multiply, divide):
        impls = {"numpy": fn, "@jit O0": jit(fn), "@jit O1": jit(fn, jit_level="O1")}
        want = fn(x, y)
        for name, impl in impls.items():
            assert np.array_equal(impl(x, y).view(np.float64), want.view(np.float64)), f"{name} differs"
        best = dict.fromkeys(impls, float("inf"))
        for _ in range(args.rounds):
            for name, impl in impls.items():
                t0 = time.perf_counter()
                impl(x, y)
                best[name] = min(best[name], time.perf_counter() - t0)
        print(f"{fn.__name__:9}" + "".join(f"  {name} {t * 1e3:7.2f} ms" for name, t in best.items()))
    print(f"load average: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
