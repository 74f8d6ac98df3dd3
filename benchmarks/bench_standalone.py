"""Call overhead of a standalone module (`transpile build --standalone`,
pybind11 glue) against the same functions through @jit's bridge, measured
in one process (medians of timeit runs, ns per call), and the build's cost.
The architecture keeps @jit on its own bridge because of this ratio
(docs/architecture.md, "The split between generated code and the bridge").

    python benchmarks/bench_standalone.py
"""
from __future__ import annotations

import importlib
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

import numpy as np

KERNELS = '''\
from transpile import jit


# transpile: export add(float, float)
@jit
def add(x, y):
    return x + y


# transpile: export first(float64[::1])
@jit
def first(a):
    return a[0]
'''


def ns_per_call(stmt, namespace, number=200_000, repeat=7) -> float:
    return statistics.median(timeit.repeat(stmt, globals=namespace, number=number, repeat=repeat)) / number * 1e9


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-standalone-"))
    (work / "bench_sa_kernels.py").write_text(KERNELS)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "transpile", "build", "--standalone", "bench_sa_kernels.py", "-o", "out"],
                   cwd=work, check=True, capture_output=True)
    build = time.perf_counter() - t0
    sys.path[:0] = [str(work / "out"), str(work)]
    standalone = importlib.import_module("bench_sa_kernels")  # the extension (out/ comes first)
    sys.path.remove(str(work / "out"))
    spec = importlib.util.spec_from_file_location("bench_sa_jit", work / "bench_sa_kernels.py")
    jitted = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(jitted)
    a = np.arange(8.0)
    jitted.add(1.0, 2.0), jitted.first(a)  # compiled before timing
    rows = []
    for label, call in (("add(1.0, 2.0)", "m.add(1.0, 2.0)"), ("first(a)", "m.first(a)")):
        sa = ns_per_call(call, {"m": standalone, "a": a})
        jt = ns_per_call(call, {"m": jitted, "a": a})
        py = ns_per_call(call.replace("m.", "p."), {"p": type("P", (), {
            "add": staticmethod(jitted.add.py_func), "first": staticmethod(jitted.first.py_func)}), "a": a})
        rows.append((label, sa, jt, py))
    print(f"standalone build (translate + one pybind11 compile): {build:.1f} s")
    print(f"{'call':<16}{'standalone':>12}{'@jit':>10}{'CPython':>10}{'standalone/@jit':>18}")
    for label, sa, jt, py in rows:
        print(f"{label:<16}{sa:>10.0f}ns{jt:>8.0f}ns{py:>8.0f}ns{sa / jt:>17.2f}x")


if __name__ == "__main__":
    main()
