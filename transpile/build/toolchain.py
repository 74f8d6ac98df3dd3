"""The C++ compiler: finding it, its flags, running it, and turning its
errors into CompileErrors that point at the user's Python line."""
from __future__ import annotations

import contextlib
import os
import re
from functools import lru_cache

from ..diagnostics import CompileError, GeneratedCodeError, NoCompilerError, SourceLoc, report_hint
from ..resources import runtime_dir
from ..values import value_type
from .programs import identity, which

CANDIDATES = ("g++", "c++", "clang++")


@value_type  # not a NamedTuple or a dataclass: making one costs every warm start ~0.5-1.5 ms
class Compiler:
    path: str
    identity: str  # changes when the compiler binary changes (part of cache keys)


@lru_cache(maxsize=None)
def _compiler_for(cxx_env: str | None, path_env: str | None) -> Compiler | None:
    names = [cxx_env] if cxx_env else list(CANDIDATES)
    for name in names:
        path = which(name)
        if path:
            return Compiler(path, identity(path))
    return None


NO_COMPILER_HINT = ("install one (Debian/Ubuntu: apt-get install g++), or set CXX to its path; functions built "
                    "ahead of time with `transpile build --inplace` need no compiler")


def find_compiler(required: bool = True) -> Compiler | None:
    """The C++ compiler (CXX, else g++, c++ or clang++ on PATH).  required: one
    that works, checked once per compiler binary (usable()), else NoCompilerError.
    Without `required` nothing is run: cache keys need only its identity."""
    cxx = os.environ.get("CXX")
    compiler = _compiler_for(cxx, os.environ.get("PATH"))
    if required:
        if compiler is None:
            wanted = f"CXX={cxx!r}" if cxx else "g++, c++ or clang++"
            raise NoCompilerError(f"no C++ compiler found (looked for {wanted} on PATH)", hint=NO_COMPILER_HINT)
        problem = usable(compiler)
        if problem:
            raise NoCompilerError(f"the C++ compiler {compiler.path} cannot be used: {problem}",
                                  hint="install g++ >= 10 or clang++ >= 12 and set CXX to it if it is not first on "
                                       "PATH; functions built ahead of time with `transpile build --inplace` need "
                                       "no compiler")
    return compiler


# A C++20 translation unit that needs the C++ runtime library: a C compiler, a
# compiler without C++20, or one whose libraries do not load fail it.
_PROBE = """\
template <class T> requires (sizeof(T) > 1) constexpr T twice(T x) { return x + x; }
static_assert(twice(2) == 4 && __cplusplus >= 202002L);
extern "C" __attribute__((visibility("default"))) int tr_probe(int x) {
    int *p = new int(twice(x));
    int r = *p;
    delete p;
    try { if (r < 0) throw r; } catch (int) { return -1; }
    return r;
}
"""


@lru_cache(maxsize=None)
def usable(compiler: Compiler) -> str | None:
    """Why the compiler cannot build transpile's modules, or None: it must
    compile C++20 into a shared library that loads and runs (checked once per
    compiler binary, before anything is built or cached with it; a success is
    remembered on disk, so later processes skip the probe's compile)."""
    marker = _probe_marker(compiler)
    if marker is not None and marker.is_file():
        return None
    problem = _probe(compiler)
    if problem is None:
        _remember(marker)
    return problem


def _probe_marker(compiler: Compiler, variant: str = ""):
    """The file that says this compiler binary passed the probe (variant: with
    other flags, or failed it with them): in the folder of the cache's signing
    key (which outlives any cache directory), or None when that folder cannot
    be trusted."""
    from ..hashing import sha256
    from . import trust

    if trust.key_problem():
        return None
    digest = sha256(f"{compiler.identity}\n{_PROBE}{variant}".encode()).hexdigest()[:32]
    return trust.config_dir() / "compilers" / digest


def _remember(marker) -> None:
    if marker is not None:
        with contextlib.suppress(OSError):
            marker.parent.mkdir(mode=0o700, exist_ok=True)
            marker.touch()


# GNU gold links a module with about a third of ld.bfd's instructions (the
# cold seed's library: 38 M instead of 128 M, ~30 ms), so it links where the
# compiler can use it: a probe linked with it must load and run (once per
# compiler binary; the answer is remembered beside usable()'s).  The linker
# does not change the code, so it is no part of the cache key: command()
# adds it, not flags().
FAST_LINKER = "-fuse-ld=gold"


@lru_cache(maxsize=None)
def linker_flags(compiler: Compiler) -> tuple[str, ...]:
    works, fails = _probe_marker(compiler, f" {FAST_LINKER}"), _probe_marker(compiler, f" no {FAST_LINKER}")
    if works is not None and works.is_file():
        return (FAST_LINKER,)
    if fails is not None and fails.is_file():
        return ()
    ok = _probe(compiler, (FAST_LINKER,)) is None
    _remember(works if ok else fails)
    return (FAST_LINKER,) if ok else ()


def _probe(compiler: Compiler, extra: tuple = ()) -> str | None:
    import ctypes
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory(prefix="transpile-probe-") as d:
        src, lib = os.path.join(d, "probe.cpp"), os.path.join(d, "probe.so")
        with open(src, "w") as f:
            f.write(_PROBE)
        cmd = [compiler.path, "-std=c++20", "-fPIC", "-shared", "-O0", *extra, src, "-o", lib]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"running it failed ({exc})"
        if proc.returncode != 0:
            first = next((line for line in proc.stderr.splitlines() if "error" in line), proc.stderr.strip()[:200])
            return f"it does not compile C++20, which transpile's code needs ({first.split('error: ')[-1].strip()})"
        try:
            probe = ctypes.CDLL(lib, mode=os.RTLD_NOW | os.RTLD_LOCAL).tr_probe
        except (OSError, AttributeError) as exc:
            why = str(exc).split(": ", 1)[-1]  # "undefined symbol: X" without the temporary path
            return f"a library it builds cannot be loaded ({why}): is it a C compiler (CXX=gcc rather than g++)?"
        probe.argtypes, probe.restype = [ctypes.c_int], ctypes.c_int
        if probe(21) != 42:
            return "a library it builds gives wrong results"
    return None


# Every level computes floating point as CPython does, operation by operation:
# GCC contracts a * b + c into one fused multiply-add by default (one rounding
# instead of two), which -march=native makes available. -ffast-math and its
# relatives (reassociation, reciprocals) are on only when the function asks
# for them with fastmath= (options.fastmath_flags).
STRICT_FP = ("-ffp-contract=off",)


# A specialization is built once or twice (build/tiers.py): a QUICK build the
# first call runs on, and the OPTIMIZED one that replaces it when it is ready
# (or at once with TRANSPILE_TIERED=0, and for everything ahead of time).
QUICK, OPTIMIZED = "quick", "optimized"

# -O level per jit_level and tier, from benchmarks/bench_opt_levels.py (bench_core's
# ten loop kernels; medians on a busy 2-core machine; speed as a geometric mean
# relative to -O3).  Default @jit: -O2 runs at 0.99x -O3's speed, -O1 at 0.63x,
# -O0 at 0.04x; compiles take 1.66 s, 1.69 s, 1.46 s and 1.38 s (parsing the
# runtime's headers dominates).  jit_level O1 (-march=native): -O2 0.79x (no
# vectorized stencil), -O1 0.50x; compiles 1.47 s, 1.48 s (-O3), 1.33 s.  So the
# optimized builds are -O2 and -O3, and the quick build is -O1 (-O0 saves
# little compile time and runs 25-30x slower).  Two flags measured by the
# code-generation work on the same kernels: -fcaller-saves (an -O2 flag of no
# measurable compile cost) stops -O1 from keeping a loop's accumulator on the
# stack when it is live across a later call (dot 8.4 ms -> 1.55 ms, as -O2);
# -fvect-cost-model=cheap lets GCC 12's -O2 vectorize loops of unknown trip
# count (axpy, matmul's inner loop, jacobi), as -O3 does.  TR_QUICK_BUILD: the
# quick build compiles no per-CPU clones (transpile_rt/vector_clones.hpp; -O1
# does not vectorize, and each clone is another compile of its function).
_QUICK = ("-O1", "-fcaller-saves", "-DTR_QUICK_BUILD")
OPT_LEVELS = {("O0", QUICK): _QUICK, ("O0", OPTIMIZED): ("-O2", "-fvect-cost-model=cheap"),
              ("O1", QUICK): _QUICK, ("O1", OPTIMIZED): ("-O3",)}


def opt_flags(options, tier: str = OPTIMIZED) -> list[str]:
    """The optimization flags of one tier (-march=native: jit_level O1's optimized build)."""
    native = ["-march=native"] if options.jit_level == "O1" and tier == OPTIMIZED else []
    return [*OPT_LEVELS[options.jit_level, tier], *native]


@lru_cache(maxsize=1)
def native_cpu() -> str:
    """What -march=native builds for: a digest of this CPU's feature flags.  A
    cache shared by machines of different CPUs (a home directory on NFS) must
    not hand one of them code with instructions it lacks (SIGILL)."""
    import hashlib
    import platform

    features = ""
    try:
        with open("/proc/cpuinfo") as f:
            features = next((line for line in f if line.startswith(("flags", "Features"))), "")
    except OSError:
        features = platform.processor()
    return hashlib.sha256(" ".join(sorted(features.split(":", 1)[-1].split())).encode()).hexdigest()[:16]


def tiered(options) -> bool:
    """Whether a specialization first runs on a quick build (TRANSPILE_TIERED=0: never)."""
    if os.environ.get("TRANSPILE_TIERED", "1").strip().lower() in ("0", "false", "no", "off"):
        return False
    return options.backend == "cpu" and opt_flags(options, QUICK) != opt_flags(options, OPTIMIZED)


def device_identity(options) -> str | None:
    """The nvcc / CANN toolkit's identity (backends.py) for the cache key; None
    for the CPU, whose compiler is in the key already (no backends import)."""
    if options.backend == "cpu":
        return None
    from . import backends

    return backends.identity(options)


def flags(options, tier: str = OPTIMIZED) -> list[str]:
    if options.backend != "cpu":  # nvcc / CANN (build/backends.py)
        from . import backends

        return backends.flags(options, str(runtime_dir()))
    from ..options import fastmath_flags

    common = ["-std=c++20", "-fPIC", "-shared", "-fwrapv", "-fno-math-errno", *fastmath_flags(options),
              "-fvisibility=hidden",
              "-w", "-I", str(runtime_dir())]
    return common + opt_flags(options, tier)


PARALLEL_HEADER = '#include "transpile_rt/backend/parallel.hpp"'
PARALLEL_EXPR_DEFINE = "#define TR_PARALLEL_EXPR 1"  # cxx/lower.py: O1 array expressions on threads


def _text(source_path: str) -> str:
    try:
        with open(source_path) as f:
            return f.read()
    except OSError:
        return ""


def uses_openmp(source_path: str) -> bool:
    """Modules with a prange loop, or with array expressions at jit_level O1,
    are built with -fopenmp; others are not (faster compiles)."""
    text = _text(source_path)
    return PARALLEL_HEADER in text or PARALLEL_EXPR_DEFINE in text


def random_inputs(source_path: str) -> tuple[list[str], list[str]]:
    """Modules that draw from np.random (library/random_lib.py) see NumPy's
    headers and link its libnpyrandom.a, its symbols kept inside the module.
    The typer compiles no draw where the library is missing; these depend only
    on the NumPy install, which the cache key names, so the key is unchanged."""
    from ..library.random_lib import H_RANDOM, link_inputs

    inputs = link_inputs() if f'#include "{H_RANDOM}"' in _text(source_path) else None
    if inputs is None:
        return [], []
    include, lib = inputs
    return ["-I", include], [lib, "-Wl,--exclude-libs,ALL", "-lm"]


def command(source_path: str, output_path: str, options, portable: bool = False,
            tier: str = OPTIMIZED, prelude: bool = True) -> list[str]:
    """The compiler command for one translation unit (portable: no -march=native,
    for artifacts that ship; prelude: with the precompiled prelude a quick
    build started, build/pch.py)."""
    includes, libs = random_inputs(source_path)
    if options.backend != "cpu":
        from . import backends

        host = find_compiler(required=False)
        if libs:  # nvcc's -x cu would read an archive named on the line as source
            libs = ["-L", os.path.dirname(libs[0]), "-lnpyrandom", "-lm"]
        return [*backends.compiler(options, host.path if host else None), *flags(options), *includes, source_path,
                "-o", output_path, *backends.link_flags(options), *libs]
    compiler = find_compiler()
    cmd_flags = [f for f in flags(options, tier) if not (portable and f == "-march=native")]
    if uses_openmp(source_path):
        cmd_flags.append("-fopenmp")
    elif prelude and tier == QUICK and not portable:  # built with exactly these flags
        from . import pch

        includes = [*pch.include_flags(source_path, options, compiler, cmd_flags), *includes]
    return [compiler.path, *cmd_flags, *linker_flags(compiler), *includes, source_path, "-o", output_path, *libs]


def precompile_prelude(options, root=None) -> None:
    """Starts compiling the prelude of a quick build's module (build/pch.py)
    while its function is translated; nothing without a usable compiler (the
    build reports that)."""
    compiler = find_compiler(required=False)
    if options.backend == "cpu" and compiler is not None and usable(compiler) is None:
        from . import pch

        pch.start(options, compiler, flags(options, QUICK), root)


def compile_shared(source_path: str, output_path: str, options, python_lines: dict | None = None,
                   portable: bool = False, progress: bool = True, tier: str = OPTIMIZED,
                   started=None) -> None:
    """Compiles one translation unit into a shared library (progress: a line on
    the terminal while a compile takes over a second; `transpile build` and
    background builds have none of their own).  started: called with the
    compiler's Popen, which then runs in its own process group (a background
    build: build/tiers.py lowers its priority and kills it at exit)."""
    import subprocess

    from .. import timing
    from .progress import compiling

    def run(cmd):
        with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              start_new_session=started is not None) as proc:  # killed as a group
            if started is not None:
                started(proc)
            try:
                return proc, proc.communicate(timeout=600)[1]
            except subprocess.TimeoutExpired:
                proc.kill()
                raise GeneratedCodeError("the C++ compiler took more than 10 minutes") from None

    with timing.phase("compile"):  # a quick build's may wait for its precompiled prelude
        cmd = command(source_path, output_path, options, portable, tier)
    try:
        with compiling(source_path) if progress else contextlib.nullcontext(), timing.phase("compile"):
            proc, stderr = run(cmd)
            if proc.returncode != 0 and "-include" in cmd:  # whatever went wrong with the prelude: without it
                cmd = command(source_path, output_path, options, portable, tier, prelude=False)
                proc, stderr = run(cmd)
    except OSError as exc:
        raise CompileError(f"cannot run the C++ compiler {cmd[0]}: {exc}") from None
    if proc.returncode != 0:
        # nvcc writes file(LINE): error: ...; read it as g++'s file:LINE:COL: error: ...
        stderr = re.sub(r"^(\S+)\((\d+)\): error:", r"\1:\2:0: error:", stderr, flags=re.M)
        raise _compile_error(stderr, source_path)
    if options.backend == "cpu":  # never cache a library that cannot load (device libraries need their runtime)
        import ctypes

        try:
            with timing.phase("load"):
                ctypes.CDLL(output_path, mode=os.RTLD_NOW | os.RTLD_LOCAL)
        except OSError as exc:
            raise GeneratedCodeError(f"the library the C++ compiler built cannot be loaded: {exc}",
                                     hint=REPORT_HINT) from None


REPORT_HINT = report_hint("code generation")
_ERROR_LINE = r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?:fatal )?error: (?P<msg>.*)$"
_PY_COMMENT = r"^\s*// (?P<file>\S+):(?P<line>\d+)  (?P<src>.*)$"


def _compile_error(stderr: str, source_path: str) -> GeneratedCodeError:
    error_line = re.compile(_ERROR_LINE, re.M)
    py_comment = re.compile(_PY_COMMENT)
    match = None
    for m in error_line.finditer(stderr):
        if os.path.basename(m.group("file")) == os.path.basename(source_path):
            match = m
            break
    match = match or error_line.search(stderr)
    excerpt = "\n".join(stderr.strip().splitlines()[:12])
    if not match:
        return GeneratedCodeError(f"the C++ compiler failed:\n{excerpt}", hint=REPORT_HINT)
    loc = None
    if os.path.basename(match.group("file")) == os.path.basename(source_path):
        with open(source_path) as f:
            lines = f.read().splitlines()
        for i in range(int(match.group("line")) - 1, -1, -1):
            c = py_comment.match(lines[i]) if i < len(lines) else None
            if c:
                loc = SourceLoc(c.group("file"), int(c.group("line")), 0, source_line=c.group("src"))
                break
    return GeneratedCodeError(f"the generated C++ failed to compile: {match.group('msg')}\n{excerpt}", loc,
                              REPORT_HINT)
