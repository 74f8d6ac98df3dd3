"""@jit_class costs, each as a ratio measured in one process (medians):

1. a method called 10^6 times from a @jit loop vs the same code written as
   a plain helper function (target: the same speed);
2. a field read from Python vs an attribute read of a plain Python object
   (target: <= 2x);
3. a method call from Python vs a call of a @jit function (target: <= 2x
   the overhead).

Numba's @jitclass is measured on the same code when Numba is installed.

    python benchmarks/bench_classes.py
"""
from __future__ import annotations

import statistics
import timeit

import numpy as np

from timing import median_time
from transpile import jit, jit_class

N = 1_000_000


class Stats:
    def __init__(self, shift):
        self.total = 0.0
        self.count = 0
        self.shift = shift

    def add(self, x):
        y = x - self.shift
        self.total += y * y
        self.count += 1

    def get(self):
        return self.total


def add_fn(total, count, shift, x):
    y = x - shift
    return total + y * y, count + 1


def loop_method(stats, xs):
    for x in xs:
        stats.add(x)
    return stats.total


def loop_function(xs, shift):
    total = 0.0
    count = 0
    for x in xs:
        total, count = add_fn(total, count, shift, x)
    return total


def add(a, b):
    return a + b


def per_call_ns(stmt: str, env: dict, number=200_000, repeat=9) -> float:
    return statistics.median(timeit.repeat(stmt, globals=env, number=number, repeat=repeat)) / number * 1e9


def main():
    xs = np.random.default_rng(0).random(N)
    JStats = jit_class(Stats)
    jit_method_loop = jit(loop_method)
    jit_function_loop = jit(loop_function)
    s = JStats(0.5)
    assert abs(jit_method_loop(s, xs) - loop_function(xs, 0.5)) < 1e-6 * N
    jit_function_loop(xs, 0.5)

    print(f"1. {N:,} method calls from a @jit loop (median of 9)")
    t_method = median_time(lambda: jit_method_loop(JStats(0.5), xs), repeat=9)
    t_function = median_time(jit_function_loop, xs, 0.5, repeat=9)
    print(f"   method:   {t_method * 1e3:8.2f} ms")
    print(f"   function: {t_function * 1e3:8.2f} ms   method/function = {t_method / t_function:.2f}")

    plain = Stats(0.5)
    s = JStats(0.5)
    s.add(0.25)
    plain.add(0.25)
    jit_add = jit(add)
    jit_add(1.0, 2.0)
    s.get()
    env = {"s": s, "plain": plain, "jit_add": jit_add}
    read_jit = per_call_ns("s.total", env)
    read_plain = per_call_ns("plain.total", env)
    print("2. field read from Python")
    print(f"   @jit_class: {read_jit:6.1f} ns   plain object: {read_plain:6.1f} ns   ratio {read_jit / read_plain:.2f}")
    call_method = per_call_ns("s.get()", env)
    call_jit = per_call_ns("jit_add(1.0, 2.0)", env)
    call_plain = per_call_ns("plain.get()", env)
    print("3. call from Python")
    print(f"   s.get() (compiled method): {call_method:6.1f} ns   jit_add(1.0, 2.0): {call_jit:6.1f} ns   "
          f"ratio {call_method / call_jit:.2f}   (plain Python method: {call_plain:.1f} ns)")
    print(f"   s.add(0.25): {per_call_ns('s.add(0.25)', env):6.1f} ns")

    try:
        import numba
        from numba.experimental import jitclass
    except ImportError:
        print("Numba not installed: no comparison")
        return
    NStats = jitclass([("total", numba.float64), ("count", numba.int64), ("shift", numba.float64)])(Stats)
    nloop = numba.njit(loop_method)
    nloop(NStats(0.5), xs)
    t_numba = median_time(lambda: nloop(NStats(0.5), xs))
    n = NStats(0.5)
    env.update(n=n)
    print(f"Numba jitclass: loop {t_numba * 1e3:.2f} ms; field read {per_call_ns('n.total', env, 50_000):.1f} ns; "
          f"method call {per_call_ns('n.get()', env, 50_000):.1f} ns")


if __name__ == "__main__":
    main()
