"""backend="cuda" against backend="cpu" on the prange kernels of
benchmarks/parallel_kernels.py (the ones bench_parallel.py times on threads).

    python benchmarks/bench_cuda.py            # needs an NVIDIA GPU and nvcc
    python benchmarks/bench_cuda.py --quick

Three columns per kernel, medians (benchmarks/timing.py):
  cpu      @jit(jit_level="O1") on every core (OpenMP)
  cuda     @jit(backend="cuda", jit_level="O1") with NumPy arguments: each
           prange loop copies its arrays to the GPU and back (what a call costs)
  cuda-dev the same kernels with the arrays already on the GPU
           (transpile.cuda.to_device, used in place: the kernel alone)
Every GPU result is checked against the CPU backend's before anything is
timed.  Without a GPU (or nvcc) it says why and exits with status 0.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ.setdefault("TRANSPILE_CACHE_DIR", tempfile.mkdtemp(prefix="transpile-bench-cuda-"))

import numpy as np  # noqa: E402

import parallel_kernels as pk  # noqa: E402
from timing import median_time  # noqa: E402
from transpile import cuda, jit  # noqa: E402
from transpile.build.backends import find_nvcc  # noqa: E402


def gpu_problem() -> str | None:
    import ctypes

    if find_nvcc(required=False) is None:
        return "nvcc is not installed"
    try:
        lib = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return "no NVIDIA driver (libcuda.so.1 not found)"
    count = ctypes.c_int(0)
    if lib.cuInit(0) != 0 or lib.cuDeviceGetCount(ctypes.byref(count)) != 0 or count.value == 0:
        return "no CUDA GPU is visible"
    return None


def cases(quick: bool):
    """(name, kernel, host arguments, indexes of the arguments that may live on the GPU)."""
    rng = np.random.default_rng(0)
    n = 2_000_000 if quick else 16_000_000
    x = rng.random(n)
    m = 1000 if quick else 2000
    grid = np.zeros((m, m))
    grid[0] = 1.0
    return [
        ("mandel", pk.mandel, (np.linspace(-2.0, 0.6, m), np.linspace(-1.2, 1.2, m), 200, np.zeros((m, m), np.int64)),
         (0, 1, 3)),
        ("transcendental", pk.transcendental, (x, np.empty_like(x)), (0, 1)),
        ("sum_squares", pk.sum_squares, (x,), (0,)),
        ("histogram", pk.histogram, (x, 64), ()),  # h is made inside: NumPy, staged
        ("jacobi", pk.jacobi, (grid, grid.copy(), 10), ()),  # u, v are returned: host arrays
    ]


def result_of(value):
    return value.copy_to_host() if isinstance(value, cuda.DeviceBuffer) else value


def close(a, b) -> bool:
    a, b = result_of(a), result_of(b)
    if isinstance(a, np.ndarray):
        return a.shape == b.shape and np.allclose(a, b, rtol=1e-6)
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b), 1.0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    opts = parser.parse_args()
    problem = gpu_problem()
    if problem:
        print(f"bench_cuda: not run: {problem}")
        return 0
    rounds = 3 if opts.quick else 7
    print(f"{'kernel':16} {'cpu ms':>10} {'cuda ms':>10} {'cuda-dev ms':>12} {'cpu/cuda':>9} {'cpu/cuda-dev':>13}")
    for name, fn, args, on_device in cases(opts.quick):
        cpu = jit(jit_level="O1")(fn)
        gpu = jit(backend="cuda", jit_level="O1")(fn)
        expected = cpu(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
        if not close(gpu(*[a.copy() if isinstance(a, np.ndarray) else a for a in args]), expected):
            print(f"{name:16} WRONG (cuda differs from cpu)")
            continue
        dev_args = tuple(cuda.to_device(a) if i in on_device else a for i, a in enumerate(args))
        dev = None
        if on_device:
            got = gpu(*dev_args)
            dev = None if not close(got, expected) else dev_args
            if dev is None:
                print(f"{name:16} WRONG (cuda with device arrays differs from cpu)")
                continue
        t_cpu = median_time(cpu, *args, repeat=rounds)
        t_gpu = median_time(gpu, *args, repeat=rounds)
        t_dev = median_time(gpu, *dev, repeat=rounds) if dev else None
        dev_text = f"{t_dev * 1e3:12.2f}" if t_dev else f"{'-':>12}"
        ratio_dev = f"{t_cpu / t_dev:12.1f}x" if t_dev else f"{'-':>13}"
        print(f"{name:16} {t_cpu * 1e3:10.2f} {t_gpu * 1e3:10.2f} {dev_text} {t_cpu / t_gpu:8.1f}x {ratio_dev}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
