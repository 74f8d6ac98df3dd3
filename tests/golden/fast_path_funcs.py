"""Kernels whose generated C++ tests/golden/test_fast_paths.py reads: the
loop kernels of benchmarks/kernels.py (loaded from there, so the code is the
benchmark's own), and loops whose indices cannot be proven in range."""
import importlib.util
import math
import sys
from pathlib import Path

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "kernels.py"
_spec = importlib.util.spec_from_file_location("bench_kernels", _PATH)
bench = sys.modules.get("bench_kernels") or importlib.util.module_from_spec(_spec)
if "bench_kernels" not in sys.modules:
    sys.modules["bench_kernels"] = bench
    _spec.loader.exec_module(bench)


def axpy_into(out, x, y, alpha):
    for i in range(x.shape[0]):
        out[i] = alpha * x[i] + y[i]
    return out


def carried_through_memory(t, y, dt):
    """An ODE step: t[i + 1] and y[i + 1] from t[i] and y[i] (no vectorizing)."""
    for i in range(t.shape[0] - 1):
        t[i + 1] = t[i] + dt
        y[i + 1] = y[i] + dt * (t[i] * t[i])


def differences(out, a):
    """Reads another array than it stores at shifted indices: vectorizes."""
    for i in range(out.shape[0]):
        out[i] = a[i + 1] - a[i]


def one_past(a):
    s = 0.0
    for i in range(len(a)):
        s += a[i + 1]
    return s


def rebinds(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
        if i == 2:
            a = b
    return s


def counter_reassigned(a):
    s = 0.0
    for i in range(a.shape[0]):
        i = i + 2
        s += a[i]
    return s


def bound_moves(a, n):
    s = 0.0
    for i in range(n):
        n = n - 1
        s += a[i]
    return s


def roots(x, y):
    out = 0.0
    for i in range(x.shape[0]):
        s = 0.0
        for k in range(3):
            t = x[i] - k
            s += t * t
        out += math.sqrt(s) + math.sqrt(x[i] * x[i]) + math.sqrt(y) + math.sqrt(x[i] * y)
    return out
