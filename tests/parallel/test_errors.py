"""What prange rejects, at translation (nothing is compiled): races and
loop-carried dependencies, control flow that needs an order, and (for the
device backends) what a GPU/NPU kernel cannot run."""
from __future__ import annotations

import numpy as np
import pytest

from transpile import TypingError, UnsupportedSyntaxError, jit, prange
from transpile.hir import types as T
from transpile.options import make_options
from transpile.pipeline import translate


def cxx(fn, sig="float64[::1]", backend="cpu"):
    options = make_options(backend=backend, check_toolkit=False)
    return translate(fn.py_func, tuple(T.parse_signature(sig)), options, "tr_entry_test").cpp


@jit
def carried(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s = s + a[i]
    return s


@jit
def read_after(a):
    for i in prange(a.shape[0]):
        t = a[i]
    return t


@jit
def index_after(a):
    for i in prange(a.shape[0]):
        a[i] = 0.0
    return i


@jit
def breaks(a):
    for i in prange(a.shape[0]):
        if a[i] > 0:
            break
    return 0


@jit
def returns(a):
    for i in prange(a.shape[0]):
        if a[i] > 0:
            return i
    return -1


@jit
def mixed_ops(a):
    s = 1.0
    for i in prange(a.shape[0]):
        s += a[i]
        s *= 2.0
    return s


@jit
def reads_reduction(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i]
        a[i] = s
    return s


@jit
def whole_array(a):
    for i in prange(a.shape[0]):
        a += 1.0
    return a


@jit
def slice_race(a, h):
    for i in prange(a.shape[0]):
        k = int(a[i])
        h[k:k + 2] += 1.0
    return h


@jit
def private_ok(a):
    s = 0.0
    for i in prange(a.shape[0]):
        t = a[i]
        if t > 0:
            u = t
        else:
            u = -t
        s += u
    return s


@pytest.mark.parametrize("fn, message", [
    (carried, "'s' is read before this iteration of the prange loop assigns it"),
    (read_after, "'t' is assigned inside the prange loop at line"),
    (index_after, "'i' is assigned inside the prange loop"),
    (mixed_ops, "'s' is updated with \\*=, \\+= in a prange loop: a reduction needs one operator"),
    (reads_reduction, "'s' is read before this iteration"),
    (whole_array, "'a' \\+= ... updates the whole array in every iteration"),
], ids=lambda x: getattr(x, "__name__", ""))
def test_races_are_typing_errors(fn, message):
    with pytest.raises(TypingError, match=message) as info:
        cxx(fn)
    assert info.value.loc is not None and info.value.hint


def test_slice_update_at_a_shared_index_races():
    with pytest.raises(TypingError, match="'h' is updated in place by every iteration"):
        cxx(slice_race, "float64[::1], float64[::1]")


@pytest.mark.parametrize("fn, word", [(breaks, "break"), (returns, "return")], ids=["break", "return"])
def test_order_dependent_control_flow(fn, word):
    with pytest.raises(UnsupportedSyntaxError, match=f"'{word}' inside a prange loop is not supported"):
        cxx(fn)


def test_private_assigned_on_every_path_is_fine():
    assert "tr::par::for_range" in cxx(private_ok)


# ---- the device subset (backend="cuda" / "ascend") ----------------------------------

@jit
def array_expr(a, out):
    for i in prange(a.shape[0]):
        out[i] = np.sum(a * 2.0)
    return out


@jit
def helper(x):
    return x * 2.0


@jit
def calls_jit(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += helper(a[i])
    return s


@jit
def slices(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i:].sum()
    return s


@jit
def hist(x, h):
    for i in prange(x.shape[0]):
        h[int(x[i])] += 1
    return h


@jit
def hist_read(x, h):
    for i in prange(x.shape[0]):
        h[int(x[i])] += 1 + h[0] * 0
    return h


def test_array_reductions_and_atomics():
    # only updated: each thread may fill its own copy (decided at run time)
    text = cxx(hist, "float64[::1], int64[::1]")
    assert "tr::par::update(tr_private_h, " in text and "tr::par::with_arrays(" in text
    # also read in the body: the updates stay atomic
    text = cxx(hist_read, "float64[::1], int64[::1]")
    assert "tr::par::atomic_update(" in text and "with_arrays" not in text


@pytest.mark.parametrize("backend", ["cuda", "ascend"])
@pytest.mark.parametrize("fn, sig, message", [
    (array_expr, "float64[::1], float64[::1]", "not supported inside a prange loop on backend="),
    (calls_jit, "float64[::1]", "calling another @jit function is not supported inside a prange loop"),
    (slices, "float64[::1]", "not supported inside a prange loop on backend="),
], ids=["array-expression", "jit-call", "slice"])
def test_device_kernels_reject_host_only_code(backend, fn, sig, message):
    with pytest.raises(UnsupportedSyntaxError, match=message) as info:
        cxx(fn, sig, backend)
    assert "backend='cpu'" in info.value.hint
    assert "tr::par::for_range" in cxx(fn, sig, "cpu")  # the CPU runs all of it


def test_ascend_builds_array_reductions_only():
    # only updated: each block updates its own copy of h
    text = cxx(hist, "float64[::1], int64[::1]", "ascend")
    assert "tr::par::update(tr_private_h, " in text and "tr::par::with_arrays(" in text
    # also read: that would need atomic updates, which the Ascend backend does not have
    with pytest.raises(UnsupportedSyntaxError, match="'h' is updated at an index other than the loop variable "
                                                     "inside a prange loop on backend='ascend', which has no atomic"
                                                     ) as info:
        cxx(hist_read, "float64[::1], int64[::1]", "ascend")
    assert "backend='cpu' or 'cuda'" in info.value.hint
    assert "tr::par::atomic_update(" in cxx(hist_read, "float64[::1], int64[::1]", "cuda")
