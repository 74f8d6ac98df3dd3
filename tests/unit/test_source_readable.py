"""frontend.source.source_readable: the cheap test the "auto" capture mode
(and so every warm start's cache key) uses instead of reading the source
must agree with get_source, which the build then calls."""
from __future__ import annotations

import math

import pytest

from transpile.diagnostics import TranspileError
from transpile.frontend.capture import resolved_mode
from transpile.frontend.source import get_source, source_readable


def in_a_file(x):
    return x + 1


def _exec_defined():
    namespace = {}
    exec("def made(x):\n    return x * 2\n", namespace)  # no file behind it
    return namespace["made"]


def _defined_in_a_vanished_file(tmp_path):
    path = tmp_path / "gone.py"
    path.write_text("def gone(x):\n    return x - 1\n")
    namespace = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    path.unlink()
    return namespace["gone"]


def test_source_readable_agrees_with_get_source(tmp_path):
    lam = lambda y: y * 3  # noqa: E731
    cases = {"file": in_a_file, "lambda": lam, "exec": _exec_defined(), "builtin": len, "c function": math.sqrt,
             "vanished file": _defined_in_a_vanished_file(tmp_path)}
    readable = {}
    for name, fn in cases.items():
        try:
            get_source(fn)
            got = True
        except TranspileError:
            got = False
        assert source_readable(fn) is got, name
        readable[name] = got
    assert readable == {"file": True, "lambda": True, "exec": False, "builtin": False, "c function": False,
                        "vanished file": False}


@pytest.mark.parametrize("fn, mode", [(in_a_file, "ast"), (_exec_defined(), "bytecode")])
def test_auto_mode_resolves_by_readability(fn, mode):
    assert resolved_mode(fn, "auto") == mode
    assert resolved_mode(fn, "ast") == "ast"  # an explicit mode is kept
