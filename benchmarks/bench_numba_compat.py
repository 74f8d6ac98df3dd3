"""The Numba drop-in's costs: @vectorize / @guvectorize calls on 10^6
elements against the same computation in plain NumPy, and 10^5 compiled
print() lines (into an io.StringIO sys.stdout) against CPython's.  With
Numba installed (the `bench` extra), `--numba` runs the same kernels under
Numba in a second process.

    python benchmarks/bench_numba_compat.py [--numba]
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from timing import median_time  # noqa: E402


def measure() -> dict:
    import numba_compat_kernels as k

    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(10**6), rng.standard_normal(10**6)
    rows = rng.standard_normal((10**5, 10))
    values = rng.standard_normal(10**5)
    k.soft_max(x[:10], y[:10]), k.inner(rows[:2], rows[:2]), k.capture(k.report, values[:3])  # compile
    out = {
        "vectorize soft_max, 1e6": median_time(k.soft_max, x, y),
        "guvectorize inner, 1e5 x 10": median_time(k.inner, rows, rows),
        "print, 1e5 lines": median_time(k.capture, k.report, values, repeat=3),
    }
    if os.environ.get("NUMBA") != "1":
        out["numpy: same soft_max"] = median_time(lambda a, b: np.logaddexp(a, b), x, y)
        out["numpy: same inner"] = median_time(lambda a, b: np.einsum("ij,ij->i", a, b), rows, rows)
        out["cpython: same prints"] = median_time(k.capture, k.report.py_func, values, repeat=3)
    return out


def main() -> None:
    if "--child" in sys.argv:
        print(json.dumps(measure()))
        return
    results = {"transpile": measure()}
    if "--numba" in sys.argv:
        env = dict(os.environ, NUMBA="1")
        proc = subprocess.run([sys.executable, __file__, "--child"], env=env, capture_output=True, text=True)
        results["numba"] = json.loads(proc.stdout) if proc.returncode == 0 else {"error": proc.stderr[-300:]}
    for who, times in results.items():
        for name, seconds in times.items():
            print(f"{who:10s} {name:32s} {seconds * 1e3:9.2f} ms" if isinstance(seconds, float) else f"{who} {seconds}")


if __name__ == "__main__":
    main()
