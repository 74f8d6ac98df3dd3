"""backend="ascend": the generated code (golden), the clear error without the
CANN toolkit, and the Ascend code path compiled by g++ and run against the
host emulation of AscendCL (TRANSPILE_ASCEND_MOCK=1; see
runtime_cpp/transpile_rt/backend/ascend_mock.hpp, which runs the blocks
last-first): histograms (per-block array copies) and errors raised inside
the kernel, against backend="cpu" and CPython.  Nothing here has run on an
Ascend NPU or been compiled by CANN's bisheng."""
from __future__ import annotations

import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest

from transpile import jit
from transpile.errors import BackendUnavailableError
from transpile.hir import types as T
from transpile.options import make_options
from transpile.pipeline import translate

from . import device_kernels as dk
from ..golden.golden_text import matches_golden

GOLDEN = Path(__file__).parent / "golden"


def test_golden_ascend_code():
    options = make_options(backend="ascend", check_toolkit=False)
    text = translate(dk.axpy_sum, tuple(T.parse_signature(dk.AXPY_SIG)), options, "tr_entry_axpy_sum").cpp
    assert matches_golden(text, GOLDEN / "ascend_axpy_sum.cpp"), \
        "generated Ascend code changed; review and regenerate (TRANSPILE_UPDATE_GOLDEN=1)"
    assert "backend='ascend': built with the CANN toolkit's bisheng" in text


@pytest.mark.parametrize("fn, sig", [(dk.axpy_sum, dk.AXPY_SIG), (dk.histograms, dk.HISTOGRAMS_SIG)],
                         ids=["axpy_sum", "histograms"])
def test_one_source_for_every_backend(fn, sig):
    sig = tuple(T.parse_signature(sig))

    def body(backend):
        text = translate(fn, sig, make_options(backend=backend, check_toolkit=False), "tr_entry_x").cpp
        return [line for line in text.splitlines() if not line.startswith("// backend=")]

    assert body("cpu") == body("cuda") == body("ascend")


def test_missing_cann_toolkit_is_an_error_at_decoration(monkeypatch, tmp_path):
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path))
    monkeypatch.delenv("TRANSPILE_ASCEND_MOCK", raising=False)
    with pytest.raises(BackendUnavailableError, match="backend='ascend' needs Huawei's CANN toolkit") as info:
        jit(backend="ascend")(dk.axpy_sum)
    assert "set_env.sh" in info.value.hint


def test_show_ascend_code_needs_no_toolkit(monkeypatch, tmp_path):
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path))
    text = jit(dk.axpy_sum).inspect_cxx(dk.AXPY_SIG, backend="ascend")
    assert "backend='ascend'" in text


@pytest.fixture
def mock(monkeypatch):
    monkeypatch.setenv("TRANSPILE_ASCEND_MOCK", "1")
    monkeypatch.setenv("TRANSPILE_ASCEND_BLOCKS", "3")


def test_ascend_path_runs_on_the_host_emulation(mock):
    stencil = jit(backend="ascend")(dk.stencil)
    u, v, steps = dk.stencil_args(30, 20)
    eu, ev, _ = dk.stencil_args(30, 20)
    np.testing.assert_allclose(stencil(u, v, steps), dk.stencil(eu, ev, steps), rtol=1e-12)
    axpy = jit(backend="ascend")(dk.axpy_sum)
    x, y = np.arange(100, dtype=np.float32), np.ones(100, np.float32)
    ey = y.copy()
    assert axpy(np.float32(2.0), x, y) == pytest.approx(dk.axpy_sum(np.float32(2.0), x, ey), rel=1e-6)
    np.testing.assert_array_equal(y, ey)  # written on the "device", copied back


def test_no_npu_is_a_clear_runtime_error(mock, monkeypatch):
    monkeypatch.setenv("TRANSPILE_ASCEND_MOCK_DEVICES", "0")
    f = jit(backend="ascend")(dk.out_of_bounds)
    with pytest.raises(RuntimeError, match="backend='ascend': no Ascend NPU is visible to this process"):
        f(np.ones(4))


# ---- histograms: one copy of the array per block, combined in block order ----------

BLOCKS = ["1", "3", "8", "64"]


@pytest.fixture(params=BLOCKS, ids=lambda b: f"blocks={b}")
def blocks(request, mock, monkeypatch):
    monkeypatch.setenv("TRANSPILE_ASCEND_BLOCKS", request.param)
    return int(request.param)


def python_histograms(args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy scalars wrap (uint8 +=, int64 *=) and warn
        return dk.histograms(*args)


def cpu_histograms(args, monkeypatch):
    monkeypatch.setenv("TRANSPILE_NUM_THREADS", "2")
    return jit(dk.histograms)(*args)


def test_histograms_match_cpu_and_cpython(blocks, monkeypatch):
    # int64 (+= and -=, *=, |=, ^=), float32 (+=), uint8 (+= wrapping, &=)
    got, cpu, expected = dk.histogram_args(), dk.histogram_args(), dk.histogram_args()
    result = jit(backend="ascend")(dk.histograms)(*got)
    assert result is got[1]  # the argument itself, updated in place
    python_histograms(expected)
    cpu_histograms(cpu, monkeypatch)
    for g, c, e in zip(got[1:], cpu[1:], expected[1:]):
        assert g.dtype == e.dtype
        np.testing.assert_array_equal(g, e)
        np.testing.assert_array_equal(c, e)
    assert got[1].sum() == got[0].size  # += 2 and -= 1 per iteration


def test_histograms_accumulate_into_strided_arrays(blocks):
    # h is a view with a negative stride into a bigger buffer: the copies are
    # combined into its elements only, and the values before the loop stay
    got, expected = list(dk.histogram_args(n=500, bins=5)), list(dk.histogram_args(n=500, bins=5))
    buffer = np.full(11, -100, np.int64)
    got[1], expected[1] = buffer[9::-2], np.full(5, -100, np.int64)
    for a, b in zip(got[1:], expected[1:]):
        a += a.dtype.type(7)
        b += b.dtype.type(7)
    jit(backend="ascend")(dk.histograms)(*got)
    python_histograms(expected)
    for g, e in zip(got[1:], expected[1:]):
        np.testing.assert_array_equal(g, e)
    np.testing.assert_array_equal(buffer[::2], -100)  # the elements between are untouched


def test_copies_over_the_limit_run_on_fewer_blocks(mock, monkeypatch):
    # 4096 bins: one block's copies take 152 KiB (4 int64, 1 float32, 2 uint8
    # arrays), the staged arrays 312 KiB; the emulated NPU has 700 KiB, room
    # for the copies of 2 blocks but not of 8 (nor 3).
    monkeypatch.setenv("TRANSPILE_ASCEND_BLOCKS", "8")
    monkeypatch.setenv("TRANSPILE_ASCEND_MOCK_MEMORY", str(700 << 10))
    f = jit(backend="ascend")(dk.histograms)
    with pytest.raises(RuntimeError, match=r"backend='ascend': aclrtMalloc failed \(aclError 207001\)"):
        f(*dk.histogram_args(n=20_000, bins=4096))  # the default limit (64 MiB) allows all 8 blocks
    expected = dk.histogram_args(n=20_000, bins=4096)
    python_histograms(expected)
    for limit in (320 << 10, 100 << 10):  # 2 blocks' copies; then less than one block's: one block, no copies
        monkeypatch.setenv("TRANSPILE_ASCEND_COPY_LIMIT", str(limit))
        got = dk.histogram_args(n=20_000, bins=4096)
        f(*got)
        for g, e in zip(got[1:], expected[1:]):
            np.testing.assert_array_equal(g, e)


@pytest.mark.parametrize("name, value", [("TRANSPILE_ASCEND_COPY_LIMIT", "lots"), ("TRANSPILE_ASCEND_BLOCKS", "0")])
def test_bad_launch_settings_are_clear_errors(mock, monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=f"{name} must be a positive integer, not '{value}'"):
        jit(backend="ascend")(dk.histograms)(*dk.histogram_args(n=50))


# ---- errors inside the kernel: the lowest iteration's, after the kernel -------------

def outcome(call):
    try:
        return call()
    except Exception as exc:  # noqa: BLE001 - the exception is the result compared
        return exc


@pytest.mark.parametrize("k, zero", [(300, None), (300, 100), (300, 700), (2000, 450), (2000, None)],
                         ids=["index-errors", "zero-first", "index-first", "zero", "no-error"])
def test_error_of_the_lowest_iteration(blocks, monkeypatch, k, zero):
    # IndexError in iterations 299, 599, 899 (k=300); ZeroDivisionError where d == 0
    a = np.arange(1000.0)
    d = np.ones(1000, np.int64)
    if zero is not None:
        d[zero] = 0
        d[zero + 200] = 0  # a later zero: the earlier one is the error
    got = outcome(lambda: jit(backend="ascend")(dk.faults)(a, d, k, np.zeros(1000)))
    expected = outcome(lambda: dk.faults(a, d, k, np.zeros(1000)))
    monkeypatch.setenv("TRANSPILE_NUM_THREADS", "2")
    cpu = outcome(lambda: jit(dk.faults)(a, d, k, np.zeros(1000)))
    if not isinstance(expected, Exception):
        for result in (got, cpu):
            assert result[0] == pytest.approx(expected[0], rel=1e-12)
            np.testing.assert_array_equal(result[1], expected[1])
        return
    assert type(got) is type(cpu) is type(expected)
    assert str(got) == str(cpu) == str(expected)
    if k == 300 and zero != 100:
        assert str(got) == "index 1299 is out of bounds for axis 0 with size 1000"
    else:
        assert str(got) == "integer division or modulo by zero"
    needle = "s += a[i + a.shape[0]]" if isinstance(expected, IndexError) else "s += 10 // int(d[i]) + a[i]"
    line = next(i for i, text in enumerate(open(dk.__file__), 1) if needle in text)
    assert any(f"device_kernels.py:{line}" in note for note in getattr(got, "__notes__", []))


def test_arrays_written_by_a_failing_kernel_are_not_copied_back(mock):
    f = jit(backend="ascend")(dk.faults)
    a, out = np.arange(10.0), np.zeros(10)
    with pytest.raises(IndexError, match="index 19 is out of bounds for axis 0 with size 10"):
        f(a, np.ones(10, np.int64), 10, out)
    np.testing.assert_array_equal(out, np.zeros(10))  # the device's writes stay on the device
    s, result = f(a, np.ones(10, np.int64), 11, out)  # no error: written back
    assert s == dk.faults(a, np.ones(10, np.int64), 11, np.zeros(10))[0] and result is out
    np.testing.assert_array_equal(out, 2.0 * a)


FORMAT_CHECK = r"""
#include <stdio.h>
#include <string.h>
#include "transpile_rt/backend/parallel.hpp"

// The devices' formatters against printf, for the formats tr::raise uses in
// kernel code: Ascend's (no C varargs) and CUDA's (va_list, no vsnprintf).
static void cuda_format(char *out, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    tr::format_va(out, fmt, ap);
    va_end(ap);
}

template <class... A> static int check(const char *fmt, A... args) {
    char got[TR_MSG_SIZE], want[TR_MSG_SIZE], got_va[TR_MSG_SIZE];
    const tr::FmtArg list[sizeof...(A) + 1] = {tr::fmt_arg(args)..., tr::FmtArg{0, nullptr}};
    tr::par::format_message(got, TR_MSG_SIZE, fmt, list, int(sizeof...(A)));
    cuda_format(got_va, fmt, args...);
    snprintf(want, sizeof want, fmt, args...);
    if (strcmp(got, want) == 0 && strcmp(got_va, want) == 0) return 0;
    printf("differs: '%s' / '%s' vs '%s'\n", got, got_va, want);
    return 1;
}

int main() {
    int bad = 0;
    bad += check("index %lld is out of bounds for axis %d with size %lld", -1005LL, 1, 1000LL);
    bad += check("index %lld is out of bounds for axis %d with size %lld", (long long)INT64_MIN, 0, 0LL);
    bad += check("factorial() result does not fit in int64 (argument %lld)", 21LL);
    bad += check("integer division or modulo by zero");
    bad += check("%s: 100%% of %d", "name", -7);
    bad += check("%ld and %lld and %d", -123456789012L, 9223372036854775807LL, -2147483647 - 1);
    printf(bad ? "FAIL\n" : "OK\n");
    return bad;
}
"""


def test_device_message_formatter_matches_printf(tmp_path):
    from transpile.build.toolchain import find_compiler
    from transpile.resources import runtime_dir

    src, exe = tmp_path / "fmt.cpp", tmp_path / "fmt"
    src.write_text(FORMAT_CHECK)
    subprocess.run([find_compiler().path, "-std=c++20", "-w", "-DTRANSPILE_BACKEND_ASCEND", "-DTR_ASCEND_MOCK",
                    "-I", str(runtime_dir()), str(src), "-o", str(exe)], check=True, capture_output=True, text=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.stdout.strip() == "OK", run.stdout
