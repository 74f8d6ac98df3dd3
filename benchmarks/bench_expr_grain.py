"""Where splitting an array expression over OpenMP threads starts to pay:
the data behind TR_EXPR_GRAIN in runtime_cpp/transpile_rt/expr.hpp.

    python benchmarks/bench_expr_grain.py          # ~20 s on 2 cores

Builds a small C++ program over the runtime headers with TR_EXPR_GRAIN=1
(so every size goes parallel) and times `out = a + b` (memory bound, the
cheapest expression) and `out = sqrt(a*a + b*b) * exp(-c)` (compute bound)
on float64 arrays of n elements, on 1 and 2 threads (TRANSPILE_NUM_THREADS,
read at every evaluation).  Prints the median time per evaluation and the
2-thread speed-up, for calls made back to back (OpenMP's idle thread still
spinning) and for single calls after 2 ms without work (the thread asleep:
waking it is part of the cost).  The grain is half the size below which 2
threads lose.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RUNTIME = os.path.join(HERE, "..", "runtime_cpp")

PROGRAM = r"""
#define TR_BOUNDSCHECK 1
#define TR_UNIT_PATHS 1
#define TR_PARALLEL_EXPR 1
#define TR_EXPR_GRAIN 1
#include "transpile_rt/array.hpp"
#include "transpile_rt/expr.hpp"
#include "transpile_rt/numpy/ufunc.hpp"
#include <stdio.h>
#include <time.h>

static double now() {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

// After 2 ms without work (the usual gap between two expressions of a
// program that does something else in between), libgomp's idle threads have
// stopped spinning and sleep: the time of one call then includes waking them.
template <class F> static double after_idle(F &&f) {
    double t[15];
    for (double &x : t) {
        timespec pause = {0, 2000000};
        nanosleep(&pause, nullptr);
        double t0 = now();
        f();
        x = now() - t0;
    }
    for (int i = 0; i < 15; ++i)
        for (int j = i + 1; j < 15; ++j)
            if (t[j] < t[i]) { double s = t[i]; t[i] = t[j]; t[j] = s; }
    return t[7];
}

template <class F> static double per_call(F &&f) {  // median of 7 batches of >= 5 ms
    int reps = 1;
    for (;;) {
        double t0 = now();
        for (int r = 0; r < reps; ++r) f();
        if (now() - t0 > 5e-3) break;
        reps *= 2;
    }
    double t[7];
    for (double &x : t) {
        double t0 = now();
        for (int r = 0; r < reps; ++r) f();
        x = (now() - t0) / reps;
    }
    for (int i = 0; i < 7; ++i)
        for (int j = i + 1; j < 7; ++j)
            if (t[j] < t[i]) { double s = t[i]; t[i] = t[j]; t[j] = s; }
    return t[3];
}

int main() {
    for (int64_t n = 1024; n <= (1 << 22); n *= 2) {
        int64_t shape[1] = {n};
        auto a = tr::empty<double, 1>(shape), b = tr::empty<double, 1>(shape), c = tr::empty<double, 1>(shape);
        auto out = tr::empty<double, 1>(shape);
        for (int64_t i = 0; i < n; ++i) a.data[i] = 0.5 + i % 7, b.data[i] = 1.0 / (1 + i % 5), c.data[i] = i % 3;
        for (int kind = 0; kind < 2; ++kind) {
            auto cheap = [&] { tr::assign(out, tr::binary<tr::op::add, double>(a, b)); };
            auto costly = [&] {
                tr::assign(out, tr::binary<tr::op::mul, double>(
                                    tr::unary<tr::uf::sqrt, double>(tr::binary<tr::op::add, double>(
                                        tr::binary<tr::op::mul, double>(a, a), tr::binary<tr::op::mul, double>(b, b))),
                                    tr::unary<tr::uf::exp, double>(tr::unary<tr::op::neg, double>(c))));
            };
            double t[2], idle[2];
            for (int nt = 1; nt <= 2; ++nt) {
                setenv("TRANSPILE_NUM_THREADS", nt == 1 ? "1" : "2", 1);
                t[nt - 1] = kind == 0 ? per_call(cheap) : per_call(costly);
                idle[nt - 1] = kind == 0 ? after_idle(cheap) : after_idle(costly);
            }
            printf("%-10s %9lld %12.2f %12.2f %8.2fx %12.2f %12.2f %8.2fx\n", kind == 0 ? "a+b" : "sqrt*exp",
                   (long long)n, t[0] * 1e6, t[1] * 1e6, t[0] / t[1], idle[0] * 1e6, idle[1] * 1e6, idle[0] / idle[1]);
        }
    }
}
"""


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "grain.cpp"), os.path.join(tmp, "grain")
        with open(src, "w") as f:
            f.write(PROGRAM)
        cxx = os.environ.get("CXX", "g++")
        subprocess.run([cxx, "-std=c++20", "-O3", "-march=native", "-fwrapv", "-fno-math-errno", "-fopenmp", "-w",
                        "-I", RUNTIME, src, "-o", exe], check=True)
        with open("/proc/loadavg") as f:
            load = " ".join(f.read().split()[:3])
        print(f"{os.cpu_count()} CPUs, load average {load}; float64, times per evaluation (medians)")
        print(f"{'':<20} {'back to back':^35} {'after 2 ms idle':^35}")
        print(f"{'expr':<10} {'n':>9} {'1 thr us':>12} {'2 thr us':>12} {'speed-up':>9}"
              f" {'1 thr us':>12} {'2 thr us':>12} {'speed-up':>9}")
        sys.stdout.flush()
        subprocess.run([exe], check=True)


if __name__ == "__main__":
    main()
