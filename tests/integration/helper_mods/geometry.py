"""Plain helpers (no decorator) in a second module of the 'project'."""
import numpy as np


def dot3(u, v):
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


def length(u):
    return np.sqrt(dot3(u, u))


def unit(u):
    n = length(u)
    if n == 0.0:
        return u * 0.0
    return u / n
