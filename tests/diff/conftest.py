"""The differential suites in several capture modes (issue 16): `check`
re-wraps the module's @jit function with the mode under test.  CI runs the
modules in CAPTURE_SUBSET in every mode (the rest in "ast"); set
TRANSPILE_TEST_CAPTURE_MODES=all to run every module in every mode."""
from __future__ import annotations

import dataclasses
import os

import pytest

from tests.conftest import run_both

MODES = ("ast", "bytecode")
# Representative of control flow, scalars, lambdas, arrays and returns: each mode compiles every
# function again (the mode is part of the cache key), so the whole suite in every mode would double
# tests/diff's share of the CI budget.
CAPTURE_SUBSET = {"test_control", "test_scalars", "test_lambdas", "test_returns", "test_arrays"}
_REWRAPPED: dict = {}


def _modes(module: str) -> tuple:
    if os.environ.get("TRANSPILE_TEST_CAPTURE_MODES", "") == "all" or module.rsplit(".", 1)[-1] in CAPTURE_SUBSET:
        return MODES
    return ("ast",)


def pytest_generate_tests(metafunc):
    if "check" in metafunc.fixturenames:
        modes = _modes(metafunc.module.__name__)
        if len(modes) > 1:
            metafunc.parametrize("capture_mode", modes)


@pytest.fixture
def capture_mode():
    return "ast"


def _in_mode(jitted, mode: str):
    """The same function and options, captured in `mode`."""
    if mode == "ast" or not hasattr(jitted, "options"):
        return jitted
    key = (jitted, mode)
    if key not in _REWRAPPED:
        from transpile.dispatcher import JitFunction

        options = dataclasses.replace(jitted.options, capture_mode=mode, source_fallback=False)
        _REWRAPPED[key] = JitFunction(jitted.py_func, options).dispatcher
    return _REWRAPPED[key]


@pytest.fixture
def check(capture_mode):
    def run(jitted, *args):
        compiled = _in_mode(jitted, capture_mode)
        if capture_mode == "bytecode":
            from transpile.frontend.bytecode.source import function_source
            from transpile.diagnostics import FunctionNotCompilable

            try:
                function_source(jitted.py_func)
            except FunctionNotCompilable as exc:  # docs/architecture.md lists what bytecode mode does not recover
                pytest.skip(f"not recovered from bytecode: {exc.message}")
        return run_both(compiled, *args)
    return run
