"""Core benchmarks: transpile vs CPython, NumPy and Numba, on the same inputs in one run.

    python benchmarks/bench_core.py            # everything (a few minutes on 2 cores)
    python benchmarks/bench_core.py --quick    # fewer repeats, for a smoke test

Sections (benchmarks/README.md explains every column):
  (a) time to prepare: a fresh subprocess doing its imports and the first call
      of `a*b+c` on three 2x3 float32 arrays, with an empty cache (cold) and a
      filled one (warm);
  (b) call overhead: `add(x, y)` on two floats, `a*b+c` on three 2x3 float32;
  (c) loop kernels (benchmarks/kernels.py), steady state, the same source
      compiled by Numba (@njit) and transpile (@jit);
  (d) the loop kernels against hand-written C++ (bench_hand_cpp.py).

Numba is optional (`pip install numba`); without it the Numba columns say n/a.
All timings are medians. Every result is checked against CPython's (and
Numba's) before it is timed; a kernel that fails to compile or gives a wrong
answer prints FAILED: <reason> and the script goes on.
"""
from __future__ import annotations

import argparse
import copy
import math
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import timeit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

# The in-process sections use a private, empty cache so that "first call"
# really is a compile; set before transpile is imported.
_OWN_CACHE = tempfile.mkdtemp(prefix="transpile-bench-cache-")
os.environ["TRANSPILE_CACHE_DIR"] = _OWN_CACHE
# NumPy's BLAS (np.dot, @) runs on one thread, like every other column: on a
# busy 2-core machine OpenBLAS's spinning worker threads otherwise slow both
# NumPy (by up to 100x) and whatever is timed next. Set before numpy loads;
# set the variable yourself to override.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

import kernels as K  # noqa: E402
from transpile import jit  # noqa: E402
from transpile.build import tiers  # noqa: E402  (waiting for background builds: steady-state timings)

try:
    import numba  # noqa: E402
    from numba import njit  # noqa: E402

    NUMBA = f"numba {numba.__version__}"
    NUMBA_ERROR = None
except Exception as exc:  # noqa: BLE001 - ImportError, or numba refusing this numpy
    njit = None
    NUMBA = None
    NUMBA_ERROR = f"{type(exc).__name__}: {exc}".splitlines()[0]


# --------------------------------------------------------------------------- helpers

def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "n/a"
    if seconds < 1e-6:
        return f"{seconds * 1e9:.0f} ns"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.2f} us"
    if seconds < 1.0:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def fmt_ratio(r: float | None) -> str:
    return "n/a" if r is None else f"{r:.2f}"


def table(headers: list[str], rows: list[list[str]], note: str | None = None) -> None:
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) for i, h in enumerate(headers)]
    line = "  ".join(str(h).ljust(w) if i == 0 else str(h).rjust(w) for i, (h, w) in enumerate(zip(headers, widths)))
    print(line)
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    if note:
        print(textwrap.fill(note, 100))
    print()


def short_reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    first = text[0] if text else ""
    return f"{type(exc).__name__}: {first}"[:160]


def same(got, expected, rtol=1e-9) -> bool:
    if isinstance(expected, np.ndarray):
        got = np.asarray(got)
        if got.shape != expected.shape:
            return False
        if expected.dtype.kind in "fc":
            return bool(np.allclose(got, expected, rtol=rtol, atol=1e-12))
        return bool(np.array_equal(got, expected))
    if isinstance(expected, float):
        return math.isclose(float(got), expected, rel_tol=rtol, abs_tol=1e-12)
    return got == expected


def geomean(xs: list[float]) -> float | None:
    xs = [x for x in xs if x is not None and x > 0]
    if not xs:
        return None
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


# --------------------------------------------------------------------------- (a) time to prepare

PREP_TRANSPILE = """\
import numpy as np
from transpile import jit

@jit
def f(a, b, c):
    return a * b + c

a = np.arange(6, dtype=np.float32).reshape(2, 3)
r = f(a, a, a)
assert r.dtype == np.float32 and float(r[1, 2]) == 30.0
"""

PREP_NUMBA = """\
import numpy as np
from numba import njit

@njit(cache=True)
def f(a, b, c):
    return a * b + c

a = np.arange(6, dtype=np.float32).reshape(2, 3)
r = f(a, a, a)
assert r.dtype == np.float32 and float(r[1, 2]) == 30.0
"""

PREP_BASELINE = """\
import numpy as np
a = np.arange(6, dtype=np.float32).reshape(2, 3)
r = a * a + a
"""


def run_script(path: str, env: dict) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system of the process and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, path], env=env, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}")
    return dt, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


# Warm starts (and the floor) differ by milliseconds, a few times the noise
# of one ~120 ms process start here: each round runs them this many times.
WARM_PER_ROUND = 5


class Prep:
    """One tool's prepare script; cold runs get a new empty cache directory,
    warm runs share one that a first (untimed) run filled."""

    def __init__(self, workdir: str, name: str, source: str, cache_var: str | None, pythonpath: str | None = None):
        self.workdir, self.name, self.cache_var = workdir, name, cache_var
        self.script = os.path.join(workdir, f"prep_{name}.py")
        with open(self.script, "w") as f:
            f.write(source)
        self.env = dict(os.environ)
        self.env.pop("TRANSPILE_CACHE", None)
        self.env.pop("TRANSPILE_CACHE_DIR", None)
        # Imports read .pyc files, as after `pip install` (which byte-compiles);
        # PYTHONDONTWRITEBYTECODE=1 would recompile every module at each start.
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)
        self.env["TRANSPILE_TIERED"] = "0"  # one build, as a benchmark should
        if pythonpath:  # ahead of the checkout's editable install on sys.path
            self.env["PYTHONPATH"] = pythonpath
        self.cold, self.warm, self.error = [], [], None  # (wall, cpu) per run
        self.runs = 0
        if cache_var:
            self.warm_dir = os.path.join(workdir, f"{name}-warm")
            os.makedirs(self.warm_dir)
            self.env[cache_var] = os.path.join(workdir, f"{name}-unused")

    def run(self, cache_dir: str | None) -> tuple[float, float]:
        env = dict(self.env)
        if cache_dir:
            env[self.cache_var] = cache_dir
        return run_script(self.script, env)

    def fill(self) -> None:
        if self.cache_var:
            self.run(self.warm_dir)

    def one_round(self) -> None:
        if self.error:
            return
        try:
            if self.cache_var:
                d = os.path.join(self.workdir, f"{self.name}-cold-{self.runs}")
                os.makedirs(d)
                self.cold.append(self.run(d))
                self.warm.extend(self.run(self.warm_dir) for _ in range(WARM_PER_ROUND))
            else:
                self.cold.extend(self.run(None) for _ in range(WARM_PER_ROUND))
            self.runs += 1
        except Exception as exc:  # noqa: BLE001
            self.error = exc

    def median(self, runs: str, which: int) -> float:
        """Median wall (which=0) or CPU (1) time of the cold or warm runs (warm: cold without a cache)."""
        samples = getattr(self, runs) or self.cold
        return statistics.median(x[which] for x in samples)

    def cells(self) -> list[str]:
        if self.error:
            return [f"FAILED: {short_reason(self.error)}", "", "", ""]
        return [fmt_time(self.median("cold", 0)), fmt_time(self.median("warm", 0)), fmt_time(self.median("cold", 1)),
                fmt_time(self.median("warm", 1))]


def installed_copy(workdir: str) -> str:
    """A regular (non-editable) install of this checkout in a folder of its
    own, as `pip install transpile` makes it: its code's fingerprint is the
    stamp written at build time (transpile/fingerprint.py), where the checkout
    stats every file of the package in each process.  pip builds it in an
    isolated environment (~10 s); its failure is reported in the table."""
    target = os.path.join(workdir, "installed")
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", target,
                           os.path.dirname(HERE)], capture_output=True, text=True)
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
        raise RuntimeError(f"pip install --target failed: {tail}")
    return target


def section_prepare(runs: int) -> None:
    print("(a) Time to prepare: fresh `python script.py` = imports + first call of a*b+c on three 2x3 float32")
    print(f"    wall time seen from outside the process, medians of {runs} rounds (tools interleaved; "
          f"a round: one cold run, {WARM_PER_ROUND} warm runs)\n")
    workdir = tempfile.mkdtemp(prefix="transpile-bench-prep-")
    try:
        tools = [("CPython + NumPy only (no compiler)", Prep(workdir, "baseline", PREP_BASELINE, None)),
                 ("transpile @jit (this checkout)", Prep(workdir, "transpile", PREP_TRANSPILE, "TRANSPILE_CACHE_DIR"))]
        try:
            installed = Prep(workdir, "installed", PREP_TRANSPILE, "TRANSPILE_CACHE_DIR", installed_copy(workdir))
        except Exception as exc:  # noqa: BLE001
            installed = Prep(workdir, "installed", PREP_TRANSPILE, "TRANSPILE_CACHE_DIR")
            installed.error = exc
        tools.append(("transpile @jit (installed copy)", installed))
        if NUMBA:
            tools.append(("Numba @njit(cache=True)", Prep(workdir, "numba", PREP_NUMBA, "NUMBA_CACHE_DIR")))
        for _, tool in tools:
            try:
                tool.fill()
            except Exception as exc:  # noqa: BLE001
                tool.error = exc
        for _ in range(runs):
            for _, tool in tools:
                tool.one_round()
        rows = [[label, *tool.cells()] for label, tool in tools]
        if not NUMBA:
            rows.append(["Numba", "n/a (not installed)", "n/a", "n/a", "n/a"])
        floor = tools[0][1]
        over = [(label, [(tool.median("warm", i) - floor.median("cold", i)) * 1e3 for i in (0, 1)])
                for label, tool in tools[1:3] if not (floor.error or tool.error)]
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    table(["", "cold (empty cache)", "warm (cache filled)", "cold CPU", "warm CPU"], rows,
          "cold: TRANSPILE_CACHE_DIR / NUMBA_CACHE_DIR point at a new empty directory each run; "
          "warm: at a directory a previous run filled. The first row is the floor: interpreter start "
          "plus `import numpy` plus the NumPy expression. CPU: user + system time of the process (and the "
          "compiler it runs), steadier than wall time on a busy machine. Byte-code (.pyc) writing is on for "
          "these runs, so imports read .pyc files as they do after `pip install`; TRANSPILE_TIERED=0. "
          "The installed copy is `pip install --target` of this checkout, first on PYTHONPATH: it reads its "
          "code's fingerprint from a stamp, where the checkout stats its ~250 files in every process.")
    for label, (wall, cpu) in over:
        print(f"warm start over the floor, {label}: {wall:+.1f} ms wall, {cpu:+.1f} ms CPU (medians)")
    print()


# --------------------------------------------------------------------------- (b) call overhead

def per_call(stmt: str, env: dict, repeat: int, target: float = 0.05) -> float:
    timer = timeit.Timer(stmt, globals=env)
    number, t = 1, 0.0
    while True:  # autorange to ~target seconds per repeat
        t = timer.timeit(number)
        if t >= target / 5:
            break
        number *= 10
    number = max(1, int(number * target / max(t, 1e-9)))
    return statistics.median(timer.repeat(repeat=repeat, number=number)) / number


def add(x, y):
    return x + y


def abc(a, b, c):
    return a * b + c


def section_overhead(repeat: int) -> None:
    print(f"(b) Call overhead: timeit, ns per call, median of {repeat} repeats\n")
    x, y = 1.5, 2.25
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = a + 1
    c = a + 2
    ref_add = add(x, y)
    ref_abc = a * b + c

    candidates = [("CPython def", add, abc)]
    candidates.append(("NumPy expression `a*b+c` (inline, no call)", None, "inline"))
    if NUMBA:
        candidates.append(("Numba @njit", njit(add), njit(abc)))
    candidates.append(("transpile @jit (O0, boundscheck)", jit(add), jit(abc)))
    candidates.append(('transpile @jit(jit_level="O1", boundscheck=False)',
                       jit(jit_level="O1", boundscheck=False)(add), jit(jit_level="O1", boundscheck=False)(abc)))

    rows = []
    for label, fadd, fabc in candidates:
        row = [label]
        if fadd is None:
            row.append("-")
        else:
            try:
                got = fadd(x, y)
                if not (type(got) is float and got == ref_add):
                    raise AssertionError(f"add returned {got!r}, expected {ref_add!r}")
                row.append(f"{per_call('f(x, y)', {'f': fadd, 'x': x, 'y': y}, repeat) * 1e9:.0f}")
            except Exception as exc:  # noqa: BLE001
                row.append(f"FAILED: {short_reason(exc)}")
        try:
            env = {"f": fabc, "a": a, "b": b, "c": c}
            if fabc == "inline":
                stmt = "a * b + c"
            else:
                stmt = "f(a, b, c)"
                got = fabc(a, b, c)
                if not (isinstance(got, np.ndarray) and got.dtype == np.float32 and np.array_equal(got, ref_abc)):
                    raise AssertionError(f"a*b+c returned {got!r}")
            row.append(f"{per_call(stmt, env, repeat) * 1e9:.0f}")
        except Exception as exc:  # noqa: BLE001
            row.append(f"FAILED: {short_reason(exc)}")
        rows.append(row)
    table(["", "add(x, y) floats [ns]", "a*b+c 3x(2x3) float32 [ns]"], rows,
          "Each figure includes timeit's loop (~10 ns) and the Python-level call; "
          "the CPython def for a*b+c calls NumPy inside.")


# --------------------------------------------------------------------------- (c) loop kernels

def _rng():
    return np.random.default_rng(12345)


def kernel_cases():
    """name -> (kernel, make_args(full: bool), size label full, size label small, numpy version or None)."""
    cases = []

    def dot_args(full):
        n = 1_000_000 if full else 10_000
        r = _rng()
        return (r.random(n), r.random(n))
    cases.append(("dot", K.dot, dot_args, "n=1e6", "n=1e4", lambda a, b: float(np.dot(a, b))))

    def prefix_args(full):
        return (_rng().random(1_000_000 if full else 10_000),)
    cases.append(("prefix_sum", K.prefix_sum, prefix_args, "n=1e6", "n=1e4", np.cumsum))

    def hist_args(full):
        return (_rng().random(1_000_000 if full else 10_000), 64, 0.0, 1.0)
    cases.append(("histogram", K.histogram, hist_args, "n=1e6, 64 bins", "n=1e4",
                  lambda x, nb, lo, hi: np.histogram(x, bins=nb, range=(lo, hi))[0].astype(np.int64)))

    def stencil_args(full):
        n = 1000 if full else 100
        return (_rng().random((n, n)), np.zeros((n, n)))

    def stencil_np(u, out):
        out[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
        return out
    cases.append(("stencil2d", K.stencil2d, stencil_args, "1000x1000", "100x100", stencil_np))

    def matmul_args(full):
        n = 200 if full else 40
        r = _rng()
        return (r.random((n, n)), r.random((n, n)))
    cases.append(("matmul", K.matmul, matmul_args, "200x200 @ 200x200", "40x40", lambda a, b: a @ b))

    def pairwise_args(full):
        return (_rng().random((1000 if full else 100, 3)),)
    cases.append(("pairwise", K.pairwise, pairwise_args, "1000 points, 3-D", "100 points",
                  lambda x: np.sqrt(((x[:, None, :] - x[None, :, :]) ** 2).sum(-1))))

    def mandel_args(full):
        return (400, 300, 100) if full else (80, 60, 100)
    cases.append(("mandelbrot", K.mandelbrot, mandel_args, "400x300, 100 it", "80x60", None))

    def nbody_args(full):
        n = 1000 if full else 100
        r = _rng()
        return (r.random((n, 3)), r.random((n, 3)) - 0.5, r.random(n) + 0.1, 0.001)
    cases.append(("nbody_step", K.nbody_step, nbody_args, "1000 bodies", "100 bodies", None))

    def collatz_args(full):
        return (100_000 if full else 3_000,)
    cases.append(("collatz", K.collatz, collatz_args, "1..1e5", "1..3e3", None))

    def fib_args(full):
        return (10_000_000 if full else 100_000, 1_000_003)
    cases.append(("fib_mod", K.fib_mod, fib_args, "n=1e7", "n=1e5", None))
    return cases


def _same_args(a, b) -> bool:
    """Whether two argument tuples hold equal values (arrays: same dtype, shape and contents)."""
    return all(np.array_equal(x, y) and x.dtype == y.dtype if isinstance(y, np.ndarray) else x == y
               for x, y in zip(a, b))


def interleaved(jobs: dict, repeat: int, target: float, clock=time.perf_counter) -> dict:
    """jobs: label -> (fn, args). Median seconds per call of each, timed in
    interleaved rounds (so a slow spell of a noisy machine hits all of them);
    each round runs enough calls of each to take ~target s. clock: wall time,
    or time.process_time (CPU time: less disturbed by other work on the cores)."""
    numbers = {}
    for label, (fn, args) in jobs.items():
        t0 = time.perf_counter()
        fn(*args)
        numbers[label] = max(1, int(target / max(time.perf_counter() - t0, 1e-7)))
    samples = {label: [] for label in jobs}
    for _ in range(repeat):
        for label, (fn, args) in jobs.items():
            number = numbers[label]
            t0 = clock()
            for _ in range(number):
                fn(*args)
            samples[label].append((clock() - t0) / number)
    return {label: statistics.median(v) for label, v in samples.items()}


def section_kernels(repeat: int, target: float) -> None:
    print("(c) Loop kernels, steady state (after a warm-up call), median seconds per call")
    print('    transpile columns: @jit(jit_level="O1", boundscheck=False), which matches Numba\'s default of')
    print("    no bounds checking, and the default @jit (jit_level=\"O0\", boundscheck=True).")
    print("    Same source (benchmarks/kernels.py) for Numba @njit and transpile; CPython runs it undecorated")
    print("    on the smaller size, next to transpile O1 on that same smaller size.\n")

    rows, ratios, ratios_bc, failures = [], [], [], []
    for name, kernel, make_args, size, small, np_version in kernel_cases():
        print(f"  {name} ...", end="", flush=True)
        t_start = time.perf_counter()
        full = make_args(True)
        small_args = make_args(False)

        # References: CPython on the small inputs; Numba (else NumPy) on the full ones.
        ref_small = kernel(*copy.deepcopy(small_args))
        ref = {"full": None, "from": None}
        first_call = {}
        writes = [False]  # whether a candidate changed its arguments (the kernel writes into one)
        jobs = {}        # full size
        jobs_small = {}  # small size

        def prepare(label, fn, rtol=1e-9):
            """First call (compiles) on the small inputs, verify against CPython,
            then verify on the full inputs; queue it for timing."""
            t0 = time.perf_counter()
            got_small = fn(*copy.deepcopy(small_args))
            first_call[label] = time.perf_counter() - t0
            if not same(got_small, ref_small, rtol):
                raise AssertionError(f"wrong result on the small inputs (vs CPython): {got_small!r:.80}")
            given = copy.deepcopy(full)
            got = fn(*given)
            if not _same_args(given, full):
                writes[0] = True
            if ref["full"] is None:
                ref["full"], ref["from"] = got, label
            elif not same(got, ref["full"], rtol):
                raise AssertionError(f"wrong result on the full inputs (vs {ref['from']})")
            jobs[label] = (fn, copy.deepcopy(full))
            return fn

        candidates = []
        if NUMBA:
            candidates.append(("Numba", lambda: njit(kernel), 1e-9))
        if np_version is not None:
            candidates.append(("NumPy", lambda: np_version, 1e-7))
        candidates.append(("tp", lambda: jit(jit_level="O1", boundscheck=False)(kernel), 1e-9))
        candidates.append(("tp default", lambda: jit(kernel), 1e-9))
        for label, make, rtol in candidates:
            try:
                fn = prepare(label, make(), rtol)
                if label == "tp":
                    jobs_small["tp"] = (fn, copy.deepcopy(small_args))
            except Exception as exc:  # noqa: BLE001
                failures.append(f"{name} / {label}: {short_reason(exc)}")
        jobs_small["CPython"] = (kernel, copy.deepcopy(small_args))
        if not writes[0]:  # one copy of the inputs for every compiler: the same memory, the same pages
            shared = copy.deepcopy(full)
            jobs = {label: (fn, shared) for label, (fn, _) in jobs.items()}
        # Steady state: the first calls ran on quick builds (build/tiers.py); their optimized
        # builds finish first (not compiled on the other core while the kernels are timed),
        # and a call of each swaps its optimized build in.
        tiers.wait(timeout=600)
        for label in ("tp", "tp default"):
            if label in jobs:
                jobs[label][0](*copy.deepcopy(small_args))

        t = interleaved(jobs, repeat, target)
        t_small = interleaved(jobs_small, max(3, repeat // 2), target)
        t_numba, t_tp, t_bc = t.get("Numba"), t.get("tp"), t.get("tp default")
        r = t_tp / t_numba if (t_tp and t_numba) else None
        rbc = t_bc / t_numba if (t_bc and t_numba) else None
        if r:
            ratios.append(r)
        if rbc:
            ratios_bc.append(rbc)

        def cell(label, value):
            if value is not None:
                return fmt_time(value)
            if label == "Numba" and not NUMBA:
                return "n/a"
            return "FAILED"

        rows.append([
            name, size,
            cell("NumPy", t.get("NumPy")) if np_version is not None else "-",
            cell("Numba", t_numba),
            cell("tp", t_tp),
            fmt_ratio(r),
            cell("tp default", t_bc),
            fmt_ratio(rbc),
            fmt_time(first_call["Numba"]) if "Numba" in first_call else "-",
            fmt_time(first_call["tp"]) if "tp" in first_call else "-",
            small,
            fmt_time(t_small["CPython"]),
            f"{t_small['CPython'] / t_small['tp']:.0f}x" if "tp" in t_small else "FAILED",
        ])
        print(f" {time.perf_counter() - t_start:.1f} s")
    print()
    headers = ["kernel", "size", "NumPy", "Numba", "tp O1,nobc", "ratio", "tp default", "ratio",
               "Numba 1st", "tp 1st", "small size", "CPython", "tp speedup"]
    table(headers, rows,
          "tp O1,nobc: transpile @jit(jit_level=\"O1\", boundscheck=False); tp default: @jit; ratio: that "
          "column's time / Numba's time (< 1: transpile faster); Numba 1st / tp 1st: first call "
          "(compile + run on the small inputs) of Numba / tp O1,nobc; CPython: the undecorated function on the "
          "small size; tp speedup: CPython time / tp O1,nobc time on that same small size.")
    g = geomean(ratios)
    gbc = geomean(ratios_bc)
    if g is not None:
        print(f"geometric mean of time ratio transpile/Numba over {len(ratios)} kernels "
              f"(< 1 means transpile is faster):")
        print(f'  @jit(jit_level="O1", boundscheck=False): {g:.2f}  (speed vs Numba: {1 / g:.2f}x)')
        if gbc is not None:
            print(f"  default @jit (O0, boundscheck=True):     {gbc:.2f}  (speed vs Numba: {1 / gbc:.2f}x)")
    elif not NUMBA:
        print("Numba not available, so no transpile/Numba ratios.")
    if failures:
        print("\nFAILED:")
        for f in failures:
            print(f"  FAILED: {f}")
    print()


# --------------------------------------------------------------------------- main

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer runs and repeats (a smoke test; noisier numbers)")
    ap.add_argument("--only", choices=["prepare", "overhead", "kernels", "handcpp"], action="append",
                    help="run only this section (may be given more than once)")
    opts = ap.parse_args()
    sections = opts.only or ["prepare", "overhead", "kernels", "handcpp"]
    prep_runs = 3 if opts.quick else 7
    repeat = 3 if opts.quick else 7
    target = 0.03 if opts.quick else 0.1

    import transpile
    cpu = platform.processor() or platform.machine()
    print(f"Python {platform.python_version()}, NumPy {np.__version__}, transpile {transpile.__version__}, "
          f"{NUMBA or 'Numba: not available'}")
    print(f"{platform.system()} {platform.release()}, {cpu}, {os.cpu_count()} CPUs; "
          f"BLAS threads: OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}")
    if not NUMBA:
        print(f"Numba could not be imported ({NUMBA_ERROR}); install it with `pip install numba` "
              "for the Numba columns. Running without it.")
    print()
    t0 = time.perf_counter()
    try:
        if "prepare" in sections:
            section_prepare(prep_runs)
        if "overhead" in sections:
            section_overhead(repeat)
        if "kernels" in sections:
            section_kernels(repeat, target)
        if "handcpp" in sections:
            import bench_hand_cpp

            bench_hand_cpp.section_hand_cpp(sys.modules[__name__], repeat, target)
    finally:
        shutil.rmtree(_OWN_CACHE, ignore_errors=True)
    print(f"total benchmark time: {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
