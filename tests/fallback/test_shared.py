"""One object on both sides of a fallback: containers and instances that
statements running as Python mutate (differential against CPython)."""
import warnings

import numpy as np
import pytest

from tests.conftest import run_both
from tests.fallback import shared_funcs as sf
from transpile import jit
from transpile.errors import TranspileFallbackWarning, UnsupportedSyntaxError


def quiet(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        return fn(*args)


def test_container_filled_only_by_fallback_code():
    xs = np.arange(7.0)
    with pytest.warns(TranspileFallbackWarning) as record:
        got = sf.group(xs)
    assert got == sf.group.py_func(xs) == {0: [0, 3, 6], 1: [1, 4], 2: [2, 5]}
    text = " ".join(str(r.message) for r in record)
    assert "whole-function" not in text and "'d' is a container" in text  # the loop stays compiled
    assert "for (int64_t" in sf.group.inspect_cxx()


@pytest.mark.parametrize("n", [0, 4])
def test_mutations_in_fallback_reach_aliases_and_nested_containers(n):
    xs = np.linspace(0.0, 1.0, 5)
    got = quiet(run_both, sf.containers, xs, n)
    s, a, rows, size, total = got
    assert isinstance(total, float) and (n == 0 or {"0", "1"} <= s)
    assert rows[0] == [0.0] + [float(k) for k in range(n)]
    assert sf.containers.fallbacks()  # compiled, with regions (not a whole-function fallback)


def test_fallback_changing_the_element_type():
    got = quiet(run_both, sf.retyped, 3)
    assert got[0] == {0: "0.0", 1: "0.5", 2: "1.0"}


def test_instance_mutated_by_fallback_code():
    quiet(run_both, sf.instance_mutated, 5)
    b, expected = sf.Box(2.0), sf.Box(2.0)
    assert quiet(sf.instance_argument, b, 4) == sf.instance_argument.py_func(expected, 4)
    assert b.x == expected.x and b.data.tolist() == expected.data.tolist()


def test_list_parameter_reached_by_fallback_code_runs_in_cpython():
    got, expected = [1.0], [1.0]
    with pytest.warns(TranspileFallbackWarning, match="whole-function"):
        assert sf.extend_parameter(got, 3) == sf.extend_parameter.py_func(expected, 3)
    assert got == expected == [1.0, 0.0, 1.0, 2.0]  # the caller's own list


def test_fullgraph_reports_the_statement_not_the_sharing():
    strict = jit(sf.group.py_func, fullgraph=True)
    with pytest.raises(UnsupportedSyntaxError) as info:
        strict(np.arange(3.0))
    assert "setdefault" in str(info.value) and "is a container" not in str(info.value)
