"""Plain Python helpers compile with their caller (issue 7): same module,
another module, three deep, recursive; a helper that cannot be compiled runs
as Python alone; a helper's source change invalidates the caller's entry."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

from transpile import TranspileFallbackWarning

from ..conftest import run_both
from .helper_mods import kernels as k

POINTS = np.array([[3.0, 4.0, 0.0], [0.0, 0.0, 0.0], [1.0, 2.0, 2.0]])


def test_helper_in_another_module():
    run_both(k.total_length, POINTS)
    assert k.total_length.fallbacks() == []
    assert "length_" in k.total_length.inspect_cxx() and "dot3_" in k.total_length.inspect_cxx()


@pytest.mark.parametrize("lo, hi", [(-0.5, 0.5), (0.0, 1.0)])
def test_helpers_three_deep(lo, hi):
    run_both(k.clamped_units, POINTS, lo, hi)
    assert k.clamped_units.fallbacks() == []


def test_recursive_helper():
    run_both(k.recursive_helper, 15)
    assert k.recursive_helper.fallbacks() == []


def test_uncompilable_helper_falls_back_alone():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        run_both(k.generator_helper, 5)
    (record,) = k.generator_helper.fallbacks()
    assert "squares" in record["source"]


PROJECT_A = '''
def helper(x):
    return x * {factor}
'''
PROJECT_B = '''
from transpile import jit
from helper_mod import helper

@jit
def caller(x):
    return helper(x) + 1.0
'''
RUN = '''
import json
import caller_mod
import transpile.dispatcher as d
print(json.dumps([caller_mod.caller(2.0), d.COMPILE_COUNT]))
'''


def test_helper_change_invalidates_the_caller(tmp_path):
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(tmp_path / "cache"), PYTHONDONTWRITEBYTECODE="1")

    def run(factor):
        (tmp_path / "helper_mod.py").write_text(PROJECT_A.format(factor=factor))
        (tmp_path / "caller_mod.py").write_text(PROJECT_B)
        (tmp_path / "run.py").write_text(RUN)
        out = subprocess.run([sys.executable, "run.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                             timeout=120)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)

    assert run(3.0) == [7.0, 1]
    assert run(3.0) == [7.0, 0]
    assert run(5.0) == [11.0, 1]


@pytest.mark.parametrize("factor", [2.0, -1.5])
def test_closure_over_locals_compiles(factor):
    with warnings.catch_warnings():
        warnings.simplefilter("error", TranspileFallbackWarning)  # nothing is reported as a fallback
        run_both(k.closure_sum, np.arange(5.0), factor)
    assert "scaled_" in k.closure_sum.inspect_cxx()
    assert k.closure_sum.fallbacks() == []
