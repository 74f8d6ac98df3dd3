"""bench_core's loop kernels on a busy machine: the minimum CPU time per call
over interleaved rounds, for Numba's default, plain @jit and
@jit(jit_level="O1", boundscheck=False), on the same inputs.

Wall-time medians measure the scheduler when other work shares the cores;
the minimum of process time over many interleaved rounds is the figure least
disturbed by it.  Builds are optimized at once (TRANSPILE_TIERED=0).

    python benchmarks/bench_kernels_min.py [kernel ...]     BT_REPS=21 by default
"""
import copy
import os
import sys
import tempfile
import time

os.environ.setdefault("TRANSPILE_CACHE_DIR", tempfile.mkdtemp(prefix="transpile-bench-"))
os.environ.setdefault("TRANSPILE_TIERED", "0")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

import bench_core  # noqa: E402
from transpile import jit  # noqa: E402


def _calls_per_round(f, args) -> int:
    f(*args)
    t0 = time.perf_counter()
    f(*args)
    return max(1, int(0.02 / max(time.perf_counter() - t0, 1e-7)))


def main(names) -> None:
    rows = []
    for name, kernel, make_args, *_ in bench_core.kernel_cases():
        if names and name not in names:
            continue
        fns = {"numba": njit(kernel), "tp": jit(kernel), "tp_o1nobc": jit(jit_level="O1", boundscheck=False)(kernel)}
        # one set of arrays for all: with a copy each, where the copies landed in memory
        # (huge pages or not) moved single kernels by up to 20% (bench_hand_cpp.py)
        args = make_args(True)
        own = {k: args for k in fns}
        calls = {k: _calls_per_round(f, own[k]) for k, f in fns.items()}
        best = {k: float("inf") for k in fns}
        for _ in range(int(os.environ.get("BT_REPS", "21"))):
            for k, f in fns.items():
                t0 = time.process_time()
                for _ in range(calls[k]):
                    f(*own[k])
                best[k] = min(best[k], (time.process_time() - t0) / calls[k])
        rows.append(best)
        print(f"{name:12s} numba {best['numba'] * 1e3:8.2f} ms  @jit {best['tp'] * 1e3:8.2f} ms "
              f"({best['numba'] / best['tp']:.2f}x)  O1 nobc {best['tp_o1nobc'] * 1e3:8.2f} ms "
              f"({best['numba'] / best['tp_o1nobc']:.2f}x)", flush=True)
    for key, label in (("tp", "plain @jit"), ("tp_o1nobc", "O1, boundscheck=False")):
        g = np.exp(np.mean([np.log(b["numba"] / b[key]) for b in rows]))
        print(f"geomean speed vs Numba, {label}: {g:.2f}x")


if __name__ == "__main__":
    main(sys.argv[1:])
