"""GPU memory without CuPy or PyTorch: `transpile.cuda.to_device(a)` copies a
NumPy array to the GPU once and returns a `DeviceBuffer` exposing
`__cuda_array_interface__`, which @jit(backend="cuda") functions use in
place (no copy per call), as they use CuPy arrays or PyTorch CUDA tensors.

    from transpile import cuda
    x = cuda.to_device(np.random.random(10**7))
    out = cuda.device_empty(x.shape, x.dtype)
    kernel(x, out)              # prange loops read and write GPU memory directly
    result = out.copy_to_host()

It talks to the CUDA runtime library of the toolkit nvcc belongs to, through
ctypes; nothing here is imported by `import transpile`.  No toolkit is a
BackendUnavailableError, no GPU a RuntimeError naming what the runtime said.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os

import numpy as np

__all__ = ["DeviceBuffer", "to_device", "device_empty"]

_H2D, _D2H, _D2D = 1, 2, 3
_runtime = None


def _cudart():
    """The CUDA runtime library (libcudart) beside nvcc, else the system's."""
    global _runtime
    if _runtime is None:
        from .build.backends import BackendUnavailableError, find_nvcc

        candidates = []
        nvcc = find_nvcc(required=False)
        if nvcc:
            home = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
            candidates += [os.path.join(home, d, "libcudart.so") for d in ("lib64", "lib")]
        found = ctypes.util.find_library("cudart")
        if found:
            candidates.append(found)
        for path in candidates:
            try:
                lib = ctypes.CDLL(path)
                break
            except OSError:
                continue
        else:
            raise BackendUnavailableError(
                "transpile.cuda needs the CUDA runtime library (libcudart), which was not found beside nvcc or on "
                "the library path", hint="install the CUDA toolkit or set CUDA_HOME")
        for name in ("cudaMalloc", "cudaFree", "cudaMemcpy", "cudaGetErrorString"):
            getattr(lib, name).restype = ctypes.c_int if name != "cudaGetErrorString" else ctypes.c_char_p
        _runtime = lib
    return _runtime


def _check(rc: int, what: str) -> None:
    if rc != 0:
        message = _cudart().cudaGetErrorString(rc).decode(errors="replace")
        raise RuntimeError(f"transpile.cuda: {what} failed: {message} (CUDA error {rc}); a GPU and its driver are "
                           "needed (check CUDA_VISIBLE_DEVICES)")


class DeviceBuffer:
    """An array in GPU memory this object owns (freed when it is collected).
    `shape`, `dtype`, `strides` (bytes), `size`, `ndim` read as on NumPy."""

    def __init__(self, shape, dtype, strides=None, *, _pointer=None, _base=None):
        self.dtype = np.dtype(dtype)
        if self.dtype.kind not in "biufc":
            raise TypeError(f"device arrays of dtype {self.dtype} are not supported (bool, integer, float and "
                            "complex are)")
        self.shape = tuple(int(n) for n in (shape if isinstance(shape, tuple) else (shape,)))
        if any(n < 0 for n in self.shape):
            raise ValueError("negative dimensions are not allowed")
        self.strides = tuple(strides) if strides is not None else _c_strides(self.shape, self.dtype.itemsize)
        self._base = _base  # a view keeps the buffer it looks into alive
        self._owned = _pointer is None
        if _pointer is None:
            pointer = ctypes.c_void_p()
            _check(_cudart().cudaMalloc(ctypes.byref(pointer), ctypes.c_size_t(max(self.nbytes, 1))), "cudaMalloc")
            _pointer = pointer.value
        self.pointer = _pointer

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    @property
    def __cuda_array_interface__(self) -> dict:
        return {"shape": self.shape, "typestr": self.dtype.str, "strides": self.strides,
                "data": (self.pointer, False), "version": 3, "stream": None}  # the copies here are synchronous

    def view(self, shape, strides, offset: int = 0) -> "DeviceBuffer":
        """Another shape and strides (in bytes) over this memory, from `offset` bytes in."""
        return DeviceBuffer(shape, self.dtype, strides, _pointer=self.pointer + offset, _base=self)

    def copy_to_host(self) -> np.ndarray:
        if not _contiguous(self):
            raise ValueError("copy_to_host() needs a C-contiguous device array; this is a strided view")
        out = np.empty(self.shape, self.dtype)
        if self.nbytes:
            _check(_cudart().cudaMemcpy(out.ctypes.data_as(ctypes.c_void_p), ctypes.c_void_p(self.pointer),
                                        ctypes.c_size_t(self.nbytes), _D2H), "cudaMemcpy to the host")
        return out

    def __repr__(self) -> str:
        return f"DeviceBuffer(shape={self.shape}, dtype={self.dtype}, pointer=0x{self.pointer:x})"

    def __del__(self):
        if getattr(self, "_owned", False) and _runtime is not None and getattr(self, "pointer", 0):
            _runtime.cudaFree(ctypes.c_void_p(self.pointer))
            self.pointer = 0


def _c_strides(shape: tuple, itemsize: int) -> tuple:
    strides, step = [], itemsize
    for n in reversed(shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


def _contiguous(d: DeviceBuffer) -> bool:
    return all(s == c for s, c, n in zip(d.strides, _c_strides(d.shape, d.dtype.itemsize), d.shape) if n > 1)


def device_empty(shape, dtype=np.float64) -> DeviceBuffer:
    """A new C-contiguous device array; contents uninitialised."""
    return DeviceBuffer(shape, dtype)


def to_device(array) -> DeviceBuffer:
    """A C-contiguous device copy of a NumPy array (or anything np.asarray takes)."""
    host = np.ascontiguousarray(array)
    d = DeviceBuffer(host.shape, host.dtype)
    if host.nbytes:
        _check(_cudart().cudaMemcpy(ctypes.c_void_p(d.pointer), host.ctypes.data_as(ctypes.c_void_p),
                                    ctypes.c_size_t(host.nbytes), _H2D), "cudaMemcpy to the GPU")
    return d
