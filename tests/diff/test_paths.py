"""Per-path typing (passes/paths.py): a variable or expression whose value has
different types on different paths gives CPython's value and type on each
path, compiled (the value keeps its own type's slot, or a Python-number
flag) or, where compiled code cannot, in CPython with the reason."""
import math
import warnings

import numpy as np
import pytest

from transpile.diagnostics import FunctionNotCompilable, TranspileFallbackWarning
from transpile import jit as plain_jit
from transpile import prange

from ..corpus.kernels import _poly_and_derivative as poly_and_derivative  # p, dp: float or np.float64 by path
from ._support import jit
from .test_returns import ratio as compiled_ratio

ratio = compiled_ratio.py_func  # a Python float for b == 0, an np.float64 otherwise


@jit
def int_or_float(a):
    s = 0
    if a > 5:
        s = 2.5
    return s


@jit
def sum_from_int(a):
    s = 0                    # a Python int until the first element is added
    for i in range(len(a)):
        s += a[i]
    return s                 # 0 for an empty array, np.float64 otherwise


@jit
def sum_from_float(a):
    s = 0.0                  # a Python float until the first element is added
    for x in a:
        s = s + x
    return s


@jit
def literal_or_ratio(a, n):
    if n == 0:
        return 0             # a Python int
    return a.sum() / n       # np.float64


@jit
def mixed_arithmetic(a, c):
    t = 1
    if c:
        t = 0.5
    u = t + a[0]             # the same operation whichever type t has
    if t > 0:                # t's int value is the constant 1: compared exactly
        u = u - 1
    return u


@pytest.mark.parametrize("fn, args", [
    (int_or_float, (3,)), (int_or_float, (7,)),
    (sum_from_int, (np.arange(3.0),)), (sum_from_int, (np.zeros(0),)), (sum_from_int, (np.arange(4, dtype=np.int32),)),
    (sum_from_float, (np.arange(3.0),)), (sum_from_float, (np.zeros(0),)),
    (literal_or_ratio, (np.arange(4.0), 0)), (literal_or_ratio, (np.arange(4.0), 2)),
    (mixed_arithmetic, (np.arange(3.0), True)), (mixed_arithmetic, (np.arange(3.0), False)),
])
def test_each_path_keeps_its_type(check, fn, args):
    check(fn, *args)


def and_result(a, b):
    return a and b


def and_then_mod(a, x):
    return (a and x[0]) % 0


def widened_after_loop(n):
    for _ in range(n):
        pass
    if n < 0:
        n = n * 0.5
    return n


@pytest.mark.parametrize("fn, args", [
    (and_result, (0, 2.5)), (and_result, (1, 2.5)),
    (and_then_mod, (0, np.arange(3.0))), (and_then_mod, (2, np.arange(3.0))),
    (widened_after_loop, (5,)), (widened_after_loop, (-3,)),
])
def test_uses_that_would_see_the_wrong_type_run_in_cpython(check, fn, args):
    """Compiled code would give the wrong type (or a NaN where CPython raises
    ZeroDivisionError): the statements holding such a value run as Python (an
    expression: its statement; a parameter: every statement naming it), with
    the reason (a specialization loaded from the cache does not warn again)."""
    compiled = plain_jit(fn)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with np.errstate(all="ignore"):
            check(compiled, *args)
    reasons = [str(w.message) for w in caught if issubclass(w.category, TranspileFallbackWarning)]
    reasons += [] if compiled._python_mode else [str(f) for f in compiled.fallbacks()]
    assert any("depending on the path taken" in r for r in reasons), reasons


def compared_after_widening(n, c):
    m = n
    if c:
        m = n * 0.5
    return m < 3


def test_fullgraph_names_the_variable_and_the_use():
    with pytest.raises(FunctionNotCompilable) as info:
        jit(compared_after_widening)(5, False)
    text = str(info.value)
    assert "'m' may be float or int" in text and "'<' operation" in text and "test_paths.py" in text


@jit
def sum_and_scaled(a):
    s = 0.0                  # a Python float for an empty array
    for i in range(a.shape[0]):
        s += a[i]
    return s, a * 2.0


@jit
def count_and_total(a):
    n = 0
    t = 0
    for x in a:
        n += 1
        t = t + x            # int, then np.float64
    return n, t


@pytest.mark.parametrize("fn, args", [
    (sum_and_scaled, (np.arange(3.0),)), (sum_and_scaled, (np.zeros(0),)),
    (count_and_total, (np.arange(3.0),)), (count_and_total, (np.zeros(0),)),
])
def test_tuple_items_keep_their_paths_type(check, fn, args):
    check(fn, *args)


@jit
def horner_pair(coeffs, x):
    p = 0.0                  # Python floats until an np.float64 coefficient is added
    dp = 0.0
    for c in coeffs:
        dp = dp * x + p      # a Python float or an np.float64, known at run time
        p = p * x + c
    return p, dp


@jit
def halving(a, k):
    s = 0.0
    for x in a:
        s = s * 0.5 + x
    t = s * 2.0              # a Python float if the loop never ran
    for _ in range(k):
        t -= 1.0
    return t


@pytest.mark.parametrize("fn, args", [
    (horner_pair, (np.array([1.0, -2.0, 3.0]), 0.5)), (horner_pair, (np.zeros(0), 0.5)),
    (horner_pair, (np.array([2.0]), 1.5)),
    (halving, (np.arange(3.0), 2)), (halving, (np.zeros(0), 2)), (halving, (np.zeros(0), 0)),
])
def test_python_float_or_float64_known_at_run_time(check, fn, args):
    check(fn, *args)


@jit
def ratio_through_a_variable(a, b):
    r = ratio(a, b)          # the callee's flag is read right after the call
    return r


@jit
def newton_step(coeffs, x):
    p, dp = poly_and_derivative(coeffs, x)   # compiled with the callee; items keep their flags
    if dp == 0:
        return x
    return x - p / dp


@jit
def poly_twice(coeffs, x):
    p, dp = poly_and_derivative(coeffs, x)
    q, dq = poly_and_derivative(coeffs, x + 1.0)
    return p + q, dq


def poly_again(coeffs, x):
    p, dp = poly_and_derivative(coeffs, x)
    return poly_and_derivative(coeffs, p)   # p's type decides which specialization CPython would call


@pytest.mark.parametrize("fn, args", [
    (ratio_through_a_variable, (np.arange(3.0), 0)), (ratio_through_a_variable, (np.arange(3.0), 2)),
    (newton_step, (np.zeros(0), 0.5)), (newton_step, (np.array([1.0, 0.0, -2.0]), 1.5)),
    (poly_twice, (np.zeros(0), 0.5)), (poly_twice, (np.array([1.0, 2.0]), 0.5)),
])
def test_a_callees_flags_reach_its_caller(check, fn, args):
    check(fn, *args)


def test_a_value_of_two_types_passed_to_a_compiled_call_runs_in_cpython(check):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(plain_jit(poly_again), np.zeros(0), 0.5)
        check(plain_jit(poly_again), np.array([1.0, 2.0]), 0.5)
    assert any("depending on the path taken" in str(w.message) for w in caught)


@jit
def norms(x, out):
    for i in range(x.shape[0]):
        d = 0.0              # a Python float until the first element is added
        for j in range(x.shape[1]):
            t = x[i, j]
            d += t * t
        out[i] = d           # stored: the same value either way
        out[i] = math.sqrt(d)  # math converts both to the same float
    return out


@pytest.mark.parametrize("shape", [(3, 4), (2, 0)])
def test_same_value_uses_compile(check, shape):
    check(norms, np.arange(float(np.prod(shape))).reshape(shape), np.zeros(shape[0]))


@jit
def largest_step(x, y):
    change = 0.0             # a Python float until max() picks an np.float64
    for i in range(x.shape[0]):
        change = max(change, abs(x[i] - y[i]))
    return change            # CPython's type: whichever argument max() kept


@jit
def farthest_point(pos):
    farthest = 0             # a Python int, or the np.int64 max() picked
    for i in range(pos.shape[0]):
        farthest = max(farthest, abs(pos[i]))
    return farthest, min(farthest, 3)


@jit
def blur_row(a):
    out = a.copy()
    for i in range(1, a.shape[0] - 1):
        s = 0.0
        for d in range(-1, 2):   # a constant range: runs, so s is an array element sum after it
            s += a[i + d]
        out[i] = s / 3.0
    return out


@jit
def dft(x):
    n = len(x)
    out = np.zeros(n, dtype=np.complex128)
    for k in range(n):
        s = 0j               # a Python complex until the first term is added
        for t in range(n):
            s += x[t] * np.exp(-2j * np.pi * k * t / n)
        out[k] = s
    return out


@pytest.mark.parametrize("fn, args", [
    (largest_step, (np.array([1.0, 2.0]), np.array([1.0, 2.0]))), (largest_step, (np.array([1.0, 2.0]), np.zeros(2))),
    (largest_step, (np.zeros(0), np.zeros(0))),
    (farthest_point, (np.array([0, 0], dtype=np.int64),)), (farthest_point, (np.array([0, -5, 2], dtype=np.int64),)),
    (blur_row, (np.arange(6.0),)), (blur_row, (np.arange(6, dtype=np.float32),)),
    (dft, (np.arange(4.0),)), (dft, (np.zeros(0),)),
])
def test_peer_kernels_with_values_of_two_types(check, fn, args):
    check(fn, *args)


@jit
def parallel_total(a):
    s = 0.0                  # a Python float if no iteration runs
    for i in prange(a.shape[0]):
        s += a[i]            # a reduction: an np.float64 after any iteration
    return s


@pytest.mark.parametrize("n", [0, 1, 100000])
def test_a_prange_reduction_keeps_cpythons_type(check, n):
    check(parallel_total, np.arange(float(n)))


@jit
def newton(coeffs, x0, tol=1e-12, max_iter=50):
    x = x0                   # a Python float, then an np.float64 after the first step
    for _ in range(max_iter):
        p, dp = poly_and_derivative(coeffs, x)   # runs the specialization for x's type on this path
        if dp == 0:
            raise ZeroDivisionError("zero derivative")
        step = p / dp        # CPython's division rules for two Python floats, NumPy's otherwise
        x -= step
        if abs(step) < tol:
            return x
    raise RuntimeError("Newton's method did not converge")


@pytest.mark.parametrize("args", [
    (np.array([1.0, 0.0, -2.0, -5.0]), 2.0), (np.array([1.0, 0.0, -2.0, -5.0]), np.float64(2.0)),
    (np.zeros(0), 1.0), (np.array([1.0, 0.0, 1.0]), 0.5), (np.array([1.0, -1.0]), 3.0),
])
def test_a_call_runs_the_specialization_for_its_arguments_type(check, args):
    check(newton, *args)


# Peer code (Numba's docs, Pythran's benchmarks): an accumulator started at 0.0 becomes an np.float64
# (or the array's dtype) after the first `+=`; these uses give CPython's result either way and compile.

@jit
def go_fast(a):  # Numba's 5-minute guide
    trace = 0.0
    for i in range(a.shape[0]):
        trace += np.tanh(a[i, i])
    return a + trace


@jit
def norm_of_row(x):
    d = 0.0
    for k in range(x.shape[0]):
        d += x[k] * x[k]
    return np.sqrt(d)


@jit
def sum_into(a, out):
    acc = 0.0
    for v in a:
        acc += v
    out[0] = acc


@pytest.mark.parametrize("n", [0, 1, 5])
def test_accumulators_meet_ufuncs_arrays_and_stores(check, n):
    check(go_fast, np.arange(float(n * n)).reshape(n, n) / 7.0)
    check(norm_of_row, np.arange(float(n)) / 3.0)
    for dtype in ("float32", "float64"):
        check(sum_into, (np.arange(n) / 7.0).astype(dtype), np.zeros(1, dtype))


@plain_jit
def plus_f32_array(a, k):
    t = 0.0
    for i in range(k):
        t += np.float64(i) / 3.0
    return a + t  # float32 array + 0.0 stays float32; + np.float64 is float64 (NEP 50)


def test_an_array_whose_result_dtype_depends_on_the_path_is_not_compiled():
    a = np.ones(3, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        for k in (0, 2):
            got, expected = plus_f32_array(a, k), plus_f32_array.py_func(a, k)
            assert got.dtype == expected.dtype and np.array_equal(got, expected)


@jit
def unpacked_displays(a, n):
    s = 0.0
    t = 1.0
    for i in range(n):
        s += a[i]  # an np.float64 once the loop ran, a Python float otherwise
    s, t = t, s  # each name keeps the type of the value it gets; both flags read before either is set
    best, bd = -1, np.inf
    for i in range(n):
        d = 0.0
        d += a[i] * a[i]
        if d < bd:
            bd, best = d, i
    return s, t, bd, best


@pytest.mark.parametrize("n", [0, 1, 3])
def test_a_display_unpacked_into_names_keeps_each_paths_type(check, n):
    check(unpacked_displays, np.array([3.0, -1.0, 2.0]), n)
    assert unpacked_displays.fallbacks() == []


@jit
def clamped_indices(a, lo):
    """Index clamps around NumPy's int results (`max(0, np.argmax(a))`,
    `min(j, n - 2)` after np.searchsorted): an int or an np.int64 by path, the
    same item either way."""
    j = max(lo, np.argmax(a))
    k = min(np.searchsorted(a, 2.5), len(a) - 2)
    items = [10, 20, 30, 40]
    return a[j], a[k], items[j], (7, 8, 9, 10)[k]


def test_an_int_or_np_int64_by_path_indexes_the_same_item(check):
    a = np.array([1.0, 5.0, 2.0, 3.0])
    check(clamped_indices, a, 0)
    check(clamped_indices, a, 3)
    check(clamped_indices, a, 4)  # IndexError from a[j], as CPython's


def _total(a, start=0.0):
    acc = start  # a Python float (int) for an empty array, an np.float64 (np.int64) after any item
    for x in a:
        acc += x
    return acc


@jit
def arithmetic_on_call_results(a, b):
    mean = _total(a) / 3
    return _total(a) * 2, _total(a) + _total(b), _total(a) - 1.5, _total(b) > 0, mean, _total(b) / 2.0, \
        _total(a) // 2.0


@jit
def divided_call_result(a):
    return _total(a) / 0.0  # ZeroDivisionError for a Python float, inf for an np.float64


@pytest.mark.parametrize("n,m", [(3, 2), (0, 2), (3, 0), (0, 0)])
def test_arithmetic_on_a_call_result_that_is_python_or_numpys_by_path(check, n, m):
    """A helper returning 0.0 or an np.float64 by path, its result used in
    arithmetic: the callee's flag is caught as it returns, so each result has
    CPython's type (refused before: "the '*' operation on a call's result")."""
    check(arithmetic_on_call_results, np.arange(float(n)), np.arange(float(m)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check(divided_call_result, np.arange(float(n)))


@jit
def int_or_int64_by_path(a, items):
    s = _total(a, 0)
    t = s * 2 + 1
    return s, t, _total(a, 0) + 1, _total(a, 0) * 3 > 2, items[s], items[t]


@pytest.mark.parametrize("n", [0, 2])
def test_an_int_or_np_int64_by_path_keeps_its_type_through_add_sub_mul(check, n):
    """Python int and np.int64 add, subtract and multiply alike (int64 wraps
    for both here): the result carries the operands' flag, as a float's does."""
    check(int_or_int64_by_path, np.arange(n), list(range(10)))


def _item_or_zero(a, k):
    if k < 0:
        return 0.0  # a Python float here, an np.float64 below
    return a[k]


@jit
def call_results_returned_directly(a, k):
    return _item_or_zero(a, k) + 1


@jit
def call_result_compared(a, k):
    return _item_or_zero(a, k) > 0


def _divided_by_zero(x):
    return x / 0.0


def _call_result_passed_on(a, k):
    return _divided_by_zero(_item_or_zero(a, k) + 1)


def _call_result_added_in_place(a, k):
    x = 1.0
    x += _item_or_zero(a, k)
    return x


@pytest.mark.parametrize("k", [-1, 0])
def test_a_caught_call_flag_is_read_after_the_call(check, k):
    """Probe finds: `return h(a, k) + 1` boxed the sum with its flag read before
    the call had set it (C++'s order of arguments): an np.float64 where CPython
    returns 1.0.  Passing such a sum to another compiled function (which one
    runs depends on the flag) and `x += h(a, k)` run as Python instead."""
    a = np.array([1.5])
    check(call_results_returned_directly, a, k)
    check(call_result_compared, a, k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for fn in (_call_result_passed_on, _call_result_added_in_place):
            try:
                expected = fn(a, k)
            except ZeroDivisionError:
                with pytest.raises(ZeroDivisionError):
                    plain_jit(fn)(a, k)
                continue
            got = plain_jit(fn)(a, k)
            assert (type(got), got) == (type(expected), expected)
