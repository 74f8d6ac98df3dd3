"""Dicts, sets and dict views where a sequence is expected (sorted, list,
tuple, sum, min, max, key=) against CPython: values, order and types."""
import numpy as np
import pytest

from ._support import jit


@jit
def tallies(a):
    counts = {}
    for v in a:
        counts[v] = counts.get(v, 0) + 1
    seen = {int(x) % 3 for x in a}
    return (sorted(counts), sorted(counts.items()), list(counts.values()), tuple(counts.keys()),
            sorted(counts.values(), reverse=True), sorted(seen), max(counts.values()), sum(counts.values()),
            min(counts), max(counts, key=lambda k: counts[k]), min(seen), sorted(seen, reverse=True))
    # (list(seen) is not compiled: a set's order is CPython's hash table's, tests/diff/test_dicts_sets.py)


@pytest.mark.parametrize("a", [np.array([3, 1, 3, 2, 1, 3]), np.array([7]), np.arange(10) % 4])
def test_dicts_and_sets_as_sequences(check, a):
    check(tallies, a)


def test_empty_dict_max_raises_like_cpython(check):
    check(tallies, np.zeros(0, dtype=np.int64))
