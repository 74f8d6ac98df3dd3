"""JIT Fallback: statements outside the compiled subset run as Python,
differentially checked against CPython; @jit.typing; fullgraph; reports."""
from __future__ import annotations

import inspect
import traceback
import warnings

import numpy as np
import pytest

import transpile
from transpile import AnnotationError, TranspileFallbackWarning, UnsupportedSyntaxError, jit
from transpile.diagnostics import FunctionNotCompilable

from . import fallback_funcs as ff
from ..conftest import run_both

FILE = "fallback_funcs.py"


def line_of(fn, text):
    src, first = inspect.getsourcelines(fn)
    for i, line in enumerate(src):
        if text in line:
            return first + i
    raise AssertionError(text)


def quiet(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        return fn(*args)


def test_fallback_inside_a_compiled_loop():
    a = np.arange(6.0)
    with pytest.warns(TranspileFallbackWarning):
        got = ff.median_loop(a, 6)
    expected = ff.median_loop.py_func(a, 6)
    assert got == expected and type(got) is type(expected)  # np.float64: the median is an item of the list
    records = {r["line"]: r["reason"] for r in ff.median_loop.fallbacks()}
    assert "list" in records[line_of(ff.median_loop, "statistics.median")]  # np.float64 and float items
    # m's type is not known to compiled code, so the statements naming it (and then s) run as Python too
    assert "'m' is a Python object" in records[line_of(ff.median_loop, "s += m")]
    assert "'s' is a Python object" in records[line_of(ff.median_loop, "return s")]


@pytest.mark.parametrize("flag", [3, -2])
def test_fallback_in_one_branch(flag):
    quiet(run_both, ff.branchy, np.arange(4.0), flag)


def test_region_writes_arrays_in_place():
    a = np.arange(5.0)
    out = quiet(ff.scale_in_place, a, 3.0)
    expected = ff.scale_in_place.py_func(np.arange(5.0), 3.0)
    assert out is a
    np.testing.assert_array_equal(a, expected)


def test_any_list_flows_between_statements_and_returns_unchanged():
    got = quiet(ff.list_flow, 4)
    assert got == [0, 1, 4, 9, 4] and type(got) is list


def test_any_meets_compiled_arithmetic_as_float64():
    assert quiet(ff.list_then_number, 5) == 5.0
    a = np.array([3.0, 1.0, 2.0])
    got = quiet(ff.any_to_float, a)
    assert got == ff.any_to_float.py_func(a) and isinstance(got, float)


def test_value_of_unknown_type_is_used_by_python_not_converted():
    # `word + 1` runs as Python (word's type is not known to compiled code): CPython's own TypeError
    with pytest.raises(TypeError, match=r"can only concatenate str \(not \"int\"\) to str"):
        quiet(ff.any_bad_conversion, 2)


@pytest.mark.parametrize("fn, arg, expected", [
    (ff.annotated_float32, np.arange(4.0), np.float32(3.0)),
    (ff.annotated_int, np.array([1.0, -1.0, 2.0]), np.int64(3)),
    (ff.annotated_bool, np.array([1.0, 3.0]), True),
    (ff.annotated_complex, 2.0, complex(2.0, 1.0) ** 0.5 * 2),
])
def test_scalar_annotations(fn, arg, expected):
    got = quiet(fn, arg)
    assert type(got) is type(expected)
    assert got == pytest.approx(expected)


def test_array_annotations():
    np.testing.assert_array_equal(quiet(ff.annotated_array, 4), np.arange(4.0) * 2)
    got = quiet(ff.annotated_tensor, 3)
    assert got.dtype == np.float32 and got.tolist() == [1.0, 2.0, 3.0]
    np.testing.assert_array_equal(quiet(ff.annotated_2d, 3), np.array([3.0, 6.0]))
    got = quiet(ff.annotated_name, 3)
    assert type(got) is np.float32 and got == 3.5


def test_mismatched_annotation_names_line_and_types():
    line = line_of(ff.mismatched, "@jit.typing")
    with pytest.raises(TypeError, match=rf"{FILE}:{line}: @jit.typing declares float32 but the statement produced "
                                        r"str"):
        quiet(ff.mismatched, 2)


def test_malformed_annotation_shows_the_right_form():
    with pytest.raises(AnnotationError, match=r"malformed @jit.typing comment") as info:
        quiet(ff.malformed, 1)
    assert "# @jit.typing: () -> float32" in str(info.value)
    assert f"{FILE}:{line_of(ff.malformed, '@jit.typing')}" in str(info.value)


def test_exception_from_fallback_reaches_caller_unchanged():
    a = np.ones(2)
    with pytest.raises(KeyError) as info:
        quiet(ff.raises_inside, a)
    with pytest.raises(KeyError) as expected:
        ff.raises_inside.py_func(a)
    assert str(info.value) == str(expected.value)
    frames = traceback.extract_tb(info.tb)
    assert frames[-1].filename.endswith(FILE)
    assert frames[-1].lineno == line_of(ff.raises_inside, 'd["missing"]')
    assert frames[-1].name == "raises_inside"


def test_globals_are_live_in_fallback_and_in_compiled_code(monkeypatch):
    assert quiet(ff.reads_global_live, 1.0) == 4.0
    monkeypatch.setattr(ff, "SCALE", 10.0)
    # g = SCALE * 1 is compiled (frozen, respecialized when SCALE is rebound); [SCALE][0] runs as Python
    assert quiet(ff.reads_global_live, 1.0) == 20.0


def test_neighbouring_statements_form_one_region():
    a = np.array([2.0, 5.0, 1.0])
    assert quiet(ff.neighbours, a) == ff.neighbours.py_func(a)
    cxx = ff.neighbours.inspect_cxx()
    assert cxx.count("tr::call_region(") == 1
    assert "runs as Python (JIT Fallback)" in cxx
    assert len(ff.neighbours.fallbacks()) == 5  # `return top + a[0]` too: top's type is not known


def test_warning_lists_exactly_the_fallen_back_lines():
    @jit
    def local(a):
        b = a * 2
        c = sorted(b.tolist())
        d = b.sum()
        e = {"x": d}.popitem()
        return d + 1.0

    with pytest.warns(TranspileFallbackWarning) as record:
        assert local(np.arange(3.0)) == local.py_func(np.arange(3.0))
    (w,) = [r for r in record if issubclass(r.category, TranspileFallbackWarning)]
    text = str(w.message)
    lines = [int(part.split(":")[1]) for part in text.splitlines()[1:-1]]
    assert lines == [line_of(local, "c = sorted"), line_of(local, "e = {")]
    # Loading from the cache is not a compilation: no second warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error", TranspileFallbackWarning)
        local(np.arange(3.0))


def test_whole_function_fallback_for_generators():
    with pytest.warns(TranspileFallbackWarning, match="runs in CPython"):
        assert list(ff.gen(3)) == [0, 1, 2]
    with pytest.warns(TranspileFallbackWarning, match="runs in CPython"):
        assert list(ff.whole_generator(2)) == [0, 1]


def test_fullgraph_reports_every_construct_with_its_line():
    strict = jit(ff.fullgraph_many.py_func, fullgraph=True)
    with pytest.raises(UnsupportedSyntaxError) as info:
        strict(np.ones(2))
    msg = str(info.value)
    for text, construct in [("xs = lambda *a: 1", "lambda"), ("with open", "with statement"),
                            ("d = {1: 2}.popitem()", "popitem")]:
        assert f"{FILE}:{line_of(ff.fullgraph_many, text)}:" in msg
        assert construct in msg
    assert len(info.value.errors) == 3
    assert "^" in msg


def test_fullgraph_for_unsupported_calls_and_arguments():
    strict = jit(ff.median_loop.py_func, fullgraph=True)
    with pytest.raises(UnsupportedSyntaxError, match=rf"{FILE}:{line_of(ff.median_loop, 'statistics.median')}:"):
        strict(np.arange(3.0), 3)
    with pytest.raises(TypeError, match="argument 'a'"):
        strict(object(), 1)


def test_complex_ufuncs_without_a_compiled_loop_fall_back_with_the_reason():
    z = np.array([1 + 2j, -0.5 + 0.25j, 3 - 1j])
    w = np.array([1 + 3j, -0.5 + 0.5j, 2 + 9j])
    with pytest.warns(TranspileFallbackWarning, match=r"np.sin\(\) of complex values is not compiled yet"):
        run_both(ff.complex_trig, z, w)  # values, dtypes and types equal CPython's
    reasons = {r["line"]: r["reason"] for r in ff.complex_trig.fallbacks()}
    assert set(reasons) == {line_of(ff.complex_trig, t) for t in ("np.sin(z)", "np.arctan", "np.log10")}


def _sum_and_dtype(a):
    return a.sum(), a.dtype


def test_a_result_that_cannot_cross_into_python_runs_the_call_in_cpython():
    """A dtype in the result was an InternalError (a TypeError from the result's descriptor); now the call runs
    in CPython with a warning, and fullgraph=True says why at the function."""
    with pytest.warns(TranspileFallbackWarning):
        assert jit(_sum_and_dtype)(np.arange(3)) == _sum_and_dtype(np.arange(3))
    with pytest.raises(FunctionNotCompilable, match="cannot hand to Python"):
        jit(_sum_and_dtype, fullgraph=True)(np.arange(3))
