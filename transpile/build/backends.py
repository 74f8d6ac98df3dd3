"""The device toolkits: finding them, and how each backend's module is built.

One generated C++ source serves every backend; what differs is the compiler
and the macro that picks the device parts in transpile_rt/backend/parallel.hpp:

* cpu:    g++ (toolchain.py), -fopenmp only for modules with a prange loop
* cuda:   nvcc -x cu -DTRANSPILE_BACKEND_CUDA (CUDA toolkit: $CUDA_HOME/bin,
          /usr/local/cuda/bin or PATH); the GPU architecture is
          TRANSPILE_CUDA_ARCH (default sm_75, whose PTX newer GPUs JIT-compile)
* ascend: the CANN toolkit's bisheng -xcce -DTRANSPILE_BACKEND_ASCEND
          ($ASCEND_HOME_PATH, $ASCEND_TOOLKIT_HOME or
          /usr/local/Ascend/ascend-toolkit/latest); the NPU architecture is
          TRANSPILE_ASCEND_ARCH (default dav-c220).  TRANSPILE_ASCEND_MOCK=1
          builds the same source with g++ against a host emulation of
          AscendCL (backend/ascend_mock.hpp): for tests of the code path on
          machines without the toolkit, never for real work.

A missing toolkit is a BackendUnavailableError when the backend is chosen
(at decoration time); a missing device is a RuntimeError from the module
when a kernel is launched.
"""
from __future__ import annotations

import os
from functools import lru_cache

from ..diagnostics import BackendUnavailableError
from . import programs

ASCEND_DEFAULT = "/usr/local/Ascend/ascend-toolkit/latest"
NVCC_DEFAULTS = ("/usr/local/cuda/bin/nvcc",)


@lru_cache(maxsize=None)
def _nvcc(cuda_home: str | None, path_env: str | None, defaults: tuple) -> str | None:
    candidates = []
    if cuda_home:
        candidates.append(os.path.join(cuda_home, "bin", "nvcc"))
    found = programs.which("nvcc")
    if found:
        candidates.append(found)
    candidates += defaults
    for c in candidates:
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def find_nvcc(required: bool = True) -> str | None:
    path = _nvcc(os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH"), os.environ.get("PATH"), NVCC_DEFAULTS)
    if path is None and required:
        raise BackendUnavailableError(
            "backend='cuda' needs the CUDA toolkit's compiler nvcc, which was not found (looked in $CUDA_HOME/bin, "
            "on PATH and in /usr/local/cuda/bin)",
            hint="install the CUDA toolkit (https://developer.nvidia.com/cuda-downloads) or set CUDA_HOME; "
                 "or use backend='cpu'")
    return path


def ascend_mock() -> bool:
    return os.environ.get("TRANSPILE_ASCEND_MOCK", "").strip() in ("1", "true", "yes")


def ascend_home() -> str | None:
    for env in ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"):
        value = os.environ.get(env)
        if value:
            return value
    return ASCEND_DEFAULT


def find_bisheng(required: bool = True) -> str | None:
    home = ascend_home()
    for c in (os.path.join(home, "compiler", "ccec_compiler", "bin", "bisheng"), os.path.join(home, "bin", "bisheng")):
        if c and os.path.isfile(c) and os.access(c, os.X_OK) \
                and os.path.isfile(os.path.join(home, "include", "acl", "acl.h")):
            return c
    if required:
        raise BackendUnavailableError(
            f"backend='ascend' needs Huawei's CANN toolkit (AscendCL and the Ascend C compiler bisheng), which was "
            f"not found (looked in $ASCEND_HOME_PATH, $ASCEND_TOOLKIT_HOME and {ASCEND_DEFAULT})",
            hint="install the CANN toolkit and run its set_env.sh (it sets ASCEND_HOME_PATH); or use backend='cpu'")
    return None


def check_toolkit(backend: str) -> None:
    """Raises BackendUnavailableError when the backend's toolkit is missing."""
    if backend == "cuda":
        find_nvcc()
    elif backend == "ascend" and not ascend_mock():
        find_bisheng()


def cuda_arch() -> str:
    return os.environ.get("TRANSPILE_CUDA_ARCH", "sm_75").strip() or "sm_75"


def ascend_arch() -> str:
    return os.environ.get("TRANSPILE_ASCEND_ARCH", "dav-c220").strip() or "dav-c220"


def flags(options, runtime: str) -> list[str]:
    """The flags of a device backend's compiler (part of the cache key)."""
    level = "-O3" if options.jit_level == "O1" else "-O1"
    if options.backend == "cuda":
        # --fmad=false: no fused multiply-adds in device code (nvcc's default fuses them);
        # the host compiler gets -ffp-contract=off as on backend='cpu'
        return ["-x", "cu", "-std=c++20", "--expt-relaxed-constexpr", "-shared", "-w", f"-arch={cuda_arch()}",
                "--fmad=false", "-Xcompiler", "-fPIC,-fvisibility=hidden,-fwrapv,-fno-math-errno,-ffp-contract=off",
                level,
                "-DTRANSPILE_BACKEND_CUDA", "-I", runtime]
    if options.backend == "ascend":
        if ascend_mock():
            return ["-std=c++20", "-fPIC", "-shared", "-fwrapv", "-fno-math-errno", "-ffp-contract=off",
                    "-fvisibility=hidden", "-w", level, "-DTRANSPILE_BACKEND_ASCEND", "-DTR_ASCEND_MOCK", "-I", runtime]
        home = ascend_home()
        return ["-xcce", "-std=c++17", "-fPIC", "-shared", "-w", "-ffp-contract=off", level,
                f"--npu-arch={ascend_arch()}",
                "-DTRANSPILE_BACKEND_ASCEND", "-I", runtime, "-I", os.path.join(home, "include"),
                "-I", os.path.join(home, "compiler", "tikcpp", "tikcfw"),
                "-I", os.path.join(home, "compiler", "tikcpp", "tikcfw", "impl"),
                "-I", os.path.join(home, "compiler", "tikcpp", "tikcfw", "interface")]
    raise ValueError(options.backend)


def link_flags(options) -> list[str]:
    if options.backend == "ascend" and not ascend_mock():
        return ["-L", os.path.join(ascend_home(), "lib64"), "-lascendcl", "-lruntime"]
    return []


def compiler(options, host_compiler: str | None) -> list[str]:
    """The command's head for a device backend."""
    if options.backend == "cuda":
        head = [find_nvcc()]
        if host_compiler:
            head += ["-ccbin", host_compiler]
        return head
    if ascend_mock():
        return [host_compiler or "g++"]
    return [find_bisheng()]


def identity(options) -> str | None:
    """Changes when the backend's toolkit changes (part of cache keys)."""
    try:
        if options.backend == "cuda":
            path = find_nvcc(required=False)
            return programs.identity(path) if path else None
        if options.backend == "ascend":
            if ascend_mock():
                return "ascend-mock"
            path = find_bisheng(required=False)
            return programs.identity(path) if path else None
    except OSError:
        return None
    return None
