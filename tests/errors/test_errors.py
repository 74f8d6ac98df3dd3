"""Errors users meet: each names the user's file:line:col, shows the line with
a caret, and says what to do; bad options and arguments raise the standard
Python exception types."""
from __future__ import annotations

import os
import re

import numpy as np
import pytest

import transpile
from transpile import CompileError, TypingError, UnsupportedSyntaxError, jit
from transpile.importhook import NoCompilerWarning
from transpile.build import toolchain

HERE = os.path.basename(__file__)


def uses_lambda(a):
    xs = lambda *a: 1  # noqa: E731 - a construct outside the compiled subset (lambda: 1 compiles)
    return a + 1


def two_problems(a):
    with open("x") as f:
        pass
    return lambda: a


def mixes_types(a, n):
    x = a
    if n > 0:
        x = 1.5
    return x


def calls_unknown(a):
    return os.getpid() + a


def line_of(fn, text):
    import inspect

    lines, first = inspect.getsourcelines(fn)
    for i, line in enumerate(lines):
        if text in line:
            return first + i
    raise AssertionError(text)


def test_unsupported_syntax_points_at_the_line():
    f = jit(uses_lambda, fullgraph=True)
    with pytest.raises(UnsupportedSyntaxError) as info:
        f(1.0)
    msg = str(info.value)
    line = line_of(uses_lambda, "xs = lambda *a: 1")
    assert f"{HERE}:{line}:10: error: lambda with default, keyword-only or star parameters is not supported" in msg
    assert "fullgraph=True" in msg
    assert "xs = lambda *a: 1  # noqa: E731 - a construct outside the compiled subset (lambda: 1 compiles)\n" \
           "         ^^^^^^^^^^^^" in msg
    assert "hint:" in msg
    assert info.value.loc.line == line


def test_all_errors_of_a_function_are_reported_together():
    f = jit(two_problems, fullgraph=True)
    with pytest.raises(UnsupportedSyntaxError) as info:
        f(1.0)
    msg = str(info.value)
    assert f"{HERE}:{line_of(two_problems, 'with open')}:" in msg
    assert f"{HERE}:{line_of(two_problems, 'return lambda: a')}:" in msg
    assert len(info.value.errors) == 2


def test_typing_conflict_is_reported_with_location_under_fullgraph():
    f = jit(mixes_types, fullgraph=True)
    with pytest.raises(UnsupportedSyntaxError) as info:
        f(np.zeros(3), 1)
    assert f"{HERE}:{line_of(mixes_types, 'x = 1.5')}:" in str(info.value)
    assert "incompatible types" in str(info.value)


def test_typing_conflict_runs_the_function_in_cpython_and_names_the_variable():
    """x is an array or a float by path: compiled code would hand one of them
    the other's type, so the function runs in CPython and gives its results
    on both paths (it used to raise TypeError on the float path)."""
    f = jit(mixes_types)
    with pytest.warns(transpile.TranspileFallbackWarning, match=r"'x' may be .* depending on the path taken"):
        assert f(np.zeros(3), 1) == 1.5
    np.testing.assert_array_equal(f(np.zeros(3), 0), np.zeros(3))


def test_call_to_unsupported_function():
    f = jit(calls_unknown, fullgraph=True)
    with pytest.raises(UnsupportedSyntaxError, match=r"call to .*getpid is not supported"):
        f(1)


@pytest.mark.parametrize("option, value", [("jit_level", "O3"), ("capture_mode", "graph"), ("backend", "gpu")])
def test_invalid_option_values(option, value):
    with pytest.raises(ValueError, match=f"{option}={value!r} is not valid; choose one of"):
        jit(**{option: value})


def test_unknown_option():
    """mindspore.jit passes **options to its backends: unknown ones are a warning, not an error."""
    from transpile.options import OptionWarning

    with pytest.warns(OptionWarning, match="option\\(s\\) fast are ignored"):
        jit(fast=True)


@pytest.mark.parametrize("value", ["ast", "bytecode", "trace"])
def test_capture_modes_are_accepted(value):  # each is tested in tests/capture
    assert jit(capture_mode=value)(lambda x: x).options.capture_mode == value


def test_jit_needs_a_function():
    with pytest.raises(TypeError, match="can only decorate Python functions"):
        jit(42)


@jit(fullgraph=True)
def plus_one(x):
    return x + 1


@pytest.mark.parametrize("value, tname", [({1, 2}, "set"), ({"a": 1}, "dict"), (object(), "object")])
def test_unsupported_argument_types(value, tname):
    with pytest.raises(TypeError, match=rf"plus_one\(\): argument 'x': values of type '{tname}' are not supported"):
        plus_one(value)


def test_unsupported_array_dtype_and_byteorder():
    with pytest.raises(TypeError, match="dtype"):
        plus_one(np.array(["a"]))
    with pytest.raises(TypeError, match="byte order"):
        plus_one(np.arange(3, dtype=">f8"))


@jit
def twice(x):
    return x * 2


def test_unsupported_argument_types_run_in_python_with_a_warning():
    with pytest.warns(transpile.TranspileFallbackWarning, match="twice runs in CPython"):
        assert twice([]) == []  # an empty list has no element type to compile for
    assert twice([1, 2]) == [1, 2, 1, 2]  # a list of ints compiles
    assert twice("ab") == "abab"
    assert twice(np.arange(3, dtype=">f8")).tolist() == [0.0, 2.0, 4.0]
    assert twice(1.5) == 3.0  # supported types still compile


def test_wrong_number_of_arguments():
    with pytest.raises(TypeError, match="plus_one"):
        plus_one(1, 2)


def test_int_too_large():
    with pytest.raises(OverflowError):
        plus_one(2**70)


def test_missing_compiler(monkeypatch, tmp_path):
    monkeypatch.setenv("CXX", "definitely-not-a-compiler")
    monkeypatch.setenv("TRANSPILE_CACHE", "0")

    @jit
    def local_add(x):
        return x * 2

    @jit(fullgraph=True)
    def local_strict(x):
        return x * 2

    # one policy (importhook.no_compiler): the function runs as Python with a warning naming the remedy ...
    with pytest.warns(NoCompilerWarning, match="no C\\+\\+ compiler found.*apt-get install g\\+\\+"):
        assert local_add(1.5) == 3.0
    # ... and fullgraph=True raises
    with pytest.raises(CompileError, match="no C\\+\\+ compiler found") as info:
        local_strict(1.0)
    assert "hint:" in str(info.value)


def test_cxx_errors_map_to_the_python_line(tmp_path):
    src = tmp_path / "module.cpp"
    src.write_text("int f() {\n    // kern.py:12  y = x + 1\n    return undefined_name;\n}\n")
    stderr = f"{src}:3:12: error: 'undefined_name' was not declared in this scope\n"
    err = toolchain._compile_error(stderr, str(src))
    assert isinstance(err, CompileError)
    assert err.loc.filename == "kern.py" and err.loc.line == 12
    assert re.search(r"kern.py:12:1: error: the generated C\+\+ failed to compile", str(err))


def test_public_error_classes():
    assert issubclass(TypingError, TypeError)
    assert issubclass(UnsupportedSyntaxError, transpile.TranspileError)


def _count_long_words(words):
    n = 0
    for w in words:
        if len(w) > 3:
            n += 1
    return n


def test_a_list_argument_of_what_cannot_cross_runs_in_cpython_or_errors_under_fullgraph():
    """A list of str compiles (tests/diff/test_str_lists.py); one whose
    elements cannot cross (dicts) is a whole-function fallback naming the
    argument, and under fullgraph an UnsupportedArgumentError; never an
    internal error."""
    import warnings as _w

    from transpile import TranspileFallbackWarning
    from transpile.diagnostics import UnsupportedArgumentError

    with _w.catch_warnings():
        _w.simplefilter("error")
        assert jit(_count_long_words)(["a", "abcd", "hello"]) == 2
    with pytest.warns(TranspileFallbackWarning, match="argument 'words': values of type 'dict'"):
        assert jit(_count_long_words)([{1: 2}, {1: 2, 3: 4, 5: 6, 7: 8}]) == 1
    with pytest.raises(UnsupportedArgumentError, match="values of type 'dict'"):
        jit(_count_long_words, fullgraph=True)([{1: 2}])


def _untypable_on_a_path(n):
    xs = []
    if n > 5:
        y = xs[0]  # an element of a list that never gets one: no type to give it
        return y
    return n


def test_a_function_whose_types_do_not_settle_runs_in_cpython():
    """A typing error about the whole function (not one statement) is a
    whole-function fallback, not an error the call raises: CPython's results."""
    from transpile import TranspileFallbackWarning
    from transpile.diagnostics import TypingError

    with pytest.warns(TranspileFallbackWarning, match="cannot determine the type of this expression"):
        assert jit(_untypable_on_a_path)(1) == 1
    with pytest.raises(IndexError):
        jit(_untypable_on_a_path)(7)
    with pytest.raises(TypingError, match="cannot determine the type"):
        jit(_untypable_on_a_path, fullgraph=True)(1)
