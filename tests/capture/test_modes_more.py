"""Capture modes and the rest of the system: the cache key names the text a
function was compiled from, `transpile show` / `annotate` for functions
captured from bytecode or a trace, and closures as jitted functions."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

from transpile import jit
from transpile.frontend.source import source_hash
from transpile.hir import types as T

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MODULE = '''import numpy as np
from transpile import jit


@jit
def scaled(a, k):
    return a * k + np.float64(1.0)
'''


def _impl(dispatcher):
    return dispatcher._ensure.__self__


def test_key_names_the_text_a_function_was_compiled_from(tmp_path, monkeypatch):
    """A function of a file (compiled from its source) and the same text
    exec'd under the same module name (compiled from its recovered bytecode)
    have equal code objects: their cache entries must still differ, and so
    must those of equal code exec'd as two different files."""
    (tmp_path / "capture_keymod.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    import capture_keymod

    exec_fns = []
    for filename in ("<generated one>", "<generated two>"):
        ns = {"__name__": "capture_keymod"}
        exec(compile(MODULE, filename, "exec", dont_inherit=True), ns)  # noqa: S102 - the test's own text
        exec_fns.append(ns["scaled"])
    from_file = capture_keymod.scaled
    assert source_hash(from_file.py_func) == source_hash(exec_fns[0].py_func) == source_hash(exec_fns[1].py_func)
    types = tuple(T.parse_signature("float64[:], float64"))
    keys = [_impl(f)._key(types) for f in (from_file, *exec_fns)]
    assert len(set(keys)) == 3, keys

    a = np.arange(4.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # neither may fall back
        for f in (from_file, exec_fns[0]):
            got = f(a, 3.0)
            assert got.dtype == np.float64 and np.array_equal(got, a * 3.0 + 1.0)
