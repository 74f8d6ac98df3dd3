"""Timing helpers shared by the benchmark scripts: medians, never means (the
machines are shared and noisy)."""
from __future__ import annotations

import statistics
import time


def median_time(fn, *args, repeat=7):
    """Median wall time of fn(*args) over `repeat` runs, in seconds."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)
