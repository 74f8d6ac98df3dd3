"""Issue 13: ODE solvers taking the right-hand side as an argument
(benchmarks/ode_kernels.py: Euler, midpoint, RK4 on a scalar function,
10^6 steps), compiled by transpile and by Numba from the same source and
run side by side in one process.  Numba gets the right-hand side as an
njit function (its first-class function support); transpile gets the
@jit function (a plain function gives the same code).  Reported: the median run
time (runs interleaved across the compilers, so each sees the same load),
the ratio Numba / transpile (above 1: transpile faster), the same for the
process's CPU time (steadier where the machine is shared), and the first
call's time (compiling solver and right-hand side, then running); and
which compilers give CPython's values bit for bit.

    python benchmarks/bench_ode.py [--steps N] [--repeat R]
"""
from __future__ import annotations

import os
import statistics
import sys
import time

import numpy as np

# Steady-state speed: each specialization is compiled optimized at once, not
# first run on a quick build while the optimized one compiles (build/tiers.py).
os.environ.setdefault("TRANSPILE_TIERED", "0")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import ode_kernels as k  # noqa: E402

CONFIGS = {  # transpile's options: its defaults, and Numba's (no bounds checks, full optimization)
    "transpile": {},
    "transpile O1 nobc": {"jit_level": "O1", "boundscheck": False},
}


def timed(fn, *args) -> tuple:
    """(wall, CPU) seconds of one call: on a shared, oversubscribed machine the
    process's CPU time is the steadier of the two."""
    w0, c0 = time.perf_counter(), time.process_time()
    fn(*args)
    return time.perf_counter() - w0, time.process_time() - c0


def main() -> None:
    import numba

    import transpile

    steps = int(sys.argv[sys.argv.index("--steps") + 1]) if "--steps" in sys.argv else 10**6
    repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else 11
    tspan = (0.0, 2.0)
    makers = {name: (lambda f, o=opts: transpile.jit(f, cache=False, **o)) for name, opts in CONFIGS.items()}
    makers["numba"] = numba.njit
    print(f"{steps} steps, median of {repeat} runs interleaved across compilers, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'solver':10s} {'rhs':13s} {'compiler':18s} {'first call':>11s} {'median run':>11s} {'numba/this':>10s} "
          f"{'median CPU':>11s} {'numba/this':>10s}")
    for solver in k.SOLVERS:
        for rhs in k.RHS:
            calls, first, runs = {}, {}, {}
            reference = np.empty(steps + 1)
            solver(rhs, tspan, 1.0, steps, np.empty(steps + 1), reference)  # CPython's values
            exact = []
            for name, make in makers.items():
                s, f = make(solver), make(rhs)
                t, y = np.empty(steps + 1), np.empty(steps + 1)
                calls[name] = (s, f, t, y)
                first[name] = timed(s, f, tspan, 1.0, steps, t, y)[0]  # compiles both, then runs
                if np.array_equal(y, reference):
                    exact.append(name)
                else:
                    print(f"  {name}: {np.count_nonzero(y != reference)} of {steps + 1} values differ from CPython's "
                          f"(max relative difference {np.max(np.abs(y - reference) / np.abs(reference)):.2g})")
                runs[name] = []
            for _ in range(repeat):  # interleaved: every compiler sees the same machine load
                for name, (s, f, t, y) in calls.items():
                    runs[name].append(timed(s, f, tspan, 1.0, steps, t, y))
            wall = {name: statistics.median(w for w, _ in r) for name, r in runs.items()}
            cpu = {name: statistics.median(c for _, c in r) for name, r in runs.items()}
            for name in calls:
                print(f"{solver.__name__:10s} {rhs.__name__:13s} {name:18s} {first[name] * 1e3:9.1f} ms "
                      f"{wall[name] * 1e3:8.2f} ms {wall['numba'] / wall[name]:9.2f}x "
                      f"{cpu[name] * 1e3:8.2f} ms {cpu['numba'] / cpu[name]:9.2f}x")
            print(f"  equal to CPython's values bit for bit: {', '.join(exact) or 'none'}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
