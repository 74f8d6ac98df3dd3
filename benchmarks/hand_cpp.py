"""The hand-written C++ baselines (benchmarks/hand_kernels.cpp) as Python
callables with the signatures of benchmarks/kernels.py.

The library is compiled on first use with g++ -O3 -march=native
-ffp-contract=off (no FMA contraction: the IEEE results of the Python
kernels' order of operations) into a per-user cache directory under the
system's temporary directory, named by a hash of the source and the flags;
it is never committed.  The wrappers allocate the result arrays as the
Python kernels do and pass raw pointers through ctypes (a call costs about
a microsecond; the kernels take milliseconds).
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import stat
import subprocess
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "hand_kernels.cpp")
CXX = os.environ.get("CXX", "g++")
FLAGS = ("-O3", "-march=native", "-ffp-contract=off", "-std=c++17", "-fPIC", "-shared")

_i64, _f64, _ptr = ctypes.c_int64, ctypes.c_double, ctypes.c_void_p
# name -> (argument types, result type) of the extern "C" functions
SIGNATURES = {
    "dot": ((_ptr, _ptr, _i64), _f64),
    "prefix_sum": ((_ptr, _ptr, _i64), None),
    "histogram": ((_ptr, _i64, _ptr, _i64, _f64, _f64), None),
    "stencil2d": ((_ptr, _ptr, _i64, _i64), None),
    "matmul": ((_ptr, _ptr, _ptr, _i64, _i64, _i64), None),
    "pairwise": ((_ptr, _ptr, _i64, _i64), None),
    "mandelbrot": ((_ptr, _i64, _i64, _i64), None),
    "nbody_step": ((_ptr, _ptr, _ptr, _i64, _f64), None),
    "collatz": ((_i64,), _i64),
    "fib_mod": ((_i64, _i64), _i64),
}


def _cache_dir() -> str:
    path = os.path.join(tempfile.gettempdir(), f"transpile-hand-cpp-{os.getuid()}")
    os.makedirs(path, mode=0o700, exist_ok=True)
    st = os.lstat(path)
    # a shared temporary directory: load nothing from a directory another user could write
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o022:
        raise RuntimeError(f"{path} is not a private directory of this user")
    return path


def build() -> str:
    """The path of the compiled library, compiling it if this source and these flags have none yet."""
    with open(SOURCE, "rb") as f:
        key = hashlib.sha256(f.read() + " ".join((CXX, *FLAGS)).encode()).hexdigest()[:16]
    lib = os.path.join(_cache_dir(), f"hand_kernels-{key}.so")
    if not os.path.exists(lib):
        partial = f"{lib}.{os.getpid()}.tmp"
        subprocess.run([CXX, *FLAGS, SOURCE, "-o", partial], check=True, capture_output=True, text=True)
        os.replace(partial, lib)
    return lib


def _data(a: np.ndarray, dtype=np.float64) -> int:
    if a.dtype != dtype or not a.flags.c_contiguous:
        raise TypeError(f"hand C++ takes C-contiguous {np.dtype(dtype)} arrays, not {a.dtype} {a.flags}")
    return a.ctypes.data


def load() -> dict:
    """name -> a callable with the signature and result of kernels.<name>."""
    lib = ctypes.CDLL(build())
    c = {}
    for name, (argtypes, restype) in SIGNATURES.items():
        fn = getattr(lib, name)
        fn.argtypes, fn.restype = argtypes, restype
        c[name] = fn

    def dot(a, b):
        if a.shape != b.shape:
            raise ValueError("shapes differ")
        return c["dot"](_data(a), _data(b), a.shape[0])

    def prefix_sum(a):
        out = np.empty_like(a)
        c["prefix_sum"](_data(a), _data(out), a.shape[0])
        return out

    def histogram(x, nbins, lo, hi):
        counts = np.zeros(nbins, dtype=np.int64)
        c["histogram"](_data(x), x.shape[0], _data(counts, np.int64), nbins, lo, hi)
        return counts

    def stencil2d(u, out):
        if u.shape != out.shape:
            raise ValueError("shapes differ")
        c["stencil2d"](_data(u), _data(out), u.shape[0], u.shape[1])
        return out

    def matmul(a, b):
        if a.shape[1] != b.shape[0]:
            raise ValueError("shapes do not match")
        out = np.zeros((a.shape[0], b.shape[1]))
        c["matmul"](_data(a), _data(b), _data(out), a.shape[0], a.shape[1], b.shape[1])
        return out

    def pairwise(x):
        out = np.empty((x.shape[0], x.shape[0]))
        c["pairwise"](_data(x), _data(out), x.shape[0], x.shape[1])
        return out

    def mandelbrot(width, height, maxiter):
        out = np.zeros((height, width), dtype=np.int64)
        c["mandelbrot"](_data(out, np.int64), width, height, maxiter)
        return out

    def nbody_step(pos, vel, mass, dt):
        n = pos.shape[0]
        if pos.shape != (n, 3) or vel.shape != (n, 3) or mass.shape != (n,):
            raise ValueError("shapes do not match")
        c["nbody_step"](_data(pos), _data(vel), _data(mass), n, dt)
        return pos

    def collatz(n):
        return c["collatz"](n)

    def fib_mod(n, m):
        return c["fib_mod"](n, m)

    return {f.__name__: f for f in (dot, prefix_sum, histogram, stencil2d, matmul, pairwise, mandelbrot,
                                    nbody_step, collatz, fib_mod)}
