"""Monte Carlo pi with np.random.random() drawn twice an iteration: @jit
(compiled draws on NumPy's own MT19937 state, library/random_lib.py) against
Numba and CPython, as the minimum CPU time per call over interleaved rounds;
then the same with Python's random.random() (Numba's documentation example),
which @jit draws from random._inst's own state (bridge/pyrandom.c).

Numba draws from its own Mersenne Twister (per thread, seeded by
np.random.seed inside @njit code), not NumPy's, so its sequence differs from
NumPy's; @jit's is NumPy's bit for bit (checked here before timing).  Every
@jit draw takes the BitGenerator's lock, which is most of its cost.

    python benchmarks/bench_random.py [n]     BT_REPS=11 by default
"""
import os
import sys
import tempfile
import time

os.environ.setdefault("TRANSPILE_CACHE_DIR", tempfile.mkdtemp(prefix="transpile-bench-"))
os.environ.setdefault("TRANSPILE_TIERED", "0")

import random  # noqa: E402

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from transpile import jit  # noqa: E402


def mc_pi(n):
    inside = 0
    for _ in range(n):
        x = np.random.random()
        y = np.random.random()
        if x * x + y * y < 1.0:
            inside += 1
    return 4.0 * inside / n


def mc_pi_python(n):
    inside = 0
    for _ in range(n):
        x = random.random()
        y = random.random()
        if x * x + y * y < 1.0:
            inside += 1
    return 4.0 * inside / n


def main(n: int) -> None:
    race(mc_pi, n, lambda: np.random.seed(1), "np.random.random()")
    race(mc_pi_python, n, lambda: random.seed(1), "random.random()")


def race(mc_pi, n: int, seed, what: str) -> None:
    fns = {"transpile": jit(fullgraph=True)(mc_pi), "numba": njit(mc_pi), "cpython": mc_pi}
    seed()
    got = fns["transpile"](10_000)
    seed()
    assert got == mc_pi(10_000), "compiled draws must be the generator's own sequence"
    sizes = {k: (n if k != "cpython" else max(1, n // 50)) for k in fns}
    for k, f in fns.items():
        f(10)  # compiled (numba: also its generator initialised)
    best = {k: float("inf") for k in fns}
    for _ in range(int(os.environ.get("BT_REPS", "11"))):
        for k, f in fns.items():
            t0 = time.process_time()
            f(sizes[k])
            best[k] = min(best[k], (time.process_time() - t0) / sizes[k])
    load = os.getloadavg()[0]
    print(f"Monte Carlo pi with {what}, {n} iterations (2 draws each), load {load:.1f}: ns per iteration")
    for k in fns:
        print(f"  {k:10s} {best[k] * 1e9:8.1f} ns   ({best[k] / best['numba']:.1f}x Numba)")
    print(f"  transpile is {best['cpython'] / best['transpile']:.1f}x CPython")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000)
