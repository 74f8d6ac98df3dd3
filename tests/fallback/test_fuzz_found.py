"""Fuzzer findings in functions with statements that run as Python: the
compiled function gives CPython's result or exception, and its C++ compiles."""
import copy
import warnings

import numpy as np
import pytest

from transpile import jit

from . import fuzz_found_funcs as funcs


def outcome(fn, args):
    try:
        with np.errstate(all="ignore"):
            return fn(*copy.deepcopy(args))
    except Exception as exc:  # noqa: BLE001 - the exception is the outcome
        return type(exc)


@pytest.mark.parametrize("i3_len", [1, 4])
def test_a_value_typed_only_in_a_later_pass_is_not_converted_to_float(i3_len):
    args = (np.array([-37, 2, -18, 2]), np.arange(1, i3_len + 1, dtype=np.int32),
            np.array([-37, -1, 12, 5], dtype=np.int32), True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = outcome(jit(funcs.stale_coerce), args)
    assert not [w for w in caught if "failed to compile" in str(w.message)]
    expected = outcome(funcs.stale_coerce, args)
    if isinstance(expected, type):
        assert got is expected
    else:
        for g, e in zip(got, expected):
            np.testing.assert_array_equal(g, e)
            assert g.dtype == e.dtype


@pytest.mark.parametrize("fn, args", [
    (funcs.unbound_read_by_python, (0.0, 12)), (funcs.unbound_read_by_python, (0.0, 120)),
    (funcs.unbound_not_read_on_this_path, (False, 12)), (funcs.unbound_not_read_on_this_path, (True, 12)),
    (funcs.unbound_not_read_on_this_path, (True, 120)),
])
def test_a_statement_running_as_python_reads_an_unassigned_variable(fn, args):
    """CPython's UnboundLocalError, raised by the statement itself, and only on
    the path where it reads the variable."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = outcome(jit(fn), args)
    assert got == outcome(fn, args) or (got is outcome(fn, args))
