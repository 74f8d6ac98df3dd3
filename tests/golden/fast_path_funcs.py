"""Kernels whose generated C++ tests/golden/test_fast_paths.py reads: the
loop kernels of benchmarks/kernels.py (the same code), and loops whose
indices cannot be proven in range."""
import math

import numpy as np


def dot(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


def prefix_sum(a):
    out = np.empty_like(a)
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
        out[i] = s
    return out


def histogram(x, nbins, lo, hi):
    counts = np.zeros(nbins, dtype=np.int64)
    scale = nbins / (hi - lo)
    for i in range(x.shape[0]):
        b = int((x[i] - lo) * scale)
        if 0 <= b < nbins:
            counts[b] += 1
    return counts


def stencil2d(u, out):
    n = u.shape[0]
    m = u.shape[1]
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            out[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
    return out


def matmul(a, b):
    n = a.shape[0]
    k = a.shape[1]
    m = b.shape[1]
    c = np.zeros((n, m))
    for i in range(n):
        for p in range(k):
            aip = a[i, p]
            for j in range(m):
                c[i, j] += aip * b[p, j]
    return c


def pairwise(x):
    n = x.shape[0]
    d = x.shape[1]
    out = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            s = 0.0
            for k in range(d):
                t = x[i, k] - x[j, k]
                s += t * t
            out[i, j] = math.sqrt(s)
    return out


def mandelbrot(width, height, maxiter):
    out = np.zeros((height, width), dtype=np.int64)
    for py in range(height):
        ci = -1.5 + 3.0 * py / height
        for px in range(width):
            cr = -2.0 + 3.0 * px / width
            zr = 0.0
            zi = 0.0
            n = 0
            while n < maxiter and zr * zr + zi * zi <= 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                n += 1
            out[py, px] = n
    return out


def nbody_step(pos, vel, mass, dt):
    n = pos.shape[0]
    acc = np.zeros_like(pos)
    for i in range(n):
        ax = 0.0
        ay = 0.0
        az = 0.0
        for j in range(n):
            if i != j:
                dx = pos[j, 0] - pos[i, 0]
                dy = pos[j, 1] - pos[i, 1]
                dz = pos[j, 2] - pos[i, 2]
                r2 = dx * dx + dy * dy + dz * dz + 0.01
                inv = mass[j] / (r2 * math.sqrt(r2))
                ax += dx * inv
                ay += dy * inv
                az += dz * inv
        acc[i, 0] = ax
        acc[i, 1] = ay
        acc[i, 2] = az
    for i in range(n):
        for k in range(3):
            vel[i, k] += dt * acc[i, k]
            pos[i, k] += dt * vel[i, k]
    return pos


def axpy_into(out, x, y, alpha):
    for i in range(x.shape[0]):
        out[i] = alpha * x[i] + y[i]
    return out


def one_past(a):
    s = 0.0
    for i in range(len(a)):
        s += a[i + 1]
    return s


def rebinds(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
        if i == 2:
            a = b
    return s


def counter_reassigned(a):
    s = 0.0
    for i in range(a.shape[0]):
        i = i + 2
        s += a[i]
    return s


def bound_moves(a, n):
    s = 0.0
    for i in range(n):
        n = n - 1
        s += a[i]
    return s
