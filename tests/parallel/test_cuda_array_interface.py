"""Device arrays: objects exposing __cuda_array_interface__ (CuPy, PyTorch
CUDA tensors, Numba device arrays), used in place by backend="cuda".

Here (no GPU) the tests cover what happens before any device memory is
touched: how the bridge reads the interface, the errors for malformed or
unsupported ones, where compiled code may use a device array, what other
backends do with one, and that the generated module compiles with nvcc and
fails cleanly without a GPU.  The GPU tests allocate device memory with
transpile.cuda (no CuPy needed) and skip with the reason shown
when no GPU is visible."""
from __future__ import annotations

import ctypes
import warnings

import numpy as np
import pytest

from transpile import _runtime, cuda, jit
from transpile.diagnostics import TypingError
from transpile.errors import TranspileFallbackWarning
from transpile.hir import types as T

from . import device_array_kernels as dak
from .test_cuda import GPUS, HAVE_NVCC, needs_gpu, needs_nvcc


class FakeDeviceArray:
    """The interface of a device array over host memory: enough for
    everything that happens before a kernel runs."""

    def __init__(self, host: np.ndarray, **changes):
        self.host = host
        self.shape = host.shape
        self.changes = changes

    @property
    def __cuda_array_interface__(self):
        iface = {"shape": self.host.shape, "typestr": self.host.dtype.str, "strides": None,
                 "data": (self.host.ctypes.data, not self.host.flags.writeable), "version": 3, "stream": 1}
        if not self.host.flags.c_contiguous:
            iface["strides"] = self.host.strides
        iface.update(self.changes)
        return iface


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "uint8", "bool", "complex128"])
@pytest.mark.parametrize("shape", [(7,), (3, 4)])
def test_the_bridge_reads_the_interface_as_a_device_array_type(dtype, shape):
    desc = _runtime.describe(FakeDeviceArray(np.zeros(shape, dtype)))
    assert T.from_descriptor(desc) == [T.DeviceArray(dtype, len(shape))]
    assert T.to_descriptor(T.DeviceArray(dtype, len(shape))) == desc


def test_read_only_device_arrays_are_their_own_type():
    ro = np.zeros(4)
    ro.flags.writeable = False
    (t,) = T.from_descriptor(_runtime.describe(FakeDeviceArray(ro)))
    assert t == T.DeviceArray("float64", 1, "A", True) and "readonly" in t.spell()
    assert T.deserialize(T.serialize(t)) == t


def test_signature_text_names_device_arrays():
    types = [T.DeviceArray("float32", 2), T.DeviceArray("int64", 1, "A", True), T.FLOAT]
    assert T.parse_signature(", ".join(t.spell() for t in types)) == types
    text = jit(dak.scale_sum).inspect_cxx("float64[:] (cuda device), float64[:] (cuda device), float", backend="cuda")
    assert 'device_array_arg<double, 1>(args[1], "out")' in text


@pytest.mark.parametrize("changes, message", [
    ({"mask": object()}, "masked device arrays"),
    ({"typestr": ">f8"}, "typestr '>f8' are not supported"),
    ({"typestr": "|V16"}, "typestr '|V16' are not supported"),
    ({"typestr": "<M8[s]"}, "are not supported"),
    ({"typestr": "what"}, "unknown typestr 'what'"),
    ({"stream": 0}, "stream 0 is not allowed"),
    ({"strides": (3,)}, "strides are not multiples of their item size"),
    ({"strides": (8, 8)}, "'strides' must be None or one per dimension"),
    ({"shape": [4]}, "needs 'shape' \\(tuple\\)"),
    ({"data": 1234}, "'data' \\(\\(pointer, read-only\\)\\)"),
    ({"version": 1}, "version 0 and 1 are not supported"),
])
def test_malformed_interfaces_are_clear_type_errors(changes, message):
    with pytest.raises(TypeError, match=message):
        _runtime.describe(FakeDeviceArray(np.zeros(4), **changes))


def test_an_interface_that_is_not_a_dict_is_a_type_error():
    class Odd:
        __cuda_array_interface__ = ("not", "a", "dict")

    with pytest.raises(TypeError, match="is not a dict"):
        _runtime.describe(Odd())


def test_device_arrays_inside_tuples_or_lists_are_refused():
    d = FakeDeviceArray(np.zeros(4))
    for value in ((d, 1.0), [d, d]):
        with pytest.raises(TypeError, match="device arrays .* can be passed as arguments of their own"):
            _runtime.describe(value)


def test_cpu_backend_runs_the_function_in_cpython_with_a_warning():
    def length(x):
        return x.shape[0] * 2

    d = FakeDeviceArray(np.zeros(5))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert jit(length)(d) == 10
    messages = [str(w.message) for w in seen if issubclass(w.category, TranspileFallbackWarning)]
    assert any("argument 'x' is a CUDA device array" in m and "backend='cpu' cannot use" in m for m in messages)
    with pytest.raises(TypeError, match="argument 'x' is a CUDA device array"):
        jit(fullgraph=True)(length)(d)


DEV1 = T.DeviceArray("float64", 1)


@pytest.mark.parametrize("fn, line_text, what", [
    (dak.read_on_host, "return x[0] + 1.0", "device array 'x' is used in host code"),
    (dak.passed_on, "return np.sum(x)", "device array 'x' is used in host code"),
    (dak.host_loop, "s += x[i]", "device array 'x' is used in host code"),
    (dak.rebound, "x = np.zeros(3)", "device array argument 'x' cannot be assigned a new value"),
])
def test_host_use_of_a_device_array_is_an_error_at_the_line(fn, line_text, what):
    with pytest.raises(TypingError) as info:
        jit(backend="cuda")(fn).inspect_cxx((DEV1,))  # raised while translating: nvcc never runs
    text = str(info.value)
    assert what in text and line_text in text
    assert "device_array_kernels.py:" in text
    assert ("prange loop" if "used in host code" in what else "another name") in info.value.hint


def test_a_returned_device_array_is_the_argument_object():
    text = jit(dak.returned).inspect_cxx((DEV1, DEV1), backend="cuda")
    assert "-> tuple[float64[:] (cuda device), int]" in text
    assert "tr::to_result(results[0], std::get<0>(r));" in text  # the object it came from (tr_device_in.owner)
    with pytest.raises(TypingError, match="returns device array 'x' here and a value of another type") as info:
        jit(backend="cuda")(dak.returned_on_one_path).inspect_cxx((DEV1, T.BOOL))
    assert "return x" in str(info.value)


def test_array_expressions_on_device_arrays_are_an_error():
    with pytest.raises(TypingError, match="device array 'x' is used in host code") as info:
        jit(backend="cuda")(dak.array_expression).inspect_cxx((DEV1, DEV1))
    assert "(x * 2.0).sum()" in str(info.value)


def test_writing_a_read_only_device_array_is_an_error():
    with pytest.raises(TypingError, match="read-only"):
        jit(backend="cuda")(dak.writes).inspect_cxx((T.DeviceArray("float64", 1, "A", True),))


def test_other_backends_refuse_device_array_signatures():
    with pytest.raises(TypingError, match="only backend='cuda' can use"):
        jit(dak.scale_sum).inspect_cxx((DEV1, DEV1, T.FLOAT))


def test_the_kernel_uses_device_arrays_in_place():
    text = jit(dak.scale_sum).inspect_cxx((DEV1, DEV1, T.FLOAT), backend="cuda")
    assert 'tr::par::device_array_arg<double, 1>(args[0], "x")' in text
    assert "tr::DeviceArray<double, 1, tr::A> x, tr::DeviceArray<double, 1, tr::A> out" in text
    # (s is a Python float when no iteration ran: the tuple's first item carries a flag, passes/paths.py)
    assert "std::tuple<double, int64_t, int64_t, int64_t>{s, x.shape[0], x.size(), 1}" in text


@pytest.fixture(scope="module")
def cuda_scale_sum():
    f = jit(backend="cuda")(dak.scale_sum)
    f.compile((DEV1, DEV1, T.FLOAT))
    return f


@needs_nvcc
@pytest.mark.skipif(GPUS > 0, reason="a GPU is visible: the kernel runs instead (test_device_arrays_on_the_gpu)")
def test_without_a_gpu_a_device_array_call_is_a_clear_runtime_error(cuda_scale_sum):
    x, out = FakeDeviceArray(np.ones(8)), FakeDeviceArray(np.zeros(8))
    with pytest.raises(RuntimeError, match="backend='cuda': no CUDA GPU is visible to this process"):
        cuda_scale_sum(x, out, 2.0)
    assert len(cuda_scale_sum.signatures) == 1  # matched the compiled specialization; no new compile


@needs_nvcc
def test_a_function_returning_device_arrays_compiles_with_nvcc():
    jit(backend="cuda")(dak.returned).compile((DEV1, DEV1))


# ---- on a GPU -----------------------------------------------------------------------

def test_without_a_gpu_transpile_cuda_says_so():
    if GPUS:
        pytest.skip("a GPU is visible: the device buffers work (test_device_arrays_on_the_gpu)")
    if not HAVE_NVCC:
        pytest.skip("nvcc (the CUDA toolkit, with libcudart) is not installed")
    with pytest.raises(RuntimeError, match="transpile.cuda: cudaMalloc failed: .*a GPU and its driver are needed"):
        cuda.to_device(np.ones(4))


def test_device_buffers_refuse_unsupported_dtypes():
    with pytest.raises(TypeError, match="device arrays of dtype object are not supported"):
        cuda.DeviceBuffer((3,), object)


@needs_gpu
def test_device_arrays_on_the_gpu(cuda_scale_sum):
    host = np.random.default_rng(1).random(10_000)
    x, out = cuda.to_device(host), cuda.device_empty(host.shape)
    expected_out = np.zeros_like(host)
    expected = jit(dak.scale_sum)(host, expected_out, 2.0)
    got = cuda_scale_sum(x, out, 2.0)
    assert got[0] == pytest.approx(expected[0], rel=1e-9) and got[1:] == expected[1:] == (10_000, 10_000, 1)
    np.testing.assert_allclose(out.copy_to_host(), expected_out, rtol=1e-12)


@needs_gpu
def test_a_returned_device_array_is_the_object_passed_in():
    x, out = cuda.to_device(np.arange(5.0)), cuda.device_empty(5)
    got, n = jit(backend="cuda")(dak.returned)(x, out)
    assert got is out and n == 5
    np.testing.assert_array_equal(out.copy_to_host(), 2.0 * np.arange(5.0))


@needs_gpu
def test_strided_device_arrays_beside_numpy_arrays():
    full = np.random.default_rng(2).random((64, 40))
    every_other_column = cuda.to_device(full).view((64, 20), (full.strides[0], 2 * full.strides[1]))
    h = np.linspace(0.0, 1.0, 20)
    b, b_cpu = np.zeros(64), np.zeros(64)
    jit(backend="cuda")(dak.rows)(every_other_column, h, b)
    jit(dak.rows)(full[:, ::2], h, b_cpu)
    np.testing.assert_allclose(b, b_cpu, rtol=1e-12)


class OnStream:
    """A device array whose producer's last write is queued on `stream`."""

    def __init__(self, buffer, stream):
        self.buffer, self.stream = buffer, stream

    @property
    def __cuda_array_interface__(self):
        return dict(self.buffer.__cuda_array_interface__, stream=self.stream)


@needs_gpu
def test_the_producers_stream_is_waited_for(cuda_scale_sum):
    rt = cuda._cudart()
    stream = ctypes.c_void_p()
    assert rt.cudaStreamCreateWithFlags(ctypes.byref(stream), 1) == 0  # non-blocking
    try:
        host = np.arange(1 << 22, dtype=np.float64)
        x = cuda.device_empty(host.shape)
        assert rt.cudaMemcpyAsync(ctypes.c_void_p(x.pointer), host.ctypes.data_as(ctypes.c_void_p),
                                  ctypes.c_size_t(host.nbytes), 1, stream) == 0
        s, *_ = cuda_scale_sum(OnStream(x, stream.value), cuda.device_empty(host.shape), 1.0)
        assert s == pytest.approx(float(np.sum(host + 1.0)), rel=1e-12)
    finally:
        rt.cudaStreamDestroy(stream)


@needs_gpu
def test_a_host_pointer_is_refused(cuda_scale_sum):
    x, out = FakeDeviceArray(np.ones(8)), FakeDeviceArray(np.zeros(8))
    with pytest.raises(ValueError, match="argument 'x': its __cuda_array_interface__ pointer .* is not CUDA device "
                                         "memory"):
        cuda_scale_sum(x, out, 2.0)


@needs_gpu
def test_cupy_arrays_if_installed():
    cupy = pytest.importorskip("cupy")
    x = cupy.arange(1000, dtype=cupy.float64)
    out = cupy.zeros(1000)
    s, n, size, ndim = jit(backend="cuda")(dak.scale_sum)(x, out, 3.0)
    assert (n, size, ndim) == (1000, 1000, 1)
    assert s == pytest.approx(float((3.0 * cupy.arange(1000) + 1.0).sum()), rel=1e-12)
