"""Explicit ODE solvers that take the right-hand side as an argument, in the
style of published teaching/benchmark code (solver(dydt, tspan, y0, n, t, y)
filling the caller's arrays), and scalar right-hand sides to hand them.
Plain functions: bench_ode.py compiles the same source with transpile and
with Numba."""
from __future__ import annotations

import math


def humps_deriv(t, y):
    """The derivative of MATLAB's humps function (y is not used)."""
    a = t - 0.3
    b = t - 0.9
    return -2.0 * a / (a * a + 0.01) ** 2 - 2.0 * b / (b * b + 0.04) ** 2


def forced_decay(t, y):
    """y' = cos(t) - y / 2: a linear decay driven by a cosine."""
    return math.cos(t) - 0.5 * y


def euler(dydt, tspan, y0, n, t, y):
    """Forward Euler over tspan with n steps; t and y (length n + 1) are filled."""
    t0, t1 = tspan
    dt = (t1 - t0) / n
    t[0] = t0
    y[0] = y0
    for i in range(n):
        t[i + 1] = t[i] + dt
        y[i + 1] = y[i] + dt * dydt(t[i], y[i])


def midpoint(dydt, tspan, y0, n, t, y):
    """The explicit midpoint method (second order)."""
    t0, t1 = tspan
    dt = (t1 - t0) / n
    t[0] = t0
    y[0] = y0
    for i in range(n):
        k1 = dydt(t[i], y[i])
        ym = y[i] + 0.5 * dt * k1
        t[i + 1] = t[i] + dt
        y[i + 1] = y[i] + dt * dydt(t[i] + 0.5 * dt, ym)


def rk4(dydt, tspan, y0, n, t, y):
    """The classical fourth-order Runge-Kutta method."""
    t0, t1 = tspan
    dt = (t1 - t0) / n
    t[0] = t0
    y[0] = y0
    for i in range(n):
        ti, yi = t[i], y[i]
        k1 = dydt(ti, yi)
        k2 = dydt(ti + 0.5 * dt, yi + 0.5 * dt * k1)
        k3 = dydt(ti + 0.5 * dt, yi + 0.5 * dt * k2)
        k4 = dydt(ti + dt, yi + dt * k3)
        t[i + 1] = ti + dt
        y[i + 1] = yi + dt * (k1 + 2.0 * k2 + 2.0 * k3 + k4) / 6.0


SOLVERS = (euler, midpoint, rk4)
RHS = (humps_deriv, forced_decay)
