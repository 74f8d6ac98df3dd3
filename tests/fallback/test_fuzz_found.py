"""Fuzzer findings in functions with statements that run as Python: the
compiled function gives CPython's result or exception, and its C++ compiles."""
import copy
import warnings

import numpy as np
import pytest

from transpile import TranspileFallbackWarning, jit

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


@pytest.mark.parametrize("args", [(np.uint8(254), np.array([2**63, 5], dtype=np.uint64), True),
                                  (3, np.array([2, 5], dtype=np.uint64), False),
                                  (np.int8(0), np.array([0, 1]), True)])
def test_a_choice_between_values_of_unknown_type_keeps_their_type(args):
    """`(v if c else v) ** 0` with v from a statement that runs as Python: g++
    rejected the module (the value converted to float twice), and converted
    once it would have been a float where CPython gives np.int64(1) or 1: v is
    held as a Python object, as a plain `v ** 0` already was."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = outcome(jit(funcs.unknown_choice_meets_arithmetic), args)
    assert not [w for w in caught if "failed to compile" in str(w.message)]
    expected = outcome(funcs.unknown_choice_meets_arithmetic, args)
    for g, e in zip(got, expected):
        assert type(g) is type(e) and np.array_equal(g, e), (got, expected)
        assert getattr(g, "dtype", None) == getattr(e, "dtype", None)


@pytest.mark.parametrize("fn, args", [
    (funcs.type_left_by_an_earlier_pass, (np.array([100, 254, 100], dtype=np.uint8),)),
    (funcs.type_left_by_an_earlier_pass, (np.array([0, 254, 100], dtype=np.uint8),)),
    (funcs.unknown_assigned_to_a_typed_parameter, (np.int8(0), np.array([2, 0], dtype=np.uint8))),
    (funcs.unknown_assigned_to_a_typed_parameter_then_read, (np.int8(0), np.array([2, 0], dtype=np.uint8))),
    (funcs.unknown_assigned_to_a_typed_parameter_then_read, (7, np.array([2.5]))),
])
def test_compiled_code_never_guesses_the_type_of_a_value_from_python(fn, args):
    """A variable whose value comes from a statement that runs as Python
    keeps that value's own type: a type left by a typing pass in which the
    statement still compiled (a uint8 array where Python made int32) and a
    typed variable assigned the value (an int8 parameter given an array)
    raised TypeError where CPython returns."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = outcome(jit(fn), args)
    assert not [w for w in caught if "failed to compile" in str(w.message)]
    expected = outcome(fn, args)
    assert type(got) is type(expected), (got, expected)
    if not isinstance(expected, type):
        np.testing.assert_array_equal(got, expected)
        assert got.dtype == expected.dtype


def _roll(g):
    return np.roll(g, [1])  # not compiled (a list shift): the helper's return runs as Python


def _add_rolled(g):
    return g + _roll(g)


def _scale_rolled(g):
    return 2.0 * _roll(g)


@pytest.mark.parametrize("fn", [_add_rolled, _scale_rolled])
def test_a_helpers_result_from_python_is_not_guessed_to_be_a_float(fn):
    """The helper gives an array made by Python; compiled code used to convert
    it with the "unknown is float64" rule and raise TypeError.  The statement
    that meets it runs as Python instead, with CPython's result."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        got = jit(fn)(np.arange(4.0))
    expected = fn(np.arange(4.0))
    assert type(got) is type(expected) and got.dtype == expected.dtype and np.array_equal(got, expected)
