"""Fuzzer findings of the second series (tests/fuzz/findings.md, classes 7-9),
as differential tests: CPython's value, type, exception and globals, at O0
and O1, wherever parts of the function run as Python."""
import copy
import math
import warnings

import numpy as np
import pytest

from transpile import TranspileFallbackWarning, jit

from . import fuzz_found_funcs2 as funcs


def outcome(fn, args):
    try:
        return "returns", fn(*copy.deepcopy(args))
    except Exception as exc:  # noqa: BLE001 - the exception is the result compared
        return "raises", type(exc)


def same(a, b):
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    return type(a) is type(b) and (a == b or a != a and b != b)  # NaN is NaN


@pytest.mark.parametrize("level", ["O0", "O1"])
@pytest.mark.parametrize("fn, args", [
    (funcs.rebound_then_unused, (-3, np.arange(2.0))), (funcs.rebound_then_unused, (3, np.arange(2.0))),
    (funcs.unread_fallback_result, (np.arange(2.0), False)), (funcs.unread_fallback_result, (np.arange(2.0), True)),
    (funcs.unknown_value_meets_arithmetic, (np.arange(3.0),)),
    (funcs.unknown_type_accumulated, (np.arange(3.0), 3)), (funcs.unknown_type_accumulated, (np.arange(3.0), 0)),
    (funcs.int_or_float_index, (np.arange(3.0), False)), (funcs.int_or_float_index, (np.arange(3.0), True)),
    (funcs.int_or_float_call, (False,)), (funcs.int_or_float_call, (True,)),
    (funcs.global_counter, (3, 4)), (funcs.global_counter, (1.5, 0)),
    (funcs.global_rebound_to_float, (3,)),
    (funcs.unbound_after_region, (1, 0)), (funcs.unbound_after_region, (1, 1)),
    (funcs.unbound_operand_order, (False,)),
    (funcs.early_return_after_python_test, (np.arange(5.0) + 1, 4)),
    (funcs.early_return_after_python_test, (np.arange(5.0) + 3, 4)),
    (funcs.or_of_int_and_int32, (12,)),
    (funcs.unbound_object_before_index, (1, np.array([100], dtype=np.uint64))),
    (funcs.unbound_object_before_index, (9, np.array([100, 7], dtype=np.uint64))),
    (funcs.container_operand_before_index, (2, np.arange(2.0))),
    (funcs.container_operand_before_index, (1, np.arange(2.0))),
    (funcs.container_operand_before_index, (1, np.arange(6.0))),
    (funcs.python_float_or_np_float64_into_python, (np.int32(1),)),
    (funcs.python_float_or_np_float64_into_python, (np.int32(2),)),
    (funcs.max_of_python_float_and_np_float64, (0.0, np.float64(-1.0))),
    (funcs.max_of_python_float_and_np_float64, (-1.0, np.float64(0.5))),
    (funcs.max_of_python_float_and_np_float64, (np.float64(2.0), 1.0)),
    (funcs.max_of_python_float_and_np_float64, (np.float64(2.0), np.float64(3.0))),
    (funcs.max_returned, (0.5, np.float64(0.25))), (funcs.max_returned, (0.25, np.float64(0.5))),
    (funcs.max_returned, (np.float64(3.0), 0.5)),
    (funcs.flag_from_a_float32_variable, (np.float64(0.5), 5e-324, np.array([np.inf], dtype=np.float32))),
    (funcs.flag_from_a_float32_variable, (np.float64(0.5), 1.5, np.array([2.5], dtype=np.float32))),
    (funcs.truth_of_a_value_from_python, (np.uint8(7), 1.0)),
    (funcs.truth_of_a_value_from_python, (np.uint8(100), float("inf"))),
    (funcs.truth_of_a_value_from_python, (np.uint8(254), 4.0417636314135095)),
    (funcs.parameter_beside_another_type, (np.float64(5.0), float("nan"))),
    (funcs.parameter_beside_another_type, (np.float64(5.0), 2.5)),
    (funcs.parameter_beside_another_type, (np.float64(-5.0), 2.5)),
])
def test_fuzz_finding(fn, args, level):
    funcs.COUNTER = 2
    expected = outcome(fn, args)
    expected_global = funcs.COUNTER
    funcs.COUNTER = 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = outcome(jit(fn, jit_level=level), args)
    assert got[0] == expected[0] and (same(got[1], expected[1]) if got[0] == "returns" else got[1] is expected[1])
    assert same(funcs.COUNTER, expected_global)
    messages = [str(w.message) for w in caught]
    assert not [m for m in messages if "failed to compile" in m], messages
    if fn is not funcs.or_of_int_and_int32:  # an expression of two types: the function runs in CPython
        assert not [m for m in messages if "whole-function" in m], messages


def test_a_path_conflict_holds_only_that_variable():
    """The variable becomes a Python object; the rest of the function stays compiled."""
    fn = jit(funcs.unknown_type_accumulated)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fn(np.arange(3.0), 3)
    lines = {r["line"]: r["reason"] for r in fn.fallbacks()}
    first = funcs.unknown_type_accumulated.__code__.co_firstlineno
    assert sorted(lines) == [first + 1, first + 3, first + 4, first + 5]  # t = 0.0, w = ..., t += w, return t
    assert "operator.pos" in lines[first + 3]  # its own reason
    assert "'w' is a Python object" in lines[first + 4] and "'t' is a Python object" in lines[first + 5]


def test_a_maybe_array_stored_in_an_array_variable_runs_as_python():
    """Not a C++ compile error (a bug report): the conditional expression and
    the store of its value (of unknown type to compiled code) run as Python,
    each said as such; the rest of the function stays compiled."""
    a, b = np.arange(1.0, 4.0), np.arange(2.0, 5.0)
    jitted = jit(funcs.array_variable_given_a_maybe_array)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for c in (1, -1, 7, -7):
            expected = outcome(funcs.array_variable_given_a_maybe_array, (a, b, c))
            got = outcome(jitted, (a, b, c))
            assert got[0] == expected[0] and same(got[1], expected[1])
    messages = [str(w.message) for w in caught]
    assert not [m for m in messages if "failed to compile" in m], messages
    assert [m for m in messages if "v2 = v3" in m and "a value of unknown type" in m], messages
    assert not [m for m in messages if "runs in CPython" in m], messages


def _scaled_by_path_typed(a, k):
    v = 2.0
    if k:
        v = np.float64(3.0)
    a *= a / v  # float32 / 2.0 is float32, / np.float64 float64: no single computation
    return a


@pytest.mark.parametrize("k", [0, 1])
def test_array_beside_a_path_typed_number_is_not_an_internal_error(k):
    """Fuzz 10601 #99: an array operand beside a number that is a Python float or an
    np.float64 by path reached the scalar-only rules (AttributeError: 'Array' has no
    'weak', an internal error); now the statement runs as Python, with CPython's values."""
    a = np.array([1.5, 2.25, -3.0], np.float32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = jit(_scaled_by_path_typed)(a.copy(), k)
    expected = _scaled_by_path_typed(a.copy(), k)
    assert got.dtype == expected.dtype and got.tobytes() == expected.tobytes()
    assert not [w for w in caught if "internal error" in str(w.message)]


def _abs_beside_a_return_from_python(x, k):
    if k:
        return np.roll(x, [1])  # runs as Python (a list shift): every return site boxes its own value
    w = 2
    return abs(w < np.uint64(7)), abs(np.True_), abs(True), w


def test_a_boxed_result_keeps_its_type_not_the_cxx_expressions():
    """Fuzz 10801 #530: abs() of an np.bool_ is an int in C++, an np.bool_ in Python;
    a boxed return site gave np.int64(1) (and 1 for abs(np.True_))."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        got = jit(_abs_beside_a_return_from_python)(np.arange(3.0), 0)
    expected = _abs_beside_a_return_from_python(np.arange(3.0), 0)
    assert [type(g) for g in got] == [type(e) for e in expected] and got == expected


def _boxed_items_in_order(a, k):
    if k > 5:
        return np.roll(a, [1])  # runs as Python (a list shift): the other return boxes its items
    if k:
        i = 1
    return (i // a), (np.int32(1099511627776) + a)  # i unbound when k == 0: that error comes first


def test_a_boxed_tuples_items_raise_in_pythons_order():
    """Fuzz 10801 #1622: the items of a boxed tuple are a C++ call's arguments, whose order
    is open; two array items that may raise were left unordered (GCC evaluated the
    second first: OverflowError where CPython raises UnboundLocalError)."""
    a = np.arange(1, 4, dtype=np.uint8)
    with pytest.raises(UnboundLocalError):
        _boxed_items_in_order(a, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        with pytest.raises(UnboundLocalError):
            jit(_boxed_items_in_order)(a, 0)


def _compare_of_two_raising_operands(a, x, c):
    if c:
        v = np.complex128(-1.5) - a[-1]
    return (np.uint32(7) / v) == a[x]  # v unbound when not c: that error comes first


def test_a_comparisons_operands_raise_in_pythons_order():
    """Fuzz 11301 #920: `==` of two operands that may raise left their order to C++ (GCC
    evaluated the right one first: IndexError where CPython raises UnboundLocalError)."""
    a = np.array([12, 0, -8], dtype=np.int32)
    with pytest.raises(UnboundLocalError):
        _compare_of_two_raising_operands(a, 100, False)
    with pytest.raises(UnboundLocalError):
        jit(_compare_of_two_raising_operands, fullgraph=True)(a, 100, False)
    assert jit(_compare_of_two_raising_operands)(a, 1, True) == _compare_of_two_raising_operands(a, 1, True)


def _nan_sign_of_a_division_by_zero(x):
    v = np.float64(0.0)
    return math.copysign(1.0, v % v), math.copysign(x, 1.0 % x), math.copysign(1.0, np.float64(0.0) // x)


def test_nans_of_divisions_by_zero_keep_the_cpus_sign():
    """Fuzz 10901 #416 and 11401 #2068: in the branch that knows the divisor is 0, GCC folded
    fmod and the division into a positive NaN, where the CPU (and so NumPy and CPython) makes
    x86's default NaN, whose sign bit is set: math.copysign showed it."""
    for x in (np.uint16(0), np.float64(0.0), np.int8(0)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            expected = _nan_sign_of_a_division_by_zero(x)
            got = jit(_nan_sign_of_a_division_by_zero, fullgraph=True)(x)
        assert [math.copysign(1.0, g) for g in got] == [math.copysign(1.0, e) for e in expected], (x, got, expected)


def _narrow_check_after_an_unbound_operand(a, c):
    if c:
        v = a[0] + np.int8(100)  # an np.int8
    return v % 1099511627776  # NumPy's OverflowError, but only once v is read


def _round_of_an_array_by_path(a, c):
    v = 3.5
    if c:
        v = a
    return round(v)


def test_a_python_int_checked_against_a_narrow_dtype_raises_after_the_other_operand():
    """Fuzz 11901 #1071: `v % 1099511627776` with v an np.int8 that may be unbound:
    CPython reads v first (UnboundLocalError); compiled code checked the literal
    against int8 first (OverflowError), C++ leaving the order of arguments open."""
    a = np.array([7], dtype=np.int8)
    for fn in (_narrow_check_after_an_unbound_operand, jit(_narrow_check_after_an_unbound_operand)):
        with pytest.raises(UnboundLocalError):
            fn(a, False)
        with pytest.raises(OverflowError, match="out of bounds for int8"):
            fn(a, True)


def test_round_of_a_value_that_may_be_an_array_is_refused_not_crashed():
    """Fuzz 11901 #854: round() of an array-or-float variable crashed the translation
    (an AttributeError while writing the refusal's message)."""
    from transpile.diagnostics import InternalError

    with pytest.raises(Exception, match="doesn't define __round__ method") as refused:
        jit(lambda a: round(a), fullgraph=True)(np.zeros(2))
    assert not isinstance(refused.value, InternalError)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = jit(_round_of_an_array_by_path)
        assert f(np.zeros(2), False) == 4
        with pytest.raises(TypeError):
            f(np.zeros(2), True)
