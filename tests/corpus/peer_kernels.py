"""Peer kernels (issue 13): numeric Python written the way published
benchmark and teaching code for Numba, Pythran and Pyccel is written --
solvers taking the function they work on as an argument, finite
differences, graph algorithms that print an error and return early, a
spline class, molecular dynamics.  Written for this corpus (no code copied);
plain functions, compiled by the tests with `transpile.jit(fn)`.

PEER lists (function, input builder, bad inputs with CPython's exception).
The right-hand sides and integrands are plain module-level helpers, passed
in by the input builders as a peer benchmark passes them."""
from __future__ import annotations

import math
import random

import numpy as np

from transpile import jit_class


def _rng(seed=0):
    return np.random.default_rng(seed)


# ---------------------------------------------------------------------------
# Functions handed to the solvers
# ---------------------------------------------------------------------------

def humps(x):
    return 1.0 / ((x - 0.3) ** 2 + 0.01) + 1.0 / ((x - 0.9) ** 2 + 0.04) - 6.0


def humps_deriv(t, y):
    return -2.0 * (t - 0.3) / ((t - 0.3) ** 2 + 0.01) ** 2 - 2.0 * (t - 0.9) / ((t - 0.9) ** 2 + 0.04) ** 2


def logistic_growth(t, y):
    return 0.8 * y * (1.0 - y / 10.0)


def predator_prey(t, u):
    x, y = u[0], u[1]
    return np.array([1.1 * x - 0.4 * x * y, 0.1 * x * y - 0.4 * y])


def cubic(x):
    return x ** 3 - 2.0 * x - 5.0


def cubic_prime(x):
    return 3.0 * x ** 2 - 2.0


def gaussian(x):
    return math.exp(-x * x)


def cos_fixed(x):
    return math.cos(x)


# ---------------------------------------------------------------------------
# ODE solvers and quadrature taking a function argument
# ---------------------------------------------------------------------------

def euler_solve(dydt, tspan, y0, n):
    """Forward Euler; returns the time grid and the solution."""
    t = np.linspace(tspan[0], tspan[1], n + 1)
    y = np.zeros(n + 1)
    y[0] = y0
    dt = (tspan[1] - tspan[0]) / n
    for i in range(n):
        y[i + 1] = y[i] + dt * dydt(t[i], y[i])
    return t, y


def midpoint_solve(dydt, t0, t1, y0, n):
    """Explicit midpoint rule; returns the final value."""
    h = (t1 - t0) / n
    t = t0
    y = y0
    for _ in range(n):
        k = dydt(t, y)
        y = y + h * dydt(t + 0.5 * h, y + 0.5 * h * k)
        t += h
    return y


def rk4_system(f, t0, u0, h, steps):
    """Classical Runge-Kutta for a system u' = f(t, u); returns all states."""
    m = u0.shape[0]
    out = np.empty((steps + 1, m))
    out[0] = u0
    u = u0.copy()
    t = t0
    for i in range(steps):
        k1 = f(t, u)
        k2 = f(t + 0.5 * h, u + 0.5 * h * k1)
        k3 = f(t + 0.5 * h, u + 0.5 * h * k2)
        k4 = f(t + h, u + h * k3)
        u = u + (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
        t += h
        out[i + 1] = u
    return out


def lotka_volterra(t, u, alpha, beta, delta, gamma):
    """The predator-prey right-hand side with its rates as extra arguments."""
    return np.array([alpha * u[0] - beta * u[0] * u[1], delta * u[0] * u[1] - gamma * u[1]])


def rk4_args(f, t0, u0, h, steps, args=()):
    """SciPy's calling convention: the right-hand side gets `*args` after (t, u)."""
    u = u0.copy()
    t = t0
    for _ in range(steps):
        k1 = f(t, u, *args)
        k2 = f(t + 0.5 * h, u + 0.5 * h * k1, *args)
        k3 = f(t + 0.5 * h, u + 0.5 * h * k2, *args)
        k4 = f(t + h, u + h * k3, *args)
        u = u + (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
        t += h
    return u


def simpson(f, a, b, n):
    """Composite Simpson's rule; n must be even."""
    if n % 2 == 1:
        raise ValueError("n must be even")
    h = (b - a) / n
    s = f(a) + f(b)
    for i in range(1, n):
        x = a + i * h
        if i % 2 == 1:
            s += 4.0 * f(x)
        else:
            s += 2.0 * f(x)
    return s * h / 3.0


def trapezoid_table(f, a, b, levels, name):
    """The composite trapezoid rule at doubling resolutions, printing the
    convergence table a teaching script prints (columns aligned with format
    specs on numbers and strs)."""
    print(f"{name:^34}")
    print(f"{'n':>6} {'estimate':>14} {'change':>12}")
    print("-" * 34)
    out = np.empty(levels)
    prev = 0.0
    for k in range(levels):
        n = 2 ** (k + 1)
        h = (b - a) / n
        s = 0.5 * (f(a) + f(b))
        for i in range(1, n):
            s += f(a + i * h)
        est = s * h
        out[k] = est
        change = "-" if k == 0 else format(est - prev, ".3e")
        print(f"{n:>6d} {est:>14.8f} {change:>12}")
        prev = est
    print("%-20s %s" % ("best estimate:", format(out[levels - 1], ".10f").rjust(13)))
    return out


def newton_raphson(f, df, x0, tol, maxiter):
    """Newton's method; prints and returns None when it does not converge."""
    x = x0
    for it in range(maxiter):
        d = df(x)
        if d == 0.0:
            print("newton: zero derivative at iteration", it)
            return None
        step = f(x) / d
        x -= step
        if abs(step) < tol:
            return x
    print("newton: no convergence after", maxiter, "iterations")
    return None


def fixed_point(g, x0, tol, maxiter):
    """Fixed-point iteration x = g(x); returns (x, iterations)."""
    x = x0
    for i in range(1, maxiter + 1):
        nx = g(x)
        if abs(nx - x) < tol:
            return nx, i
        x = nx
    return x, maxiter


def central_derivative(f, xs, h):
    """Central differences of f at each point of xs."""
    out = np.empty_like(xs)
    for i in range(xs.shape[0]):
        out[i] = (f(xs[i] + h) - f(xs[i] - h)) / (2.0 * h)
    return out


# ---------------------------------------------------------------------------
# Finite differences
# ---------------------------------------------------------------------------

def heat_explicit(u0, alpha, dx, dt, steps):
    """FTCS scheme for u_t = alpha u_xx with fixed ends."""
    r = alpha * dt / (dx * dx)
    if r > 0.5:
        print("heat_explicit: unstable, r =", r)
        return u0.copy()
    u = u0.copy()
    un = np.empty_like(u)
    n = u.shape[0]
    for _ in range(steps):
        un[:] = u
        for i in range(1, n - 1):
            u[i] = un[i] + r * (un[i + 1] - 2.0 * un[i] + un[i - 1])
    return u


def poisson_jacobi(f, h, iters):
    """Jacobi sweeps for -lap(u) = f on a square grid with zero boundary."""
    n, m = f.shape
    u = np.zeros((n, m))
    new = np.zeros((n, m))
    for _ in range(iters):
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                new[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] + h * h * f[i, j])
        u, new = new, u
    return u


def wave_leapfrog(u0, c, dx, dt, steps):
    """Second-order wave equation, leapfrog in time, fixed ends."""
    n = u0.shape[0]
    prev = u0.copy()
    cur = u0.copy()
    k = (c * dt / dx) ** 2
    for _ in range(steps):
        nxt = np.zeros(n)
        for i in range(1, n - 1):
            nxt[i] = 2.0 * cur[i] - prev[i] + k * (cur[i + 1] - 2.0 * cur[i] + cur[i - 1])
        prev = cur
        cur = nxt
    return cur


# ---------------------------------------------------------------------------
# Graph algorithms with early-exit error paths
# ---------------------------------------------------------------------------

def dijkstra_dense(w, src):
    """Dijkstra on a dense weight matrix (inf: no edge); prints and returns
    None on a negative weight."""
    n = w.shape[0]
    for i in range(n):
        for j in range(n):
            if w[i, j] < 0:
                print("dijkstra: negative weight on edge", i, j)
                return None
    dist = np.full(n, np.inf)
    done = np.zeros(n, dtype=np.bool_)
    dist[src] = 0.0
    for _ in range(n):
        u = -1
        best = np.inf
        for v in range(n):
            if not done[v] and dist[v] < best:
                best = dist[v]
                u = v
        if u == -1:
            break
        done[u] = True
        for v in range(n):
            if w[u, v] < np.inf and dist[u] + w[u, v] < dist[v]:
                dist[v] = dist[u] + w[u, v]
    return dist


def floyd_warshall(w):
    """All-pairs shortest paths; prints and returns None on a negative cycle."""
    n = w.shape[0]
    d = w.copy()
    for k in range(n):
        for i in range(n):
            for j in range(n):
                if d[i, k] + d[k, j] < d[i, j]:
                    d[i, j] = d[i, k] + d[k, j]
    for i in range(n):
        if d[i, i] < 0:
            print("floyd_warshall: negative cycle through node", i)
            return None
    return d


def topological_order(adj):
    """Kahn's algorithm on an adjacency matrix; prints and returns an empty
    list when the graph has a cycle."""
    n = adj.shape[0]
    indeg = [0] * n
    for i in range(n):
        for j in range(n):
            if adj[i, j]:
                indeg[j] += 1
    queue = [i for i in range(n) if indeg[i] == 0]
    order = []
    head = 0
    while head < len(queue):
        u = queue[head]
        head += 1
        order.append(u)
        for v in range(n):
            if adj[u, v]:
                indeg[v] -= 1
                if indeg[v] == 0:
                    queue.append(v)
    if len(order) != n:
        print("topological_order: the graph has a cycle")
        return []
    return order


def bfs_levels(adj, start):
    """Breadth-first levels from start (-1: unreachable); prints and stops
    early for a start outside the graph."""
    n = adj.shape[0]
    if start < 0 or start >= n:
        print("bfs_levels: start", start, "is not a node")
        return np.full(n, -1)
    level = np.full(n, -1)
    level[start] = 0
    frontier = [start]
    while len(frontier) > 0:
        nxt = []
        for u in frontier:
            for v in range(n):
                if adj[u, v] and level[v] == -1:
                    level[v] = level[u] + 1
                    nxt.append(v)
        frontier = nxt
    return level


def connected_components(adj):
    """Component label of each node (union-find with path halving)."""
    n = adj.shape[0]
    parent = list(range(n))
    for i in range(n):
        for j in range(i + 1, n):
            if adj[i, j]:
                a, b = i, j
                while parent[a] != a:
                    parent[a] = parent[parent[a]]
                    a = parent[a]
                while parent[b] != b:
                    parent[b] = parent[parent[b]]
                    b = parent[b]
                if a != b:
                    parent[max(a, b)] = min(a, b)
    labels = np.empty(n, dtype=np.int64)
    for i in range(n):
        r = i
        while parent[r] != r:
            r = parent[r]
        labels[i] = r
    return labels


# ---------------------------------------------------------------------------
# A spline class and molecular dynamics
# ---------------------------------------------------------------------------

@jit_class
class NaturalSpline:
    """Natural cubic spline through (x, y), x increasing."""

    def __init__(self, x, y):
        n = x.shape[0] - 1
        h = np.diff(x)
        alpha = np.zeros(n + 1)
        for i in range(1, n):
            alpha[i] = 3.0 / h[i] * (y[i + 1] - y[i]) - 3.0 / h[i - 1] * (y[i] - y[i - 1])
        l = np.ones(n + 1)
        mu = np.zeros(n + 1)
        z = np.zeros(n + 1)
        for i in range(1, n):
            l[i] = 2.0 * (x[i + 1] - x[i - 1]) - h[i - 1] * mu[i - 1]
            mu[i] = h[i] / l[i]
            z[i] = (alpha[i] - h[i - 1] * z[i - 1]) / l[i]
        c = np.zeros(n + 1)
        b = np.zeros(n)
        d = np.zeros(n)
        for j in range(n - 1, -1, -1):
            c[j] = z[j] - mu[j] * c[j + 1]
            b[j] = (y[j + 1] - y[j]) / h[j] - h[j] * (c[j + 1] + 2.0 * c[j]) / 3.0
            d[j] = (c[j + 1] - c[j]) / (3.0 * h[j])
        self.x = x.copy()
        self.a = y.copy()
        self.b = b
        self.c = c
        self.d = d

    def segment(self, t):
        n = self.x.shape[0] - 1
        lo, hi = 0, n - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.x[mid] <= t:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def __call__(self, t):
        i = self.segment(t)
        dx = t - self.x[i]
        return self.a[i] + dx * (self.b[i] + dx * (self.c[i] + dx * self.d[i]))


def spline_resample(x, y, ts):
    s = NaturalSpline(x, y)
    out = np.empty_like(ts)
    for k in range(ts.shape[0]):
        out[k] = s(ts[k])
    return out


def lj_forces(pos, box, rcut):
    """Lennard-Jones forces and potential energy with minimum image."""
    n = pos.shape[0]
    f = np.zeros_like(pos)
    energy = 0.0
    rc2 = rcut * rcut
    for i in range(n - 1):
        for j in range(i + 1, n):
            d = pos[i] - pos[j]
            d -= box * np.rint(d / box)
            r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
            if r2 < rc2:
                inv6 = 1.0 / (r2 * r2 * r2)
                energy += 4.0 * (inv6 * inv6 - inv6)
                coef = 24.0 * (2.0 * inv6 * inv6 - inv6) / r2
                f[i] += coef * d
                f[j] -= coef * d
    return f, energy


def md_velocity_verlet(pos, vel, box, dt, steps):
    """Velocity Verlet with LJ forces (unit mass); returns positions, velocities
    and the total energy after each step."""
    pos = pos.copy()
    vel = vel.copy()
    f, pe = lj_forces(pos, box, 2.5)
    energies = np.empty(steps)
    for s in range(steps):
        vel += 0.5 * dt * f
        pos += dt * vel
        pos -= box * np.floor(pos / box)
        f, pe = lj_forces(pos, box, 2.5)
        vel += 0.5 * dt * f
        energies[s] = pe + 0.5 * np.sum(vel * vel)
    return pos, vel, energies


def gravity_leapfrog(pos, vel, mass, dt, steps, soft):
    """Kick-drift-kick leapfrog for N gravitating bodies."""
    n = pos.shape[0]
    pos = pos.copy()
    vel = vel.copy()
    acc = np.zeros_like(pos)
    for _ in range(steps):
        acc[:] = 0.0
        for i in range(n):
            for j in range(n):
                if i != j:
                    d = pos[j] - pos[i]
                    r2 = np.sum(d * d) + soft * soft
                    acc[i] += mass[j] * d / (r2 * math.sqrt(r2))
        vel += 0.5 * dt * acc
        pos += dt * vel
        vel += 0.5 * dt * acc
    return pos, vel


# ---------------------------------------------------------------------------
# Input builders
# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# Linear algebra, random draws and messages of Python's own (library/python_calls.py)
# ---------------------------------------------------------------------------

def rosenbrock_grad(x):
    return np.array([-2.0 * (1.0 - x[0]) - 400.0 * x[0] * (x[1] - x[0] ** 2), 200.0 * (x[1] - x[0] ** 2)])


def rosenbrock_hess(x):
    return np.array([[2.0 - 400.0 * (x[1] - 3.0 * x[0] ** 2), -400.0 * x[0]], [-400.0 * x[0], 200.0]])


def newton_minimize(grad, hess, x0, tol, maxiter):
    """Newton's method on the gradient: solve H dx = -g each step."""
    x = x0.copy()
    for it in range(maxiter):
        g = grad(x)
        if np.linalg.norm(g) < tol:
            return x, it
        x = x - np.linalg.solve(hess(x), g)
    raise ValueError(f"no convergence after {maxiter} iterations (|g| = {np.linalg.norm(grad(x)):.3e})")


def monte_carlo_pi(n, seed):
    """The classic first Numba example, with Python's own generator."""
    random.seed(seed)
    inside = 0
    for _ in range(n):
        x = random.random()
        y = random.random()
        if x * x + y * y <= 1.0:
            inside += 1
    return 4.0 * inside / n


def polyfit_report(x, y, deg):
    """A least-squares fit and a one-line summary of it."""
    coeffs = np.polyfit(x, y, deg)
    residual = y - np.polyval(coeffs, x)
    rms = np.sqrt(np.mean(residual * residual))
    return coeffs, "%d points, degree %d, rms %.4e" % (len(x), deg, rms)


def resample_linear(t, v, t_new):
    """Linear interpolation onto a new grid, then a centred moving average."""
    out = np.interp(t_new, t, v)
    smooth = np.convolve(out, np.ones(3) / 3.0, mode="same")
    return out, smooth, np.count_nonzero(smooth > 0.0)

def inputs_euler():
    return [(humps_deriv, (0.0, 2.0), 5.0, 200), (logistic_growth, (0.0, 5.0), 0.5, 100)]


def inputs_midpoint():
    return [(humps_deriv, 0.0, 1.0, 5.0, 300), (logistic_growth, 0.0, 3.0, 1.0, 50)]


def inputs_rk4_system():
    return [(predator_prey, 0.0, np.array([10.0, 5.0]), 0.01, 200)]


def inputs_rk4_args():
    return [(lotka_volterra, 0.0, np.array([10.0, 5.0]), 0.01, 200, (1.1, 0.4, 0.1, 0.4))]


def inputs_simpson():
    return [(humps, 0.0, 1.0, 100), (gaussian, -2.0, 2.0, 64)]


def inputs_trapezoid_table():
    return [(humps, 0.0, 1.0, 6, "humps on [0, 1]"), (gaussian, -2.0, 2.0, 4, "gaussian")]


def inputs_newton():
    return [(cubic, cubic_prime, 2.0, 1e-12, 50), (cubic, cubic_prime, 2.0, 1e-30, 3),
            (cubic, cubic_prime, math.sqrt(2.0 / 3.0), 1e-12, 50)]


def inputs_fixed_point():
    return [(cos_fixed, 1.0, 1e-10, 1000), (cos_fixed, 1.0, 1e-10, 5)]


def inputs_central():
    return [(humps, np.linspace(0.0, 1.0, 50), 1e-4), (gaussian, np.linspace(-1.0, 1.0, 9), 1e-3)]


def inputs_heat():
    x = np.linspace(0.0, 1.0, 41)
    return [(np.sin(np.pi * x), 1.0, 0.025, 0.0002, 200), (np.sin(np.pi * x), 1.0, 0.025, 0.001, 10)]


def inputs_poisson():
    f = np.ones((12, 10))
    return [(f, 0.1, 30)]


def inputs_wave():
    x = np.linspace(0.0, 1.0, 51)
    return [(np.exp(-100.0 * (x - 0.5) ** 2), 1.0, 0.02, 0.01, 40)]


def _weights(n, seed, negative=False):
    rng = _rng(seed)
    w = np.where(rng.random((n, n)) < 0.4, rng.uniform(1.0, 9.0, (n, n)), np.inf)
    np.fill_diagonal(w, 0.0)
    if negative:
        w[1, 2] = -3.0
    return w


def inputs_dijkstra():
    return [(_weights(12, 1), 0), (_weights(12, 2), 5), (_weights(6, 3, negative=True), 0)]


def inputs_floyd():
    w = _weights(9, 4)
    neg = _weights(5, 5)
    neg[0, 1], neg[1, 0] = 1.0, -2.0
    return [(w,), (neg,)]


def _dag(n, seed, cycle=False):
    rng = _rng(seed)
    adj = np.triu(rng.random((n, n)) < 0.3, 1)
    if cycle:
        adj[n - 1, 0] = True
        adj[0, n - 1] = True
    return adj


def inputs_topo():
    return [(_dag(10, 6),), (_dag(8, 7, cycle=True),)]


def inputs_bfs():
    adj = _dag(12, 8)
    sym = adj | adj.T
    return [(sym, 0), (sym, 7), (sym, 20)]


def inputs_components():
    adj = _dag(15, 9) & (_rng(10).random((15, 15)) < 0.4)
    return [(adj | adj.T,)]


def inputs_spline():
    x = np.linspace(0.0, 3.0, 9)
    return [(x, np.sin(x), np.linspace(0.0, 3.0, 25)), (x, x ** 2, np.array([0.1, 1.7, 2.95]))]


def _lattice(k, spacing):
    g = np.arange(k) * spacing + 0.3
    return np.array([[a, b, c] for a in g for b in g for c in g])


def inputs_md():
    pos = _lattice(3, 1.2)
    vel = _rng(11).normal(0.0, 0.1, pos.shape)
    return [(pos, vel, 3.6, 0.002, 5)]


def inputs_gravity():
    rng = _rng(12)
    return [(rng.normal(size=(6, 3)), rng.normal(scale=0.1, size=(6, 3)), rng.uniform(0.5, 1.5, 6), 0.01, 10, 0.1)]


def inputs_newton_minimize():
    return [(rosenbrock_grad, rosenbrock_hess, np.array([-1.2, 1.0]), 1e-10, 50)]


def inputs_monte_carlo():
    return [(2000, 1), (500, 7)]


def inputs_polyfit():
    x = np.linspace(0.0, 2.0, 21)
    return [(x, np.exp(x), 3), (x, np.sin(3.0 * x), 5)]


def inputs_resample():
    t = np.linspace(0.0, 6.0, 13)
    return [(t, np.sin(t), np.linspace(-1.0, 7.0, 40))]


PEER = [
    (euler_solve, inputs_euler, []),
    (midpoint_solve, inputs_midpoint, []),
    (rk4_system, inputs_rk4_system, []),
    (rk4_args, inputs_rk4_args, []),
    (simpson, inputs_simpson, [((humps, 0.0, 1.0, 7), ValueError)]),
    (trapezoid_table, inputs_trapezoid_table, []),
    (newton_raphson, inputs_newton, []),
    (fixed_point, inputs_fixed_point, []),
    (central_derivative, inputs_central, []),
    (heat_explicit, inputs_heat, []),
    (poisson_jacobi, inputs_poisson, []),
    (wave_leapfrog, inputs_wave, []),
    (dijkstra_dense, inputs_dijkstra, [((_weights(4, 1), 9), IndexError)]),
    (floyd_warshall, inputs_floyd, []),
    (topological_order, inputs_topo, []),
    (bfs_levels, inputs_bfs, []),
    (connected_components, inputs_components, []),
    (spline_resample, inputs_spline, []),
    (md_velocity_verlet, inputs_md, []),
    (gravity_leapfrog, inputs_gravity, []),
    (newton_minimize, inputs_newton_minimize,
     [((rosenbrock_grad, rosenbrock_hess, np.array([2.0, 2.0]), 1e-12, 3), ValueError)]),
    (monte_carlo_pi, inputs_monte_carlo, []),
    (polyfit_report, inputs_polyfit, [((np.ones(3), np.ones(4), 1), TypeError)]),
    (resample_linear, inputs_resample, []),
]
