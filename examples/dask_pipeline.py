"""A chunked computation over a Dask array with a @jit kernel.

    pip install "dask[distributed]" && python examples/dask_pipeline.py

The kernel is compiled once, here; Dask then runs it
  1. with its default threaded scheduler: compiled code that touches no
     Python object runs with the GIL released, so the chunks use every core;
  2. on a LocalCluster of worker processes: the pickled kernel carries its
     compiled library, so the workers compile nothing (each reports
     transpile.compile_count()).
Both results are checked against NumPy.
"""
import time

import numpy as np

import transpile
from transpile import jit


@jit
def smooth_energy(block):
    """Per row of a chunk: the energy of a first-order smoothed signal."""
    rows, cols = block.shape
    out = np.empty((rows, 1))
    for r in range(rows):
        prev = block[r, 0]
        acc = prev * prev
        for c in range(1, cols):
            prev = 0.75 * prev + 0.25 * block[r, c]
            acc += prev * prev
        out[r, 0] = acc
    return out


def reference(x: np.ndarray) -> np.ndarray:
    return np.concatenate([smooth_energy.py_func(x[i:i + 500]) for i in range(0, x.shape[0], 500)])


def main() -> None:
    import dask
    import dask.array as da
    from dask.distributed import Client, LocalCluster

    # chunks made where they are used (on the workers, in the cluster run): a
    # chunk shipped from here could arrive unaligned, which compiled code refuses
    chunks = da.random.default_rng(0).standard_normal((4_000, 1_000), chunks=(500, 1_000))
    x = chunks.compute(scheduler="sync")
    smooth_energy(x[:2])  # compile here, once

    expected = reference(x)
    energy = chunks.map_blocks(smooth_energy, chunks=(500, 1), dtype=np.float64)

    for workers in (1, 2):
        with dask.config.set(scheduler="threads", num_workers=workers):
            t = time.perf_counter()
            got = energy.compute()
            took = time.perf_counter() - t
        assert np.allclose(got, expected, rtol=1e-12, atol=0)
        print(f"threaded scheduler, {workers} thread(s): {took * 1e3:7.1f} ms")

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        t = time.perf_counter()
        got = energy.compute()
        took = time.perf_counter() - t
        compiles = client.run(transpile.compile_count)
    assert np.allclose(got, expected, rtol=1e-12, atol=0)
    print(f"LocalCluster, 2 worker processes: {took * 1e3:7.1f} ms, compiles per worker: {compiles}")
    print("results match NumPy")


if __name__ == "__main__":
    main()
