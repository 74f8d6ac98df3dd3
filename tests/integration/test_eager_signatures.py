"""signatures=[...] compile at decoration, several at once (eager.py): their
C++ compilers run in parallel, each specialization is registered once, and
the results match CPython's."""
from __future__ import annotations

import threading

import numpy as np

from transpile import compile_count, jit
from transpile.build import toolchain

from ..conftest import assert_same


def scaled_sum(a, k):
    s = 0
    for i in range(a.shape[0]):
        s += a[i] * k
    return s


def test_signatures_compile_in_parallel_at_decoration(monkeypatch, tmp_path):
    monkeypatch.setenv("TRANSPILE_CACHE_DIR", str(tmp_path / "cache"))  # nothing cached: both compile
    monkeypatch.setenv("TRANSPILE_NUM_THREADS", "2")
    both_running = threading.Barrier(2, timeout=120)  # broken unless two compilers run at the same time
    compile_shared = toolchain.compile_shared

    def together(*args, **kwargs):
        both_running.wait()
        return compile_shared(*args, **kwargs)

    monkeypatch.setattr(toolchain, "compile_shared", together)
    before = compile_count()
    f = jit(signatures=["float64[:], float64", "int64[:], int64"])(scaled_sum)
    assert compile_count() - before == 2
    assert not both_running.broken
    assert len(f.signatures) == 2
    monkeypatch.setattr(toolchain, "compile_shared", compile_shared)
    for a, k in ((np.arange(5.0), np.float64(1.5)), (np.arange(5), np.int64(3))):
        assert_same(f(a, k), scaled_sum(a, k))
    assert compile_count() - before == 2  # the calls ran what decoration built
