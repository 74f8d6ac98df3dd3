"""A real dask.distributed cluster: a scheduler and two worker processes
started here, each with an empty cache and no C++ compiler.  @jit functions
sent by reference and by value (a local function, cloudpickle) give
CPython's results and the workers compile nothing."""
from __future__ import annotations

import numpy as np
import pytest

from ..conftest import assert_same
from . import kernels as k

distributed = pytest.importorskip("distributed")


def test_local_cluster_workers_compile_nothing(tmp_path):
    arrays = [np.linspace(0.0, 1.0, n) for n in (7, 33, 100, 257)]
    poly = k.make_local()
    for a in arrays:  # compiled here, so the pickles carry the artifacts
        k.weighted_sum(a, 1.5)
        k.smooth(a)
        poly(a, 0.5)
    env = {"TRANSPILE_CACHE_DIR": str(tmp_path / "worker-cache"), "CXX": "/nonexistent/c++"}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  env=env) as cluster, distributed.Client(cluster) as client:
        jobs = [(f, a, *rest) for a in arrays for f, *rest in ((k.weighted_sum, 1.5), (k.smooth,), (poly, 0.5))]
        futures = [client.submit(k.call, *job, pure=False) for job in jobs]
        results = client.gather(futures)
        workers = client.run(lambda: __import__("transpile").compile_count())
    assert len(workers) == 2
    for (value, compiles, loaded), (f, *args) in zip(results, jobs):
        assert_same(value, f.py_func(*args))
        assert compiles == 0 and loaded >= 1
    assert set(workers.values()) == {0}


def test_threaded_scheduler_map_blocks():
    import time

    import dask
    import dask.array as da

    x = np.random.default_rng(1).standard_normal((8, 200_000))
    k.smooth(x[0])
    blocks = da.from_array(x, chunks=(1, 200_000))
    rows = blocks.map_blocks(lambda b: k.smooth(b[0])[None, :], dtype=np.float64)
    took = {}
    for threads in (1, 2):
        with dask.config.set(scheduler="threads", num_workers=threads):
            t = time.perf_counter()
            got = rows.compute()
            took[threads] = time.perf_counter() - t
        for r in range(x.shape[0]):
            assert_same(got[r], k.smooth.py_func(x[r]))
    assert k.smooth.overload_count == 1  # every block ran compiled code
    print(f"\nDask threaded scheduler, map_blocks: 1 thread {took[1] * 1e3:.1f} ms, 2 threads {took[2] * 1e3:.1f} ms "
          f"({took[1] / took[2]:.2f}x)")
