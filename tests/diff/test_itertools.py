"""itertools.product / itertools.combinations over ranges (and arrays)
compiled to one loop (issue 7), in for loops and generator expressions,
with break/continue; against CPython."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from ._support import jit


@jit
def loops(n, m, a):
    total = 0
    for i, j in itertools.product(range(n), range(m)):
        if j == 2:
            continue
        total += i * 10 + j
    pairs = 0
    for i, j in itertools.product(range(n), repeat=2):
        if i + j > 6:
            break
        pairs += 1
    triples = 0
    for t in itertools.product(range(1, n, 2), range(m, 0, -1), range(2)):
        triples += t[0] * t[1] + t[2]
    comb = 0
    for i, j in itertools.combinations(range(n), 2):
        comb += i * j
    comb3 = sum(i + j * k for i, j, k in itertools.combinations(range(n), 3))
    gen = sum(i * j for i, j in itertools.product(range(n), range(m)) if i != j)
    dist = 0.0
    for x, y in itertools.combinations(a, 2):
        dist += float(abs(x - y))
    ap = 0.0
    for x, y in itertools.product(a, a):
        ap += float(x * y)
    cnt = len({(i, j) for i, j in itertools.combinations(range(n), 2)})
    return total, pairs, triples, comb, comb3, gen, dist, ap, cnt


@pytest.mark.parametrize("n,m", [(5, 4), (0, 3), (3, 0), (1, 1), (7, 2)])
def test_product_and_combinations(check, n, m):
    check(loops, n, m, np.linspace(0.0, 1.0, max(n, 1)))
