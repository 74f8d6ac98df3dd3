"""Capture modes side by side (issue 16), as MindSpore's jit table: for each
mode, the time to prepare (first call: capture, translate, C++ build, load;
each mode in its own empty cache) and to run 1000 calls, for the tutorial's
a*b+c cases and a conv+bn+relu block written with NumPy operations.  The
capture step alone (source -> HIR, bytecode -> HIR, one traced call) is
timed too, since the C++ build is the same work in every mode.

    python3 benchmarks/bench_capture.py
"""
from __future__ import annotations

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from benchmarks.timing import median_time  # noqa: E402


def abc(a, b, c):
    return a * b + c


def conv_bn_relu(x, w, gamma, beta, mean, var):
    y = w[0] * x[:-2] + w[1] * x[1:-1] + w[2] * x[2:]
    y = (y - mean) / np.sqrt(var + 1e-5) * gamma + beta
    return np.maximum(y, 0.0)


CASES = [
    ("a*b+c arrays", abc, (np.ones(1000), np.ones(1000), np.ones(1000))),
    ("a*b+c scalars", abc, (2.0, 3.0, 4.0)),
    ("a*b+c mixed", abc, (np.ones(1000), 2.0, 1)),
    ("conv+bn+relu", conv_bn_relu, (np.random.default_rng(0).standard_normal(4096), np.array([0.25, 0.5, 0.25]),
                                    1.5, 0.1, 0.05, 0.9)),
]
MODES = ("ast", "bytecode", "trace")


def capture_time(fn, args, mode) -> float:
    from transpile.frontend import _HIR_CACHE, function_hir
    from transpile.frontend.bytecode import source as bytecode_source
    from transpile.frontend.trace import traced_function

    def once():
        _HIR_CACHE.clear()
        bytecode_source._CACHE.clear()
        if mode == "trace":
            function_hir(traced_function(fn, args), "ast")
        else:
            function_hir(fn, mode)
    return median_time(once, repeat=5)


def main() -> None:
    from transpile import jit

    print(f"{'case':16} {'mode':9} {'capture ms':>10} {'prepare s':>10} {'1000 runs ms':>13} {'python 1000 ms':>15}")
    for label, fn, args in CASES:
        python_ms = median_time(lambda: [fn(*args) for _ in range(1000)], repeat=5) * 1e3
        for mode in MODES:
            os.environ["TRANSPILE_CACHE_DIR"] = tempfile.mkdtemp(prefix=f"transpile-bench-capture-{mode}-")
            f = jit(fn, capture_mode=mode, fullgraph=True)
            t0 = time.perf_counter()
            f(*args)
            prepare = time.perf_counter() - t0
            run_ms = median_time(lambda: [f(*args) for _ in range(1000)], repeat=5) * 1e3
            cap_ms = capture_time(fn, args, mode) * 1e3
            print(f"{label:16} {mode:9} {cap_ms:10.2f} {prepare:10.2f} {run_ms:13.2f} {python_ms:15.2f}")


if __name__ == "__main__":
    main()
