"""The generated C++ of the benchmark loop kernels at the default @jit
(O0, bounds checks on): no per-access index check in the hot loops where the
indices are provably in range (tr::proven, or a loop run under a guard with
a checked copy beside it), no per-statement line store, and the checks that
cannot be proven stay.  Translation only, except the vectorization report
(one compile)."""
from __future__ import annotations

import re
import subprocess

import pytest

from transpile.hir import types as T
from transpile.options import make_options
from transpile.pipeline import translate

from . import fast_path_funcs as k

KERNELS = {
    "dot": (k.bench.dot, "float64[::1], float64[::1]"),
    "prefix_sum": (k.bench.prefix_sum, "float64[::1]"),
    "histogram": (k.bench.histogram, "float64[::1], int, float, float"),
    "stencil2d": (k.bench.stencil2d, "float64[:, ::1], float64[:, ::1]"),
    "matmul": (k.bench.matmul, "float64[:, ::1], float64[:, ::1]"),
    "pairwise": (k.bench.pairwise, "float64[:, ::1]"),
    "mandelbrot": (k.bench.mandelbrot, "int, int, int"),
    "nbody_step": (k.bench.nbody_step, "float64[:, ::1], float64[:, ::1], float64[::1], float"),
    "axpy_into": (k.axpy_into, "float64[::1], float64[::1], float64[::1], float"),
    "carried_through_memory": (k.carried_through_memory, "float64[::1], float64[::1], float"),
    "differences": (k.differences, "float64[::1], float64[::1]"),
}
CHECKED_COPY = "} else {  // an index may be out of range"


def cxx(fn, sig: str, **options) -> str:
    return translate(fn, tuple(T.parse_signature(sig)), make_options(**options), "tr_entry_test").cpp


def without_checked_copies(text: str) -> str:
    """The code that runs when every guard holds: each versioned loop's
    checked copy (the else branch after the guard) is cut out."""
    out, skip_to = [], None
    for line in text.splitlines():
        if skip_to is not None:
            if line.startswith(skip_to + "}"):
                skip_to = None
                out.append(line)
            continue
        if line.lstrip().startswith(CHECKED_COPY):
            skip_to = line[: len(line) - len(line.lstrip())]
            continue
        out.append(line)
    return "\n".join(out)


def element_accesses(text: str) -> list[list[str]]:
    """The argument lists of every tr::at(...) call."""
    found = []
    for m in re.finditer(r"\btr::at\(", text):
        depth, args, cur = 1, [], ""
        for ch in text[m.end():]:
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    break
            if ch == "," and depth == 1:
                args.append(cur.strip())
                cur = ""
            else:
                cur += ch
        args.append(cur.strip())
        found.append(args)
    return found


def unproven(text: str) -> list[str]:
    return [", ".join(a) for a in element_accesses(text) if any(not x.startswith("tr::proven(") for x in a[1:])]


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_hot_loops_have_no_index_checks(name):
    fn, sig = KERNELS[name]
    text = cxx(fn, sig)
    fast = without_checked_copies(text)
    assert element_accesses(fast), "the kernel indexes arrays"
    assert unproven(fast) == []


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_no_line_stores_on_the_fast_path(name):
    fn, sig = KERNELS[name]
    text = cxx(fn, sig)
    assert "tr::current_line()" not in text
    assert re.search(r"^\s+tr_line = \d+;$", text, re.M)  # a local, noted by the handler on an error
    assert "tr::note_line(tr_e, tr_line);" in text


def test_guarded_loop_keeps_a_checked_copy():
    text = cxx(k.axpy_into, KERNELS["axpy_into"][1])
    assert "if (x.shape[0] <= out.shape[0] && x.shape[0] <= y.shape[0]) {" in text \
        or "if (x.shape[0] <= y.shape[0] && x.shape[0] <= out.shape[0]) {" in text
    checked = text[text.index(CHECKED_COPY):]
    assert "tr::at(out, tr::proven(i))" not in checked and "tr::at(out, i)" in checked
    assert "tr::at(y, i)" in checked


def test_provable_without_a_guard():
    for name in ("pairwise", "histogram", "mandelbrot", "prefix_sum"):
        text = cxx(*KERNELS[name])
        assert CHECKED_COPY not in text, name
        assert unproven(text) == [], name


@pytest.mark.parametrize("fn, sig, access", [
    (k.one_past, "float64[::1]", "a, (i + 1)"),
    (k.rebinds, "float64[::1], float64[::1]", "a, i"),
    (k.counter_reassigned, "float64[::1]", "a, i"),
    (k.bound_moves, "float64[::1], int", "a, i"),
])
def test_checks_stay_where_nothing_is_proven(fn, sig, access):
    text = cxx(fn, sig)
    assert CHECKED_COPY not in text
    assert access in unproven(text)


def test_bounds_false_keeps_one_copy():
    text = cxx(k.axpy_into, KERNELS["axpy_into"][1], boundscheck=False)
    assert CHECKED_COPY not in text
    assert "tr::at(x, tr::proven(i))" in text


def test_unchecked_loop_vectorizes(tmp_path):
    """GCC's own report: the guarded copy of a contiguous loop vectorizes
    (an index check in it would stop that)."""
    from transpile.build import toolchain

    compiler = toolchain.find_compiler(required=False)
    if compiler is None:
        pytest.skip("no C++ compiler")
    text = cxx(k.axpy_into, KERNELS["axpy_into"][1])
    src = tmp_path / "module.cpp"
    src.write_text(text)
    cmd = [compiler.path, "-std=c++20", "-fwrapv", "-fno-math-errno", "-ffp-contract=off", "-w",
           "-I", str(toolchain.runtime_dir()), "-O3", "-fopt-info-vec-optimized", "-c", str(src),
           "-o", str(tmp_path / "module.o")]
    report = subprocess.run(cmd, capture_output=True, text=True, check=True).stderr
    vectorized = {int(m.group(1)) for m in re.finditer(r"module\.cpp:(\d+):\d+: optimized: loop vectorized", report)}
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines, 1) if "every index below in range" in line)
    end = next(i for i, line in enumerate(lines, 1) if CHECKED_COPY in line)
    assert any(start < n < end for n in vectorized), report


# a loop stores along the unit stride, reading the array it stores into at no other index
CLONED = {"matmul", "stencil2d", "prefix_sum", "nbody_step", "axpy_into", "differences"}


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_vector_clones_only_where_a_loop_stores_along_the_unit_stride(name):
    """cxx/vector_clones.py: reductions (dot, pairwise's inner loop), scalar
    recurrences (mandelbrot), scattered stores (histogram) and a loop reading
    back what an earlier iteration stored (an ODE step) keep one copy."""
    text = cxx(*KERNELS[name])
    fn = KERNELS[name][0].__name__
    cloned = re.search(rf"^TR_VECTOR_CLONES \S.* {fn}_0_clones\(", text, re.M) is not None
    assert cloned == (name in CLONED), text[:2000]
    assert ('#include "transpile_rt/vector_clones.hpp"' in text) == cloned
    # callers reach the clones through a pointer (a target_clones call GCC 12 takes for one that cannot
    # throw: an IndexError inside ended in std::terminate; test_bounds_elim's guard tests raise in one)
    assert (f"return TR_CLONES_CALL({fn}_0_clones)(" in text) == cloned


def _gcc_clones_available(compiler) -> bool:
    import platform

    if platform.machine() != "x86_64" or "clang" in compiler.path:
        return False
    proc = subprocess.run([compiler.path, "-dumpfullversion"], capture_output=True, text=True)
    return proc.returncode == 0 and int(proc.stdout.split(".")[0] or 0) >= 12


def _vectorization_report(text: str, tmp_path) -> str:
    """GCC's -fopt-info-vec-optimized report on a module built with the
    default @jit's flags (skips where GCC cannot make per-CPU clones)."""
    from transpile.build import toolchain

    compiler = toolchain.find_compiler(required=False)
    if compiler is None or not _gcc_clones_available(compiler):
        pytest.skip("needs GCC >= 12 on x86-64")
    src = tmp_path / "module.cpp"
    src.write_text(text)
    cmd = [compiler.path, *toolchain.flags(make_options()), "-fopt-info-vec-optimized", "-c", str(src),
           "-o", str(tmp_path / "module.o")]
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stderr


def test_store_loop_vectorizes_in_every_clone(tmp_path):
    """GCC's report on matmul's module, built with the default @jit's flags:
    the inner loop `c[i, j] += aip * b[p, j]` vectorizes with 64-, 32- and
    16-byte vectors, one width per clone (AVX-512, AVX2, the x86-64 baseline)."""
    text = cxx(*KERNELS["matmul"])
    report = _vectorization_report(text, tmp_path)
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines, 1) if "every index below in range" in line)
    end = next(i for i, line in enumerate(lines, 1) if CHECKED_COPY in line)
    widths = {int(m.group(2)) for m in re.finditer(r"module\.cpp:(\d+):\d+: optimized: loop vectorized using (\d+) byte",
                                                   report) if start < int(m.group(1)) < end}
    assert {64, 32, 16} <= widths, report


def test_nbody_inner_branch_goes_where_nothing_can_raise():
    """cxx/lower_speculate.py: n-body's `if i != j:` body is run either way
    under the guard (every index proven), its sums kept by selects, and its
    sqrt has no check (passes/signs.py: r2 is a sum of squares plus 0.01)."""
    for options in ({}, {"boundscheck": False}, {"jit_level": "O1", "boundscheck": False}):
        text = cxx(*KERNELS["nbody_step"], **options)
        fast = without_checked_copies(text)
        assert re.search(r"const bool (tr_c\d+) = \(i != j\);", fast), options
        assert "if (i != j)" not in fast
        for v in ("ax", "ay", "az"):
            assert re.search(rf"\b{v} = tr_c\d+ \? \({v} \+ \(d\w \* inv\)\) : {v};", fast), (v, options)
        assert "tr::math::sqrt_unchecked(double(r2))" in text and "tr::math::sqrt(" not in text
        if not options:  # with bounds checks every loop is versioned; without, only the one with the `if`
            assert unproven(fast) == []
    # without bounds checks the copy beside the guard loads mass[j] only where i != j
    checked = text[text.index(CHECKED_COPY):]
    assert re.search(r"\(tr_c\d+ \? tr::at\(mass, j\) : double\{\}\)", checked)


def test_sqrt_keeps_its_check_where_a_negative_can_reach_it():
    text = cxx(k.roots, "float64[::1], float")
    assert text.count("tr::math::sqrt_unchecked(") == 2  # sqrt(s) after s += t * t; sqrt(x[i] * x[i])
    assert text.count("tr::math::sqrt(") == 2  # sqrt(y): an argument; sqrt(x[i] * y): any sign


def test_speculated_nbody_loop_vectorizes(tmp_path):
    """GCC's report on nbody_step built with the default @jit's flags: the
    guarded copy's inner loop vectorizes (a branch or a throwing sqrt in it
    would stop that)."""
    text = cxx(*KERNELS["nbody_step"])
    report = _vectorization_report(text, tmp_path)
    lines = text.splitlines()
    inner = next(i for i, line in enumerate(lines, 1) if "for (int64_t tr_i3 = 0;" in line)
    assert re.search(rf"module\.cpp:{inner}:\d+: optimized: loop vectorized", report), report


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_in_order_sums_stay_scalar_only_where_vectors_cannot_help(name):
    """cxx/reductions.py: a loop that only sums cheap float terms (dot,
    pairwise's inner loop, prefix_sum's is not: it stores) keeps its sum
    scalar; n-body's sums (with a division and a sqrt) are left to GCC."""
    text = cxx(*KERNELS[name], jit_level="O1", boundscheck=False)
    kept = set(re.findall(r"TR_IN_ORDER\((\w+)\);", text))
    assert kept == {"dot": {"s"}, "pairwise": {"s"}}.get(name, set()), kept
    assert ('#include "transpile_rt/in_order.hpp"' in text) == bool(kept)


def test_a_divisor_fixed_through_the_loop_is_cached():
    """fib_mod's `(a + b) % m`: the division by a name its loop does not assign uses the reciprocal cache."""
    assert "tr::py::mod((a + b), m, tr_divisor" in cxx(k.bench.fib_mod, "int, int")
