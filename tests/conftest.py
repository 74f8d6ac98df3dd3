"""Test-session set-up: one private compile cache shared by the whole session
(so each specialization compiles once per run; under pytest-xdist, once per
worker: a test file runs in one worker, pyproject.toml's --dist loadfile),
and helpers for differential testing against undecorated CPython."""
from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

_SESSION_CACHE = tempfile.mkdtemp(prefix="transpile-test-cache-")
os.environ.setdefault("TRANSPILE_CACHE_DIR", _SESSION_CACHE)
# One build per specialization: tiered compilation (a quick build, then an
# optimized one in the background) would compile everything twice in CI;
# tests/integration/test_tiered.py turns it on for itself.
os.environ.setdefault("TRANSPILE_TIERED", "0")


@pytest.fixture(scope="session")
def cache_dir():
    return os.environ["TRANSPILE_CACHE_DIR"]


def _bits(x) -> bytes:
    """The value's bytes, each NaN as one canonical NaN (NumPy and C may set
    other payload bits, which no Python operation tells apart)."""
    a = np.array(x, copy=True).reshape(-1)
    if a.dtype.kind == "c":
        a = a.view(a.real.dtype)
    a[np.isnan(a)] = np.nan
    return np.ascontiguousarray(a).tobytes()


def assert_same(got, expected):
    """Value, type and dtype equality with NumPy's NaN-aware comparison."""
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected), (got, expected)
        for g, e in zip(got, expected):
            assert_same(g, e)
        return
    assert type(got) is type(expected), f"type {type(got).__name__} != {type(expected).__name__}: {got!r} vs {expected!r}"
    if isinstance(expected, np.ndarray):
        assert got.dtype == expected.dtype, f"dtype {got.dtype} != {expected.dtype}"
        assert got.shape == expected.shape, f"shape {got.shape} != {expected.shape}"
        if expected.dtype.kind in "fc":  # every bit: NaN matches NaN, 0.0 does not match -0.0
            assert _bits(got) == _bits(expected), f"values differ in their bits:\n{got!r}\n{expected!r}"
        else:
            np.testing.assert_array_equal(got, expected)
    elif isinstance(expected, (float, np.floating, complex, np.complexfloating)):
        assert _bits(got) == _bits(expected), (got, expected)
    else:
        assert got == expected, (got, expected)


def run_both(jitted, *args):
    """Calls the compiled and the plain function on copies of args; returns
    (compiled result, Python result) or raises if only one of them raises, or
    asserts that both raise the same exception type."""
    import copy

    py_args = copy.deepcopy(args)
    jit_args = copy.deepcopy(args)
    py_exc = jit_exc = None
    try:
        expected = jitted.py_func(*py_args)
    except Exception as exc:  # noqa: BLE001 - any exception is part of the behaviour
        py_exc = exc
    try:
        got = jitted(*jit_args)
    except Exception as exc:  # noqa: BLE001
        jit_exc = exc
    if py_exc is not None or jit_exc is not None:
        assert py_exc is not None and jit_exc is not None, f"python raised {py_exc!r}, compiled raised {jit_exc!r}"
        assert isinstance(jit_exc, type(py_exc)), f"python raised {py_exc!r}, compiled raised {jit_exc!r}"
        return None
    # In-place effects on arguments must match too.
    for a, b in zip(jit_args, py_args):
        if isinstance(b, np.ndarray):
            assert_same(a, b)
    assert_same(got, expected)
    return got


@pytest.fixture
def check():
    return run_both
