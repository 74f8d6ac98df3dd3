"""transpile quickstart: compile a few numeric Python functions to C++ and
compare them with plain Python / NumPy.

    pip install . && python examples/quickstart.py

Each @jit function compiles on its first call (to a C++ shared library, kept in
the disk cache, so a second run of this script only loads it) and is then
checked against the undecorated function, `f.py_func`.  To finish in a few
seconds, the script first builds every specialization it will call with
`f.compile(signature)`, several at once, so the first calls below only load.
"""
import math
import os
import sys
import time
import timeit
from concurrent.futures import ThreadPoolExecutor

import numpy as np

# Each function is built once, optimized (-O2, or -O3 at jit_level="O1"), so
# that the steady-state figures below are the optimized code's: by default a
# first call runs on a quick -O1 build while the optimized one compiles in
# the background (README, "Tiered compilation").
os.environ.setdefault("TRANSPILE_TIERED", "0")

import transpile  # noqa: E402
import transpile.cache  # noqa: E402
from transpile import jit  # noqa: E402


# --------------------------------------------------------------------------- the functions

# The seed case: an array expression, NumPy broadcasting and dtypes.
@jit
def axpy(a, b, c):
    return a * b + c


# Slices, written in place: the caller's array changes.
@jit(jit_level="O1")
def jacobi(u, steps):
    for _ in range(steps):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return u


# A scalar loop over an array, writing a new array; no bounds checks.
@jit(jit_level="O1", boundscheck=False)
def prefix_sum(x):
    out = np.empty_like(x)
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
        out[i] = s
    return out


# Nested scalar loops with a while loop and tuple assignment.
@jit(jit_level="O1")
def mandelbrot(width, height, maxiter):
    out = np.zeros((height, width), dtype=np.int64)
    for py in range(height):
        ci = -1.5 + 3.0 * py / height
        for px in range(width):
            cr = -2.0 + 3.0 * px / width
            zr = 0.0
            zi = 0.0
            n = 0
            while n < maxiter and zr * zr + zi * zi <= 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                n += 1
            out[py, px] = n
    return out


# A reduction: iterate over the array's elements, return a float.
@jit(jit_level="O1")
def rms(x):
    s = 0.0
    for v in x:
        s += v * v
    return math.sqrt(s / len(x))


# --------------------------------------------------------------------------- helpers

# Every specialization the sections below call, built before them with
# f.compile(signature): the C++ compiler runs for several at once.
SIGNATURES = [
    (axpy, "float32[:, ::1], float32[:, ::1], float32[:, ::1]"),
    (axpy, "float32[:, ::1], float, float32[:, ::1]"),  # axpy(a, 2.0, c)
    (jacobi, "float64[:, ::1], int"),
    (prefix_sum, "float64[::1]"),
    (mandelbrot, "int, int, int"),
    (rms, "float64[::1]"),
]


def build_all():
    """Compiles (or loads from the cache) every signature, as many at a time as
    there are CPUs; returns {(function name, signature): seconds, how}."""
    def one(item):
        f, sig = item
        before = compile_count()
        t0 = time.perf_counter()
        f.compile(sig)
        dt = time.perf_counter() - t0
        return (f.py_func.__name__, sig), (dt, "compiled" if compile_count() > before else "loaded from cache")

    compile_count()  # loads the dispatcher module before the threads need it
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        builds = dict(pool.map(one, SIGNATURES))
    wall = time.perf_counter() - t0
    compiled = sum(how == "compiled" for _, how in builds.values())
    print(f"built {len(builds)} specializations in {fmt(wall)} ({compiled} compiled, {len(builds) - compiled} "
          f"loaded from the cache; up to {os.cpu_count() or 2} compiles at once)\n")
    return builds


def compile_count():
    import transpile

    return transpile.compile_count()


def first_call(f, *args):
    """Times the first call of a jit function (its specialization built above: a lookup + the run)."""
    t0 = time.perf_counter()
    result = f(*args)
    return result, time.perf_counter() - t0


def per_call(fn, *args, target=0.05):
    """Seconds per call: the best of a few repeats of about target/5 seconds each
    (at least two runs, so a slow plain-Python reference costs little)."""
    timer = timeit.Timer(lambda: fn(*args))
    one = timer.timeit(1)
    number = max(1, int(target / 5 / max(one, 1e-7)))
    repeat = 5 if number > 1 else max(2, min(5, int(target / max(one, 1e-7))))
    return min(timer.repeat(repeat=repeat, number=number)) / number


def fmt(seconds):
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def check(name, got, expected):
    if isinstance(expected, np.ndarray):
        ok = (isinstance(got, np.ndarray) and got.dtype == expected.dtype and got.shape == expected.shape
              and np.allclose(got, expected, rtol=1e-12, atol=0))
    else:
        ok = type(got) is type(expected) and math.isclose(got, expected, rel_tol=1e-12)
    if not ok:
        raise SystemExit(f"{name}: compiled result differs from plain Python: {got!r} vs {expected!r}")
    return "matches plain Python"


def report(name, f, builds, first_dt, t_jit, t_py, py_label):
    for (fname, sig), (dt, how) in builds.items():
        if fname == name:
            print(f"  build of ({sig}): {how} in {fmt(dt)}")
    print(f"  first call: {fmt(first_dt)}")
    print(f"  steady state: transpile {fmt(t_jit)} per call, {py_label} {fmt(t_py)} "
          f"-> {t_py / t_jit:.1f}x")
    sigs = ["(" + ", ".join(str(t) for t in sig) + ")" for sig in f.signatures]
    print(f"  f.signatures: {', '.join(sigs)}")
    print()


# --------------------------------------------------------------------------- main

def main():
    t_start = time.perf_counter()
    print(f"transpile {transpile.__version__}, NumPy {np.__version__}, Python {sys.version.split()[0]}")
    print(f"cache: {transpile.cache.directory()}"
          f"{' (disabled by TRANSPILE_CACHE=0)' if os.environ.get('TRANSPILE_CACHE') == '0' else ''}\n")
    builds = build_all()

    # 1. a*b+c on small float32 arrays: the cost of one call dominates.
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = a + 1
    c = a + 2
    got, dt = first_call(axpy, a, b, c)
    print("1. axpy(a, b, c) = a * b + c   on three 2x3 float32 arrays")
    print(f"  result {got.dtype}{list(got.shape)}: {got.tolist()}  ({check('axpy', got, axpy.py_func(a, b, c))})")
    # NEP 50: a Python float does not widen a float32 array.
    got2 = axpy(a, 2.0, c)
    check("axpy(a, 2.0, c)", got2, axpy.py_func(a, 2.0, c))
    print(f"  axpy(a, 2.0, c).dtype = {got2.dtype} (NumPy 2 promotion: a Python float keeps float32)")
    report("axpy", axpy, builds, dt, per_call(axpy, a, b, c), per_call(axpy.py_func, a, b, c), "NumPy")

    # 2. Jacobi relaxation with slices, in place.
    u0 = np.zeros((200, 200))
    u0[0, :] = 1.0
    u = u0.copy()
    got, dt = first_call(jacobi, u, 200)
    expected = jacobi.py_func(u0.copy(), 200)
    print("2. jacobi(u, steps=200)   on a 200x200 float64 grid, slices updated in place")
    print(f"  result: mean {got.mean():.6f}, u[100, 100] = {got[100, 100]:.3e}, in place: {got is u or np.shares_memory(got, u)}"
          f"  ({check('jacobi', got, expected)})")
    report("jacobi", jacobi, builds, dt, per_call(jacobi, u0.copy(), 200, target=0.1),
           per_call(jacobi.py_func, u0.copy(), 200, target=0.1), "NumPy")

    # 3. Prefix sum: a scalar loop (no bounds checks: boundscheck=False).
    x = np.random.default_rng(0).random(100_000)
    got, dt = first_call(prefix_sum, x)
    print("3. prefix_sum(x)   explicit loop over 100,000 float64")
    print(f"  result: last = {got[-1]:.6f}  ({check('prefix_sum', got, prefix_sum.py_func(x))})")
    report("prefix_sum", prefix_sum, builds, dt, per_call(prefix_sum, x), per_call(prefix_sum.py_func, x),
           "plain Python")
    print(f"  (for reference, NumPy's np.cumsum: {fmt(per_call(np.cumsum, x))})\n")

    # 4. Mandelbrot: nested loops with an early-exit while loop.
    got, dt = first_call(mandelbrot, 160, 80, 100)
    expected = mandelbrot.py_func(160, 80, 100)
    print("4. mandelbrot(160, 80, maxiter=100)")
    print(f"  result: {got.shape} int64, {int((got == 100).sum())} points inside  ({check('mandelbrot', got, expected)})")
    rows = ["".join(" .:-=+*#%@"[min(9, v * 10 // 101)] if v < 100 else "@" for v in row[::2]) for row in got[::4]]
    print("\n".join("    " + r for r in rows if r.strip()))
    report("mandelbrot", mandelbrot, builds, dt, per_call(mandelbrot, 160, 80, 100),
           per_call(mandelbrot.py_func, 160, 80, 100), "plain Python")

    # 5. A reduction, iterating over the array's elements.
    y = np.random.default_rng(1).standard_normal(100_000)
    got, dt = first_call(rms, y)
    print("5. rms(y) = sqrt(mean(y**2))   loop reduction over 100,000 float64")
    print(f"  result: {got:.6f}  ({check('rms', got, rms.py_func(y))})")
    report("rms", rms, builds, dt, per_call(rms, y), per_call(rms.py_func, y), "plain Python")
    print(f"  (for reference, NumPy's np.sqrt(np.mean(y * y)): {fmt(per_call(lambda v: np.sqrt(np.mean(v * v)), y))})\n")

    # What was generated.
    cxx = axpy.inspect_cxx()
    lines = cxx.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("// axpy(a:")), 0)
    print(f"Generated C++ for axpy, from axpy.inspect_cxx() ({len(lines)} lines in all):")
    for line in lines[start:start + 16]:
        print("   |", line)
    print(f"\nall results match plain Python; total time {time.perf_counter() - t_start:.1f} s")
    if compile_count():
        print("run this script again: the first calls then load from the disk cache instead of compiling.")


if __name__ == "__main__":
    main()
