"""Array expressions in parallel (runtime_cpp/transpile_rt/expr.hpp):
backend="cpu" at jit_level="O1" splits assign_expr's loop over OpenMP
threads; backend="cuda" evaluates large expressions as GPU kernels.

Differential tests against NumPy with TRANSPILE_NUM_THREADS=1 and 2 (read at
every evaluation, so one compiled module serves both), bit-identical results
for every thread count, the one elementwise operation that raises (integer
power with a negative exponent) raised after the parallel region, which
modules are built with -fopenmp, nvcc compiles (run here), and GPU tests
that skip without a GPU.  Compilations: 3 g++ and 2 nvcc."""
from __future__ import annotations


import numpy as np
import pytest

from transpile import jit
from transpile.build import toolchain
from transpile.hir import types as T
from transpile.options import make_options
from transpile.pipeline import translate

from ..conftest import assert_same
from . import expr_kernels as ek
from .forking import result_in_forked_child
from .test_cuda import GPUS, needs_gpu, needs_nvcc

ELEMENTWISE_SIG = ("float64[::1], float64[::1], float64[::1], float64[:, ::1], float64[::1], float64[:, ::1], "
                   "int32[::1], float32[::1], uint8[::1]")
POWER_SIG = "int64[::1], int64[::1]"


@pytest.fixture(params=["1", "2"], ids=lambda n: f"threads={n}")
def threads(request, monkeypatch):
    monkeypatch.setenv("TRANSPILE_NUM_THREADS", request.param)
    return int(request.param)


@pytest.fixture(scope="module")
def elementwise():
    return jit(jit_level="O1")(ek.elementwise)


@pytest.fixture(scope="module")
def int_power():
    return jit(jit_level="O1")(ek.int_power)


def small_args():
    """The same shapes' kinds below the parallel threshold (the sequential path)."""
    a, b, c, m, v, col, i32, f32, u8 = ek.elementwise_args()
    n = 101
    return a[:n], b[:n], c[:n], m[:7], v, col[:7], i32[:n], f32[:n], u8[:n]


def test_large_expressions_match_numpy(threads, elementwise):
    args = ek.elementwise_args()
    for got, expected in zip(elementwise(*args), ek.elementwise(*args)):
        assert_same(got, expected)


def test_thread_counts_give_identical_bits(monkeypatch, elementwise):
    args = ek.elementwise_args()
    results = {}
    for n in ("1", "2"):
        monkeypatch.setenv("TRANSPILE_NUM_THREADS", n)
        results[n] = elementwise(*args)
    for one, two in zip(results["1"], results["2"]):
        assert one.dtype == two.dtype and one.tobytes() == two.tobytes()


def test_small_expressions_match_numpy(threads, elementwise):
    # includes m * v + col with col of shape (R, 1): at O1 its inner axis of
    # length 1 used to be read as unit-stride (every row read past col's end)
    args = small_args()
    for got, expected in zip(elementwise(*args), ek.elementwise(*args)):
        assert_same(got, expected)


def _power_args(negative_at):
    a = np.arange(ek.N, dtype=np.int64) % 7 - 3
    b = np.arange(ek.N, dtype=np.int64) % 5
    for i in negative_at:
        b[i] = -1
    return a, b


@pytest.mark.parametrize("negative_at", [(), (ek.N - 5,), (3, ek.N // 2 + 7)],
                         ids=["none", "last-share", "every-share"])
def test_integer_power_error_is_raised_after_the_region(threads, int_power, negative_at):
    a, b = _power_args(negative_at)
    if not negative_at:
        assert_same(int_power(a, b), ek.int_power(a, b))
        return
    with pytest.raises(ValueError) as numpy_error:
        ek.int_power(a, b)
    with pytest.raises(ValueError) as got:  # caught on its thread, raised after the region: no crash
        int_power(a, b)
    assert str(got.value) == str(numpy_error.value) == "Integers to negative integer powers are not allowed."
    assert_same(int_power(a, np.abs(b)), ek.int_power(a, np.abs(b)))  # the process carries on


def test_expressions_in_a_prange_body_stay_on_their_thread(threads):
    m = np.random.default_rng(3).random((4, 3 * 32768 + 5))  # each row alone would go parallel
    rows = jit(jit_level="O1")(ek.rows)
    assert_same(rows(m, np.zeros_like(m)), ek.rows(m, np.zeros_like(m)))


def _child_power(queue):
    a, b = _power_args(())
    queue.put(int(jit(jit_level="O1")(ek.int_power)(a, b).sum()))


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork()")
def test_expression_in_a_forked_child_does_not_hang(monkeypatch, int_power):
    monkeypatch.setenv("TRANSPILE_NUM_THREADS", "2")
    a, b = _power_args(())
    expected = int(int_power(a, b).sum())  # the parent's OpenMP threads exist now
    assert result_in_forked_child(_child_power, "an array expression") == expected


def _cpp(fn, sig, backend="cpu", jit_level="O0"):
    """The generated C++ (translated only: no toolkit needed, nothing compiled)."""
    options = make_options(jit_level=jit_level).replace(backend=backend)
    return translate(fn, tuple(T.parse_signature(sig)), options, "tr_entry").cpp


def test_which_modules_evaluate_expressions_in_parallel(tmp_path):
    define = toolchain.PARALLEL_EXPR_DEFINE
    assert define in _cpp(ek.int_power, POWER_SIG, jit_level="O1")
    assert define not in _cpp(ek.int_power, POWER_SIG, jit_level="O0")  # O0 stays sequential
    assert define in _cpp(ek.int_power, POWER_SIG, backend="cuda")  # GPU kernels at any level
    assert define not in _cpp(ek.int_power, POWER_SIG, backend="ascend", jit_level="O1")  # host loops
    assert define not in _cpp(ek.scalar_only, "float64[::1]", jit_level="O1")  # no array expression
    src = tmp_path / "m.cpp"
    src.write_text(define + "\n")
    assert "-fopenmp" in toolchain.command(str(src), "m.so", make_options(jit_level="O1"))


@needs_nvcc
def test_array_expressions_compile_with_nvcc():
    f = jit(backend="cuda", jit_level="O1")(ek.elementwise)
    f.compile(ELEMENTWISE_SIG)  # a GPU kernel per expression type (ExprElements in expr.hpp)
    assert toolchain.PARALLEL_EXPR_DEFINE in f.inspect_cxx(ELEMENTWISE_SIG)
    jit(backend="cuda")(ek.int_power).compile(POWER_SIG)  # O0: each operation evaluated on its own


@needs_nvcc
@pytest.mark.skipif(GPUS > 0, reason="a GPU is visible: test_cuda_array_expressions_match_numpy runs instead")
def test_cuda_small_expressions_run_on_the_host_and_large_ones_need_a_gpu():
    f = jit(backend="cuda", jit_level="O1")(ek.elementwise)
    args = small_args()  # below TR_CUDA_EXPR_MIN: the host loop
    for got, expected in zip(f(*args), ek.elementwise(*args)):
        # a device backend's own loops (the C library's exp, not NumPy's per-CPU one): the last bits may differ
        _assert_gpu_close(got, expected)
    with pytest.raises(RuntimeError, match="backend='cuda': no CUDA GPU is visible to this process"):
        f(*ek.elementwise_args())


def _assert_gpu_close(got, expected):
    assert type(got) is type(expected) and got.dtype == expected.dtype and got.shape == expected.shape
    if expected.dtype.kind in "fc":  # CUDA's exp and its fused multiply-adds differ in the last bits
        np.testing.assert_allclose(got, expected, rtol=1e-9, atol=0)
    else:
        np.testing.assert_array_equal(got, expected)


@needs_gpu
def test_cuda_array_expressions_match_numpy():
    f = jit(backend="cuda", jit_level="O1")(ek.elementwise)
    for make in (ek.elementwise_args, small_args):
        args = make()
        for got, expected in zip(f(*args), ek.elementwise(*args)):
            _assert_gpu_close(got, expected)


@needs_gpu
def test_cuda_array_expressions_match_backend_cpu():
    args = ek.elementwise_args()
    gpu = jit(backend="cuda", jit_level="O1")(ek.elementwise)(*args)
    cpu = jit(jit_level="O1")(ek.elementwise)(*args)
    for got, expected in zip(gpu, cpu):
        _assert_gpu_close(got, expected)


@needs_gpu
def test_cuda_integer_power_error_is_raised_after_the_kernel():
    f = jit(backend="cuda")(ek.int_power)
    a, b = _power_args((ek.N - 5,))
    with pytest.raises(ValueError, match="Integers to negative integer powers are not allowed."):
        f(a, b)
    assert_same(f(a, np.abs(b)), ek.int_power(a, np.abs(b)))
