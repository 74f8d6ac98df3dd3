"""Time from client.submit of a function to its first result on a fresh
dask.distributed worker process: transpile's @jit, compiled here and
pickled with its compiled library, against Numba's @njit, which every
worker compiles itself.

    python benchmarks/bench_scale_out.py

Each measurement starts a new LocalCluster with one worker process and an
empty transpile cache, so nothing is warm on the worker."""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))

from scale_out_kernels import NUMBA, transpile_energy  # noqa: E402

RUNS = 3


def first_result(fn, x) -> tuple[float, object]:
    from dask.distributed import Client, LocalCluster

    env = {"TRANSPILE_CACHE_DIR": tempfile.mkdtemp(prefix="bench-worker-cache-")}
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                      env=env) as cluster, Client(cluster) as client:
        client.run(lambda: None)  # the worker is up
        data = client.scatter(x)
        t = time.perf_counter()
        result = client.submit(fn, data, pure=False).result()
        return time.perf_counter() - t, result


def main() -> None:
    x = np.random.default_rng(0).standard_normal((200, 1000))
    expected = transpile_energy.py_func(x)
    transpile_energy(x)  # compiled here: the pickle carries the library
    rows = [("transpile @jit (precompiled, pickled)", transpile_energy)]
    if NUMBA is not None:
        rows.append(("numba @njit (compiles on the worker)", NUMBA))
    for name, fn in rows:
        times = []
        for _ in range(RUNS):
            took, got = first_result(fn, x)
            assert np.allclose(got, expected, rtol=1e-12, atol=0)
            times.append(took)
        print(f"{name:40s} median {statistics.median(times) * 1e3:8.1f} ms  "
              f"(runs: {', '.join(f'{t * 1e3:.1f}' for t in times)})")
    if NUMBA is None:
        print("numba is not installed: pip install numba for the comparison")


if __name__ == "__main__":
    main()
