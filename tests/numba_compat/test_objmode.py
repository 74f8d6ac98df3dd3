"""Numba's `with objmode(name=type):` blocks: they run as Python on purpose
inside a compiled function (no fallback reported, allowed by njit's
nopython), and their declared outputs come back typed."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from transpile.numba_compat import objmode

from ..conftest import run_both
from . import objmode_kernels as k


def test_outputs_come_back_typed_and_the_rest_compiles():
    a = np.arange(1.0, 13.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no JIT Fallback warning: the block is Python on purpose
        run_both(k.timed_sum, a)
        run_both(k.sorted_copy, np.array([3.0, -1.0, 7.5, 2.0]))
        run_both(k.per_row, np.arange(12.0).reshape(3, 4) ** 2)
    cxx = k.timed_sum.inspect_cxx()
    assert "for (int64_t" in cxx  # the loop is compiled, not the whole function run as Python
    assert k.timed_sum.fallbacks() == []


def test_a_value_of_another_type_raises_where_it_crosses():
    with pytest.raises(TypeError, match="objmode declares float but the statement produced str"):
        k.wrong_type(1.0)


def test_writes_not_declared_stay_python_objects():
    run_both(k.undeclared_write, 2)


def test_objmode_runs_as_a_plain_context_manager_in_cpython():
    with objmode(x="float64"):
        x = 1.5
    assert x == 1.5
    with pytest.raises(TypeError, match="objmode's type for 'x'"):
        objmode(x=3)
    with pytest.raises(TypeError, match="invalid signature"):
        objmode(x="flot64")
