"""What a compiled call into Python costs (library/python_calls.py: the
function looked up through sys.modules at each call, its result checked):
a loop calling cmath.sqrt and np.linalg.det, undecorated CPython against
@jit, as the minimum wall time per call over rounds.

    python benchmarks/bench_python_calls.py [rounds]     (default 5)
"""
import cmath
import os
import sys
import tempfile
import time

os.environ.setdefault("TRANSPILE_CACHE_DIR", tempfile.mkdtemp(prefix="transpile-bench-"))
os.environ.setdefault("TRANSPILE_TIERED", "0")

import numpy as np  # noqa: E402

from transpile import jit  # noqa: E402


def dets(a, n):
    s = 0.0
    for i in range(n):
        s += np.linalg.det(a)
    return s


def roots(z, n):
    s = 0j
    for i in range(n):
        s += cmath.sqrt(z + i)
    return s


def main(rounds: int) -> None:
    print(f"calls into Python from a compiled loop, min of {rounds} rounds, load {os.getloadavg()[0]:.1f}")
    for name, fn, args in (("np.linalg.det, 2x2", dets, (np.eye(2), 20_000)),
                           ("cmath.sqrt", roots, (1j, 200_000))):
        compiled = jit(fn, fullgraph=True)
        assert compiled(*args) == fn(*args)
        best = {}
        for _ in range(rounds):
            for side, f in (("cpython", fn), ("transpile", compiled)):
                t0 = time.perf_counter()
                f(*args)
                best[side] = min(best.get(side, 1e9), (time.perf_counter() - t0) / args[1])
        print(f"  {name:20s} cpython {best['cpython'] * 1e9:8.1f} ns/call   transpile "
              f"{best['transpile'] * 1e9:8.1f} ns/call")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
