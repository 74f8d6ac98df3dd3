"""The peer corpus (issue 13, peer_kernels.py): every kernel compiles with
no fallback (asserted, not only counted) and matches CPython -- results
with their types and dtypes, arrays the kernel writes, the text it prints
(error paths print and return early), and the exception bad inputs raise."""
from __future__ import annotations

import contextlib
import copy
import io
import warnings

import numpy as np
import pytest

from transpile import jit

from . import peer_kernels as P
from .test_corpus import _differential, _fallback_lines, assert_same


def _run(f, args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = f(*args)
    return result, out.getvalue()


@pytest.mark.parametrize("fn, build, bad", [pytest.param(*entry, id=entry[0].__name__) for entry in P.PEER])
def test_peer_kernel(fn, build, bad):
    f = jit(fn)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for args in build():
            py_args, jit_args = copy.deepcopy(args), copy.deepcopy(args)
            expected, expected_text = _run(fn, py_args)
            got, text = _run(f, jit_args)
            assert_same(got, expected)
            assert text == expected_text
            for i, (a, b) in enumerate(zip(jit_args, py_args)):
                if isinstance(b, np.ndarray):
                    assert_same(a, b, f"argument {i} after the call")
        _differential(f, fn, list, bad)  # the bad inputs raise CPython's exception
    assert _fallback_lines(f, caught) == []


def test_peer_corpus_size():
    names = [fn.__name__ for fn, _, _ in P.PEER]
    assert len(set(names)) == len(names) >= 15
