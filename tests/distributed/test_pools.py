"""@jit functions in process pools: multiprocessing.Pool (spawn and fork)
and ProcessPoolExecutor.  Workers start with an empty cache and no C++
compiler: results equal CPython's and no worker compiles anything, because
the pickled function carries its compiled specializations."""
from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

from ..conftest import assert_same
from . import kernels as k

ARRAYS = [np.linspace(0.0, 1.0, n) for n in (5, 17, 64)]


def _warm():
    """Compiles in the parent, so the pickles carry the artifacts."""
    for a in ARRAYS:
        k.weighted_sum(a, 3.0)
        k.smooth(a)


def _check(results):
    for (value, compiles, loaded), (f, a, *rest) in zip(results, _jobs()):
        assert_same(value, f.py_func(a, *rest))
        assert compiles == 0 and loaded >= 1


def _jobs():
    return [(k.weighted_sum, a, 3.0) for a in ARRAYS] + [(k.smooth, a) for a in ARRAYS]


def _run(job):
    f, *args = job
    return k.call(f, *args)


@pytest.mark.parametrize("method", ["spawn", "fork"])
def test_multiprocessing_pool(method):
    _warm()
    with multiprocessing.get_context(method).Pool(2, initializer=k.fresh_worker) as pool:
        _check(pool.map(_run, _jobs()))


def test_process_pool_executor():
    _warm()
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn"), initializer=k.fresh_worker) as ex:
        _check(list(ex.map(_run, _jobs())))
