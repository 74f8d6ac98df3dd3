"""@jit_class: a small particle simulation whose state lives in a compiled
class, shared by reference between Python and compiled code.

    python examples/particles.py
"""
import time

import numpy as np

from transpile import jit, jit_class


@jit_class
class Particles:
    gravity = -9.81

    def __init__(self, pos, vel):
        self.pos = pos
        self.vel = vel
        self.steps = 0

    def step(self, dt):
        self.vel[:, 1] += self.gravity * dt
        self.pos += self.vel * dt
        self.steps += 1

    def __call__(self, dt, n):
        for _ in range(n):
            self.step(dt)
        return self.pos

    @property
    def lowest(self):
        return self.pos[:, 1].min()


@jit
def simulate(p, dt, n):
    return p(dt, n)


def main():
    rng = np.random.default_rng(0)
    pos = rng.random((1000, 2)) * 100.0
    p = Particles(pos, np.zeros((1000, 2)))
    t0 = time.perf_counter()
    out = simulate(p, 0.001, 1000)  # compiles on the first call (or loads from the cache)
    t1 = time.perf_counter()
    print(f"first call (compile or cache load + run): {t1 - t0:.2f} s")
    t0 = time.perf_counter()
    simulate(p, 0.001, 1000)
    print(f"1000 more steps, compiled: {(time.perf_counter() - t0) * 1e3:.1f} ms")
    print(f"same array object returned: {out is pos}; steps taken: {p.steps}; lowest particle: {p.lowest:.3f}")
    p.steps = 0  # Python writes a field; compiled code sees it
    p.step(0.001)
    print(f"after a reset and one step called from Python: steps = {p.steps}")
    print(repr(Particles(np.zeros((1, 2)), np.ones((1, 2)))))


if __name__ == "__main__":
    main()
