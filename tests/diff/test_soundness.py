"""Differential tests of soundness fixes (issue 12, "Sound by construction"):
each case gives CPython's value, type and exception, or the compiler does
not compile it."""
from __future__ import annotations

import math

import numpy as np
import pytest

from transpile import jit as plain_jit

from ._support import check_items, jit

# --------------------------------------------------------------------------
# jit_level does not change floating-point results (no contraction into FMA)
# --------------------------------------------------------------------------


def nbody_accel(x, y, eps, one):
    n = x.shape[0]
    ax = np.zeros(n, np.float32)
    ay = np.zeros(n, np.float32)
    for i in range(n):
        for j in range(n):
            rx = x[j] - x[i]
            ry = y[j] - y[i]
            d = rx * rx + ry * ry + eps
            s = one / math.sqrt(d ** 3)
            ax[i] += s * rx
            ay[i] += s * ry
    return ax, ay


nbody_o0 = jit(nbody_accel, jit_level="O0")
nbody_o1 = jit(nbody_accel, jit_level="O1")


def test_float32_kernel_bit_identical_across_levels():
    rng = np.random.default_rng(7)
    x = rng.standard_normal(48).astype(np.float32)
    y = rng.standard_normal(48).astype(np.float32)
    args = (x, y, np.float32(1e-3), np.float32(1.0))
    expected = nbody_accel(*args)
    for compiled in (nbody_o0, nbody_o1):
        got = compiled(*args)
        for g, e in zip(got, expected):
            assert g.dtype == e.dtype == np.float32
            assert g.tobytes() == e.tobytes(), (compiled.options.jit_level, np.max(np.abs(g - e)))


# --------------------------------------------------------------------------
# Expressions whose C++ spelling did not compile
# --------------------------------------------------------------------------


@jit
def negated_negatives(a, b):
    x = -(-128)
    y = -(-1.5)
    a //= abs(1)
    a %= abs(-3)
    c = 7.5
    c //= abs(2)
    return x, y, a, c, -(-a), -(+a), +(-a), ~(-a), not -a, abs(True), abs(b), -(-b), b // abs(-2)


@pytest.mark.parametrize("a, b", [(7, True), (-9, False), (0, True)])
def test_negated_negatives_and_abs_of_literals(check, a, b):
    check_items(check, negated_negatives, a, b)


# --------------------------------------------------------------------------
# A C++ compile failure is remembered for its specialization
# --------------------------------------------------------------------------


def _failing_compiler(tmp_path):
    """g++, except that it rejects every generated module and counts those
    runs: the stand-in for a code-generation bug that makes g++ fail."""
    import shutil

    log = tmp_path / "runs"
    script = tmp_path / "failing-cxx"
    script.write_text(f'#!/bin/sh\ncase "$*" in *module.cpp*) echo run >> "{log}"; '
                      f'echo "module.cpp:3:1: error: injected failure" >&2; exit 1;; esac\n'
                      f'exec {shutil.which("g++")} "$@"\n')
    script.chmod(0o755)
    return str(script), log


def build_fails(x):
    return x * 2 + 1


def build_fails_fullgraph(x):
    return x * 3


def test_cxx_failure_runs_python_once_warned_and_is_not_retried(tmp_path, monkeypatch):
    from transpile import TranspileFallbackWarning

    cxx, log = _failing_compiler(tmp_path)
    monkeypatch.setenv("CXX", cxx)
    f = plain_jit(build_fails)
    with pytest.warns(TranspileFallbackWarning, match="bug in transpile's code generation") as record:
        assert f(20) == 41
    assert "failed to compile" in str(record[0].message)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # warned once, then silent
        assert f(5) == 11
    with pytest.warns(TranspileFallbackWarning, match=r"for \(float\) failed"):  # its own attempt
        assert f(2.5) == 6.0
    assert log.read_text().count("run") == 2


def test_cxx_failure_under_fullgraph_raises_every_call_without_recompiling(tmp_path, monkeypatch):
    from transpile import CompileError

    cxx, log = _failing_compiler(tmp_path)
    monkeypatch.setenv("CXX", cxx)
    f = jit(build_fails_fullgraph)
    for _ in range(2):
        with pytest.raises(CompileError, match="injected failure"):
            f(4)
    assert log.read_text().count("run") == 1


def translation_fails(x):
    return x * 5 - 1


def _broken_translation(monkeypatch):
    """transpile's translation, except that it raises KeyError (the stand-in
    for a bug in a pass) and counts its calls."""
    from transpile import pipeline

    calls = []

    def translate(*args, **kwargs):
        calls.append(args)
        raise KeyError("float32")

    monkeypatch.setattr(pipeline, "translate", translate)
    return calls


def test_an_internal_error_of_the_translation_runs_python_once_warned(monkeypatch):
    """A bug in transpile (an exception escaping a pass) is not the call's:
    the call gives CPython's answer, the warning says whose fault it is, and
    the specialization is not translated again."""
    import warnings

    from transpile import TranspileFallbackWarning

    calls = _broken_translation(monkeypatch)
    f = plain_jit(translation_fails, cache=False)
    with pytest.warns(TranspileFallbackWarning, match="bug in transpile's translation") as record:
        assert f(4) == 19
    assert "failed to compile" in str(record[0].message) and "internal error: KeyError: 'float32'" \
        in str(record[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert f(5) == 24
    assert len(calls) == 1


def test_an_internal_error_under_fullgraph_raises_with_its_cause(monkeypatch):
    from transpile import CompileError

    _broken_translation(monkeypatch)

    f = plain_jit(translation_fails, cache=False, fullgraph=True)
    with pytest.raises(CompileError, match="internal error: KeyError") as info:
        f(2)
    assert isinstance(info.value.__cause__, KeyError)
    with pytest.raises(CompileError, match="internal error"):
        f(3)


# --------------------------------------------------------------------------
# Powers and ufuncs: NumPy's dtypes, CPython's types
# --------------------------------------------------------------------------


@jit
def mixed_float_powers(x, y, a, b):
    z = x
    z **= y
    w = y
    w **= x
    return a[0] ** b[0], b[0] ** a[0], x ** b[0], b[0] ** x, z, w, 2.0 ** y, y ** 2.0, x ** y, y ** x


@pytest.mark.parametrize("x", [np.float64(1.5), 1.5, 0.25])
def test_float64_and_float32_powers(check, x):
    check_items(check, mixed_float_powers, x, np.float32(2.5), np.array([1.5]), np.array([2.5], np.float32))


@jit
def bool_array_squared(b, z):
    return b ** 2, z ** 2, b ** 3, b ** np.int64(2)


def test_bool_array_squared_is_int8_like_numpy(check):
    check_items(check, bool_array_squared, np.array([True, False, True]), np.array(True))


def sqrt_of_bools(b):
    return np.sqrt(b)


def bool_power_runtime_exponent(b, n):
    return b ** n


def test_float16_results_and_value_dependent_dtypes_are_not_compiled():
    from transpile import UnsupportedSyntaxError

    with pytest.raises(UnsupportedSyntaxError, match="computes in float16"):
        jit(sqrt_of_bools)(np.array([True, False]))
    with pytest.raises(UnsupportedSyntaxError, match="depends on the exponent's value"):
        jit(bool_power_runtime_exponent)(np.array([True, False]), 2)


@plain_jit  # (-4.0) ** 0.5 is complex: the power runs as Python unless the base is never negative
def float_power(x, y):
    return x ** y


@pytest.mark.parametrize("x, y", [(4.0, 0.5), (-4.0, 2.0), (-2.0, -3.0), (-8.0, float("inf")),
                                  (float("-inf"), 0.5), (-1.0, float("nan")), (0.0, -1.0)])
def test_python_float_power(check, x, y):
    check(float_power, x, y)


@plain_jit
def powers_by_sign(x, y, n):
    # x ** 0.5 and n ** 0.5 may be complex numbers in CPython; (x * x + 1.0) is never negative and 2.0 is whole
    a = x ** 0.5
    b = (x * x + 1.0) ** y
    c = x ** 2.0
    d = n ** 0.5
    p = x
    p **= y
    return a, b, c, d, p


@pytest.mark.parametrize("x, y, n", [(-4.0, 0.5, -9), (4.0, 1.5, 9), (-0.0, 0.5, 0), (float("-inf"), 0.5, 1),
                                     (float("nan"), -0.5, 4), (-2.0, 3.0, 2)])
def test_negative_base_to_fractional_power_gives_cpythons_complex(check, x, y, n):
    check(powers_by_sign, x, y, n)


def test_only_powers_that_may_be_complex_run_as_python():
    powers_by_sign(-4.0, 0.5, -9)
    lines = sorted(r["source"] for r in powers_by_sign.fallbacks())
    assert lines == ["a = x ** 0.5", "d = n ** 0.5", "p **= y", "p = x", "return a, b, c, d, p"], lines
    assert type(float_power(-4.0, 0.5)) is complex
    assert [r["source"] for r in float_power.fallbacks()] == ["return x ** y"]


@plain_jit
def int_powers(n, k):
    # i counts up from 0: 2 ** i is an int, compiled; k may be negative (5 ** -1 is 0.2 in CPython)
    s = 0
    for i in range(n):
        s += 2 ** i
    for j in range(1, n):
        s += 3 ** j
        s += 2 ** (j + 1) + 3 ** (j * 2) + 2 ** (j // 2) + 7 ** (j % 3) + 2 ** abs(k)  # never negative either
    t = n ** k
    return s, t, 3 ** len((1, 2)), 5 ** 0


@pytest.mark.parametrize("n, k", [(5, 2), (5, -1), (0, -1), (-3, 3), (4, 0)])
def test_int_to_negative_int_power_gives_cpythons_float(check, n, k):
    check(int_powers, n, k)


def test_only_int_powers_with_exponents_of_any_sign_run_as_python():
    int_powers(5, -1)
    assert [r["source"] for r in int_powers.fallbacks()] == ["t = n ** k"]


@plain_jit
def shifted_power(n):
    t = 0
    for j in range(n):
        t = 2 ** (j - 1)  # 0.5 for j == 0: j - 1 is not known to be >= 0
    return t


@pytest.mark.parametrize("n", [0, 1, 3])
def test_a_power_whose_exponent_may_be_negative_runs_as_python(check, n):
    check(shifted_power, n)
    assert any(r["source"].startswith("t = 2 ** (j - 1)") for r in shifted_power.fallbacks())


def test_a_power_that_may_be_complex_is_an_error_under_fullgraph():
    from transpile import TranspileError

    with pytest.raises(TranspileError, match="complex number in CPython when its base is negative"):
        jit(float_power.py_func)(4.0, 0.5)


# --------------------------------------------------------------------------
# Keyword-only, positional-only and default parameters; *args / **kwargs
# --------------------------------------------------------------------------


@jit
def kwonly(x, *, k=1, m):
    return x * 10 + k * m


@jit
def posonly(x, /, y=2.5):
    return x - y


@jit
def many_defaults(x, t=(1, 2.5), f=np.float32(0.5), b=True, *, n=-3):
    return x + t[0] + t[1], f * 2, b and x > 0, n


@jit
def calls_keyword_only(a):
    return kwonly(a, m=2) + kwonly(a, k=3, m=a) + posonly(a) + posonly(a, 1.5)


def call_both(fn, *args, **kwargs):
    """Compiled and CPython results (or exceptions: type and CPython's own
    message, word for word) of one call with keywords."""
    outcomes = []
    for f in (fn, fn.py_func):
        try:
            outcomes.append(("value", f(*args, **kwargs)))
        except Exception as exc:  # noqa: BLE001 - the exception is the behaviour compared
            outcomes.append(("raised", (type(exc), str(exc))))
    (kind, got), (kind_py, expected) = outcomes
    assert kind == kind_py, (got, expected)
    if kind == "value":
        from tests.conftest import assert_same

        assert_same(got, expected)
    else:
        assert got == expected
    return kind


@pytest.mark.parametrize("args, kwargs", [
    ((2,), {"m": 3}), ((2,), {"k": 5, "m": 1}), ((), {"x": 2, "m": 1}), ((2,), {"m": 3}),
    ((2, 5, 3), {}), ((2, 5), {}), ((2,), {}), ((2,), {"m": 1, "z": 0})])
def test_keyword_only_parameters(args, kwargs):
    call_both(kwonly, *args, **kwargs)


def test_positional_only_defaults_and_calls_between_functions(check):
    for args, kwargs in [((1,), {}), ((1,), {"y": 1.0}), ((1, 0.5), {}), ((), {"x": 1}), ((1, 2.0, 3.0), {})]:
        call_both(posonly, *args, **kwargs)
    for args, kwargs in [((2,), {}), ((-1, (3, 0.5)), {"n": 7}), ((2,), {"b": False}), ((1, (1, 2.0), 3), {})]:
        call_both(many_defaults, *args, **kwargs)
    check(calls_keyword_only, 4)


def test_compiled_keyword_only_refuses_extra_positionals_after_the_first_call():
    kwonly(1, m=1)  # compiled for (int, int, int): the fast path must not take k and m positionally
    assert kwonly(1, m=2) == kwonly.py_func(1, m=2)
    with pytest.raises(TypeError, match="positional"):
        kwonly(1, 1, 2)


def star_args(*args):
    return len(args)


def star_kwargs(x, **kw):
    return x + len(kw)


def test_star_args_compile_and_kwargs_run_the_whole_function_in_python():
    import warnings

    from transpile import TranspileFallbackWarning
    from transpile import jit as plain_jit
    from transpile.diagnostics import FunctionNotCompilable

    f, g = plain_jit(star_args), plain_jit(star_kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # *args binds into a tuple parameter: compiled, nothing falls back
        assert f(1, 2.5, "x") == 3 and f() == 0
    assert len(f.signatures) == 2
    with pytest.warns(TranspileFallbackWarning, match="whole-function"):
        assert g(1, a=2, b=3) == 3
    assert g(x=5) == 5
    with pytest.raises(FunctionNotCompilable, match=r"\*\*kwargs"):
        jit(star_kwargs)(1)


# --------------------------------------------------------------------------
# Arguments and operands are evaluated left to right
# --------------------------------------------------------------------------


@jit
def order_of_arguments(x, y, k):
    a = math.atan2(math.sqrt(y), x[k])
    b = math.sqrt(y) + x[k]
    c = x[k] * math.log(y)
    d = math.hypot(x[k], math.sqrt(y))
    return a + b + c + d


@pytest.mark.parametrize("y, k", [(-1.0, 5), (-1.0, 0), (2.0, 5), (2.0, -1), (0.0, 1)])
def test_first_exception_is_the_leftmost_operands(check, y, k):
    check(order_of_arguments, np.array([0.5, 1.5, 2.5]), y, k)


@jit
def quiet_arguments(x, y):
    return math.atan2(y, x[0]) + (y * 2.0 + 1.0), math.hypot(x[1] * y, -y)


def test_arguments_that_cannot_raise_get_no_temporaries(check):
    check(quiet_arguments, np.array([0.5, 1.5]), 2.0)
    assert "tr_o" not in quiet_arguments.inspect_cxx()


# --------------------------------------------------------------------------
# Python numbers stored into integer arrays: NumPy 2's OverflowError / ValueError
# --------------------------------------------------------------------------


@jit
def store_element(a, i, v):
    a[i] = v
    return a


@jit
def store_fill(a, v):
    a[1:] = v
    a[a > 100] = v
    return a


@jit
def store_literals(a, b):
    a[0] = 7
    a[1] = 2.5
    b[0] = -1
    return a, b


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int32, np.int64, np.uint64])
@pytest.mark.parametrize("v", [300, -1, 2**40, 5, float("nan"), float("inf"), 1e300, -3.7, 1e19, -1.0, 255.9])
def test_python_number_stores_follow_numpy(check, dtype, v):
    check(store_element, np.zeros(3, dtype), 1, v)
    check(store_element, np.zeros(3, dtype), 7, v)  # the index is checked first
    check(store_fill, np.zeros(3, dtype), v)


def test_stores_known_safe_pay_nothing(check):
    check(store_literals, np.zeros(2, np.uint8), np.zeros(1, np.int16))
    assert "py_store" not in store_literals.inspect_cxx()


# --------------------------------------------------------------------------
# UnboundLocalError for a local read on a path that did not assign it
# --------------------------------------------------------------------------


@jit
def last_of_loop(n):
    for i in range(n):
        v = i * 2
    return v + i


@jit
def assigned_on_one_branch(c, x):
    if c:
        y = x
    y += 1.5
    while x > 10.0:
        z = x
        x -= 10.0
    return y, z if c else -y


@jit
def assigned_on_every_path(c, x):
    if c:
        y = x
    else:
        y = -x
    return y


@pytest.mark.parametrize("n", [0, 1, 3])
def test_unbound_after_an_empty_loop(check, n):
    check(last_of_loop, n)


@pytest.mark.parametrize("c, x", [(True, 2.0), (False, 2.0), (True, 25.0), (False, 25.0)])
def test_unbound_after_a_branch(check, c, x):
    check(assigned_on_one_branch, c, x)


def test_definitely_assigned_variables_carry_no_flag(check):
    check(assigned_on_every_path, False, 1.0)
    assert "tr_bound" not in assigned_on_every_path.inspect_cxx()
    assert "tr_bound_v" in last_of_loop.inspect_cxx() and "tr_bound_i" in last_of_loop.inspect_cxx()


# --------------------------------------------------------------------------
# python -O strips asserts from compiled code too, and the cache tells them apart
# --------------------------------------------------------------------------


@jit
def doubled_if_positive(x):
    assert x >= 0, "negative"
    return x * 2.0


def test_asserts_follow_python_optimize_flag(tmp_path):
    import os
    import subprocess
    import sys

    code = ("from tests.diff import test_soundness as m\n"
            "from transpile import dispatcher\n"
            "out = []\n"
            "for f in (m.doubled_if_positive, m.doubled_if_positive.py_func):\n"
            "    try:\n"
            "        out.append(f(-1.5))\n"
            "    except AssertionError as exc:\n"
            "        out.append(f'AssertionError: {exc}')\n"
            "print(out[0] == out[1], out[0], dispatcher.COMPILE_COUNT)\n")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(tmp_path))
    runs = []
    for flags in ([], ["-O"], [], ["-O"]):
        out = subprocess.run([sys.executable, *flags, "-c", code], cwd=root, capture_output=True, text=True,
                             timeout=300, env=env)
        assert out.returncode == 0, out.stderr
        runs.append(out.stdout.strip().split(maxsplit=1))
    assert runs[0] == ["True", "AssertionError: negative 1"]
    assert runs[1] == ["True", "-3.0 1"]  # its own cache entry, compiled without the assert
    assert runs[2] == ["True", "AssertionError: negative 0"] and runs[3] == ["True", "-3.0 0"]


@jit
def store_through_masks(a, v):
    a[a > 100] = v
    a[np.array([0])] = v
    return a


@jit
def add_into_element(a, v):
    a[0] += v
    return a


@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
@pytest.mark.parametrize("v", [np.int64(300), np.int64(-1), np.float64("nan"), np.float64(300.5)])
def test_numpy_scalar_stores_follow_numpy(check, dtype, v):
    # NumPy 2.4: an element or slice store converts like int() into signed arrays (OverflowError)
    # and wraps into unsigned ones; masks and index arrays cast
    with np.errstate(all="ignore"):
        check(store_element, np.zeros(3, dtype), 1, v)
        check(store_fill, np.zeros(3, dtype), v)
        check(store_through_masks, np.full(3, 101, dtype) if dtype == np.uint8 else np.zeros(3, dtype), v)
        check(add_into_element, np.ones(3, dtype), v)


# --------------------------------------------------------------------------
# NEP 50: a Python int meeting a narrower NumPy integer must fit it
# --------------------------------------------------------------------------


@jit
def narrow_int_ops(x, k):
    return x + k, x * k, x & k, x < k, x == k, k > x, x + 3, x < 300, x > -200


@jit
def narrow_int_array_ops(a, k):
    return a + k, a * k, a < k, k <= a


@jit
def narrow_int_ufuncs(x, a, k):
    return np.maximum(x, k), np.less(x, k), np.equal(a, k), np.multiply(a, k), np.add(x, 3)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
@pytest.mark.parametrize("k", [5, 300, -1, -200, 0])
def test_python_int_out_of_range_for_the_numpy_dtype(check, dtype, k):
    with np.errstate(all="ignore"):
        check_items(check, narrow_int_ops, dtype(50), k)
        check_items(check, narrow_int_array_ops, np.array([50, 1], dtype), k)
        check_items(check, narrow_int_ufuncs, dtype(50), np.array([50, 1], dtype), k)
