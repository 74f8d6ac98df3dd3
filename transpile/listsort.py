"""CPython's order for a list of floats that holds a NaN, asked by compiled
code (transpile_rt/list_sort_python.hpp): with NaN, `<` is not an order, so
the result is what CPython's own sort (timsort) makes of its comparisons,
which no other algorithm reproduces.  Returned as the permutation, since
sorting the indices by the values compares the values exactly as sorting
them does (ties in their original order)."""
from __future__ import annotations

import numpy as np


def order(values: np.ndarray, reverse: bool) -> np.ndarray:
    items = values.tolist()
    return np.array(sorted(range(len(items)), key=items.__getitem__, reverse=reverse), dtype=np.int64)
