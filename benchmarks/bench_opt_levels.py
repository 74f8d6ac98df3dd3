"""The C++ optimization level: compile time and run time of bench_core's loop
kernels built at -O0, -O1, -O2 and -O3, to choose build/toolchain.py's
OPT_LEVELS (the optimized build of each jit_level, and the quick build that
tiered compilation runs first).

    python benchmarks/bench_opt_levels.py                  # default @jit (jit_level O0, bounds checks on)
    python benchmarks/bench_opt_levels.py --jit-level O1   # @jit(jit_level="O1", boundscheck=False)
    python benchmarks/bench_opt_levels.py --quick          # fewer repeats

Each kernel is compiled once per level (the same generated C++; only the -O
flag differs), its result checked against CPython's on the small inputs, and
its steady-state time per call measured on the full inputs, all levels timed
in interleaved rounds (medians).  Compile time is the C++ compiler's alone
(transpile.timing's "compile" phase), not translation.
"""
from __future__ import annotations

import argparse
import copy
import os
import statistics
import sys
import time

os.environ["TRANSPILE_TIERED"] = "0"  # one build per level, compiled on the first call

import bench_core as B  # noqa: E402 - its own temporary cache, kernels and helpers

from transpile import jit, timing  # noqa: E402
from transpile.build import toolchain  # noqa: E402

LEVELS = ("-O0", "-O1", "-O2", "-O3")


def measure(jit_level: str, repeat: int, target: float) -> None:
    options = {"jit_level": jit_level} if jit_level == "O0" else {"jit_level": jit_level, "boundscheck": False}
    slot = (jit_level, toolchain.OPTIMIZED)
    chosen = toolchain.OPT_LEVELS[slot]
    rows, compiles, speedups = [], {lv: [] for lv in LEVELS}, {lv: [] for lv in LEVELS}
    for name, kernel, make_args, size, _small, _np in B.kernel_cases():
        print(f"  {name} ...", end="", flush=True)
        small, full = make_args(False), make_args(True)
        expected = kernel(*copy.deepcopy(small))
        jobs, compile_s = {}, {}
        for level in LEVELS:
            toolchain.OPT_LEVELS[slot] = (level,)  # a new cache key: this level compiles on the first call
            fn = jit(**options)(kernel)
            try:
                got = fn(*copy.deepcopy(small))
                compile_s[level] = timing.last().get("compile")
                if not B.same(got, expected):
                    raise AssertionError(f"wrong result at {level}: {got!r:.60}")
                jobs[level] = (fn, copy.deepcopy(full))
            except Exception as exc:  # noqa: BLE001
                print(f" {level} FAILED: {B.short_reason(exc)}", end="")
        toolchain.OPT_LEVELS[slot] = chosen
        t = B.interleaved(jobs, repeat, target)
        row = [name, size]
        for level in LEVELS:
            c, r = compile_s.get(level), t.get(level)
            row += [B.fmt_time(c) if c else "FAILED", B.fmt_time(r) if r else "FAILED"]
            if c:
                compiles[level].append(c)
            if r and t.get("-O3"):
                speedups[level].append(t["-O3"] / r)
        rows.append(row)
        print(" done")
    print()
    headers = ["kernel", "size"] + [f"{lv} {what}" for lv in LEVELS for what in ("compile", "run")]
    B.table(headers, rows, f"@jit({', '.join(f'{k}={v!r}' for k, v in options.items())}); compile: the C++ "
            "compiler's time for the kernel's module; run: median time per call on the full inputs.")
    print("summary (median compile time; geometric mean of run speed relative to -O3, > 1: faster than -O3):")
    for level in LEVELS:
        c = statistics.median(compiles[level]) if compiles[level] else None
        g = B.geomean(speedups[level])
        print(f"  {level}: compile {B.fmt_time(c)}, speed vs -O3 {g:.2f}" if g else f"  {level}: compile "
              f"{B.fmt_time(c)}, speed n/a")
    print(f"current choice for jit_level {jit_level}: optimized {' '.join(chosen)}, quick "
          f"{' '.join(toolchain.OPT_LEVELS[jit_level, toolchain.QUICK])}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--jit-level", choices=["O0", "O1"], default="O0")
    ap.add_argument("--quick", action="store_true", help="fewer repeats (noisier)")
    opts = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
    t0 = time.perf_counter()
    try:
        measure(opts.jit_level, 3 if opts.quick else 7, 0.03 if opts.quick else 0.1)
    finally:
        import shutil

        shutil.rmtree(B._OWN_CACHE, ignore_errors=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}; total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
