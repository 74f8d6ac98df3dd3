"""Differential tests: np.eye and np.identity (added for the corpus, issue 7)."""
from __future__ import annotations

import numpy as np
import pytest

from ._support import check_items, jit


@jit
def eyes(n, m, k):
    return (np.eye(n), np.eye(n, m), np.eye(n, k=k), np.eye(n, m, k, dtype=np.int64), np.identity(n),
            np.eye(n, None), np.eye(N=n, M=m, k=-k, dtype=bool), np.identity(n, dtype=np.float32),
            np.eye(n, dtype=int))


@pytest.mark.parametrize("n, m, k", [(3, 4, 1), (4, 2, 2), (0, 3, 0), (2, 2, 5), (-1, 2, 0)])
def test_eye_identity(check, n, m, k):
    check_items(check, eyes, n, m, k)  # n = -1: ValueError from both
