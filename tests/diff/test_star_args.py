"""`*t` in a call's arguments and `*args` parameters (issue 13): a tuple
unpacked into the parameters of a @jit or plain Python function (as
SciPy-style solvers pass their `args=` on to the right-hand side), a library
function or an array method, and a function taking its extra positional
arguments as a tuple (from Python, or from compiled code).  Differential
tests against CPython; unpacking anything else (an array, a list) and
**kwargs run as Python, or are a precise error under fullgraph."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from transpile import TranspileError, TranspileFallbackWarning
from transpile import jit as plain_jit

from ._support import jit


def decay(t, y, k, c):  # a plain helper: compiled with its caller
    return -k * y + c


@plain_jit
def forced(t, y, omega, scale=1.0):  # a @jit function with a default
    return scale * math.cos(omega * t) - y


def count(*_):  # what CPython passes when the tuple has the wrong length
    return 0


@jit
def euler(f, y0, n, dt, params):
    y = y0
    for i in range(n):
        y = y + dt * f(i * dt, y, *params)
    return y


@jit
def star_first(f, params, k, c):
    return f(*params, k, c)  # the tuple fills the leading parameters


@jit
def two_stars(f, head, tail):
    return f(*head, *tail)


@jit
def star_then_keyword(f, t, y, params):
    return f(t, y, *params, scale=2.0)


@jit
def star_in_the_middle(f, y, params):
    return f(0.25, *params[:0], y, *params)


def pick(a, i):  # a tuple made by a compiled call, which may raise
    return a[i], a[0]


@jit
def star_of_a_call(f, d, a, i):
    return f(1.0 / d, *pick(a, i), 2.0)


def check(fn, *args):
    expected = fn.py_func(*args)
    got = fn(*args)
    assert type(got) is type(expected), (got, expected)
    assert got == expected, (got, expected)


def test_a_tuple_unpacked_into_the_right_hand_side():
    check(euler, decay, 1.0, 100, 0.01, (0.5, 0.1))
    check(euler, decay, 1.0, 100, 0.01, (2, 1))  # ints: the helper is specialized on them
    check(euler, forced, 0.0, 100, 0.01, (3.0,))  # the @jit function's default fills `scale`
    check(euler, forced, 0.0, 100, 0.01, (3.0, 0.5))


def test_stars_anywhere_among_the_arguments():
    check(star_first, decay, (0.25, 2.0), 0.5, 0.1)
    check(two_stars, decay, (0.0, 2.0), (0.5, 0.1))
    check(two_stars, decay, (), (0.0, 2.0, 0.5, 0.1))
    check(star_then_keyword, forced, 0.5, 1.0, (3.0,))
    check(star_in_the_middle, forced, 1.0, (3.0,))


def test_the_unpacked_tuple_is_evaluated_once_in_pythons_order():
    a = np.array([0.5, 0.25])
    check(star_of_a_call, decay, 2.0, a, 1)
    for d, i, error in ((0.0, 1, ZeroDivisionError), (2.0, 7, IndexError), (0.0, 7, ZeroDivisionError)):
        with pytest.raises(error):
            star_of_a_call.py_func(decay, d, a, i)
        with pytest.raises(error):
            star_of_a_call(decay, d, a, i)


def test_a_tuple_of_the_wrong_length_raises_cpythons_type_error():
    f = plain_jit(euler.py_func)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(TypeError) as compiled:
            f(decay, 1.0, 3, 0.1, (0.5,))
    with pytest.raises(TypeError) as python:
        euler.py_func(decay, 1.0, 3, 0.1, (0.5,))
    assert str(compiled.value) == str(python.value)


@jit
def into_library(t, a, shape):  # library functions and array methods get the items one by one
    print(*t)
    print("x", *t, sep="-")
    return (math.hypot(*t), np.zeros(shape).shape, a.reshape(*shape).shape, max(*t, 0.5),
            math.atan2(*(1.0, 2.0)), np.arange(*(1, 7, 2)))


def test_a_tuple_unpacked_into_library_calls_and_methods(capsys):
    args = ((3.0, 4.0), np.arange(6.0), (2, 3))
    expected = into_library.py_func(*args)
    expected_text = capsys.readouterr().out
    got = into_library(*args)
    assert capsys.readouterr().out == expected_text
    for g, e in zip(got, expected, strict=True):
        assert type(g) is type(e) and np.array_equal(g, e), (got, expected)


def test_what_does_not_unpack_runs_as_python_or_is_named_under_fullgraph():
    def a_list(t):
        return math.atan2(*list(t))

    def an_array(f, a):
        return f(0.0, 1.0, *a)

    assert plain_jit(a_list)((1.0, 2.0)) == a_list((1.0, 2.0))
    a = np.array([0.5, 0.1])
    assert plain_jit(an_array)(decay, a) == an_array(decay, a)
    with pytest.raises(TranspileError, match=r"only a tuple can be unpacked"):
        jit(a_list)((1.0, 2.0))
    with pytest.raises(TranspileError, match=r"only a tuple can be unpacked"):
        jit(an_array)(decay, a)


def test_a_statement_run_as_python_reads_a_tuple_variable():
    # the region is handed the tuple as a Python tuple: the rest of the function stays compiled
    def unpack_into_library(t, n):
        r = math.atan2(*list(t))
        s = 0.0
        for i in range(n):
            s += t[0] * i
        return s, r

    f = plain_jit(unpack_into_library)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = f((1.0, 2.0), 10)
    assert got == unpack_into_library((1.0, 2.0), 10)
    (sig,) = f.signatures
    assert [r["source"].strip() for r in f.fallbacks(sig)] == ["r = math.atan2(*list(t))"]


@jit
def total(x, *terms):  # *args: a tuple of the extra positional arguments
    s = x
    for v in terms:
        s += v
    return s, len(terms)


@jit
def first_two(*a):  # a tuple of mixed types: constant indices
    return a[0] * a[1], len(a)


@jit
def arity(x, *rest):
    return x * 2 + len(rest)


def rhs_with_args(t, y, *p):  # a plain helper with *args, called through a function value
    return -p[0] * y + p[1] * t


@jit
def calls_variadic(a, t):
    return total(a, 2.0, 3.0), arity(1, *t), arity(a), arity(a, a, 1 / a), euler(rhs_with_args, a, 10, 0.1, t)


def test_star_args_parameters_called_from_python():
    check(total, 1.0, 2.0, 3.0)
    check(total, 1, 2, 3)
    check(first_two, 3, 2.5)
    check(first_two, 3, 2.5, "unused")  # an item the function does not read may be any passable value
    check(arity, 1.5)  # no extra arguments: an empty tuple
    check(arity, 2, 3, 4)
    assert arity(x=2.0) == arity.py_func(x=2.0)


def test_star_args_parameters_called_from_compiled_code():
    check(calls_variadic, 2.0, (1.0, 2.0))
    with pytest.raises(ZeroDivisionError):  # the extra arguments are evaluated in order, like the others
        calls_variadic(0.0, (1.0, 2.0))


@jit
def loop_over_extras(x, *rest):
    for v in rest:  # given no extra arguments, the body never runs
        x += v
    else:
        x *= 2
    return x


def only_in_the_loop(*rest):
    for v in rest:
        last = v
    return last  # UnboundLocalError when rest is empty


def test_a_loop_over_no_extra_arguments():
    check(loop_over_extras, 1.5)
    check(loop_over_extras, 1.5, 2.0, 3.0)
    f = plain_jit(only_in_the_loop)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the loop assigns what nothing else does: it runs as Python
        assert f(1.0, 2.0) == 2.0
        with pytest.raises(UnboundLocalError):
            f()


def test_kwargs_run_as_python():
    def named(x, **options):
        return x + len(options)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert plain_jit(named)(1.0, a=1, b=2) == 3.0
    with pytest.raises(TranspileError, match=r"\*\*kwargs parameter is not supported"):
        jit(named)(1.0, a=1)


def square(x):
    return x * x


def reads_functions(x):
    fs = (square, square)
    text = str(fs)  # runs as Python, and would need the tuple of compiled function values
    return fs[0](x), len(text) > 0


def test_a_tuple_python_cannot_be_handed_names_why_the_function_runs_as_python():
    with pytest.warns(TranspileFallbackWarning, match=r"a statement that runs as Python reads 'fs'"):
        assert plain_jit(reads_functions)(2.0) == reads_functions(2.0)
