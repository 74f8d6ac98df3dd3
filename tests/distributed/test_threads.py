"""Compiled code that touches no Python object runs with the GIL released:
two threads calling a kernel at once give CPython's results, and while one
thread is inside the kernel another keeps running Python.  Code that runs
Python (a JIT Fallback statement) keeps the GIL and stays correct under
threads.  The 2-thread speedup is reported, not asserted."""
from __future__ import annotations

import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor

from ..conftest import assert_same
from . import kernels as k


def _calibrated(f, seconds: float) -> int:
    """An n for which f(n, 1.5) runs about `seconds`."""
    f(10, 1.5)  # compiled (or loaded) first
    n = 200_000
    while True:
        t = time.perf_counter()
        f(n, 1.5)
        took = time.perf_counter() - t
        if took > 0.05:
            return int(n * seconds / took)
        n *= 4


def _longest_python_pause(f, n) -> tuple:
    """Runs f(n, 1.5) in a thread while this thread ticks: the longest gap
    between ticks, and how long the call took."""
    done = threading.Event()
    out = {}

    def worker():
        t = time.perf_counter()
        out["value"] = f(n, 1.5)
        out["took"] = time.perf_counter() - t
        done.set()

    ticks = [time.perf_counter()]
    th = threading.Thread(target=worker)
    th.start()
    while not done.is_set():
        ticks.append(time.perf_counter())
    th.join()
    ticks.append(time.perf_counter())
    return max(b - a for a, b in zip(ticks, ticks[1:])), out["took"]


def test_kernel_releases_the_gil_and_python_code_keeps_it():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the fallback report
        n = _calibrated(k.spin, 0.4)
        gap, took = _longest_python_pause(k.spin, n)
        assert k.spin.overload_count == 1 and k.spin.fallbacks() == []
        # with the GIL held the ticking thread would stop for the whole call
        assert took > 0.2 and gap < took / 2, (gap, took)
        n = _calibrated(k.spin_with_fallback, 0.4)
        gap, took = _longest_python_pause(k.spin_with_fallback, n)
        # the median's statement runs as Python, and so does `return s + m` (m holds its value, of a
        # type only known at run time); the loop before them is compiled
        text = open(k.__file__).read().splitlines()
        median = next(i + 1 for i, t in enumerate(text) if "statistics.median([s," in t)
        loop = median - 1  # the loop's body, just above
        lines = [f["line"] for f in k.spin_with_fallback.fallbacks()]
        assert k.spin_with_fallback.overload_count == 1 and lines[0] == median and loop not in lines, lines
        assert took > 0.2 and gap > took / 2, (gap, took)


def test_two_threads_concurrently():
    n = _calibrated(k.spin, 0.5)
    args = [(n, 1.5), (n // 2, 2.25), (n, 0.75), (n // 3, 3.5)]
    expected = [k.spin.py_func(m, x) for m, x in args[1:2]]  # CPython is slow: one reference run
    t = time.perf_counter()
    k.spin(n, 1.5)
    one = time.perf_counter() - t
    with ThreadPoolExecutor(2) as ex:
        t = time.perf_counter()
        results = list(ex.map(lambda a: k.spin(*a), args[:1] * 2))
        two = time.perf_counter() - t
        concurrent = list(ex.map(lambda a: k.spin(*a), args))
    assert results[0] == results[1] == k.spin(n, 1.5)
    assert_same(concurrent[1], expected[0])
    assert concurrent == [k.spin(*a) for a in args]
    print(f"\nGIL released: one call {one:.3f} s, two calls on two threads {two:.3f} s "
          f"({2 * one / two:.2f}x the throughput of one thread)")


def test_code_running_python_keeps_the_gil_and_stays_correct():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the fallback report
        args = [(20_000, 1.5), (30_000, 0.5)] * 3
        with ThreadPoolExecutor(2) as ex:
            got = list(ex.map(lambda a: k.spin_with_fallback(*a), args))
    for g, a in zip(got, args):
        assert_same(g, k.spin_with_fallback.py_func(*a))
