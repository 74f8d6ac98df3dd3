"""Call overhead of a jitted scalar function against the undecorated one:
minimum CPU time per call over interleaved rounds (robust on a busy machine).

    python benchmarks/bench_call_min.py [rounds]

Prints ns per call for `add(1.0, 2.0)` compiled, the plain def, and the empty
loop both include (subtract it for the call alone)."""
from __future__ import annotations

import sys
import time

from transpile import jit


def add(x, y):
    return x + y


def _loop(f, n):
    t = time.process_time()
    for _ in range(n):
        f(1.0, 2.0)
    return time.process_time() - t


def _empty(n):
    t = time.process_time()
    for _ in range(n):
        pass
    return time.process_time() - t


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    jitted = jit(add)
    jitted(1.0, 2.0)  # compile (or load) outside the timing
    n = 200_000
    best = {"@jit add": float("inf"), "plain def add": float("inf"), "empty loop": float("inf")}
    for _ in range(rounds):
        best["@jit add"] = min(best["@jit add"], _loop(jitted, n))
        best["plain def add"] = min(best["plain def add"], _loop(add, n))
        best["empty loop"] = min(best["empty loop"], _empty(n))
    for name, seconds in best.items():
        print(f"{name:15s} {seconds / n * 1e9:7.1f} ns per iteration")
    loop = best["empty loop"]
    print(f"call alone: @jit {(best['@jit add'] - loop) / n * 1e9:.1f} ns, "
          f"plain {(best['plain def add'] - loop) / n * 1e9:.1f} ns")


if __name__ == "__main__":
    main()
