"""Lowering: a typed Program -> the render model (cxx.Module).

Every Python statement becomes a block of C++ under a comment naming its
file, line and source, so `transpile show` reads side by side."""
from __future__ import annotations

import json
import re

import numpy as np

from ..hir import nodes as h
from ..hir import types as T
from ..passes import recursion
from ..passes.infer import Program, TypedFunction
from ..passes import unbound
from ..passes.live_globals import reads as live_reads
from .lower_expr import ExprLowerer
from .lower_lists import ListLowering, conv
from .lower_dicts import DictLowering
from .lower_lambdas import LambdaLowering
from .lower_globals import GlobalsLowering
from .model import CExpr, CxxConstant, CxxEntry, CxxFunction, CxxModule, Line
from .names import alt_slot, bound_flag, kind_slot, local_name, symbol, weak_flag
from .stores import checked, needs_check
from .types import ctype, literal

# What evaluates an array expression in generated code (runtime_cpp's expr.hpp):
# tr::assign / tr::eval / tr::copy_as, and the lazy nodes that O1 passes on.
_ARRAY_EVAL = re.compile(r"\btr::(?:assign|eval|copy_as)\b|\btr::(?:binary|unary|select)<")
PARALLEL_EXPR_DEFINE = "#define TR_PARALLEL_EXPR 1"

BASE_HEADERS = ["transpile_rt/array.hpp", "transpile_rt/expr.hpp", "transpile_rt/index.hpp",
                "transpile_rt/ops/operators.hpp", "transpile_rt/ops/python.hpp"]


RECURSION_HEADER = "transpile_rt/recursion.hpp"
INTERRUPT_HEADER = "transpile_rt/interrupt.hpp"


class ModuleLowerer:
    def __init__(self, program: Program, options):
        self.program = program
        self.options = options
        self.includes: list[str] = list(BASE_HEADERS)
        self.constants: list[CxxConstant] = []
        self._const_names: dict[int, str] = {}
        self.regions: list[dict] = []  # fallback regions: what the Python side needs to build them
        self.kernels: list[str] = []  # prange loop bodies (cxx/lower_parallel.py), before the functions
        self.fallback_report: list[dict] = []

    def include(self, header: str) -> None:
        if header not in self.includes:
            self.includes.append(header)

    def array_constant(self, value: np.ndarray, t: T.Array) -> str:
        key = id(value)
        if key in self._const_names:
            return self._const_names[key]
        name = f"tr_const_{len(self._const_names)}"
        self._const_names[key] = name
        flat = np.ascontiguousarray(value).ravel()
        vals = ", ".join(literal(v.item() if hasattr(v, "item") else v, T.Scalar(t.dtype)) for v in flat) or "0"
        shape = ", ".join(str(s) for s in value.shape)
        strides, s = [], 1
        for dim in reversed(value.shape):
            strides.insert(0, s)
            s *= max(dim, 1)
        elem = ctype(T.Scalar(t.dtype))
        decl = (f"static const {elem} {name}_data[] = {{{vals}}};\n"
                f"static {ctype(t)} {name}() {{\n"
                f"    {ctype(t)} a;\n"
                f"    a.data = const_cast<{elem} *>({name}_data);\n"
                + "".join(f"    a.shape[{k}] = {d}; a.strides[{k}] = {st};\n"
                          for k, (d, st) in enumerate(zip(value.shape, strides)))
                + "    return a;\n}")
        _ = shape
        self.constants.append(CxxConstant(decl))
        return name

    def lower(self, entry: TypedFunction, entry_symbol: str, construct=None) -> CxxModule:
        from . import lower_classes

        if any(tf.fallbacks or live_reads(tf) for tf in self.program.order):
            self.include("transpile_rt/fallback.hpp")
        self.layouts = lower_classes.program_layouts(self.program, [construct] if construct else [])
        if self.layouts:
            self.include(lower_classes.OBJECT_HEADER)
        from .lower_optional import uses_optional

        if uses_optional(self.program):
            self.include("transpile_rt/optional.hpp")
        self.recursive = recursion.recursive(self.program)
        if self.recursive:
            self.include(RECURSION_HEADER)
        functions = [FunctionLowerer(self, tf).lower() for tf in self.program.order]
        defines = [f"#define TR_BOUNDSCHECK {int(self.options.boundscheck)}",
                   f"#define TR_UNIT_PATHS {int(self.options.jit_level == 'O1')}"]
        if self.parallel_exprs(functions):
            defines.append(PARALLEL_EXPR_DEFINE)
        title = f"{entry.hir.qualname}({', '.join(str(t) for t in entry.arg_types)}) -> {entry.return_type}"
        mod = CxxModule(title, defines, self.includes, self.constants, functions, [])
        mod.types = [lower_classes.struct_decl(t) for t in self.layouts]
        if construct is not None:  # the entry makes the instance, then runs __init__ on it
            params = [f"{ctype(t)} {local_name(n)}" for n, t in zip(entry.params[1:], entry.arg_types[1:])]
            code = lower_classes.construct_code(self, construct, entry.cxx_name,
                                                [local_name(n) for n in entry.params[1:]])
            maker = f"construct_{symbol(construct.cls.name)}"
            functions.append(CxxFunction(maker, ctype(construct), params, [], [Line(1, f"return {code};")],
                                         f"{construct.cls.name}(...) -> {construct}"))
            entry = TypedFunction(entry.hir, entry.pyfunc, entry.arg_types[1:], maker, return_type=construct,
                                  params=entry.params[1:])
        mod.entries.append(self.entry(entry, entry_symbol))
        mod.kernels = self.kernels
        if self.kernels or self.options.backend != "cpu":
            from .lower_parallel import backend_note

            defines.insert(0, backend_note(self.options.backend))
        if self.regions and any(h in self.includes for h in ("transpile_rt/str.hpp", "transpile_rt/dict.hpp")):
            self.include("transpile_rt/topy.hpp")  # strs/dicts boxed for fallback code
        if self.recursive:  # the loader sets it to Python's recursion limit
            mod.footer.append("TR_RECURSION_LIMIT_DEFINITION")
        if INTERRUPT_HEADER in self.includes:  # the loader points it at the bridge's Ctrl-C flag
            mod.footer.append("TR_INTERRUPT_DEFINITION")
        if self.regions or self.layouts or getattr(self, "needs_host", False):
            mod.footer.append("// Receives the bridge's services and this module's fallback regions.\n"
                              "TR_FALLBACK_MODULE_INIT")
        return mod

    def parallel_exprs(self, functions: list[CxxFunction]) -> bool:
        """Whether the module's array expressions may be split over threads
        (backend="cpu" at O1: the toolchain adds -fopenmp for this define) or
        run as GPU kernels (backend="cuda", any level).  Only modules whose code
        evaluates one get it, so the others keep their compile time; Ascend
        keeps array expressions on the host."""
        backend, level = self.options.backend, self.options.jit_level
        if not (backend == "cuda" or (backend == "cpu" and level == "O1")):
            return False
        return any(_ARRAY_EVAL.search(line.text) for f in functions for line in f.body)

    def entry(self, tf: TypedFunction, sym: str) -> CxxEntry:
        unpack, call_args = [], []
        slot = 0
        for name, t in zip(tf.params, tf.arg_types):
            if isinstance(t, T.DeviceArray):  # checked and its stream waited for (backend/cuda.cuh)
                self.include("transpile_rt/backend/parallel.hpp")
                code, slot = f'tr::par::device_array_arg<{ctype(t.scalar)}, {t.ndim}>(args[{slot}], "{name}")', slot + 1
            else:
                code, slot = _unpack(t, slot)
            var = f"a_{symbol(name)}"
            unpack.append(f"{ctype(t)} {var} = {code};")
            call_args.append(var)
            if T.has_list(t):  # written back into the caller's Python lists, also when the call raises
                self.include("transpile_rt/list.hpp")
                unpack.append(f"auto tr_sync_{var} = tr::on_exit([&] {{ {conv(t)}::sync({var}); }});")
        if T.has_list(tf.return_type):
            self.include("transpile_rt/list.hpp")
        stores = []
        items = tf.path_types.weak_items if tf.path_types else ()
        if tf.weak_returns:  # a flag slot: box as a Python number (true) or a NumPy scalar
            stores.append("*static_cast<uint8_t *>(results[0]) = tr::ret_weak();")
            _store(tf.return_type, "r", [1], stores)
        elif items:  # a flag slot before each item that carries one (T.MaybeWeak)
            counter = [0]
            for i, item in enumerate(tf.return_type.items):
                if i in items:
                    stores.append(f"*static_cast<uint8_t *>(results[{counter[0]}]) = (tr::ret_weak_bits() >> {i}) & 1;")
                    counter[0] += 1
                _store(item, f"std::get<{i}>(r)", counter, stores)
        else:
            _store(tf.return_type, "r", [0], stores)
        from .lower_dicts import H_TOPY, has

        if has(tf.return_type, (T.Dict, T.Set)):
            self.include(H_TOPY)
            self.needs_host = True
        return CxxEntry(sym, tf.cxx_name, unpack, call_args, stores)


def _unpack(t: T.Type, slot: int):
    if isinstance(t, T.Instance):
        from .lower_classes import struct_name

        return f"tr::object_arg<{struct_name(t)}>(args[{slot}])", slot + 1
    if isinstance(t, T.Scalar):
        return f"tr::scalar_arg<{ctype(t)}>(args[{slot}])", slot + 1
    if t == T.STR:
        return f"tr::str_arg(args[{slot}])", slot + 1
    if isinstance(t, T.List):
        return f"tr::cv::from_arg<{conv(t)}>(args[{slot}])", slot + 1
    if isinstance(t, T.Array):
        layout = "tr::C" if t.layout == "C" else "tr::A"
        return f"tr::from_arg<{ctype(t.scalar)}, {t.ndim}, {layout}>(args[{slot}])", slot + 1
    if isinstance(t, T.Tuple):
        parts = []
        for item in t.items:
            code, slot = _unpack(item, slot)
            parts.append(code)
        return f"{ctype(t)}({', '.join(parts)})", slot
    return "tr::none_t{}", slot


def _store(t: T.Type, expr: str, counter: list, out: list) -> None:
    if isinstance(t, T.Tuple):
        for i, item in enumerate(t.items):
            _store(item, f"std::get<{i}>({expr})", counter, out)
    elif isinstance(t, T.List):
        out.append(f"tr::cv::to_result<{conv(t)}>(results[{counter[0]}], {expr});")
        counter[0] += 1
    elif isinstance(t, (T.Dict, T.Set)):  # a new Python dict/set, built through the host table
        from .lower_dicts import to_py

        out.append(f"tr::to_result(results[{counter[0]}], {to_py(t, expr)});")
        counter[0] += 1
    elif isinstance(t, T.Optional):  # a flag slot, then the value's slots (filled when it is not None)
        from .lower_optional import store_result

        store_result(t, expr, counter, out, _store)
    elif t != T.NONE:
        out.append(f"tr::to_result(results[{counter[0]}], {expr});")
        counter[0] += 1


class FunctionLowerer(GlobalsLowering, LambdaLowering, DictLowering, ListLowering, ExprLowerer):
    def __init__(self, module: ModuleLowerer, tf: TypedFunction):
        self.module = module
        self.program = module.program
        self.tf = tf
        self.fn = tf.hir
        self.o1 = module.options.jit_level == "O1"
        self.track_lines = not self.o1
        self.lines: list[Line] = []
        self.pre: list[str] = []
        self.depth = 1
        self.tmp_counter = 0
        self.loop_flags: list = []  # per enclosing loop: name of its "broke" flag or None
        self.last_line = None
        self.kernel = None  # the prange loop (passes.parallel.ParallelLoop) whose body is being lowered
        # reads that may find their variable unassigned (UnboundLocalError), and the variables flagged
        self.unbound = unbound.analyse(self.fn, set(tf.var_types), tf.fallbacks)

    # ---- helpers used by library entries ------------------------------------

    def ctype(self, t):
        return ctype(t)

    def elem(self, dtype: str) -> str:
        return ctype(T.Scalar(dtype))

    def lazy(self, code: str, header: str | None = None) -> CExpr:
        if header:
            self.module.include(header)
        return CExpr(code, lazy=True) if self.o1 else CExpr(f"tr::eval({code})")

    def with_header(self, x: CExpr, header: str) -> CExpr:
        self.module.include(header)
        return x

    def ev(self, x: CExpr) -> str:
        return f"tr::eval({x.code})" if x.lazy else x.code

    def tmp(self, prefix="t") -> str:
        self.tmp_counter += 1
        return f"tr_{prefix}{self.tmp_counter}"

    def hoist(self, code: str, t=None) -> str:
        """Evaluates code once, before the statement being lowered."""
        if code.isidentifier():
            return code
        name = self.tmp()
        self.pre.append(f"auto {name} = {code};")
        return name

    def var(self, name: str) -> str:
        return local_name(name)

    # ---- emission -------------------------------------------------------------

    def emit(self, text: str) -> None:
        for p in self.pre:
            self.lines.append(Line(self.depth, p))
        self.pre = []
        self.lines.append(Line(self.depth, text))

    def comment(self, stmt) -> None:
        loc = stmt.loc
        if loc.line == self.last_line:
            return
        self.last_line = loc.line
        self.lines.append(Line(self.depth, f"// {_short(loc.filename)}:{loc.line}  {loc.source_line.strip()}"))
        if self.track_lines:
            self.lines.append(Line(self.depth, f"TR_KERNEL_LINE({loc.line});" if self.kernel is not None
                                   else f"tr::current_line() = {loc.line};"))

    def lower(self) -> CxxFunction:
        tf = self.tf
        from ..passes.infer import _assigned_names

        assigned = _assigned_names(self.fn.body, set(), self.fn)
        # instances are passed by reference: no counting on each method call
        params = [f"const {ctype(t)} &{self.var(n)}" if isinstance(t, T.Instance) and n not in assigned
                  else f"{ctype(t)} {self.var(n)}" for n, t in zip(tf.params, tf.arg_types)]
        locals_ = [f"{ctype(t)} {self.var(n)}{{}};" for n, t in sorted(tf.var_types.items())
                   if n not in tf.params]
        from .lower_optional import widened_params

        widened_params(self, params, locals_)
        tagged = tf.path_types.tagged if tf.path_types else ()
        for n in sorted(tagged):  # which Python type the value has now (passes/paths.py)
            weak = n in tf.params and tf.arg_types[tf.params.index(n)].weak
            locals_.append(f"bool {weak_flag(self.var(n))} = {'true' if weak else 'false'};")
        for n, alts in sorted(tf.path_types.boxed.items() if tf.path_types else ()):
            locals_.append(f"int {kind_slot(self.var(n))} = -1;")
            locals_ += [f"{ctype(t)} {alt_slot(self.var(n), i)}{{}};" for i, t in enumerate(alts)]
        locals_ += [f"bool {bound_flag(self.var(n))} = false;" for n in sorted(self.unbound.names)]
        if _polls(self.fn.body):  # iterations since Ctrl-C was last looked for (interrupt.hpp)
            locals_.append("unsigned tr_polls = 0;")
        self.dict_headers()
        if tf.cxx_name in self.module.recursive:  # RecursionError rather than a stack overflow
            self.emit("tr::RecursionGuard tr_recursion_guard;")
        self.read_live_globals()
        self.block(self.fn.body)
        if tf.return_type == T.NONE or isinstance(tf.return_type, T.Optional):
            self.emit("return tr::none_t{};")
        elif not (self.fn.body and isinstance(self.fn.body[-1], h.Return)):
            self.emit('tr::raise(TR_ERR_RUNTIME, "%s", "compiled function reached its end without returning a '
                      'value (Python would return None)");')
        sig = ", ".join(f"{n}: {t}" for n, t in zip(tf.params, tf.arg_types))
        comment = f"{self.fn.qualname}({sig}) -> {tf.return_type}    [{_short(self.fn.filename)}:{self.fn.loc.line}]"
        return CxxFunction(tf.cxx_name, ctype(tf.return_type), params, locals_, self.lines, comment)

    def mark_bound(self, name) -> None:
        """After an assignment: the variable holds a value (passes/unbound.py)."""
        if name in self.unbound.names and self.kernel is None:  # prange bodies: their variables are private
            self.emit(f"{bound_flag(self.var(name))} = true;")

    def check_bound(self, node) -> str | None:
        """C++ raising UnboundLocalError when this read finds its variable unassigned."""
        if node not in self.unbound.reads:
            return None
        self.module.include("transpile_rt/unbound.hpp")
        return f'tr::check_bound({bound_flag(self.var(node.id))}, "{node.id}")'

    def block(self, stmts) -> None:
        i = 0
        while i < len(stmts):
            if stmts[i] in self.tf.fallbacks:
                j = i
                while j < len(stmts) and stmts[j] in self.tf.fallbacks:
                    j += 1
                self.region([self.tf.fallbacks[s] for s in stmts[i:j]])
                for name in sorted(set().union(*(self.tf.fallbacks[s].writes for s in stmts[i:j]))):
                    self.mark_bound(name)
                i = j
                continue
            s = stmts[i]
            self.comment(s)
            getattr(self, "s_" + type(s).__name__)(s)
            i += 1

    def region(self, infos) -> None:
        """Neighbouring statements that run as Python: one callback."""
        index = len(self.module.regions)
        for info in infos:
            self.last_line = None
            self.comment(info.stmt)
            if info.quiet:
                self.lines.append(Line(self.depth, "//   runs as Python: makes the function object (calls to it "
                                                   "are compiled)"))
                continue
            self.lines.append(Line(self.depth, f"//   runs as Python (JIT Fallback): {info.reason.splitlines()[0]}"))
            self.module.fallback_report.append({
                "file": info.stmt.loc.filename, "line": info.stmt.loc.line,
                "source": info.stmt.loc.source_line.strip(), "reason": info.reason.splitlines()[0],
                "construct": info.construct, "function": self.fn.qualname})
        reads, writes, assigned = set(), set(), set()
        for info in infos:  # a name assigned before it is read inside the region needs no input
            reads |= info.reads - assigned
            writes |= info.writes
            assigned |= info.definite
        var_types = self.tf.var_types
        needed = reads | (writes - assigned)  # conditionally written names keep their old value
        ins = sorted(n for n in needed if n in var_types)
        outs = sorted(n for n in writes if n in var_types)
        returns = infos[-1].returns
        boxes = []
        for n in ins:
            t = var_types[n]
            weak = ", true" if isinstance(t, T.Scalar) and t.weak else ""
            if isinstance(t, (T.Dict, T.Set)):  # fallback code reads a copy (a new Python dict/set)
                boxes.append(f"tr::box({self.py_object(t, self.var(n))})")
                continue
            boxes.append(f"tr::box({self.var(n)}{weak})")
        # inputs that may be unassigned: the region deletes them first, so Python raises
        # UnboundLocalError if (and where) the statement reads one (passes/unbound.py)
        unbound = sorted({n for info in infos for s_, n in self.unbound.region_reads if s_ is info.stmt} & set(ins))
        boxes += [f"tr::box({bound_flag(self.var(n))}, true)" for n in unbound]
        targets = [self.var(n) for n in outs]
        ret = None
        if returns:
            ret = self.tmp("ret")
            self.emit(f"{ctype(self.tf.return_type)} {ret}{{}};")
            targets.append(ret)
        self.emit("{")
        self.depth += 1
        if boxes:
            self.emit(f"tr_value tr_in[] = {{{', '.join(boxes)}}};")
        self.emit(f"tr::call_region({index}, std::tie({', '.join(targets)}), {'tr_in' if boxes else 'nullptr'}, "
                  f"{len(boxes)});")
        self.depth -= 1
        self.emit("}")
        if ret:
            self.emit(f"return {ret};")
        else:
            self.read_live_globals()  # Python code may have rebound them
        self.module.regions.append({
            "module": self.tf.pyfunc.__module__, "qualname": self.tf.pyfunc.__qualname__,
            "filename": self.fn.filename, "name": self.fn.name,
            "statements": [[i.stmt.loc.line, i.stmt.loc.col, i.stmt.loc.end_line, i.stmt.loc.end_col]
                           for i in infos],
            "returns": [i.stmt.loc.line for i in infos if i.returns],
            "ins": ins,
            "unbound": unbound,  # each followed in the inputs by whether it is assigned
            "outs": [[n, str(var_types[n]), str(self.declared(infos, n))] for n in outs]
            + ([["__tr_return", str(self.tf.return_type), str(infos[-1].declared)]] if returns else []),
        })

    @staticmethod
    def declared(infos, name):
        for info in reversed(infos):
            if name in info.writes and info.declared is not None:
                return info.declared
        return None

    def nested(self, header: str, body, footer: str = "}") -> None:
        self.emit(header)
        self.depth += 1
        self.block(body)
        self.depth -= 1
        self.lines.append(Line(self.depth, footer))

    # ---- statements ------------------------------------------------------------

    def s_Pass(self, s):
        pass

    def s_ExprStmt(self, s):
        if isinstance(s.value, h.Const):
            return
        self.emit(f"(void)({self.expr(s.value).code});")

    def s_Assign(self, s: h.Assign):
        if isinstance(s.value, h.Lambda):
            return self.local_lambda(s)
        value = self.expr(s.value)
        vt = self.type_of(s.value)
        if len(s.targets) == 1 and isinstance(s.targets[0], h.Name):
            dynamic = self.tf.path_types and s.targets[0] in self.tf.path_types.dynamic \
                and s.targets[0].id in self.tf.path_types.tagged  # a flag kept only where it is read
            weak = None
            if dynamic and isinstance(s.value, h.Call) and s.value not in self.tf.path_types.weak_calls:
                # the callee's flag, read right after the call
                value = CExpr(self.hoist(value.code))
                weak = self.hoist(self.call_flag(s.value, lambda f: "tr::ret_weak()" if f.weak_returns
                                                 else ("true" if f.return_type.weak else "false")))
            elif dynamic:
                weak = self.hoist(self.weak_code(s.value))
            self.assign_name(s.targets[0].id, value, vt, weak)
            return
        if len(s.targets) == 1 and isinstance(s.targets[0], h.Subscript):
            # tr::assign copes with overlap, so the value stays lazy (fused).
            self.store_subscript(s.targets[0], value, vt)
            return
        src = self.hoist(self.ev(value) if isinstance(vt, T.Array) else value.code)
        dynamic = self.tf.path_types.dynamic if self.tf.path_types else {}
        if len(s.targets) == 1 and isinstance(s.targets[0], h.TupleExpr) and any(
                e in dynamic for e in s.targets[0].elts):  # items of a callee's tuple that carry flags
            bits = self.hoist("tr::ret_weak_bits()")
            for i, (sub, it) in enumerate(zip(s.targets[0].elts, vt.items)):
                if sub in dynamic:
                    weak = self.call_flag(s.value, lambda f, i=i: f"((({bits}) >> {i}) & 1)" if f.path_types and i in
                                          f.path_types.weak_items else ("true" if f.return_type.items[i].weak else "false"))
                    self.assign_name(sub.id, CExpr(f"std::get<{i}>({src})"), it, weak)
                else:
                    self.assign_target(sub, CExpr(f"std::get<{i}>({src})"), it)
            return
        for target in s.targets:
            self.assign_target(target, CExpr(src), vt)

    def assign_name(self, name, value: CExpr, vt, weak: str | None = None):
        dst_t = self.tf.var_types[name]
        alts = self.tf.path_types.boxed.get(name) if self.tf.path_types and not self.kernel else None
        if alts:  # the value is kept in the slot of its own type too (passes/paths.py; kernels: lower_parallel)
            kind = alts.index(vt) if vt in alts else -1
            if kind >= 0:
                slot = alt_slot(self.var(name), kind)
                self.emit(f"{slot} = {value.code};")
                value = CExpr(slot)
            self.emit(f"{kind_slot(self.var(name))} = {kind};")
        self.emit(f"{self.var(name)} = {self.convert(value, vt, dst_t)};")
        self.mark_bound(name)
        self.set_weak_flag(name, vt, weak)

    def set_weak_flag(self, name, vt, weak: str | None = None):
        """weak: C++ computing the flag where it is known at run time only.
        A prange kernel keeps none: its reductions' flags are set after the
        loop (lower_parallel.py)."""
        if self.tf.path_types and name in self.tf.path_types.tagged and not self.kernel:
            self.emit(f"{self.weak_flag_of(name)} = {weak or ('true' if vt.weak else 'false')};")

    def call_flag(self, call, flag_of) -> str:
        """Whether the result of a compiled call is a Python number: flag_of(callee)
        for the callee that ran (per-path typing may pick one by an argument's flag)."""
        main = self.program.functions[self.tf.calls[call][1]]
        if call not in self.tf.path_types.dispatch:
            return flag_of(main)
        arg, alt_key = self.tf.path_types.dispatch[call]
        alt, flag = flag_of(self.program.functions[alt_key]), flag_of(main)
        return flag if alt == flag else f"({self.weak_code(arg)} ? {alt} : {flag})"  # the same bit either way

    def x_Call(self, node: h.Call) -> CExpr:
        dispatch = self.tf.path_types.dispatch if self.tf.path_types else {}
        if node not in dispatch:
            return super().x_Call(node)
        # one specialization per type of the argument that is a Python float or an np.float64 by path
        # (the same C++ signature): the call goes to the one for the type the argument has
        arg, alt_key = dispatch[node]
        _, key, sources = self.tf.calls[node]
        target = f"({self.weak_code(arg)} ? {self.program.functions[alt_key].cxx_name} : " \
                 f"{self.program.functions[key].cxx_name})"
        return self.call_jit(node, key, sources, target)

    def x_BinOp(self, node: h.BinOp) -> CExpr:
        flag_ops = self.tf.path_types.flag_ops if self.tf.path_types else {}
        if node not in flag_ops:
            return super().x_BinOp(node)
        # /, //, %, ** of values that are Python floats or np.float64s by path:
        # CPython's rules when both are Python floats, NumPy's otherwise (passes/paths.py)
        a, b = self.expr(node.left), self.expr(node.right)
        at, bt = self.type_of(node.left), self.type_of(node.right)
        python = self.binop(node.op, flag_ops[node], a, T.Scalar(at.dtype, weak=True), b, T.Scalar(bt.dtype, weak=True))
        numpy = self.binop(node.op, self.tf.ops[node], a, at, b, bt)
        return CExpr(f"({self.weak_code(node.left)} && {self.weak_code(node.right)} ? {python.code} : {numpy.code})")

    def weak_code(self, node) -> str:
        """C++ for whether node's value is a Python number (passes/paths.py):
        a flag, or `and` of its operands' for +, -, * of Python floats and
        np.float64s (the result is a Python float only if both are)."""
        path_types = self.tf.path_types
        if isinstance(node, h.BinOp) and node in path_types.weak_exprs:
            return f"({self.weak_code(node.left)} && {self.weak_code(node.right)})"
        if isinstance(node, h.Compare) and node in path_types.weak_exprs:  # bool, or np.bool_ if either is NumPy's
            return f"({self.weak_code(node.left)} && {self.weak_code(node.comparators[0])})"
        if isinstance(node, h.Call) and path_types.weak_calls.get(node) == "abs":  # the argument's own type
            return self.weak_code(node.args[0])
        if isinstance(node, h.Call) and node in path_types.weak_calls:  # max/min return the argument they pick
            a, b = node.args
            op = ">" if path_types.weak_calls[node] == "max" else "<"  # the first unless the second is beyond it
            return f"(({self.expr(b).code}) {op} ({self.expr(a).code}) ? {self.weak_code(b)} : {self.weak_code(a)})"
        if isinstance(node, h.Name) and node.id in path_types.tagged:
            return self.weak_flag_of(node.id)
        t = self.type_of(node)
        return "true" if isinstance(t, T.Scalar) and t.weak else "false"

    def weak_flag_of(self, name) -> str:
        return weak_flag(self.var(name))

    def assign_target(self, target, value: CExpr, vt):
        if isinstance(target, h.Name):
            self.assign_name(target.id, value, vt)
        elif isinstance(target, h.Attribute):
            self.emit(f"{self.field_ref(target)} = tr::kept({self.convert(value, vt, self.type_of(target))});")
        elif isinstance(target, h.TupleExpr):
            src = self.hoist(value.code)
            for i, (sub, it) in enumerate(zip(target.elts, vt.items)):
                self.assign_target(sub, CExpr(f"std::get<{i}>({src})"), it)
        else:
            self.store_subscript(target, value, vt)

    def store_subscript(self, target: h.Subscript, value: CExpr, vt):
        info = self.tf.subscripts[target]
        if info.kind == "dict":
            return self.dict_store(target, value, vt)
        if info.kind.startswith("list_"):
            return self.list_store(target, value, vt, info)
        if info.readonly_write:
            self.emit("tr::readonly_error();")
            return
        arr = self.ev(self.expr(target.value))
        dst = info.result.dtype if isinstance(info.result, (T.Scalar, T.Array)) else None
        if dst and needs_check(vt, dst, value.code, info.kind):  # a number NumPy may refuse (cxx/stores.py)
            if info.kind == "element":  # NumPy checks the index first
                idx = ", ".join(self.index_code(i, p) for i, p in zip(target.index, info.parts))
                ref, v = self.tmp("ref"), self.hoist(value.code)
                self.emit(f"{{ auto &{ref} = tr::at({arr}{', ' if idx else ''}{idx}); "
                          f"{ref} = {checked(self, v, vt, dst)}; }}")
                return
            value = CExpr(self.hoist(checked(self, value.code, vt, dst)))
        if info.kind == "mask":
            self.emit(f"tr::mask_set({arr}, {self.ev(self.expr(target.index[0]))}, {value.code});")
            return
        idx = ", ".join(self.index_code(i, p) for i, p in zip(target.index, info.parts))
        if info.kind == "fancy":
            self.module.include("transpile_rt/fancy.hpp")
            self.emit(f"tr::fancy_set({arr}, {value.code}, {idx});")
            return
        if info.kind == "element":
            self.emit(f"tr::at({arr}{', ' if idx else ''}{idx}) = tr::cast<{self.elem(info.result.dtype)}>({value.code});")
        else:
            self.emit(f"tr::assign(tr::view<{ctype(info.result)}>({arr}, {idx}), {value.code});")

    def s_AugAssign(self, s: h.AugAssign):
        ops = self.tf.ops[s]
        if self.is_dict_augassign(s):
            return self.dict_augassign(s)
        if isinstance(ops, tuple) and ops and ops[0] == "list":
            return self.list_augassign(s)
        target = s.target
        tt = self.type_of(target)
        vt = self.type_of(s.value)
        value = self.expr(s.value)
        if isinstance(target, (h.Name, h.Attribute)):
            check = self.check_bound(target) if isinstance(target, h.Name) else None
            if check:  # v += 1 reads v first
                self.emit(f"{check};")
            name = self.var(target.id) if isinstance(target, h.Name) else self.field_ref(target)
            cur, cur_t = CExpr(name), tt
            if isinstance(target, h.Name) and isinstance(self.tf.var_types[target.id], T.Optional):
                from .lower_optional import coerced  # checked: None += 1 raises CPython's TypeError

                cur, tt = coerced(self, target, cur) or cur, self.tf.var_types[target.id]
            if isinstance(cur_t, T.Array):
                expr = self.binop(s.op, ops, cur, cur_t, value, vt)
                self.emit(f"tr::assign({cur.code}, {expr.code});")
            else:
                expr = self.binop(s.op, ops, cur, cur_t, value, vt)
                if isinstance(target, h.Name):
                    weak = None
                    if self.tf.path_types and target in self.tf.path_types.dynamic \
                            and target.id in self.tf.path_types.tagged:
                        weak = self.hoist(f"({self.weak_code(target)} && {self.weak_code(s.value)})")
                    self.assign_name(target.id, expr, ops.result, weak)
                else:
                    self.emit(f"{name} = {self.convert(expr, ops.result, tt)};")
            return
        info = self.tf.subscripts[target]
        if info.kind.startswith("list_"):
            return self.list_aug_item(s, info)
        if info.readonly_write:
            self.emit("tr::readonly_error();")
            return
        arr = self.hoist(self.ev(self.expr(target.value)))
        idx = "" if info.kind == "mask" else ", ".join(self.index_code(i, p) for i, p in zip(target.index, info.parts))
        if info.kind == "element" and self.kernel is not None and s in self.kernel.atomic:
            from .lower_parallel import atomic_update

            atomic_update(self, s, arr, idx, ops, info, value, vt)
        elif info.kind == "element":
            ref = self.tmp("ref")
            self.emit(f"{{ auto &{ref} = tr::at({arr}{', ' if idx else ''}{idx});")
            expr = self.binop(s.op, ops, CExpr(ref), info.result, value, vt)
            dst = info.result.dtype
            stored = checked(self, expr.code, ops.result, dst) if needs_check(ops.result, dst, expr.code, "element") \
                else f"tr::cast<{self.elem(dst)}>({expr.code})"
            self.lines.append(Line(self.depth + 1, f"{ref} = {stored}; }}"))
        elif info.kind == "fancy":
            self.module.include("transpile_rt/fancy.hpp")
            idx = ", ".join(self.hoist(self.index_code(i, p)) if p == "fancy" else self.index_code(i, p)
                            for i, p in zip(target.index, info.parts))
            cur = CExpr(f"tr::fancy_get<{ctype(info.result)}>({arr}, {idx})")
            expr = self.binop(s.op, ops, cur, info.result, value, vt)
            self.emit(f"tr::fancy_set({arr}, {expr.code}, {idx});")
        elif info.kind == "view":
            view = self.hoist(f"tr::view<{ctype(info.result)}>({arr}, {idx})")
            expr = self.binop(s.op, ops, CExpr(view), info.result, value, vt)
            self.emit(f"tr::assign({view}, {expr.code});")
        else:
            mask = self.hoist(self.ev(self.expr(target.index[0])))
            cur = CExpr(f"tr::mask_get({arr}, {mask})")
            expr = self.binop(s.op, ops, cur, info.result, value, vt)
            self.emit(f"tr::mask_set({arr}, {mask}, {expr.code});")

    def s_Return(self, s: h.Return):
        if s.value is None:
            self.emit("return tr::none_t{};")
            return
        value = self.expr(s.value)
        if self.tf.path_types and self.tf.path_types.boxes_returns:
            return self.boxed_return(s, value)
        code = self.convert(value, self.type_of(s.value), self.tf.return_type)
        items = self.tf.path_types.weak_items if self.tf.path_types else ()
        if items and isinstance(s.value, h.TupleExpr):  # which items are Python numbers here
            bits = " | ".join(f"(uint64_t({self.weak_code(s.value.elts[i])}) << {i})" for i in sorted(items))
            self.emit(f"{{ auto tr_ret = {code}; tr::ret_weak_bits() = {bits}; return tr_ret; }}")
            return
        if self.tf.weak_returns:  # which Python type CPython returns here (passes/returns.py)
            from ..passes.returns import site_flag

            flag = site_flag(self, s)
            if flag:
                self.emit(f"{{ auto tr_ret = {code}; {flag} return tr_ret; }}")
                return
        self.emit(f"return {code};")

    def boxed_return(self, s: h.Return, value: CExpr):
        """Return sites of different types: each gives a Python object of its
        own type (passes/paths.py); a tuple is built item by item."""
        from .lower_dicts import H_TOPY

        self.module.include(H_TOPY)
        self.module.needs_host = True
        def code(node, x):  # an array expression is evaluated before it is boxed
            return self.ev(x) if isinstance(self.type_of(node), T.Array) else x.code

        if isinstance(s.value, h.TupleExpr):
            items = [self.boxed_value(e, code(e, self.expr(e))) for e in s.value.elts]
            self.emit(f"return tr::topy::tuple({', '.join(items)});")
        else:
            self.emit(f"return {self.boxed_value(s.value, code(s.value, value))};")

    def boxed_value(self, node, code: str) -> str:
        """A tr::Object for the value of node with the type it has on this
        path (a variable's flag or kind says which, passes/paths.py)."""
        from .lower_dicts import to_py

        name = node.id if isinstance(node, h.Name) else None
        if name in self.tf.path_types.tagged or node in self.tf.path_types.weak_exprs \
                or node in self.tf.path_types.weak_calls:
            return f"tr::topy::one({code}, {self.weak_code(node)})"
        out = to_py(self.type_of(node), code)
        for i, alt in reversed(list(enumerate(self.tf.path_types.boxed.get(name, ())))):
            out = f"({kind_slot(self.var(name))} == {i} ? {to_py(alt, alt_slot(self.var(name), i))} : {out})"
        return out

    def s_Assert(self, s: h.Assert):
        test = self.expr(s.test).code
        msg = ""
        if s.msg is not None and isinstance(s.msg, h.Const) and isinstance(s.msg.value, str):
            msg = s.msg.value
        text = msg.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("%", "%%")
        self.emit(f'if (!tr::truthy({test})) tr::raise(TR_ERR_ASSERTION, "{text}");' if text else
                  f'if (!tr::truthy({test})) tr::raise(TR_ERR_ASSERTION, "%s", "");')

    def s_Delete(self, s: h.Delete):
        for target in s.targets:  # left to right, as CPython deletes them
            base_t = self.type_of(target.value)
            base = self.expr(target.value).code
            index = self.expr(target.index[0]).code
            if isinstance(base_t, T.List):
                self.use_lists()
                self.emit(f"tr::list_del({base}, int64_t({index}));")
            else:
                self.use_dict()
                key = self.convert(CExpr(index), self.type_of(target.index[0]), base_t.key)
                self.emit(f"(void){base}.pop({key});  // KeyError(key) when missing, as CPython")

    def s_Raise(self, s: h.Raise):
        from ..passes.infer import RAISE_CODES

        exc = s.exc
        msg = exc.args[0].value if isinstance(exc, h.Call) and exc.args else ""
        self.emit(f'tr::raise({RAISE_CODES[self.tf.consts[s]]}, "%s", {json.dumps(msg)});')

    def condition(self, node) -> str:
        code = self.expr(node).code
        if self.type_of(node) in (T.BOOL, T.Scalar("bool")):
            return code if _wrapped(code) else f"({code})"
        return f"(tr::truthy({code}))"

    def s_If(self, s: h.If):
        self.nested(f"if {self.condition(s.test)} {{", s.body, "} else {" if s.orelse else "}")
        if s.orelse:
            self.depth += 1
            self.block(s.orelse)
            self.depth -= 1
            self.lines.append(Line(self.depth, "}"))

    def s_Break(self, s):
        flag = self.loop_flags[-1] if self.loop_flags else None
        if flag:
            self.emit(f"{flag} = true;")
        self.emit("break;")

    def s_Continue(self, s):
        # At the top of a prange body, the iteration is a call of the kernel's operator().
        self.emit("return;" if self.kernel is not None and not self.loop_flags else "continue;")

    def loop_flag(self, has_else: bool):
        if not has_else:
            return None
        flag = self.tmp("broke")
        self.emit(f"bool {flag} = false;")
        return flag

    def finish_loop(self, flag, orelse):
        if flag:
            self.nested(f"if (!{flag}) {{", orelse)

    def s_While(self, s: h.While):
        flag = self.loop_flag(bool(s.orelse))
        self.loop_flags.append(flag)
        test = self.condition(s.test)
        if self.pre:
            # The condition needed helper statements: re-run them every iteration.
            pre, self.pre = self.pre, []
            self.emit("while (true) {")
            self.depth += 1
            for p in pre:
                self.emit(p)
            self.emit(f"if (!{test}) break;")
            self.poll_interrupt(s)
            self.block(s.body)
            self.depth -= 1
            self.lines.append(Line(self.depth, "}"))
        else:
            self.emit(f"while {test} {{")
            self.depth += 1
            self.poll_interrupt(s)
            self.block(s.body)
            self.depth -= 1
            self.lines.append(Line(self.depth, "}"))
        self.loop_flags.pop()
        self.finish_loop(flag, s.orelse)

    def poll_interrupt(self, loop) -> None:
        """Ctrl-C is looked for in the outermost loops of a function, when
        they are `while` loops or hold other loops, on the host only
        (interrupt.hpp): a check in a tight inner loop made it 2-3x slower,
        and a single `for` loop stays vectorizable."""
        if self.kernel or len(self.loop_flags) != 1 or not (isinstance(loop, h.While) or _holds_loop(loop.body)):
            return
        self.module.include(INTERRUPT_HEADER)
        self.emit("TR_POLL_INTERRUPT();")

    def s_For(self, s: h.For):
        loop = self.tf.parallel.get(s)
        if loop is not None:
            if loop.sequential is None:
                from .lower_parallel import parallel_for

                return parallel_for(self, s)
            self.emit(f"// prange loop run in order: {loop.sequential}")
        first_record = len(self.module.fallback_report)
        flag = self.loop_flag(bool(s.orelse))
        self.loop_flags.append(flag)
        it = self.tf.loops[s]
        header, elems = self.iteration(s.iter, it)
        self.emit(header)
        self.depth += 1
        self.poll_interrupt(s)
        self.bind_loop_target(s.target, elems, it)
        self.block(s.body)
        self.depth -= 1
        self.lines.append(Line(self.depth, "}"))
        self.loop_flags.pop()
        if loop is not None:  # the fallback report says why the prange loop is not parallel
            for record in self.module.fallback_report[first_record:]:
                record["reason"] += f" (so the prange loop at line {s.loc.line} runs in order)"
        self.finish_loop(flag, s.orelse)

    def bind_loop_target(self, target, elem, it):
        self.bind_elems(target, elem, self.program_elem_type(it))

    def bind_elems(self, target, elem, elem_t):
        """elem: code, or a list of codes (nested for enumerate(zip(...)))."""
        if isinstance(target, h.TupleExpr) and isinstance(elem, list):
            for sub, code, t in zip(target.elts, elem, elem_t.items):
                self.bind_elems(sub, code, t)
        elif isinstance(elem, list):
            self.assign_target(target, CExpr(self.pack_elems(elem, elem_t)), elem_t)
        else:
            self.assign_target(target, CExpr(elem) if isinstance(elem, str) else elem, elem_t)

    def pack_elems(self, elem, t) -> str:
        if isinstance(elem, list):
            return f"{ctype(t)}({', '.join(self.pack_elems(c, it) for c, it in zip(elem, t.items))})"
        return self.convert(CExpr(elem), t, t)

    def reduce_generator(self, kind: str, gen: h.GenExp, result, start_node) -> CExpr:
        """sum/min/max/any/all of a generator expression: a loop emitted before
        the statement (through self.pre, so while-conditions re-run it)."""
        acc = self.tmp("acc")
        rt = ctype(result)
        saved = self.lines, self.depth, self.pre
        self.lines, self.depth, self.pre = [], 0, []
        if kind == "sum":
            start = "0" if start_node is None else self.expr(start_node).code
            self.emit(f"{rt} {acc} = tr::cast<{rt}>({start});")
        elif kind in ("any", "all"):
            self.emit(f"bool {acc} = {'false' if kind == 'any' else 'true'};")
        else:
            self.emit(f"{rt} {acc}{{}};")
            self.emit(f"bool {acc}_seen = false;")
        it = self.tf.loops[gen]
        header, elems = self.iteration(gen.iter, it)
        self.emit(header)
        self.depth += 1
        self.bind_loop_target(gen.target, elems, it)
        for cond in gen.conds:
            self.emit(f"if (!{self.condition(cond)}) continue;")
        elt_t = self.type_of(gen.elt) if gen.elt not in self.tf.coerce else T.FLOAT
        elt = self.expr(gen.elt).code
        if kind == "sum":
            self.emit(f"{acc} = tr::cast<{rt}>({acc} + tr::cast<{rt}>({elt}));")
        elif kind == "any":
            self.emit(f"if (tr::truthy({elt})) {{ {acc} = true; break; }}")
        elif kind == "all":
            self.emit(f"if (!tr::truthy({elt})) {{ {acc} = false; break; }}")
        else:
            op = "<" if kind == "min" else ">"
            self.emit(f"{{ {rt} v = tr::cast<{rt}>({elt}); "
                      f"if (!{acc}_seen || v {op} {acc}) {{ {acc} = v; {acc}_seen = true; }} }}")
        _ = elt_t
        self.depth -= 1
        self.lines.append(Line(self.depth, "}"))
        if kind in ("min", "max"):
            self.emit(f'if (!{acc}_seen) tr::raise(TR_ERR_VALUE, "{kind}() arg is an empty sequence");')
        body = self.lines
        self.lines, self.depth, self.pre = saved
        self.pre.extend("    " * line.indent + line.text for line in body)
        return CExpr(acc)

    def program_elem_type(self, it):
        if isinstance(it, (T.Dict, T.Set, T.DictView, T.IterTools)):
            return self.dict_elem_type(it)
        if isinstance(it, T.List):
            return it.elem
        if isinstance(it, T.Range):
            return T.INT
        if isinstance(it, T.Array):
            return it.scalar if it.ndim == 1 else T.Array(it.dtype, it.ndim - 1, "C" if it.layout == "C" else "A",
                                                          it.readonly)
        if isinstance(it, T.Enumerate):
            return T.Tuple((T.INT, self.program_elem_type(it.inner)))
        if isinstance(it, T.Zip):
            return T.Tuple(tuple(self.program_elem_type(t) for t in it.inners))
        return it.homogeneous

    def iteration(self, node, it):
        """(loop header, element code or list of codes for enumerate/zip)."""
        if isinstance(it, (T.Dict, T.Set, T.DictView, T.IterTools)):
            return self.dict_iteration(node, it)
        counter = self.tmp("i")
        length, elem = self.iterable(node, it, counter)
        if isinstance(it, T.Range):
            return length, elem
        return f"for (int64_t {counter} = 0; {counter} < {length}; ++{counter}) {{", elem

    def iterable(self, node, it, counter):
        """For a range: (full for-header, element); otherwise (length code, element code(s))."""
        if isinstance(it, T.List):
            return self.list_iterable(node, it, counter)
        if isinstance(it, T.Range):
            args = [f"int64_t({self.expr(a).code})" for a in node.args]
            start, stop, step = ("0", args[0], "1") if len(args) == 1 else (
                (args[0], args[1], "1") if len(args) == 2 else tuple(args))
            const_step = None
            if len(node.args) == 3:
                from ..library.base import NOT_CONST
                c = _const_int(node.args[2])
                const_step = c if c is not NOT_CONST else None
            else:
                const_step = 1
            stop = self.hoist(stop)
            if const_step in (1, -1):  # the counter stops at stop: it cannot wrap
                cond = f"{counter} < {stop}" if const_step > 0 else f"{counter} > {stop}"
                return f"for (int64_t {counter} = {start}; {cond}; {counter} += {step}) {{", counter
            # Other steps go through a trip count (computed in 128 bits): a counter
            # stepping past INT64_MAX would wrap and never end the loop.
            start, step = self.hoist(start), self.hoist(step)
            count = self.hoist(f"tr::range_len({start}, {stop}, {step})")
            return (f"for (int64_t {counter} = 0; {counter} < {count}; ++{counter}) {{",
                    f"({start} + {counter} * {step})")
        if isinstance(it, T.Array):
            arr = self.hoist(self.ev(self.expr(node)))
            if it.ndim == 1:
                return f"{arr}.shape[0]", f"{arr}.data[{counter} * {arr}.stride(0)]"
            elem_t = self.program_elem_type(it)
            return f"{arr}.shape[0]", f"tr::row<{ctype(elem_t)}>({arr}, {counter})"
        if isinstance(it, T.Tuple):
            tup = self.hoist(self.expr(node).code)
            return str(len(it.items)), f"tr::tuple_get({tup}, {counter})"
        if isinstance(it, T.Enumerate):
            inner_node = node.args[0]
            start = "0"
            start_node = node.args[1] if len(node.args) > 1 else next(
                (k.value for k in node.keywords if k.name == "start"), None)
            if start_node is not None:
                start = self.hoist(f"int64_t({self.expr(start_node).code})")
            length, elem = self._sub_iterable(inner_node, it.inner, counter)
            return length, [f"({start} + {counter})", elem]
        if isinstance(it, T.Zip):
            lengths, elems = [], []
            for sub_node, sub_t in zip(node.args, it.inners):
                length, elem = self._sub_iterable(sub_node, sub_t, counter)
                lengths.append(length)
                elems.append(elem)
            total = lengths[0]
            for other in lengths[1:]:
                total = f"tr::imin({total}, {other})"
            return self.hoist(total), elems
        raise NotImplementedError(f"iteration over {it}")

    def _sub_iterable(self, node, it, counter):
        if isinstance(it, T.Range):
            args = [f"int64_t({self.expr(a).code})" for a in node.args]
            start, stop, step = ("0", args[0], "1") if len(args) == 1 else (
                (args[0], args[1], "1") if len(args) == 2 else tuple(args))
            start, stop, step = self.hoist(start), self.hoist(stop), self.hoist(step)
            return f"tr::range_len({start}, {stop}, {step})", f"({start} + {counter} * {step})"
        length, elem = self.iterable(node, it, counter)
        return length, elem


def _polls(stmts) -> bool:
    """Whether an outermost loop of these statements looks for Ctrl-C (poll_interrupt)."""
    return any(isinstance(s, h.While) or isinstance(s, h.For) and _holds_loop(s.body) or
               not isinstance(s, h.For) and (_polls(getattr(s, "body", ())) or _polls(getattr(s, "orelse", ())))
               for s in stmts)


def _holds_loop(stmts) -> bool:
    return any(isinstance(s, (h.For, h.While)) or _holds_loop(getattr(s, "body", ())) or
               _holds_loop(getattr(s, "orelse", ())) for s in stmts)


def _const_int(node):
    from ..library.base import NOT_CONST

    if isinstance(node, h.Const) and isinstance(node.value, int):
        return node.value
    if isinstance(node, h.UnaryOp) and node.op == "-" and isinstance(node.operand, h.Const):
        return -node.operand.value
    return NOT_CONST


def _wrapped(code: str) -> bool:
    """True when the whole of code is one parenthesized group."""
    if not (code.startswith("(") and code.endswith(")")):
        return False
    depth = 0
    for i, ch in enumerate(code):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and i < len(code) - 1:
            return False
    return True


def _short(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def lower_program(program: Program, entry: TypedFunction, options, entry_symbol: str, construct=None):
    """The render model, plus the fallback regions, the report and the
    @jit_class layouts used, for the cache entry."""
    lowerer = ModuleLowerer(program, options)
    module = lowerer.lower(entry, entry_symbol, construct)
    return module, lowerer.regions, lowerer.fallback_report, lowerer.layouts
