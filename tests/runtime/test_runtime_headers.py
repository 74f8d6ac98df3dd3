"""The numpy/, math/ and builtins/ runtime headers against NumPy and CPython.

One C++ driver (rt_headers_main.cpp) is compiled twice: -O1 as generated code
is at jit_level O0, and -O3 -march=native as at O1 (this catches results that
change when the compiler fuses multiply-adds).  A third g++ call checks that
every header compiles on its own.  Results are compared bit for bit except
where NumPy itself calls SIMD or BLAS code whose last bits differ (marked
`ulps` below).
"""

from __future__ import annotations

import math
import random
import re
import shutil
import subprocess
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = ROOT / "runtime_cpp"
RT = RUNTIME / "transpile_rt"
DRIVER = Path(__file__).with_name("rt_headers_main.cpp")
HEADERS = [
    "numpy/ufunc.hpp",
    "numpy/creation.hpp",
    "numpy/reduce.hpp",
    "numpy/linalg.hpp",
    "numpy/shape.hpp",
    "numpy/common.hpp",
    "numpy/sorting.hpp",
    "numpy/histogram.hpp",
    "numpy/join.hpp",
    "numpy/cumulative.hpp",
    "numpy/linalg_more.hpp",
    "fancy.hpp",
    "math/math.hpp",
    "math/fmath.hpp",
    "builtins/builtins.hpp",
    "float_int.hpp",
]
FORBIDDEN = ["cmath", "complex", "string", "stdexcept", "iostream", "vector", "algorithm"]
BASE_FLAGS = ["-std=c++20", "-fwrapv", "-fno-math-errno", "-I", str(RUNTIME)]

ERR_CODES = {"IndexError": 1, "ZeroDivisionError": 2, "ValueError": 3, "TypeError": 4, "OverflowError": 6,
             "AxisError": 11}

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is required")


# ----------------------------------------------------------------- build


@pytest.fixture(scope="module")
def binaries(tmp_path_factory):
    out = tmp_path_factory.mktemp("rt_headers")
    variants = {"O1": ["-O1"], "O3native": ["-O3", "-march=native"]}

    def build(name):
        exe = out / f"rt_{name}"
        cmd = ["g++", *BASE_FLAGS, *variants[name], str(DRIVER), "-o", str(exe)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr[-4000:]
        return exe

    with ThreadPoolExecutor(2) as pool:
        return dict(zip(variants, pool.map(build, variants)))


def test_each_header_compiles_alone(tmp_path):
    srcs = []
    for h in HEADERS:
        src = tmp_path / (h.replace("/", "_") + ".cpp")
        src.write_text(f'#include "transpile_rt/{h}"\n#include "transpile_rt/{h}"\n')
        srcs.append(str(src))
    proc = subprocess.run(["g++", *BASE_FLAGS, "-Wall", "-Wextra", "-Werror", "-fsyntax-only", *srcs],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-4000:]


def test_no_forbidden_standard_headers():
    pat = re.compile(r"#\s*include\s*<(%s)>" % "|".join(FORBIDDEN))
    for h in HEADERS:
        text = (RT / h).read_text()
        assert text.startswith("//") and "#pragma once" in text, h
        assert not pat.search(text), f"{h} includes a forbidden standard header"


# ------------------------------------------------------------- parsing


def parse_value(tok):
    if tok == "nan":
        return math.nan
    if tok.startswith(("0x", "-0x")) or tok in ("inf", "-inf"):
        return float.fromhex(tok)
    return int(tok)


def parse_result(text):
    text = text.strip()
    if text.startswith("ERR "):
        _, code, msg = text.split(" ", 2)
        return ("ERR", int(code), msg)
    if text.startswith("shape"):
        dims, _, vals = text[len("shape"):].partition(":")
        return ("ARR", tuple(int(d) for d in dims.split()), [parse_value(t) for t in vals.split()])
    return ("VAL", [parse_value(t) for t in text.split()])


def flatten(v):
    """Expected values as the driver prints them (complex as re, im)."""
    out = []
    for x in np.asarray(v).reshape(-1).tolist():
        if isinstance(x, complex):
            out += [x.real, x.imag]
        elif isinstance(x, bool):
            out.append(int(x))
        else:
            out.append(x)
    return out


def same(a, b, tol=0):
    """a == b bit for bit (NaN == NaN, 0.0 != -0.0), or within `tol`:
    k (float64 ulps), ("f32", k) (float32 ulps), "anyzero" (equal, either
    sign of zero)."""
    if not (isinstance(b, float) or isinstance(a, float)):
        return a == b
    a, b = float(a), float(b)
    if math.isnan(b):
        return math.isnan(a)
    if a == b:
        return math.copysign(1, a) == math.copysign(1, b) or tol != 0
    if tol == "anyzero" or not (math.isfinite(a) and math.isfinite(b)):
        return False
    if isinstance(tol, tuple):
        k, spacing = tol[1], float(np.spacing(np.float32(max(abs(a), abs(b)))))
    else:
        k, spacing = tol, float(np.spacing(max(abs(a), abs(b))))
    return abs(a - b) <= k * spacing


def expected_of(fn):
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn()
    except Exception as e:  # noqa: BLE001 - the exception is the expected result
        return e


def check(name, got, exp, ulps=0, problems=None):
    if isinstance(exp, Exception):
        code = next(ERR_CODES[k.__name__] for k in type(exp).__mro__ if k.__name__ in ERR_CODES)
        want = ("ERR", code, str(exp))
        if got != want:
            problems.append(f"{name}: got {got!r}, want {want!r}")
        return
    if got[0] == "ERR":
        problems.append(f"{name}: got error {got!r}, want {exp!r}")
        return
    if got[0] == "ARR":
        extra = []
        if isinstance(exp, list):  # an array followed by scalars
            exp, extra = exp[0], [w for e in exp[1:] for w in flatten(e)]
        arr = np.asarray(exp)
        if got[1] != arr.shape:
            problems.append(f"{name}: shape {got[1]} != {arr.shape}")
            return
        vals, want = got[2], flatten(arr) + extra
    else:
        vals, want = got[1], flatten(exp) if not isinstance(exp, (list, tuple)) else [
            w for e in exp for w in flatten(e)]
    if len(vals) != len(want):
        problems.append(f"{name}: {len(vals)} values, want {len(want)}")
        return
    if isinstance(ulps, tuple) and ulps[0] == "rel":  # error relative to the largest magnitude (BLAS sums)
        scale = max([abs(w) for w in want if isinstance(w, float) and math.isfinite(w)] + [1e-300])
        bad = [i for i, (a, b) in enumerate(zip(vals, want)) if not abs(a - b) <= ulps[1] * scale]
    else:
        bad = [i for i, (a, b) in enumerate(zip(vals, want)) if not same(a, b, ulps)]
    if bad:
        i = bad[0]
        problems.append(f"{name}: {len(bad)} mismatches, first at {i}: got {vals[i]!r}, want {want[i]!r}")


# ------------------------------------------------------------ test data
# Mirrors gval / ival / mk / view in the driver.

SC = np.array([1e-3, 1e-2, 0.1, 1.0, 10.0, 100.0, 1000.0])


def gvals(n, off=0):
    i = np.arange(off, off + n, dtype=np.int64)
    return ((i * 7919 + 13) % 1000 - 500) / 37.0 * SC[i % 7]


def ivals(n, off=0):
    i = np.arange(off, off + n, dtype=np.int64)
    return (i * 7919 + 13) % 1000 - 500


def mk(shape, dtype=np.float64, ints=False, off=0):
    shape = (shape,) if isinstance(shape, int) else shape
    n = int(np.prod(shape))
    if np.issubdtype(dtype, np.complexfloating):
        g = gvals(2 * n, off)
        v = (g[0::2] + 1j * g[1::2]).astype(dtype) if dtype == np.complex128 else (
            g[0::2].astype(np.float32) + 1j * g[1::2].astype(np.float32)).astype(dtype)
    elif ints:
        v = ivals(n, off).astype(dtype)
    else:
        v = gvals(n, off).astype(dtype)
    return v.reshape(shape)


def nan_vec():
    w = np.ones(6)
    w[1], w[2], w[3], w[4] = 3, np.nan, 5, np.nan
    return w


def long_nan():
    w = mk(100)
    w[40] = w[70] = np.nan
    return w


def big_i64():
    iv = mk(20000, np.int64, ints=True)
    return iv * 1000000000000003 + np.arange(20000)


def nan_mat():
    w = mk((4, 5))
    w.flat[6] = np.nan
    w.flat[13] = np.nan
    return w


def reshape_and_view_flag(a, shape):
    r = a.reshape(shape)
    return [r, int(np.shares_memory(r, a))]


def reshaped_write():
    b = mk((2, 3))
    b.reshape(6)[4] = 99.0
    return b


ARRAY_CASES = {
    # creation
    "zeros": lambda: np.zeros((2, 3)),
    "zeros_i": lambda: np.zeros(4, np.int32),
    "ones": lambda: np.ones((3, 1, 2), np.float32),
    "full": lambda: np.full((2, 2), 7, np.int64),
    "full_c": lambda: np.full(2, 1.5 - 2j),
    "zeros_0d": lambda: np.zeros(()),
    "full_0d": lambda: np.full((), 5, np.int64),
    "zeros_like_0d": lambda: np.zeros((), np.float32),
    "empty_shape": lambda: np.empty((3, 0, 2)).size,
    "zeros_neg": lambda: np.zeros((2, -1)),
    "ones_like": lambda: np.ones_like(mk((2, 2)), dtype=np.int64),
    "eye": lambda: np.eye(3, 4, 1),
    "arange_i": lambda: np.arange(0, 10, 1),
    "arange_i_neg": lambda: np.arange(10, 0, -3),
    "arange_i_empty": lambda: np.arange(5, 1, 1),
    "arange_i_zero": lambda: np.arange(0, 5, 0),
    "arange_f": lambda: np.arange(0.1, 10, 0.3),
    "arange_f2": lambda: np.arange(-3.5, 7.25, 0.75),
    "arange_f3": lambda: np.arange(1, 2, 0.1),
    "arange_f32": lambda: np.arange(np.float32(0.1), np.float32(10), np.float32(0.3), dtype=np.float32),
    "arange_f32_py": lambda: np.arange(0.1, 10.0, 0.3, dtype=np.float32),
    "arange_i_f": lambda: np.arange(0.5, 5, 1, dtype=np.int64),
    "arange_f_i": lambda: np.arange(2, 9, 2, dtype=np.float64),
    "arange_f_zero": lambda: np.arange(0.0, 5.0, 0.0),
    "arange_f_infstep": lambda: np.arange(0.0, 1.0, np.inf),
    "arange_f_infstep_neg": lambda: np.arange(0.0, -1.0, np.inf),
    "arange_f_inf": lambda: np.arange(0.0, np.inf, 1.0),
    "arange_f_nan": lambda: np.arange(0.0, np.nan, 1.0),
    "linspace": lambda: np.linspace(0, 1, 50),
    "linspace_noend": lambda: np.linspace(0, 1, 7, endpoint=False),
    "linspace_big": lambda: np.linspace(-2.5, 13.3, 1001),
    "linspace_rev": lambda: np.linspace(1, 0, 10),
    "linspace_one": lambda: np.linspace(0.25, 1, 1),
    "linspace_zero": lambda: np.linspace(0, 1, 0),
    "linspace_neg": lambda: np.linspace(0, 1, -1),
    "linspace_int": lambda: np.linspace(0, 10, 7, dtype=np.int64),
    "linspace_f32": lambda: np.linspace(0, 1, 11, dtype=np.float32),
    "linspace_denorm": lambda: np.linspace(0, 1e-323, 10),
    "linspace_third": lambda: np.linspace(1.0 / 3, 2.0 / 3, 33),
    # reductions
    "sum_stride3": lambda: np.sum(mk(30000)[5:5 + 3 * 9000:3]),
    "sum_stride_neg": lambda: np.sum(mk(30000)[29999:9999:-1]),
    "sum_2d": lambda: np.sum(mk((300, 301))),
    "sum_2d_T": lambda: np.sum(mk((300, 301)).T),
    "sum_2d_slice": lambda: np.sum(mk((300, 301))[::2, 1::3]),
    "sum_2d_rows": lambda: np.sum(mk((300, 301))[:, :200]),
    "sum_3d": lambda: np.sum(mk((20, 30, 40))),
    "sum_3d_perm": lambda: np.sum(np.transpose(mk((20, 30, 40)), (1, 0, 2))),
    "sum_3d_slice": lambda: np.sum(mk((20, 30, 40))[:, ::2, 3:39:2]),
    "sum_f32_as_f64": lambda: np.sum(mk(20001, np.float32), dtype=np.float64),
    "sum_f32_as_f64_2d": lambda: np.sum(mk((150, 101), np.float32)[:, :100], dtype=np.float64),
    "mean_i64_big": lambda: np.mean(big_i64()),
    "sum_i64": lambda: np.sum(big_i64()),
    "sum_i32": lambda: np.sum(mk(1000, np.int32, True)),
    "mean_i32": lambda: np.mean(mk(1000, np.int32, True)),
    "prod_i32": lambda: np.prod(mk(1000, np.int32, True)[0:140:7], dtype=np.int64),
    "sum_i8": lambda: np.sum(mk(300, np.int8, True)),
    "sum_c128": lambda: np.sum(mk(1000, np.complex128)),
    "mean_c128": lambda: np.mean(mk(1000, np.complex128)),
    "sum_c128_37": lambda: np.sum(mk(37, np.complex128)),
    "sum_c64": lambda: np.sum(mk(555, np.complex64)),
    "sum_expr_1d": lambda: np.sum(mk(5000) * mk(5000, off=77)),
    "sum_expr_sqrt": lambda: np.sum(np.absolute(mk(5000))),
    "sum_expr_2d": lambda: np.sum(mk((70, 90)) + mk(90, off=5)),
    "mean_expr_2d": lambda: np.mean(mk((70, 90)) * mk(90, off=5)),
    "sum_scalar_expr": lambda: 10.0,
    "prod_f64": lambda: np.prod(mk(50)),
    "prod_empty": lambda: np.prod(np.zeros(0)),
    "sum_neg0": lambda: np.sum(np.full(3, -0.0)),
    "prod_neg0": lambda: np.prod(np.full(1, -0.0)),
    "min_f64": lambda: np.min(mk(1001)),
    "max_f64": lambda: np.max(mk(1001)),
    "argmin_f64": lambda: np.argmin(mk(1001)),
    "argmax_f64": lambda: np.argmax(mk(1001)),
    "max_nan": lambda: np.max(nan_vec()),
    "min_nan": lambda: np.min(nan_vec()),
    "argmax_nan": lambda: np.argmax(nan_vec()),
    "argmin_nan": lambda: np.argmin(nan_vec()),
    "argmax_ties": lambda: np.argmax([2, 9, 2, 9, -1]),
    "argmin_i": lambda: np.argmin([2, 9, 2, 9, -1]),
    "max_i": lambda: np.max([2, 9, 2, 9, -1]),
    "min_empty": lambda: np.min(np.zeros(0)),
    "max_empty": lambda: np.max(np.zeros(0)),
    "argmin_empty": lambda: np.argmin(np.zeros(0)),
    "argmax_empty": lambda: np.argmax(np.zeros(0)),
    "argmax_2d_T": lambda: np.argmax(mk((13, 17)).T),
    "argmin_expr": lambda: np.argmin(mk((13, 17)) * -1.0),
    "max_f32": lambda: np.max(mk(333, np.float32)),
    "max_signed0": lambda: np.max(np.array([0.0, -0.0])),
    "argmax_long_nan": lambda: np.argmax(long_nan()),
    "max_long_nan": lambda: np.max(long_nan()),
    "min_long_nan_2d": lambda: np.min(long_nan().reshape(10, 10)),
    "argmin_long_int": lambda: np.argmin(mk(100, np.int64, True)),
    "argmax_long_int": lambda: np.argmax(mk(100, np.int64, True)),
    "min_long_int": lambda: np.min(mk(100, np.int64, True)),
    "max_long_f32": lambda: np.max(mk(1000, np.float32, off=3)),
    "any": lambda: np.any(mk(10)),
    "all": lambda: np.all(mk(10, np.int64, True)),
    "any_zero": lambda: np.any(np.zeros(4)),
    "var_f64": lambda: np.var(mk(1000)),
    "var_f64_ddof1": lambda: np.var(mk(1000), ddof=1),
    "std_f64": lambda: np.std(mk(1000)),
    "std_f64_ddof1": lambda: np.std(mk(1000), ddof=1),
    "var_f32": lambda: np.var(mk(999, np.float32)),
    "std_f32": lambda: np.std(mk(999, np.float32)),
    "var_i64": lambda: np.var(mk(500, np.int64, True)),
    "std_i64": lambda: np.std(mk(500, np.int64, True), ddof=1),
    "var_c128": lambda: np.var(mk(300, np.complex128)),
    "var_ddof_big": lambda: np.var(mk(3), ddof=5),
    "var_2d_T": lambda: np.var(mk((40, 50)).T),
    "var_expr": lambda: np.var(mk(1000) + 1.5),
    "sum_ax0": lambda: np.sum(mk((37, 300)), axis=0),
    "sum_ax1": lambda: np.sum(mk((37, 300)), axis=1),
    "sum_axm1": lambda: np.sum(mk((37, 300)), axis=-1),
    "sum_axT0": lambda: np.sum(mk((37, 300)).T, axis=0),
    "sum_axT1": lambda: np.sum(mk((37, 300)).T, axis=1),
    "sum_3d_ax0": lambda: np.sum(mk((6, 7, 130)), axis=0),
    "sum_3d_ax1": lambda: np.sum(mk((6, 7, 130)), axis=1),
    "sum_3d_ax2": lambda: np.sum(mk((6, 7, 130)), axis=2),
    "sum_ax2_bad": lambda: np.sum(mk((37, 300)), axis=2),
    "sum_axm3_bad": lambda: np.sum(mk((37, 300)), axis=-3),
    "sum_1d_ax0": lambda: np.asarray(np.sum(mk(1000), axis=0)),
    "sum_i_ax0": lambda: np.sum(mk((9, 11), np.int64, True), axis=0),
    "sum_i_ax1": lambda: np.sum(mk((9, 11), np.int64, True), axis=1),
    "prod_ax0": lambda: np.prod(mk((5, 4)), axis=0),
    "prod_ax1": lambda: np.prod(mk((5, 4)), axis=1),
    "mean_ax0": lambda: np.mean(mk((37, 300)), axis=0),
    "mean_ax1": lambda: np.mean(mk((37, 300)), axis=1),
    "mean_i_ax1": lambda: np.mean(mk((9, 11), np.int64, True), axis=1),
    "mean_f32_ax1": lambda: np.mean(mk((5, 333), np.float32), axis=1),
    "max_ax0": lambda: np.max(nan_mat(), axis=0),
    "max_ax1": lambda: np.max(nan_mat(), axis=1),
    "min_ax0": lambda: np.min(nan_mat(), axis=0),
    "min_ax1": lambda: np.min(nan_mat(), axis=1),
    "argmax_ax0": lambda: np.argmax(nan_mat(), axis=0),
    "argmax_ax1": lambda: np.argmax(nan_mat(), axis=1),
    "argmin_ax0": lambda: np.argmin(nan_mat(), axis=0),
    "argmin_ax1": lambda: np.argmin(nan_mat(), axis=-1),
    "argmin_3d_ax1": lambda: np.argmin(mk((6, 7, 130)), axis=1),
    "argmax_T_ax1": lambda: np.argmax(mk((37, 300)).T, axis=1),
    "min_ax_empty": lambda: np.min(np.zeros((0, 3)), axis=0),
    "min_ax_empty_ok": lambda: np.min(np.zeros((0, 3)), axis=1),
    "argmin_ax_empty": lambda: np.argmin(np.zeros((0, 3)), axis=0),
    "argmin_ax_empty_ok": lambda: np.argmin(np.zeros((0, 3)), axis=1),
    "max_1d_ax": lambda: np.asarray(np.max(mk(10), axis=0)),
    # linalg
    # (floating-point products are NumPy's own: tests/diff/test_linalg_bits.py)
    "dot_int": lambda: np.dot(mk((6, 4), np.int64, True), mk((4, 3), np.int64, True, 5)),
    "dot_int_11": lambda: np.dot(mk(40, np.int64, True), mk(40, np.int64, True, 1)),
    "dot_err22": lambda: np.dot(np.zeros((2, 3), np.int64), np.zeros((2, 3), np.int64)),
    "dot_err11": lambda: np.dot(np.zeros(3, np.int64), np.zeros(2, np.int64)),
    "dot_err21": lambda: np.dot(np.zeros((2, 3), np.int64), np.zeros(2, np.int64)),
    "dot_err12": lambda: np.dot(np.zeros(3, np.int64), np.zeros((2, 3), np.int64)),
    "matmul_err22": lambda: np.zeros((2, 3), np.int64) @ np.zeros((2, 3), np.int64),
    "matmul_err11": lambda: np.zeros(3, np.int64) @ np.zeros(2, np.int64),
    "matmul_err21": lambda: np.zeros((2, 3), np.int64) @ np.zeros(2, np.int64),
    "matmul_err12": lambda: np.zeros(3, np.int64) @ np.zeros((2, 3), np.int64),
    "matmul_empty": lambda: np.zeros((2, 0), np.int64) @ np.zeros((0, 3), np.int64),
    # shapes (the trailing value says whether the result is a view)
    "reshape_view": lambda: [mk((2, 3)).reshape(3, 2), 1],
    "reshape_m1": lambda: mk((2, 3)).reshape(-1),
    "reshape_m1b": lambda: mk((2, 3)).reshape(3, -1),
    "reshape_err": lambda: mk(6).reshape(4),
    "reshape_err_m1": lambda: mk(6).reshape(-1, 4),
    "reshape_err_mid": lambda: mk(6).reshape(2, -1, 4),
    "reshape_two_unknown": lambda: mk(6).reshape(-1, -1),
    "reshape_err_zero": lambda: np.zeros(0).reshape(0, -1),
    "reshape_err_2d": lambda: mk(6).reshape(4, 5),
    "reshape_rows_view": lambda: reshape_and_view_flag(mk((4, 6))[::2], (2, 2, 3)),
    "reshape_copy": lambda: reshape_and_view_flag(mk((4, 6))[:, :3], (3, 4)),
    # NumPy returns a view with inner stride 2 here; a C-layout result must copy.
    "reshape_strided": lambda: [mk((4, 6))[:, 1::2].reshape(3, 4), 0],
    "reshape_T": lambda: mk((2, 3)).T.reshape(6),
    "reshape_write": reshaped_write,
    "transpose": lambda: [mk((2, 3, 4)).T, mk((2, 3, 4)).T.strides[0] // 8, mk((2, 3, 4)).T.strides[2] // 8],
    "transpose_axes": lambda: np.transpose(mk((2, 3, 4)), (1, -1, 0)),
    "transpose_rep": lambda: np.transpose(mk((2, 3, 4)), (0, 0, 1)),
    "transpose_oob": lambda: np.transpose(mk((2, 3, 4)), (0, 3, 1)),
    "transpose_oob_neg": lambda: np.transpose(mk((2, 3, 4)), (0, -4, 1)),
    "ravel_view": lambda: [np.ravel(mk((2, 3, 4))), 1],
    "ravel_copy": lambda: [np.ravel(mk((2, 3, 4)).T), 0],
    "flatten": lambda: [mk((2, 3, 4)).flatten(), 0],
    # ufuncs through the expression templates
    "uf_sqrt_expr": lambda: np.sqrt(np.absolute(mk((3, 5)))),
    "uf_sqrt_f32_expr": lambda: np.sqrt(np.absolute(mk(7, np.float32))),
    "uf_isnan_expr": lambda: np.isnan(np.log(mk((3, 5)))),
    "uf_maximum_expr": lambda: np.maximum(mk((3, 5)), 0.5),
    "uf_power_int_expr": lambda: mk(6, np.int64, True) ** 2,
    "uf_power_int_neg": lambda: mk(3, np.int64, True) ** np.int64(-1),
    "uf_abs_c_expr": lambda: np.absolute(mk(4, np.complex128)),
    "uf_exp_c_expr": lambda: np.exp(mk(4, np.complex128)),
}
for _n in (0, 1, 7, 8, 9, 17, 100, 128, 129, 255, 1000, 12345, 100000):
    ARRAY_CASES[f"sum_f64_{_n}"] = (lambda n: lambda: np.sum(mk(n)))(_n)
    ARRAY_CASES[f"sum_f32_{_n}"] = (lambda n: lambda: np.sum(mk(n, np.float32)))(_n)
    ARRAY_CASES[f"mean_f64_{_n}"] = (lambda n: lambda: np.mean(mk(n)))(_n)
    ARRAY_CASES[f"mean_f32_{_n}"] = (lambda n: lambda: np.mean(mk(n, np.float32)))(_n)

# NumPy calls BLAS (float dot/matmul) or SIMD libm replacements here.
ARRAY_ULPS = {"uf_exp_c_expr": 4}


def run_driver(exe, mode, stdin=None):
    proc = subprocess.run([str(exe), mode], input=stdin, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


@pytest.mark.parametrize("variant", ["O1", "O3native"])
def test_array_cases(binaries, variant):
    lines = run_driver(binaries[variant], "arrays").splitlines()
    results = dict(line.split("|", 1) for line in lines)
    assert set(results) == set(ARRAY_CASES), set(results) ^ set(ARRAY_CASES)
    problems = []
    for name, fn in ARRAY_CASES.items():
        check(name, parse_result(results[name]), expected_of(fn), ARRAY_ULPS.get(name, 0), problems)
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------- scalar cases

INF, NAN = math.inf, math.nan
FVALS = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.0, 2.5, -2.5, 3.7, -3.7, 0.3, 0.75, 1.5, 10.0, 100.0, 123456.789,
         700.0, 710.0, -745.5, 1e-8, 1e-310, -1e-310, 1e300, -1e300, INF, -INF, NAN, math.pi / 2, 88.5, -104.0]
IVALS = {"i64": [0, 1, -1, 2, 5, -7, 100, 2**62, -(2**63), 2**63 - 1],
         "i32": [0, 1, -1, 2, 5, -7, 100, 2**31 - 1, -(2**31)],
         "i8": [0, 1, -1, 2, 5, -7, 100, 127, -128],
         "u8": [0, 1, 2, 5, 100, 255],
         "u64": [0, 1, 2, 5, 100, 2**62]}
NPTYPE = {"f64": np.float64, "f32": np.float32, "i64": np.int64, "i32": np.int32, "i8": np.int8,
          "u8": np.uint8, "u64": np.uint64, "c128": np.complex128, "c64": np.complex64}
CVALS = [(0.0, 0.0), (-0.0, 0.0), (0.0, -0.0), (1.0, 0.0), (-1.0, 0.0), (-4.0, 0.0), (-4.0, -0.0), (0.0, 2.0),
         (0.0, -2.0), (3.0, 4.0), (-3.0, 4.0), (1.5, -2.5), (0.5, 0.5), (1e-310, 1e-310), (1e308, 1e308),
         (-1e308, 1e300), (1.0, 1e-20), (0.999, 0.01), (1.2, 0.3), (700.0, 1.0), (720.0, 2.0), (-800.0, 3.0),
         (INF, 0.0), (-INF, 0.0), (INF, 1.0), (-INF, 1.0), (INF, INF), (-INF, INF), (1.0, INF), (NAN, 0.0),
         (NAN, 1.0), (1.0, NAN), (INF, NAN), (0.0, NAN)]

UF_EXACT1 = ["floor", "ceil", "trunc", "rint", "absolute", "fabs", "sign", "square", "reciprocal", "negative",
             "positive", "isnan", "isinf", "isfinite", "signbit", "deg2rad", "rad2deg", "radians", "degrees",
             "conjugate", "logical_not", "sqrt"]
# NumPy evaluates these with its own SIMD code (SVML / Highway), a few ulps
# from the C library's results.
UF_TRANS1 = ["cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "arcsin",
             "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh"]
UF_INT1 = ["floor", "ceil", "trunc", "absolute", "sign", "square", "reciprocal", "negative", "positive", "isnan",
           "isinf", "isfinite", "signbit", "conjugate", "logical_not"]
UF_CPLX1 = ["sqrt", "exp", "log", "absolute", "square", "reciprocal", "negative", "positive", "isnan", "isinf",
            "isfinite", "conjugate", "logical_not", "sign"]
UF_EXACT2 = ["hypot", "copysign", "maximum", "minimum", "fmax", "fmin", "fmod", "logical_and", "logical_or",
             "logical_xor"]
UF_TRANS2 = ["arctan2", "power", "logaddexp", "logaddexp2"]
UF_INT2 = ["maximum", "minimum", "fmax", "fmin", "fmod", "power", "logical_and", "logical_or", "logical_xor"]
F2VALS = [0.0, -0.0, 1.0, -1.0, 2.5, -3.0, 0.5, 7.0, 1e300, INF, -INF, NAN]


def hexf(x):
    return float(x).hex()


def np_call(name, *args):
    return getattr(np, name)(*args)


def scalar_requests():
    """(request line, expected thunk, ulps)"""
    reqs = []
    for ty, ulps in (("f64", 4), ("f32", ("f32", 4))):
        T = NPTYPE[ty]
        for name in UF_EXACT1 + UF_TRANS1:
            for x in FVALS:
                reqs.append((f"u.{name} {ty} {hexf(x)}", lambda n=name, x=x, T=T: np_call(n, T(x)),
                             0 if name in UF_EXACT1 else ulps))
        for name in UF_EXACT2 + UF_TRANS2:
            for x in F2VALS:
                for y in F2VALS:
                    # NumPy's scalar and SIMD loops disagree on which of 0.0 / -0.0
                    # maximum/fmax return; either is accepted.
                    exact = "anyzero" if name in ("maximum", "minimum", "fmax", "fmin") else 0
                    reqs.append((f"u.{name} {ty} {hexf(x)} {hexf(y)}",
                                 lambda n=name, x=x, y=y, T=T: np_call(n, T(x), T(y)),
                                 exact if name in UF_EXACT2 else ulps))
    for ty, vals in IVALS.items():
        T = NPTYPE[ty]
        for name in UF_INT1:
            for v in vals:
                reqs.append((f"u.{name} {ty} {v}", lambda n=name, v=v, T=T: np_call(n, T(v)), 0))
        small = [v for v in vals if abs(v) < 200]
        for name in UF_INT2:
            for a in small:
                for b in small:
                    if name == "power" and ty.startswith("u") and b > 7:
                        continue
                    reqs.append((f"u.{name} {ty} {a} {b}",
                                 lambda n=name, a=a, b=b, T=T: np_call(n, T(a), T(b)), 0))
    for ty in ("c128", "c64"):
        T = NPTYPE[ty]
        exact = {"absolute", "square", "reciprocal", "negative", "positive", "isnan", "isinf", "isfinite",
                 "conjugate", "logical_not", "sqrt"}
        for name in UF_CPLX1:
            for re_, im in CVALS:
                if name == "sign" and not (math.isfinite(re_) and math.isfinite(im)):
                    continue
                reqs.append((f"u.{name} {ty} {hexf(re_)} {hexf(im)}",
                             lambda n=name, z=complex(re_, im), T=T: np_call(n, T(z)),
                             0 if name in exact else (4 if ty == "c128" else ("f32", 4))))
        pw = [(2.0, 0.0), (3.0, 0.0), (-1.0, 0.0), (-2.0, 0.0), (0.5, 0.0), (0.0, 1.0), (1.5, -0.5), (0.0, 0.0),
              (10.0, 0.0), (-3.0, 0.0)]
        for a in [(1.5, 2.0), (-1.0, 0.5), (0.0, 0.0), (2.0, 0.0), (0.3, -0.7)]:
            for b in pw:
                reqs.append((f"u.power {ty} {hexf(a[0])} {hexf(a[1])} {hexf(b[0])} {hexf(b[1])}",
                             lambda a=complex(*a), b=complex(*b), T=T: np.power(T(a), T(b)),
                             8 if ty == "c128" else ("f32", 8)))
    # math
    m1 = ["sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin",
          "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "fabs", "erf", "erfc", "gamma",
          "lgamma", "degrees", "radians", "isnan", "isinf", "isfinite", "floor", "ceil", "trunc"]
    gvals_ = [0.5, 1.0, 2.0, 3.3, 10.0, 23.0, 24.0, 30.5, 100.2, 141.0, 150.5, 171.5, 171.7, 200.0, 201.0, -0.5,
              -1.5, -2.000001, -170.5, -171.5, -190.5, -200.5, 1e-20, 1e-321, -1e-321, 1e308, 5.5, 0.1, 2.2]
    for name in m1:
        for x in FVALS + (gvals_ if name in ("gamma", "lgamma") else []):
            if name in ("floor", "ceil", "trunc") and math.isfinite(x) and abs(x) >= 2**63:
                continue  # a Python int beyond int64: see test_limits_of_int64_results
            reqs.append((f"m.{name} f64 {hexf(x)}", lambda n=name, x=x: getattr(math, n)(x), 0))
    m2 = ["atan2", "hypot", "copysign", "fmod", "remainder", "pow"]
    mvals = F2VALS + [3.0, 0.1, 1e-300, -2.0, 1e10]
    for name in m2:
        for x in mvals:
            for y in mvals:
                reqs.append((f"m.{name} f64 {hexf(x)} {hexf(y)}", lambda n=name, x=x, y=y: getattr(math, n)(x, y),
                             0))
    rng = random.Random(1234)
    for _ in range(300):
        x, y = rng.uniform(0, 1e6) * rng.choice([1e-300, 1e-5, 1, 1e5, 1e300]), rng.uniform(0, 10)
        reqs.append((f"m.hypot f64 {hexf(x)} {hexf(y)}", lambda x=x, y=y: math.hypot(x, y), 0))
        g = rng.uniform(-180, 180)
        reqs.append((f"m.gamma f64 {hexf(g)}", lambda g=g: math.gamma(g), 0))
        reqs.append((f"m.lgamma f64 {hexf(g)}", lambda g=g: math.lgamma(g), 0))
    for x in [8.0, 0.5, 100.0, 0.0, -1.0, 1.0, INF, NAN]:
        for b in [2.0, 10.0, 1.0, 0.0, 0.5, INF, -2.0]:
            reqs.append((f"m.logb f64 {hexf(x)} {hexf(b)}", lambda x=x, b=b: math.log(x, b), 0))
    reqs.append(("m.floori i64 -7", lambda: math.floor(-7), 0))
    for n in list(range(0, 21)) + [-1]:
        reqs.append((f"m.factorial i64 {n}", lambda n=n: math.factorial(n), 0))
    for a, b in [(12, 18), (-4, 6), (0, 0), (0, -5), (17, 5), (2**62, 2**40), (-(2**63) + 1, 3)]:
        reqs.append((f"m.gcd i64 {a} {b}", lambda a=a, b=b: math.gcd(a, b), 0))
        if abs(math.lcm(a, b)) < 2**63:
            reqs.append((f"m.lcm i64 {a} {b}", lambda a=a, b=b: math.lcm(a, b), 0))
    # builtins
    rvals = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.675, 0.125, 0.375, 1e15 + 0.5, 4503599627370497.0, 1e18, -1e18,
             0.49999999999999994, NAN, INF, -INF, -0.0, 123.456,
             -9223372036854775808.0, 9223372036854774784.0]  # int64's ends: -2**63 and the largest double below 2**63
    for x in rvals:
        reqs.append((f"b.round f64 {hexf(x)}", lambda x=x: round(x), 0))
        reqs.append((f"b.int f64 {hexf(x)}", lambda x=x: int(x), 0))
        reqs.append((f"b.absf f64 {hexf(x)}", lambda x=x: abs(x), 0))
    nd_vals = rvals + [5e-324, 1.7976931348623157e308, 1e-5, 0.0001, 9.995, 1234567.891, -98765.4321, 15.0, 25.0,
                       35.0, 0.05, 1e22, 123456789012345678.0, 0.3, 2.0 / 3]
    for x in nd_vals:
        for nd in [-400, -309, -308, -20, -5, -2, -1, 0, 1, 2, 3, 5, 10, 17, 20, 300, 323, 324]:
            reqs.append((f"b.roundn f64 {hexf(x)} {nd}", lambda x=x, nd=nd: round(x, nd), 0))
    for _ in range(1500):
        x = rng.choice([rng.uniform(-1e6, 1e6), rng.randint(-10**6, 10**6) / rng.choice([8, 100, 1000, 1024]),
                        rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30)])
        nd = rng.randint(-8, 12)
        reqs.append((f"b.roundn f64 {hexf(x)} {nd}", lambda x=x, nd=nd: round(x, nd), 0))
    for v in [0, 5, 15, 25, 35, -15, -25, 1234, 1250, 1350, -1250, 2**62 + 5, -(2**63), 9999]:
        for nd in [-25, -19, -3, -2, -1, 0, 2]:
            if abs(round(v, nd)) < 2**63:
                reqs.append((f"b.roundi i64 {v} {nd}", lambda v=v, nd=nd: round(v, nd), 0))
    for v in [0, 5, -5, 2**63 - 1, -(2**63) + 1]:
        reqs.append((f"b.absi i64 {v}", lambda v=v: abs(v), 0))
    for re_, im in [(3.0, 4.0), (-3.0, -4.0), (0.0, -0.0), (INF, NAN), (NAN, 1.0), (1e308, 1e308)]:
        reqs.append((f"b.absc c128 {hexf(re_)} {hexf(im)}", lambda z=complex(re_, im): abs(z), 0))
    mm = [0.0, -0.0, 1.0, -1.0, NAN, INF, 2.5]
    for a in mm:
        for b in mm:
            reqs.append((f"b.minf f64 {hexf(a)} {hexf(b)}", lambda a=a, b=b: min(a, b), 0))
            reqs.append((f"b.maxf f64 {hexf(a)} {hexf(b)}", lambda a=a, b=b: max(a, b), 0))
            reqs.append((f"b.min3 f64 {hexf(a)} {hexf(b)} 0x1p+0", lambda a=a, b=b: min(a, b, 1.0), 0))
            reqs.append((f"b.max3 f64 {hexf(a)} {hexf(b)} 0x1p+0", lambda a=a, b=b: max(a, b, 1.0), 0))
    reqs.append(("b.mini i64 3 -2", lambda: min(3, -2), 0))
    reqs.append(("b.maxi i64 3 -2", lambda: max(3, -2), 0))
    return reqs


@pytest.mark.parametrize("variant", ["O1", "O3native"])
def test_scalar_cases(binaries, variant):
    reqs = scalar_requests()
    out = run_driver(binaries[variant], "scalars", "".join(r[0] + "\n" for r in reqs)).splitlines()
    assert len(out) == len(reqs)
    problems = []
    for (line, fn, ulps), got in zip(reqs, out):
        assert not got.startswith("UNKNOWN"), got
        exp = expected_of(fn)
        if isinstance(exp, (bool, np.bool_)):
            exp = int(exp)
        check(line, parse_result(got), exp, ulps, problems)
    assert not problems, f"{len(problems)} of {len(reqs)} differ:\n" + "\n".join(problems[:60])


def test_limits_of_int64_results(binaries):
    """Where CPython returns an int beyond int64 we raise OverflowError."""
    reqs = ["m.factorial i64 21", "b.round f64 0x1p+70", "b.int f64 -0x1p+64", "m.floor f64 0x1p+63",
            "b.int f64 0x1p+63", "b.int f64 -0x1.0000000000001p+63", "m.ceil f64 -0x1.0000000000001p+63"]
    out = run_driver(binaries["O1"], "scalars", "".join(r + "\n" for r in reqs)).splitlines()
    assert all(line.startswith("ERR 6 ") for line in out), out
