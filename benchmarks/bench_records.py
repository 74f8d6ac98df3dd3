"""A particle system over a record array (structured dtype: x, y, vx, vy as
float64, mass float32, id int32), updated in place record by record:
transpile's @jit against Numba's njit and CPython on the same code, minimum
CPU time per call over interleaved rounds (bench_kernels_min.py's method).

    python benchmarks/bench_records.py              BT_REPS=15 by default
"""
import copy
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_kernels_min import _calls_per_round  # noqa: E402  (also sets a fresh cache dir, TRANSPILE_TIERED=0)

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from transpile import jit  # noqa: E402

DTYPE = np.dtype([("x", "f8"), ("y", "f8"), ("vx", "f8"), ("vy", "f8"), ("mass", "f4"), ("id", "i4")])


def drift(p, dt, n):
    for _ in range(n):
        for i in range(len(p)):
            p[i]["vy"] -= 9.81 * dt
            p[i]["x"] += p[i]["vx"] * dt
            p[i]["y"] += p[i]["vy"] * dt
    return 0.0


def step(p, dt, n):
    """drift, then the kinetic energy (GCC -O2 compiles the same update loop
    here with a 16-byte load of (vx, vy) right after the 8-byte store of vy:
    a store-forwarding stall, which drift's code does not have)."""
    for _ in range(n):
        for i in range(len(p)):
            p[i]["vy"] -= 9.81 * dt
            p[i]["x"] += p[i]["vx"] * dt
            p[i]["y"] += p[i]["vy"] * dt
    e = 0.0
    for i in range(len(p)):
        e += 0.5 * p[i]["mass"] * (p[i]["vx"] * p[i]["vx"] + p[i]["vy"] * p[i]["vy"])
    return e


def particles(n):
    p = np.zeros(n, DTYPE)
    p["vx"] = np.linspace(-1, 1, n)
    p["mass"] = 1.5
    p["id"] = np.arange(n)
    return p


def bench(kernel, reps):
    fns = {"cpython": kernel, "numba": njit(kernel), "transpile": jit(kernel)}
    best = {}
    for k, f in fns.items():
        own = (particles(1_000 if k == "cpython" else 100_000), 1e-3, 1 if k == "cpython" else 10)
        t0 = time.perf_counter()
        f(*own)
        print(f"{kernel.__name__:6s} {k:10s} first call {time.perf_counter() - t0:.2f} s", flush=True)
        best[k] = [f, own, _calls_per_round(f, own), float("inf")]
    for _ in range(reps):
        for k, entry in best.items():
            f, own, calls, _ = entry
            t0 = time.process_time()
            for _ in range(calls):
                f(*own)
            entry[3] = min(entry[3], (time.process_time() - t0) / calls)
    # ns per record and step (cpython: 1000 records x 1 step, the others 100000 x 10)
    per = {k: v[3] / (len(v[1][0]) * v[1][2]) * 1e9 for k, v in best.items()}
    print(f"{kernel.__name__:6s} " + "  ".join(f"{k} {per[k]:.2f} ns" for k in fns) +
          f"  per record step; transpile vs numba {per['numba'] / per['transpile']:.2f}x, "
          f"vs CPython {per['cpython'] / per['transpile']:.0f}x", flush=True)


def main():
    reps = int(os.environ.get("BT_REPS", "15"))
    for kernel in (drift, step):
        bench(kernel, reps)


if __name__ == "__main__":
    main()
