"""Lowering of prange loops: one kernel struct per loop, written once for
every backend, and its launch through tr::par (runtime_cpp/transpile_rt/backend/).

    for i in prange(n):          struct tr_prange_f_1 {             // at namespace scope
        y[i] = a * x[i]              tr::par::arg_t<Array<..>> v_x;   // shared arrays (device views on GPUs)
        s += y[i]                    double v_a;                      // shared scalars by value
                                     TR_HD void operator()(int64_t tr_iv, double &v_s) const {
                                         int64_t v_i{};               // the iteration's own variables
                                         v_i = tr_iv; ... }
                                 };
                                 // in the function:
                                 tr::par::Staging st; st.add(v_x, false); ...; st.upload();
                                 const tr_prange_f_1 k{st.view(v_x), v_a, ...};
                                 tr::par::for_range(k, 0, n, 1, tr::par::reduce<tr::op::add>(v_s));
                                 st.download();

The analysis (passes/parallel.py) decided what is shared, private, reduced
and atomic; this module only spells it.
"""
from __future__ import annotations

from ..diagnostics import PathTypeConflict
from ..hir import nodes as h
from ..hir import types as T
from .model import CExpr, Line
from .names import kind_slot
from .types import ctype

HEADER = "transpile_rt/backend/parallel.hpp"


def parallel_for(fl, s: h.For) -> None:
    """Lowers a prange loop of FunctionLowerer fl as a kernel and its launch."""
    info = fl.tf.parallel[s]
    module = fl.module
    module.include(HEADER)
    index = len(module.kernels) + 1
    name = f"tr_prange_{fl.tf.cxx_name}_{index}"
    var_types = fl.tf.var_types

    start, stop, step = _range_bounds(fl, s.iter)

    # The body, lowered into the kernel's operator() (its own lines and temporaries).
    saved = (fl.lines, fl.depth, fl.pre, fl.last_line, fl.loop_flags, fl.kernel)
    fl.lines, fl.depth, fl.pre, fl.last_line, fl.loop_flags, fl.kernel = [], 2, [], None, [], info
    try:
        fl.bind_loop_target(s.target, "tr_iv", fl.tf.loops[s])
        fl.block(s.body)
        body = fl.lines
    finally:
        fl.lines, fl.depth, fl.pre, fl.last_line, fl.loop_flags, fl.kernel = saved

    members = []
    for n in info.shared:
        t = var_types[n]
        members.append(f"tr::par::arg_t<{ctype(t)}> {fl.var(n)};" if isinstance(t, T.Array)
                       else f"{ctype(t)} {fl.var(n)};")
    tagged = fl.tf.path_types.tagged if fl.tf.path_types else ()
    shared_flags = [n for n in info.shared if n in tagged]  # a Python number or a NumPy scalar by path
    members += [f"bool {fl.weak_flag_of(n)};" for n in shared_flags]
    for n in info.array_reductions:  # set by the runtime when this thread updates its own copy
        members.append(f"bool {private_flag(fl, n)} = false;")
    params = ["int64_t tr_iv"] + [f"{ctype(var_types[n])} &{fl.var(n)}" for n in info.reductions]
    loc = s.loc
    where = f"{_short(loc.filename)}:{loc.line}"
    text = [f"// prange body at {where} ({fl.fn.qualname}): one iteration per call, the same code for every "
            "backend",
            f"struct {name} {{"]
    text += [f"    {m}" for m in members]
    text.append(f"    TR_HD void operator()({', '.join(params)}) const {{")
    text += [f"        {ctype(var_types[n])} {fl.var(n)}{{}};" for n in info.private]
    text += [f"        bool {fl.weak_flag_of(n)} = false;" for n in info.private if n in tagged]
    text += ["    " * line.indent + line.text for line in body]
    text += ["    }", "};"]
    module.kernels.append("\n".join(text))

    # The launch, in the function.
    st, k = fl.tmp("st"), fl.tmp("k")
    reductions = "".join(f", tr::par::reduce<{functor}>({fl.var(n)})" for n, functor in info.reductions.items())
    fl.emit("{")
    fl.depth += 1
    fl.emit(f"tr::par::Staging {st};")
    for n in info.shared:
        if isinstance(var_types[n], T.Array):
            written = "true" if n in info.written_arrays else "false"
            fl.emit(f"{st}.add({fl.var(n)}, {written});")
    fl.emit(f"{st}.upload();")
    inits = [f"{st}.view({fl.var(n)})" for n in info.shared] + [fl.weak_flag_of(n) for n in shared_flags]
    fl.emit(f"const {name} {k}{{{', '.join(inits)}}};")
    kernel = k
    if info.array_reductions:
        arrays = ", ".join(f"tr::par::reduce_array<{functor}>(&{name}::{fl.var(n)}, &{name}::{private_flag(fl, n)})"
                           for n, functor in info.array_reductions.items())
        kernel = f"tr::par::with_arrays({k}, {arrays})"
    fl.emit(f"tr::par::for_range({kernel}, {start}, {stop}, {step}{reductions});")
    fl.emit(f"{st}.download();")
    _reduced_weak_flags(fl, s, info, start, stop, step)
    fl.depth -= 1
    fl.emit("}")
    if s.orelse:  # no break in a prange loop: the else block always runs
        fl.block(s.orelse)


def _reduced_weak_flags(fl, s: h.For, info, start, stop, step) -> None:
    """A reduction variable that is a Python number or a NumPy scalar by path
    (passes/paths.py): after an iteration it has the type its updates give,
    the same in every iteration (the kernel itself keeps no flag)."""
    path_types = fl.tf.path_types
    ran = f"({step} > 0 ? {start} < {stop} : {start} > {stop})"
    for n in sorted(info.reductions):
        if path_types and n in path_types.boxed:  # int-or-float by path: the updates give the variable's type
            if any(fl.tf.ops[u].result != fl.tf.var_types[n] for u in _updates(s.body, n)):
                raise PathTypeConflict(f"'{n}' holds another type than its updates give after this prange loop",
                                       s.loc, "give the variable one type on every path (e.g. 0.0, not 0)")
            fl.emit(f"if ({ran}) {kind_slot(fl.var(n))} = -1;")
        if not path_types or n not in path_types.tagged:
            continue
        updates = list(_updates(s.body, n))
        weak = {fl.tf.ops[u].result.weak for u in updates}
        if len(weak) != 1 or any(u.target in path_types.dynamic for u in updates):
            raise PathTypeConflict(f"'{n}' is a Python number after some updates of this prange loop and a NumPy "
                                   "scalar after others", s.loc, "give the updates one type")
        fl.emit(f"if ({ran}) {fl.weak_flag_of(n)} = {fl.weak_flag_of(n)} && {'true' if weak.pop() else 'false'};")


def _updates(stmts, name):
    for st in stmts:
        if isinstance(st, h.AugAssign) and isinstance(st.target, h.Name) and st.target.id == name:
            yield st
        for sub in ("body", "orelse"):
            yield from _updates(getattr(st, sub, ()), name)


def _range_bounds(fl, call: h.Call):
    args = [fl.hoist(f"int64_t({fl.expr(a).code})") for a in call.args]
    if len(args) == 1:
        return "0", args[0], "1"
    if len(args) == 2:
        return args[0], args[1], "1"
    return tuple(args)


def atomic_update(fl, s: h.AugAssign, arr: str, idx: str, ops, info, value: CExpr, vt) -> None:
    """h[k] op= v where iterations may share k: one atomic read-modify-write."""
    v = fl.hoist(value.code)
    ref = fl.tmp("ref")
    elem = fl.elem(info.result.dtype)
    expr = fl.binop(s.op, ops, CExpr("tr_cur"), info.result, CExpr(v), vt)
    fl.emit(f"{{ auto &{ref} = tr::at({arr}{', ' if idx else ''}{idx});")
    root = s.target.value.id if isinstance(s.target.value, h.Name) else None
    if root in fl.kernel.array_reductions:  # atomic unless this thread has its own copy
        call = f"tr::par::update({private_flag(fl, root)}, {ref}, "
    else:
        call = f"tr::par::atomic_update({ref}, "
    fl.lines.append(Line(fl.depth + 1, f"{call}[&](const {elem} &tr_cur) {{ "
                                       f"return tr::cast<{elem}>({expr.code}); }}); }}"))


def private_flag(fl, name: str) -> str:
    return f"tr_private_{fl.var(name)}"


def _short(path: str) -> str:
    return path.rsplit("/", 1)[-1]


BUILDS = {
    "cpu": "g++ -fopenmp (OpenMP threads)",
    "cuda": "nvcc -x cu -DTRANSPILE_BACKEND_CUDA (prange loops are CUDA kernels)",
    "ascend": "the CANN toolkit's bisheng with -DTRANSPILE_BACKEND_ASCEND (prange loops are Ascend C kernels)",
}


def backend_note(backend: str) -> str:
    return (f"// backend='{backend}': built with {BUILDS[backend]}; transpile_rt/backend/parallel.hpp picks the "
            "device parts by TRANSPILE_BACKEND_CUDA / TRANSPILE_BACKEND_ASCEND / neither (CPU)")
