"""Ray's local cluster (ray.init with local worker processes, each with an
empty cache and no C++ compiler): @jit functions sent by reference and by
value give CPython's results and the workers compile nothing."""
from __future__ import annotations

import numpy as np
import pytest

from ..conftest import assert_same
from . import kernels as k

ray = pytest.importorskip("ray")


def test_ray_local_cluster_workers_compile_nothing(tmp_path):
    arrays = [np.linspace(0.0, 1.0, n) for n in (9, 40)]
    for a in arrays:  # Ray hands workers read-only arrays (its object store): the specialization to ship
        a.setflags(write=False)
    poly = k.make_local()
    for a in arrays:  # compiled here, so the pickles carry the artifacts
        k.weighted_sum(a, 1.5)
        poly(a, 0.5)
    env = {"TRANSPILE_CACHE_DIR": str(tmp_path / "worker-cache"), "CXX": "/nonexistent/c++"}
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, runtime_env={"env_vars": env})
    try:
        call = ray.remote(k.call)
        jobs = [(f, a, *rest) for a in arrays for f, *rest in ((k.weighted_sum, 1.5), (poly, 0.5))]
        results = ray.get([call.remote(*job) for job in jobs])
    finally:
        ray.shutdown()
    for (value, compiles, loaded), (f, *args) in zip(results, jobs):
        assert_same(value, f.py_func(*args))
        assert compiles == 0 and loaded >= 1
