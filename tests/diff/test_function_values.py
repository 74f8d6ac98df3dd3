"""Functions as values (issue 13): a @jit function, a plain helper, a lambda
or a library callable passed as an argument, kept in a tuple, returned, or a
module-level function named and passed on, is typed by its identity, so the
callee is specialized per function and calls it directly.  Differential
tests against CPython (values, types, exceptions), one specialization per
function, and a function that cannot compile running alone as Python while
its caller stays compiled."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from transpile import TranspileFallbackWarning, UnsupportedSyntaxError
from transpile import jit as plain_jit

from ._support import jit


def humps_deriv(t, y):  # a plain helper of this project
    a = t - 0.3
    b = t - 0.9
    return -2.0 * a / (a * a + 0.01) ** 2 - 2.0 * b / (b * b + 0.04) ** 2


@plain_jit
def decay(t, y):  # a @jit function
    return -0.5 * y


def count_steps(t, y):  # returns an int: the solver's float arithmetic promotes it
    return 1


def reciprocal(x):
    return 1.0 / x  # ZeroDivisionError at 0.0, as in CPython


def square(x):
    return x * x


def cube(x):
    return x * x * x


@jit
def euler(dydt, y0, t0, t1, n):
    h = (t1 - t0) / n
    t, y = t0, y0
    for _ in range(n):
        y = y + h * dydt(t, y)
        t = t + h
    return y


@jit
def euler_fill(dydt, tspan, y0, n, t, y):  # the peer-code shape: fills the caller's arrays
    t0, t1 = tspan
    dt = (t1 - t0) / n
    t[0] = t0
    y[0] = y0
    for i in range(n):
        t[i + 1] = t[i] + dt
        y[i + 1] = y[i] + dt * dydt(t[i], y[i])


@jit
def apply_twice(f, x):
    return f(f(x))


@jit
def through(f, x):  # passes its function on to another compiled function
    return apply_twice(f, x) + f(x)


@jit
def pair(fs, x):  # a tuple of functions: unpacked, indexed, passed on whole
    f, g = fs
    return f(x), g(x), fs[1](fs[0](x)), apply_twice(fs[0], x)


def chooser():
    return cube


@jit
def returned(x):
    g = chooser()  # a function returned by a compiled helper
    h = square  # a module-level function named as a value
    return g(x) + apply_twice(h, x) + apply_twice(square, x)


@jit
def with_library(x):
    return apply_twice(math.sqrt, x), apply_twice(abs, -x), apply_twice(np.cos, x)


@jit
def driver(n):  # a compiled caller naming module-level functions as arguments
    return euler(decay, 1.0, 0.0, 1.0, n), euler(humps_deriv, 0.0, 0.0, 1.0, n), euler(count_steps, 0.0, 0.0, 1.0, n)


@jit
def local_lambda(n, x):
    rhs = lambda t, y: -2.0 * y + t  # noqa: E731  (a lambda made here, passed on: a function value)
    twice = lambda v: v + v  # noqa: E731
    return euler(rhs, 1.0, 0.0, 1.0, n), apply_twice(twice, x), apply_twice(lambda v: v * 3, x)


def check(f, *args):
    expected = f.py_func(*args)
    got = f(*args)
    assert type(got) is type(expected), (got, expected)
    if isinstance(expected, tuple):
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert type(g) is type(e) and g == pytest.approx(e, rel=1e-12), (got, expected)
    else:
        assert got == pytest.approx(expected, rel=1e-12)
    return got


def test_each_kind_of_function_passed_from_python():
    before = len(euler.signatures)
    check(euler, decay, 1.0, 0.0, 2.0, 1000)
    check(euler, humps_deriv, 0.0, 0.0, 2.0, 1000)
    check(euler, lambda t, y: math.cos(t) - y, 1.0, 0.0, 2.0, 1000)
    check(euler, count_steps, 0.0, 0.0, 1.0, 10)  # an int result in float arithmetic
    assert len(euler.signatures) == before + 4  # one specialization per function


def test_the_function_decides_the_specialization():
    # the same argument types with another function must not reuse the first's code
    assert euler(square_rhs, 1.0, 0.0, 1.0, 10) == euler.py_func(square_rhs, 1.0, 0.0, 1.0, 10)
    assert euler(cube_rhs, 1.0, 0.0, 1.0, 10) == euler.py_func(cube_rhs, 1.0, 0.0, 1.0, 10)
    assert euler(square_rhs, 1.0, 0.0, 1.0, 10) == euler.py_func(square_rhs, 1.0, 0.0, 1.0, 10)


def square_rhs(t, y):
    return y * y * 0.1


def cube_rhs(t, y):
    return y * y * y * 0.1


def test_fresh_lambdas_share_one_specialization():
    results = [euler(lambda t, y: -y, 1.0, 0.0, 1.0, 50) for _ in range(3)]
    assert results[0] == results[1] == results[2] == euler.py_func(lambda t, y: -y, 1.0, 0.0, 1.0, 50)
    # a lambda with a default value is another function each time it is made: keyed by identity
    k = 3.0
    assert euler(lambda t, y, k=k: -k * y, 1.0, 0.0, 1.0, 50) == euler.py_func(lambda t, y, k=k: -k * y, 1.0, 0.0,
                                                                                  1.0, 50)


def test_fills_the_callers_arrays():
    n = 200
    t, y = np.zeros(n + 1), np.zeros(n + 1)
    t2, y2 = np.zeros(n + 1), np.zeros(n + 1)
    assert euler_fill(humps_deriv, (0.0, 2.0), 5.0, n, t, y) is None
    euler_fill.py_func(humps_deriv, (0.0, 2.0), 5.0, n, t2, y2)
    np.testing.assert_array_equal(t, t2)
    np.testing.assert_array_equal(y, y2)


def test_passed_on_in_tuples_and_returned():
    check(apply_twice, square, 3.0)
    check(apply_twice, decay_1, 3)  # an int argument through a @jit function
    check(through, cube, 1.5)
    check(pair, (square, cube), 2)
    check(pair, (cube, reciprocal), 0.5)
    check(returned, 1.25)
    check(with_library, 0.7)
    check(driver, 100)
    check(local_lambda, 50, 1.5)


@plain_jit
def decay_1(x):
    return x // 2


def test_exceptions_inside_the_function_value():
    with pytest.raises(ZeroDivisionError):
        reciprocal(0.0)
    with pytest.raises(ZeroDivisionError):
        apply_twice(reciprocal, 0.0)
    with pytest.raises(ZeroDivisionError):
        pair((square, reciprocal), 0.0)


def closing_over(k):
    def rhs(t, y):
        return -k * y  # a closure: not compiled, so its calls run as Python
    return rhs


euler_plain = plain_jit(euler.py_func)  # JIT Fallback allowed


def test_a_function_that_cannot_compile_runs_alone_as_python():
    rhs = closing_over(0.5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = euler_plain(rhs, 1.0, 0.0, 1.0, 20)
    assert got == euler_plain.py_func(rhs, 1.0, 0.0, 1.0, 20)
    messages = [str(w.message) for w in caught if issubclass(w.category, TranspileFallbackWarning)]
    assert messages and "whole-function" not in " ".join(messages)  # only the call's statement falls back
    sig = next(s for s in euler_plain.signatures if any("rhs" in str(t) for t in s))
    lines = [r["source"].strip() for r in euler_plain.fallbacks(sig)]
    # the call's statement runs as Python (and so may the statements that then hold y as a Python object)
    assert "y = y + h * dydt(t, y)" in lines and "for _ in range(n):" not in lines
    with pytest.raises(UnsupportedSyntaxError):  # fullgraph: an error naming the call instead
        euler(rhs, 1.0, 0.0, 1.0, 20)
    # each call makes a new closure: one specialization serves them all, each called as itself
    count = len(euler_plain.signatures)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        for k in (0.25, 2.0, -1.0):
            assert euler_plain(closing_over(k), 1.0, 0.0, 1.0, 20) == euler_plain.py_func(closing_over(k), 1.0, 0.0,
                                                                                            1.0, 20)
    assert len(euler_plain.signatures) == count


def rhs_star(*args):  # *args: not compiled, so its calls run as Python
    return -args[1]


@plain_jit
def driver_star(n):  # names it in compiled code: the callee's fallback reads it by name
    return euler_plain(rhs_star, 1.0, 0.0, 1.0, n) + euler_plain(decay, 1.0, 0.0, 1.0, n)


def test_a_module_level_function_named_in_compiled_code_reaches_python_code():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert driver_star(30) == driver_star.py_func(30)
    assert not any("whole-function" in str(w.message) for w in caught
                   if issubclass(w.category, TranspileFallbackWarning) and "driver_star" in str(w.message))


@plain_jit
def identity(f):
    return f


def test_a_function_returned_to_python_is_the_same_object():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        assert identity(square) is square
        assert identity(decay) is decay


@jit
def apply_by_keyword(f=None, x=0.0):
    return f(x)


@jit
def passes_by_keyword_only(x):
    return apply_by_keyword(f=square, x=x) + apply_by_keyword(x=x, f=cube)


def test_a_function_passed_by_keyword_alone():
    check(passes_by_keyword_only, 1.5)


def _apply(fn, x):
    return fn(x)


def _passes_a_nested_function(x):
    def shift(y):
        return y + 1.0
    return _apply(shift, x)


def test_a_nested_function_passed_as_a_value_is_named_in_the_error():
    """The def runs as Python (it makes the function object at run time), so the
    callee cannot be specialized on it: the error names it (it said "'float'
    is not callable" at the callee's call), and without fullgraph the function
    runs in CPython (a statement run as Python would call the function with
    cells compiled stores do not reach)."""
    from transpile import jit as plain_jit
    from transpile.diagnostics import FunctionNotCompilable, TranspileFallbackWarning

    with pytest.raises(FunctionNotCompilable, match="passing the nested function 'shift' to a function"):
        jit(_passes_a_nested_function)(2.0)
    with pytest.warns(TranspileFallbackWarning):
        assert plain_jit(_passes_a_nested_function)(2.0) == 3.0


def _rebound_after_the_def(x):
    y = x
    def g():
        return y
    y = 10
    return g()


def _read_before_assigned(x):
    def g():
        return y
    r = g()
    y = x
    return r


def _assigned_once_before(a):
    n = len(a)
    def g(i):
        return a[i] * n
    return sum([g(i) for i in range(n)])


def test_a_nested_function_reads_the_enclosing_variable_as_cpython():
    """Probe finds: the value passed for a free variable was the variable's
    C++ value at the call, in its joined type (10.0 for CPython's 10), and 0
    where CPython raises NameError (read before assigned).  Unless the variable
    is surely assigned before the call, with values of one type, the function
    runs in CPython."""
    from transpile import jit as plain_jit

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = plain_jit(_rebound_after_the_def)(2.5)
        assert (type(got), got) == (int, 10)
        with pytest.raises(NameError, match="cannot access free variable 'y'"):
            plain_jit(_read_before_assigned)(2.5)
    a = np.arange(3.0)
    assert jit(_assigned_once_before)(a) == _assigned_once_before(a)


def _apply_later_binding(x):
    y = 1.0
    def g(z):
        return z + y
    y = 2.0
    return _apply(g, x)  # CPython: g sees y = 2.0


def test_a_nested_function_passed_on_sees_later_assignments():
    """Probe find: run as one statement in Python, the call got the function
    object the def made, whose cell compiled code had not updated (4.0 for 5.0)."""
    from transpile import jit as plain_jit

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert plain_jit(_apply_later_binding)(3.0) == _apply_later_binding(3.0) == 5.0
