"""bench_core's loop kernels against hand-written C++ (benchmarks/hand_kernels.cpp):
@jit(boundscheck=False) at jit_level O0 and O1, and Numba's @njit, each
divided by the hand C++ time, on the same inputs in interleaved rounds
(medians of CPU time per call: on a shared machine wall time mostly measures
the scheduler; none of these kernels starts threads).

    python benchmarks/bench_hand_cpp.py [--quick] [kernel ...]
    python benchmarks/bench_core.py --only handcpp      # the same, as bench_core's section (d)

All implementations are timed on the very same arrays (n-body's positions
move on between calls, alike for all): with a copy each, where the copies
happened to land in memory (huge pages or not) moved single kernels by up to
20% in either direction, the same for the same machine code.

Before timing, the hand C++ result must equal CPython's on the small inputs
and both transpile builds' results on the full inputs exactly (bit for bit:
the C++ is built with -ffp-contract=off, see hand_cpp.py); Numba's must be
equal within rtol=1e-9.  Builds are optimized at once (TRANSPILE_TIERED=0).
"""
from __future__ import annotations

import copy
import math
import os
import sys
import time

import numpy as np

import hand_cpp

LABELS = ("C++", "O0,nobc", "O1,nobc", "Numba")


def identical(got, expected) -> bool:
    """Equal values of the same kind: arrays of one dtype and shape, element for element (NaN equal to NaN)."""
    if isinstance(expected, np.ndarray):
        return (isinstance(got, np.ndarray) and got.dtype == expected.dtype and got.shape == expected.shape
                and bool(np.array_equal(got, expected, equal_nan=expected.dtype.kind in "fc")))
    if isinstance(expected, float):
        return isinstance(got, float) and (got == expected or (math.isnan(got) and math.isnan(expected)))
    return type(got) is type(expected) and got == expected


def section_hand_cpp(B, repeat: int, target: float, names=()) -> None:
    """B: the bench_core module (its kernel cases, timing and table helpers)."""
    print("(d) Loop kernels against hand-written C++ (benchmarks/hand_kernels.cpp, g++ -O3 -march=native "
          "-ffp-contract=off),")
    print("    median CPU seconds per call, interleaved; ratio = time / hand C++ time (> 1: slower than C++)\n")
    from transpile import jit

    hand = hand_cpp.load()
    tiered = os.environ.get("TRANSPILE_TIERED")
    os.environ["TRANSPILE_TIERED"] = "0"
    rows, ratios, failures = [], {label: [] for label in LABELS[1:]}, []
    try:
        for name, kernel, make_args, size, _small, _np in B.kernel_cases():
            if names and name not in names:
                continue
            print(f"  {name} ...", end="", flush=True)
            t_start = time.perf_counter()
            small, full = make_args(False), make_args(True)
            fns = {"C++": hand[name],
                   "O0,nobc": jit(jit_level="O0", boundscheck=False)(kernel),
                   "O1,nobc": jit(jit_level="O1", boundscheck=False)(kernel)}
            if B.NUMBA:
                fns["Numba"] = B.njit(kernel)
            jobs = {}
            try:
                expected = kernel(*copy.deepcopy(small))
                got = fns["C++"](*copy.deepcopy(small))
                if not identical(got, expected):
                    raise AssertionError(f"hand C++ differs from CPython on the small inputs: {got!r:.80}")
                reference = fns["C++"](*copy.deepcopy(full))
            except Exception as exc:  # noqa: BLE001
                failures.append(f"{name} / C++: {B.short_reason(exc)}")
                print(" FAILED")
                continue
            timed = copy.deepcopy(full)  # one set of arrays for every implementation (see the docstring)
            jobs["C++"] = (fns["C++"], timed)
            for label, fn in fns.items():
                if label == "C++":
                    continue
                try:
                    fn(*copy.deepcopy(small))  # compiles
                    got = fn(*copy.deepcopy(full))
                    ok = B.same(got, reference) if label == "Numba" else identical(got, reference)
                    if not ok:
                        raise AssertionError(f"differs from hand C++ on the full inputs: {got!r:.80}")
                    jobs[label] = (fn, timed)
                except Exception as exc:  # noqa: BLE001
                    failures.append(f"{name} / {label}: {B.short_reason(exc)}")
            t = B.interleaved(jobs, repeat, target, time.process_time)
            row = [name, size, B.fmt_time(t["C++"])]
            for label in LABELS[1:]:
                r = t[label] / t["C++"] if label in t else None
                if r:
                    ratios[label].append(r)
                row += [B.fmt_time(t.get(label)) if label in t else "FAILED", B.fmt_ratio(r)]
            rows.append(row)
            print(f" {time.perf_counter() - t_start:.1f} s")
    finally:
        if tiered is None:
            os.environ.pop("TRANSPILE_TIERED", None)
        else:
            os.environ["TRANSPILE_TIERED"] = tiered
    print()
    if rows:
        headers = ["kernel", "size", "hand C++"] + [h for label in LABELS[1:] for h in (label, "ratio")]
        B.table(headers, rows, "O0,nobc / O1,nobc: transpile @jit(jit_level=..., boundscheck=False); "
                "Numba: @njit (n/a when not installed); ratio: that column's time / hand C++'s.")
        for label in LABELS[1:]:
            g = B.geomean(ratios[label])
            if g is not None:
                slow = sum(r > 1.1 for r in ratios[label])
                print(f"  {label}: geometric mean of time / hand C++ {g:.2f} over {len(ratios[label])} kernels, "
                      f"{slow} more than 10% slower")
    for f in failures:
        print(f"  FAILED: {f}")
    print()


def main(argv) -> None:
    quick = "--quick" in argv
    names = [a for a in argv if not a.startswith("--")]
    import bench_core as B

    print(f"load average before: {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
    try:
        section_hand_cpp(B, 3 if quick else 7, 0.03 if quick else 0.1, names)
    finally:
        import shutil

        shutil.rmtree(B._OWN_CACHE, ignore_errors=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
