"""A break, continue or return inside a statement that runs as Python is
carried out by compiled code (passes/exits.py, cxx/lower_regions.py): the
function stays compiled (it ran wholly in CPython before) and gives
CPython's values, types, exceptions and in-place effects."""
import inspect
import warnings

import numpy as np
import pytest

from transpile import TranspileFallbackWarning, UnsupportedSyntaxError, jit

from . import region_exit_funcs as funcs
from ..conftest import run_both


def line_of(fn, text):
    src, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(src) if text in line)


def compiled_runs(fn, cases):
    """Runs every case compiled and in CPython; returns the dispatcher, which
    must hold a compiled specialization (no whole-function fallback)."""
    jitted = jit(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        for args in cases:
            run_both(jitted, *args)
    assert not jitted._python_mode, jitted._python_mode
    return jitted


def fallback_lines(jitted):
    return {r["line"] for r in jitted.fallbacks()}


def test_return_from_a_loop_that_runs_as_python():
    # an int (from Python) beside a float (compiled); 0 returns the float without a return inside
    jitted = compiled_runs(funcs.loop_return, [(np.arange(5.0), k) for k in (0.5, 0.0, 3.0, -1.0)])
    assert line_of(funcs.loop_return, "for j in itertools") in fallback_lines(jitted)
    # an array from Python beside a compiled view of the argument
    jitted = compiled_runs(funcs.returns_array, [(np.arange(5.0), k) for k in (0.5, 3.5, 99.0)]
                           + [(np.array([1.0, np.nan, 2.0]), 99.0)])
    assert line_of(funcs.returns_array, "out[0] += a[i]") not in fallback_lines(jitted)


def test_break_and_continue_of_compiled_loops():
    # try/finally in a compiled for: `finally` runs before the break/continue, and a break skips `else`
    jitted = compiled_runs(funcs.for_break_continue, [(np.arange(5.0), k) for k in (2.5, 9.0, -1.0, 0.5)])
    assert fallback_lines(jitted) >= {line_of(funcs.for_break_continue, "try:")}
    assert line_of(funcs.for_break_continue, "for i in range") not in fallback_lines(jitted)
    # in a compiled while with an else; the except clause returns an int beside a tuple
    compiled_runs(funcs.while_exits, [(np.arange(6.0), 2), (np.arange(3.0), 5), (np.arange(6.0), 0),
                                      (np.arange(9.0), 7)])


def test_nested_loops_and_loop_else():
    # the region's own break leaves its own loop; a break in its else clause leaves the compiled loop
    jitted = compiled_runs(funcs.nested_loops, [(np.arange(3.0), k) for k in (0, 1, 2, 7, 500)])
    assert line_of(funcs.nested_loops, "for i in range(3)") not in fallback_lines(jitted)


def test_the_value_a_break_leaves_keeps_its_type():
    """After a break from Python, v holds the int the compiled loop assigned
    (reaching definitions follow the break), not a float."""
    jitted = compiled_runs(funcs.path_typed, [(np.arange(5.0), k) for k in (2.0, 0.0, 9.0)])
    assert fallback_lines(jitted) == {line_of(funcs.path_typed, "try:")}
    got = jitted(np.arange(5.0), 2.0)
    assert got == 2 and type(got) is int


def test_bare_return_exceptions_and_in_place_writes():
    # `return` (None) from a with statement; the function's end returns None too; a is written in place
    compiled_runs(funcs.bare_return, [(np.arange(5.0), k) for k in (1, 7, -5, 3)])
    compiled_runs(funcs.none_beside_tuples, [(np.arange(5.0), k) for k in (2.0, 9.0, -1.0)])
    # ZeroDivisionError raised inside the region propagates; `finally` ran before a return
    compiled_runs(funcs.raises_inside, [(np.arange(5.0), 2), (np.arange(6.0), 9), (np.arange(3.0), 9)])


def test_fullgraph_still_refuses_with_the_statement_and_its_reason():
    strict = jit(funcs.loop_return, fullgraph=True)
    with pytest.raises(UnsupportedSyntaxError) as info:
        strict(np.arange(5.0), 1.0)
    msg = str(info.value)
    assert f"region_exit_funcs.py:{line_of(funcs.loop_return, 'for j in itertools')}:" in msg
    assert "itertools.repeat" in msg and "fullgraph=True" in msg
