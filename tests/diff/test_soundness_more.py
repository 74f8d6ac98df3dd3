"""Fuzzer findings of the third series (tests/fuzz/findings.md, classes
12-14) and what that series compiles: `and`/`or`/conditional expressions
whose operands are Python numbers on some paths and NumPy scalars on
others; the evaluation order of a returned tuple built as a Python object;
parameters held as Python objects; expressions of two types whose statement
runs as Python. CPython's value, type and exception at O0 and O1, with the
function compiled (never wholly run in CPython)."""
import warnings

import numpy as np
import pytest

from transpile import jit

from . import soundness_more_funcs as funcs
from .test_fuzz_found2 import outcome, same as same_exactly


def same(a, b):
    """test_fuzz_found2's comparison, with a NaN equal to a NaN of the same type."""
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, (float, np.floating)) and a != a:
        return type(a) is type(b) and b != b
    return same_exactly(a, b)


CASES = [
    (funcs.bool_over_int_or_int64, [(3, np.int64(2)), (0, np.int64(2)), (0, np.int64(0)), (5, np.int64(0)),
                                     (0, np.int64(-4))]),
    (funcs.or_assigned_then_returned, [(3.0, np.float64(2)), (0.0, np.float64(2)), (0.0, np.float64(0))]),
    (funcs.chosen_in_arithmetic, [(3.0, np.float64(2), 3), (0.0, np.float64(2), 1), (0.0, np.float64(0), 1),
                                  (0.0, np.float64(0), 5)]),
    (funcs.or_returned, [(3.0, np.float64(2)), (0.0, np.float64(2)), (-0.0, np.float64(0))]),
    (funcs.chain_of_three, [(0.0, 0.0, np.float64(0.25)), (0.0, 0.0, 0.0), (0.7, 0, np.float64(1)),
                            (0.0, np.float64(0.75), 3.0)]),
    (funcs.boxed_tuple_in_order, [(np.float64(-np.inf), np.float64(5e-324)), (np.float64(2.0), np.float64(0.0)),
                                  (np.float64(2.0), np.float64(1.0))]),
    (funcs.param_retyped, [(3, True), (3, False), (np.int64(3), True), (True, True)]),
    (funcs.choice_in_statements, [(3, 2.5, 3), (3, 2.5, 1), (2, 0.0, 1), (0, 1.5, 5), (3, np.float64(2.0), 0),
                                  (np.int32(2), 0.5, 2)]),
    (funcs.held_index_in_python_test, [(np.int64(1), np.array([12, 0, -8, 12]), np.int64(-37), np.array([5, 1, 100, -37])),
                                       (np.int64(-3), np.array([1, 0, 1]), np.int64(0), np.array([5, 1, 100]))]),
]


@pytest.mark.parametrize("level", ["O0", "O1"])
@pytest.mark.parametrize("fn, inputs", CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_python_or_numpy_scalar_by_path(fn, inputs, level):
    compiled = jit(fn, jit_level=level)
    for args in inputs:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's divide by zero
            expected = outcome(fn, args)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = outcome(compiled, args)
        assert got[0] == expected[0], (args, got, expected)
        assert same(got[1], expected[1]) if got[0] == "returns" else got[1] is expected[1], (args, got, expected)
        messages = [str(w.message) for w in caught]
        assert not [m for m in messages if "whole-function" in m or "failed to compile" in m], messages
    assert not compiled._python_mode, compiled._python_mode


@pytest.mark.parametrize("level", ["O0", "O1"])
def test_held_parameter_is_the_callers_object(level):
    compiled = jit(funcs.array_param_retyped, jit_level=level)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the statements naming `a` run as Python
        assert compiled(np.arange(3.0), True) == 3.0
        a = np.arange(3.0)
        assert compiled(a, False) is a
    assert a.tolist() == [7.0, 1.0, 2.0]
    assert not compiled._python_mode, compiled._python_mode


def test_scalar_operand_raises_before_the_array_operand():
    args = (0.0, np.array([12, 1, 7], dtype=np.int32))
    assert outcome(jit(funcs.scalar_then_array_operand), args) == outcome(funcs.scalar_then_array_operand, args)
