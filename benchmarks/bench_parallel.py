"""prange speed-up: transpile's OpenMP loops on 1 and 2 threads, against
Numba's parallel=True on the same kernels (benchmarks/parallel_kernels.py);
and one kernel without prange, `out[:] = np.sqrt(a*a + b*b) * np.exp(-c)`,
whose array expression transpile splits over threads at jit_level="O1".

    python benchmarks/bench_parallel.py            # ~1 minute on 2 cores
    python benchmarks/bench_parallel.py --quick    # fewer repeats
    python benchmarks/bench_parallel.py --no-boundscheck   # transpile without index checks, as Numba

transpile is compiled at jit_level="O1" (-O3 -march=native) and the thread
count is set per call with TRANSPILE_NUM_THREADS (read at every launch, so
one compiled function serves both columns); Numba's with
numba.set_num_threads.  Each implementation runs in its own process (two
OpenMP runtimes in one process make each other's idle threads spin).
Every result is checked against CPython's on small inputs and against the
other implementation's on the timed ones before anything is timed (a kernel
whose result differs prints WRONG).  Times are medians of interleaved
rounds.  On a shared machine run it when it is otherwise idle: a busy core
ruins every 2-thread figure (the script prints the load average).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ.setdefault("TRANSPILE_CACHE_DIR", tempfile.mkdtemp(prefix="transpile-bench-par-"))

import numpy as np  # noqa: E402

import parallel_kernels as pk  # noqa: E402
from transpile import jit  # noqa: E402


def cases(quick: bool):
    """(name, kernel, make(size) -> fresh arguments, kind); size "small" is for the CPython check."""
    rng = np.random.default_rng(0)
    x_full = rng.random(1_000_000 if quick else 4_000_000)
    x_small = x_full[:5000].copy()

    def mandel_args(size):
        n = {"small": 24, "full": 400 if quick else 700}[size]
        return np.linspace(-2.0, 0.6, n), np.linspace(-1.2, 1.2, n), 200, np.zeros((n, n), np.int64)

    def grid(size):
        n = 30 if size == "small" else 1000
        u = np.zeros((n, n))
        u[0] = 1.0
        return u, u.copy(), 10

    def x(size):
        return x_small if size == "small" else x_full

    y_full, z_full = rng.random(x_full.size), rng.random(x_full.size)

    def y(size):
        return y_full[:5000] if size == "small" else y_full

    def z(size):
        return z_full[:5000] if size == "small" else z_full

    out_full = np.empty_like(x_full)  # reused: the timings are of the expression, not of first-touch page faults

    def out(size):
        return np.empty(5000) if size == "small" else out_full

    return [
        ("mandel", pk.mandel, mandel_args, "embarrassingly parallel"),
        ("transcendental", pk.transcendental, lambda size: (x(size), np.empty_like(x(size))),
         "embarrassingly parallel"),
        ("sum_squares", pk.sum_squares, lambda size: (x(size),), "reduction, memory bound"),
        ("histogram", pk.histogram, lambda size: (x(size), 64), "atomic updates"),
        ("jacobi", pk.jacobi, grid, "stencil"),
        ("array_expr", pk.array_expr, lambda size: (x(size), y(size), z(size), out(size)), "array expression"),
    ]


def numba_version(fn, numba):
    """The same code object, with prange meaning numba.prange."""
    g = dict(fn.__globals__, prange=numba.prange)
    return numba.njit(parallel=True)(types.FunctionType(fn.__code__, g, fn.__name__, fn.__defaults__))


def same(a, b) -> bool:
    if isinstance(b, np.ndarray):
        return a.shape == b.shape and np.allclose(a, b, rtol=1e-9, atol=0)
    return abs(a - b) <= 1e-9 * abs(b)


def child(impl: str, quick: bool, refdir: str, boundscheck: bool = True) -> dict:
    """Times one implementation in this process; returns {kernel: {threads: median s} or a reason}."""
    rounds = 3 if quick else 7
    if impl == "numba":
        import numba

        def build(fn):
            return numba_version(fn, numba)

        def set_threads(n):
            numba.set_num_threads(n)
    else:
        def build(fn):
            return jit(jit_level="O1", boundscheck=boundscheck)(fn)

        def set_threads(n):
            os.environ["TRANSPILE_NUM_THREADS"] = str(n)
    out = {}
    for name, fn, make, kind in cases(quick):
        try:
            f = build(fn)
            set_threads(2)
            if not same(f(*make("small")), fn(*make("small"))):  # CPython: prange is range
                out[name] = "WRONG"
                continue
            full = f(*make("full"))
            ref = os.path.join(refdir, name + ".npy")
            if os.path.exists(ref):
                if not same(full, np.load(ref)[()]):
                    out[name] = "WRONG"
                    continue
            else:
                np.save(ref, full)
        except Exception as exc:  # noqa: BLE001
            out[name] = f"FAILED: {type(exc).__name__}"
            continue
        times = {1: [], 2: []}
        for _ in range(rounds):
            for n in (1, 2):
                args = make("full")
                set_threads(n)
                t0 = time.perf_counter()
                f(*args)
                times[n].append(time.perf_counter() - t0)
        out[name] = {str(n): statistics.median(v) for n, v in times.items()}
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--child", choices=("transpile", "numba"))
    ap.add_argument("--refdir")
    ap.add_argument("--no-boundscheck", action="store_true",
                    help="compile transpile with boundscheck=False (Numba's default) instead of True (transpile's)")
    opts = ap.parse_args()
    if opts.child:
        print(json.dumps(child(opts.child, opts.quick, opts.refdir, not opts.no_boundscheck)))
        return
    import subprocess

    refdir = tempfile.mkdtemp(prefix="transpile-bench-ref-")
    results = {}
    # One process per implementation: two OpenMP runtimes (Numba's and
    # transpile's) in one process make each other's idle threads spin.
    for impl in ("transpile", "numba"):
        cmd = [sys.executable, __file__, "--child", impl, "--refdir", refdir] + (["--quick"] if opts.quick else []) \
            + (["--no-boundscheck"] if opts.no_boundscheck else [])
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            reason = (proc.stderr.strip().splitlines() or ["?"])[-1]
            print(f"{impl} unavailable: {reason}")
            results[impl] = {}
            continue
        results[impl] = json.loads(proc.stdout.strip().splitlines()[-1])
    print(f"{os.cpu_count()} CPUs, load average before/after: {LOAD0} / {load()}; transpile jit_level=O1, "
          f"boundscheck={not opts.no_boundscheck}; "
          f"medians of {3 if opts.quick else 7} rounds\n")
    print(f"{'kernel':<16}{'kind':<25}{'tr 1 thr':>10}{'tr 2 thr':>10}{'speed-up':>10}"
          f"{'numba 1':>10}{'numba 2':>10}{'speed-up':>10}{'numba2/tr2':>12}")
    for name, _, _, kind in cases(True):
        tr, nb = results["transpile"].get(name, "n/a"), results["numba"].get(name, "n/a")

        def cell(r, n):
            return f"{r[n] * 1e3:8.1f}ms" if isinstance(r, dict) else f"{r:>10}"

        def ratio(a, b):
            return f"{a / b:9.2f}x" if a and b else f"{'n/a':>10}"

        t = tr if isinstance(tr, dict) else {}
        b = nb if isinstance(nb, dict) else {}
        print(f"{name:<16}{kind:<25}{cell(tr, '1')}{cell(tr, '2')}{ratio(t.get('1'), t.get('2'))}"
              f"{cell(nb, '1')}{cell(nb, '2')}{ratio(b.get('1'), b.get('2'))}{ratio(b.get('2'), t.get('2')):>12}")
    print("\nspeed-up = time on 1 thread / time on 2 threads; numba2/tr2 > 1 means transpile is faster on 2 threads.")
    print("WRONG: the result differs from CPython's (Numba's prange does not make h[b] += 1 atomic).")


def load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


LOAD0 = load()

if __name__ == "__main__":
    main()
