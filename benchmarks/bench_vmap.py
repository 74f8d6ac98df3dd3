"""transpile.vmap on a pairwise distance matrix (n x m points in 3-D):
vmap(vmap(dist)) against the Python-loop reference (np.stack of the calls,
what vmap's result is defined as), plain NumPy broadcasting, and jax.vmap
when JAX is installed.  Two per-pair functions: NumPy expressions
(np.sqrt(np.sum((x - y) ** 2)), allocating per pair) and an explicit loop.

Minimum CPU time per call over interleaved rounds (the figure least disturbed
on a shared machine); the first call's time (the driver's C++ compile) is
printed separately.  Builds are optimized at once (TRANSPILE_TIERED=0).

    python benchmarks/bench_vmap.py [n]        n=300 by default, BT_REPS=7
"""
import math
import os
import sys
import tempfile
import time

os.environ.setdefault("TRANSPILE_CACHE_DIR", tempfile.mkdtemp(prefix="transpile-bench-"))
os.environ.setdefault("TRANSPILE_TIERED", "0")

import numpy as np  # noqa: E402

from transpile import jit, vmap  # noqa: E402


def dist(x, y):
    return np.sqrt(np.sum((x - y) ** 2))


def dist_loop(x, y):
    s = 0.0
    for k in range(x.shape[0]):
        d = x[k] - y[k]
        s += d * d
    return math.sqrt(s)


def python_pairwise(f, a, b):
    return np.stack([np.stack([f(x, y) for y in b]) for x in a])


def numpy_pairwise(a, b):
    return np.sqrt(((a[:, None, :] - b[None, :, :]) ** 2).sum(-1))


def pairwise(f):
    return vmap(vmap(f, in_axes=(None, 0)), in_axes=(0, None))


def _best(fns: dict, args, reps: int) -> dict:
    best = {k: float("inf") for k in fns}
    for _ in range(reps):
        for k, f in fns.items():
            t0 = time.process_time()
            f(*args)
            best[k] = min(best[k], time.process_time() - t0)
    return best


def main(n: int) -> None:
    rng = np.random.default_rng(0)
    a, b = rng.random((n, 3)), rng.random((n, 3))
    fns = {
        "vmap(dist)": pairwise(dist),
        "vmap(@jit(O1) dist)": pairwise(jit(jit_level="O1")(dist)),
        "vmap(dist_loop)": pairwise(dist_loop),
        "vmap(@jit(O1, no bc) dist_loop)": pairwise(jit(jit_level="O1", boundscheck=False)(dist_loop)),
        "python loop (dist)": lambda a, b: python_pairwise(dist, a, b),
        "python loop (dist_loop)": lambda a, b: python_pairwise(dist_loop, a, b),
        "numpy broadcasting": numpy_pairwise,
    }
    try:
        import jax

        jax_f = jax.jit(jax.vmap(jax.vmap(lambda x, y: jax.numpy.sqrt(jax.numpy.sum((x - y) ** 2)), (None, 0)),
                                 (0, None)))
        fns["jax.vmap (jit)"] = lambda a, b: np.asarray(jax_f(a, b))
    except ImportError:
        print("jax is not installed: no jax.vmap column")
    expected = numpy_pairwise(a, b)
    for k, f in fns.items():
        t0 = time.perf_counter()
        got = f(a, b)
        if k.startswith("vmap"):
            print(f"first call of {k:32s} {time.perf_counter() - t0:6.2f} s (compiles the driver)")
        np.testing.assert_allclose(got, expected, rtol=1e-12)
    best = _best(fns, (a, b), int(os.environ.get("BT_REPS", "7")))
    base = best["python loop (dist)"]
    print(f"\npairwise distances, {n} x {n} points in 3-D; min CPU time per call, speed vs the Python loop of dist")
    for k, t in best.items():
        print(f"{k:32s} {t * 1e3:10.2f} ms   {base / t:8.1f}x   ({t / best['numpy broadcasting']:.2f}x numpy's time)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
