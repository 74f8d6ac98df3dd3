"""Differential tests of soundness fixes (issue 12, "Sound by construction"):
each case gives CPython's value, type and exception, or the compiler does
not compile it."""
from __future__ import annotations

import math

import numpy as np
import pytest

from ._support import check_items, jit

# --------------------------------------------------------------------------
# jit_level does not change floating-point results (no contraction into FMA)
# --------------------------------------------------------------------------


def nbody_accel(x, y, eps, one):
    n = x.shape[0]
    ax = np.zeros(n, np.float32)
    ay = np.zeros(n, np.float32)
    for i in range(n):
        for j in range(n):
            rx = x[j] - x[i]
            ry = y[j] - y[i]
            d = rx * rx + ry * ry + eps
            s = one / math.sqrt(d ** 3)
            ax[i] += s * rx
            ay[i] += s * ry
    return ax, ay


nbody_o0 = jit(nbody_accel, jit_level="O0")
nbody_o1 = jit(nbody_accel, jit_level="O1")


def test_float32_kernel_bit_identical_across_levels():
    rng = np.random.default_rng(7)
    x = rng.standard_normal(48).astype(np.float32)
    y = rng.standard_normal(48).astype(np.float32)
    args = (x, y, np.float32(1e-3), np.float32(1.0))
    expected = nbody_accel(*args)
    for compiled in (nbody_o0, nbody_o1):
        got = compiled(*args)
        for g, e in zip(got, expected):
            assert g.dtype == e.dtype == np.float32
            assert g.tobytes() == e.tobytes(), (compiled.options.jit_level, np.max(np.abs(g - e)))


# --------------------------------------------------------------------------
# Expressions whose C++ spelling did not compile
# --------------------------------------------------------------------------


@jit
def negated_negatives(a, b):
    x = -(-128)
    y = -(-1.5)
    a //= abs(1)
    a %= abs(-3)
    c = 7.5
    c //= abs(2)
    return x, y, a, c, -(-a), -(+a), +(-a), ~(-a), not -a, abs(True), abs(b), -(-b), b // abs(-2)


@pytest.mark.parametrize("a, b", [(7, True), (-9, False), (0, True)])
def test_negated_negatives_and_abs_of_literals(check, a, b):
    check_items(check, negated_negatives, a, b)


# --------------------------------------------------------------------------
# A C++ compile failure is remembered for its specialization
# --------------------------------------------------------------------------


def _failing_compiler(tmp_path):
    """A C++ compiler that rejects everything and counts its runs: the
    stand-in for a code-generation bug that makes g++ fail."""
    log = tmp_path / "runs"
    script = tmp_path / "failing-cxx"
    script.write_text(f'#!/bin/sh\necho run >> "{log}"\necho "module.cpp:3:1: error: injected failure" >&2\nexit 1\n')
    script.chmod(0o755)
    return str(script), log


def build_fails(x):
    return x * 2 + 1


def build_fails_fullgraph(x):
    return x * 3


def test_cxx_failure_runs_python_once_warned_and_is_not_retried(tmp_path, monkeypatch):
    from transpile import TranspileFallbackWarning
    from transpile import jit as plain_jit

    cxx, log = _failing_compiler(tmp_path)
    monkeypatch.setenv("CXX", cxx)
    f = plain_jit(build_fails)
    with pytest.warns(TranspileFallbackWarning, match="bug in transpile's code generation") as record:
        assert f(20) == 41
    assert "failed to compile" in str(record[0].message)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # warned once, then silent
        assert f(5) == 11
    with pytest.warns(TranspileFallbackWarning, match=r"for \(float\) failed"):  # its own attempt
        assert f(2.5) == 6.0
    assert log.read_text().count("run") == 2


def test_cxx_failure_under_fullgraph_raises_every_call_without_recompiling(tmp_path, monkeypatch):
    from transpile import CompileError

    cxx, log = _failing_compiler(tmp_path)
    monkeypatch.setenv("CXX", cxx)
    f = jit(build_fails_fullgraph)
    for _ in range(2):
        with pytest.raises(CompileError, match="injected failure"):
            f(4)
    assert log.read_text().count("run") == 1
