"""Small functions whose generated C++ is kept as golden files: a change in
code generation shows up as a reviewed diff of tests/golden/*.cpp."""
import numpy as np

from transpile import jit


@jit
def axpy(a, x, y):
    return a * x + y


@jit(jit_level="O1")
def jacobi(u, steps):
    for _ in range(steps):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return u


@jit
def prefix_sum(a):
    out = np.empty_like(a)
    total = 0.0
    for i in range(a.shape[0]):
        total += a[i]
        out[i] = total
    return out


@jit
def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps
