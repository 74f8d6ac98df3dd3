"""Containers and @jit_class instances that compiled code and fallback
statements share (one object on both sides of a fallback)."""
import statistics

import numpy as np

from transpile import jit, jit_class


@jit
def group(xs):
    d = {}
    for i in range(len(xs)):
        d.setdefault(int(xs[i]) % 3, []).append(i)  # runs as Python
    return d


@jit
def containers(xs, n):
    """Each container is filled by compiled-looking code and mutated by a
    statement that runs as Python; aliases and nested containers see it."""
    total = 0.5
    for i in range(len(xs)):
        total = total + float(xs[i]) * 2.0  # compiled
    s = {0}
    s_alias = s
    for i in range(n):
        s.add(i * i)
    s.update(str(k) for k in range(n))  # a set of ints gets strs
    d = {0: 1.0}
    a = d
    d.update(dict.fromkeys(range(1, n), statistics.fmean([total, 1.0])))
    d[n] = total
    rows = [[0.0]]
    row = rows[0]
    row.extend(map(float, range(n)))  # the inner list, through an alias
    rows.append([total])
    return s_alias, a, rows, len(d) + len(s), total


@jit
def retyped(n):
    """The fallback turns the dict's values from floats into strs."""
    d = {0: 1.5}
    for i in range(n):
        d[i] = i * 0.5
    d.update((k, str(v)) for k, v in list(d.items()))
    return d, sorted(d.values())


@jit_class
class Box:
    def __init__(self, x):
        self.x = x
        self.data = np.zeros(3)


@jit
def instance_mutated(n):
    b = Box(1.0)
    alias = b
    setattr(b, "x", statistics.fmean([float(n), 3.0]))  # runs as Python
    vars_seen = b.x * 2.0  # compiled read of the field Python wrote
    b.data[:] = statistics.fmean([1.0, float(n)])
    return alias.x + alias.data.sum() + vars_seen


@jit
def instance_argument(b, n):
    setattr(b, "x", statistics.fmean([float(n), b.x]))
    b.data[0] = b.x
    return b.x


@jit
def extend_parameter(xs, n):
    xs.extend(map(float, range(n)))  # a list argument reached by Python code
    return len(xs)
