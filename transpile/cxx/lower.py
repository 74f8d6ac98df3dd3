"""Lowering: a typed Program -> the render model (cxx.Module).

Every Python statement becomes a block of C++ under a comment naming its
file, line and source, so `transpile show` reads side by side."""
from __future__ import annotations

import re

import numpy as np

from ..hir import nodes as h
from ..hir import types as T
from ..passes import recursion
from ..passes.assigned import assigned_names
from ..passes.infer import Program
from ..passes.typed import TypedFunction
from ..passes import divisors, signs, unbound
from ..passes.live_globals import reads as live_reads
from .lower_expr import ExprLowerer
from .lower_index import IndexPartLowering
from .lower_bounds import BoundsLowering
from .lower_select import SelectLowering
from .lower_speculate import SpeculationLowering
from .lower_loops import INTERRUPT_HEADER, LoopLowering, polls
from .lower_paths import PathFlagLowering
from .lower_stmts import StatementLowering
from .lower_lists import ListLowering, conv
from .lower_dicts import DictLowering
from .lower_lambdas import LambdaLowering
from .lower_functions import FunctionValueLowering, function_header
from .lower_globals import GlobalsLowering
from .lower_regions import RegionLowering
from . import lower_records, prelude, vector_clones
from ..library.random_lib import H_RANDOM
from .model import CExpr, CxxConstant, CxxEntry, CxxFunction, CxxModule, Line
from .prelude import BASE_HEADERS
from .names import alt_slot, bound_flag, kind_slot, local_name, symbol, weak_flag
from .types import ctype, literal

# What evaluates an array expression in generated code (runtime_cpp's expr.hpp):
# tr::assign / tr::eval / tr::copy_as, and the lazy nodes that O1 passes on.
_ARRAY_EVAL = re.compile(r"\btr::(?:assign|eval|copy_as)\b|\btr::(?:binary|unary|select)<")
PARALLEL_EXPR_DEFINE = "#define TR_PARALLEL_EXPR 1"



RECURSION_HEADER = "transpile_rt/recursion.hpp"
NUMPY_LOOPS_HEADER = "transpile_rt/numpy/numpy_loops.hpp"


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
        self.numpy_loops: list[tuple] = []  # (ufunc name, type numbers): NumPy's loops the module calls

    def include(self, header: str) -> None:
        if header not in self.includes:
            self.includes.append(header)

    def numpy_loop(self, ufunc: str, typenums: tuple) -> int:
        """The index of NumPy's inner loop of `ufunc` for these operand types in
        the module's table (numpy/numpy_loops.hpp), which the bridge resolves
        when it loads the module."""
        key = (ufunc, typenums)
        if key not in self.numpy_loops:
            self.numpy_loops.append(key)
            self.include(NUMPY_LOOPS_HEADER)
        return self.numpy_loops.index(key)

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
        if lower_records.uses_records(self.program):
            self.include(lower_records.HEADER)
        self.recursive = recursion.recursive(self.program)
        if self.recursive:
            self.include(RECURSION_HEADER)
        functions = [FunctionLowerer(self, tf).lower() for tf in self.program.order]
        defines = prelude.defines(self.options)
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
        if self.numpy_loops:
            loops = ", ".join(f'{{"{name}", {len(types)}, {{{", ".join(map(str, types))}}}, nullptr, nullptr}}'
                              for name, types in self.numpy_loops)
            mod.footer.append(f"// NumPy's ufunc loops this module calls, resolved when it loads.\nTR_NUMPY_LOOPS({loops})")
        if self.regions or self.layouts or getattr(self, "needs_host", False):
            mod.footer.append("// Receives the bridge's services and this module's fallback regions.\n"
                              "TR_FALLBACK_MODULE_INIT")
        elif self.numpy_loops:  # the only service it needs: the GIL may still be released (cxx/nogil.py)
            mod.footer.append("TR_NUMPY_LOOPS_INIT")
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
        if H_RANDOM in self.includes:  # the BitGenerator lock its draws took goes back when the call ends
            unpack.append("tr::random::CallScope tr_random_scope;")
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
    if isinstance(t, T.Function):  # the object, for statements that run as Python
        return f"tr::fn_arg(args[{slot}])", slot + 1
    if t == T.STR:
        return f"tr::str_arg(args[{slot}])", slot + 1
    if isinstance(t, T.List):
        return f"tr::cv::from_arg<{conv(t)}>(args[{slot}])", slot + 1
    if isinstance(t, T.Array):
        layout = "tr::C" if t.layout == "C" else "tr::A"
        return f"tr::from_arg<{ctype(t.scalar)}, {t.ndim}, {layout}>(args[{slot}])", slot + 1
    if isinstance(t, (T.RecordArray, T.Record)):  # tr::Array<tr::rec::Bytes<itemsize>, ...> (records.hpp)
        elem, ndim, layout = ctype(t).removeprefix("tr::Array<").removesuffix(">").rsplit(", ", 2)
        return f"tr::from_arg<{elem}, {ndim}, {layout}>(args[{slot}])", slot + 1
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


class FunctionLowerer(RegionLowering, FunctionValueLowering, StatementLowering, PathFlagLowering, LoopLowering, BoundsLowering,
                      SelectLowering, SpeculationLowering, GlobalsLowering, LambdaLowering, DictLowering, ListLowering,
                      IndexPartLowering, ExprLowerer):
    def __init__(self, module: ModuleLowerer, tf: TypedFunction):
        self.module = module
        self.program = module.program
        self.tf = tf
        function_header(module, tf)
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
        self.caught_flags: dict = {}  # call -> the bool its callee's Python-or-NumPy flag is caught in (lower_paths)
        # reads that may find their variable unassigned (UnboundLocalError), and the variables flagged
        self.unbound = unbound.analyse(self.fn, set(tf.var_types), tf.fallbacks)
        self.signs = signs.Signs(tf)  # float values never negative: sqrt without its check
        self.setup_speculation()
        self.setup_bounds()
        # `x % m` / `x // m` with m fixed through a loop: a reciprocal cache each (ops/divisor.hpp)
        self.cached_divisions = divisors.invariant_divisions(self.fn) if module.options.backend == "cpu" else set()
        self.divisor_caches: list[str] = []  # their declarations, among the function's locals

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
        if self.track_lines:  # a local: the function's handler notes it on an error (with_line_handler)
            self.lines.append(Line(self.depth, f"TR_KERNEL_LINE({loc.line});" if self.kernel is not None
                                   else f"tr_line = {loc.line};"))

    def lower(self) -> CxxFunction:
        tf = self.tf
        assigned = assigned_names(self.fn.body, set(), self.fn)
        # instances are passed by reference: no counting on each method call
        params = [f"const {ctype(t)} &{self.var(n)}" if isinstance(t, T.Instance) and n not in assigned
                  else f"{ctype(t)} {self.var(n)}" for n, t in zip(tf.params, tf.arg_types)]
        locals_ = [f"{ctype(t)} {self.var(n)}{{}};" for n, t in sorted(tf.var_types.items())
                   if n not in tf.params]
        from .lower_optional import received, widened_params

        widened_params(self, params, locals_)
        tagged = tf.path_types.tagged if tf.path_types else ()
        for n in sorted(tagged):  # which Python type the value has now (passes/paths.py)
            weak = n in tf.params and tf.arg_types[tf.params.index(n)].weak
            locals_.append(f"bool {weak_flag(self.var(n))} = {'true' if weak else 'false'};")
        for n, alts in sorted(tf.path_types.boxed.items() if tf.path_types else ()):
            # A parameter starts in the slot of the argument's type (a Python float beside an np.bool_ stays a float)
            arg = tf.arg_types[tf.params.index(n)] if n in tf.params else None
            kind = alts.index(arg) if arg in alts else -1
            locals_.append(f"int {kind_slot(self.var(n))} = {kind};")
            locals_ += [f"{ctype(t)} {alt_slot(self.var(n), i)}{{{received(self, n) if i == kind else ''}}};"
                        for i, t in enumerate(alts)]
        locals_ += [f"bool {bound_flag(self.var(n))} = false;" for n in sorted(self.unbound.names)]
        if polls(self.fn.body, tf.loops):  # iterations left until Ctrl-C is looked for (interrupt.hpp)
            self.module.include(INTERRUPT_HEADER)
            locals_.append("TR_POLL_LOCALS")
        self.dict_headers()
        if tf.cxx_name in self.module.recursive:  # RecursionError rather than a stack overflow
            self.emit("tr::RecursionGuard tr_recursion_guard;")
        self.read_live_globals()
        self.block(self.fn.body)
        locals_ += self.divisor_caches
        ends_with_return = self.fn.body and isinstance(self.fn.body[-1], h.Return)
        if tf.return_type == T.NONE or isinstance(tf.return_type, T.Optional) or (
                tf.return_type == T.ANY and not ends_with_return):  # boxed results: the end returns None too
            self.emit(f"return {self.none_result()};")
        elif not ends_with_return:
            self.emit('tr::raise(TR_ERR_RUNTIME, "%s", "compiled function reached its end without returning a '
                      'value (Python would return None)");')
        if self.track_lines:
            self.with_line_handler(locals_)
        sig = ", ".join(f"{n}: {t}" for n, t in zip(tf.params, tf.arg_types))
        comment = f"{self.fn.qualname}({sig}) -> {tf.return_type}    [{_short(self.fn.filename)}:{self.fn.loc.line}]"
        clones = self.module.options.backend == "cpu" and vector_clones.widens(tf)
        if clones:
            self.module.include(vector_clones.HEADER)
        return CxxFunction(tf.cxx_name, ctype(tf.return_type), params, locals_, self.lines, comment,
                           inline=_one_expression(self.fn.body), clones=clones,
                           clone_args=[f"std::move({_declared_name(p)})" for p in params] if clones else [])

    def with_line_handler(self, locals_: list) -> None:
        """An error leaving the function carries the line of the statement
        that raised it (tr::note_line): nothing is paid until one is thrown."""
        if not any(line.text.startswith("tr_line = ") for line in self.lines):
            return
        locals_.append("int tr_line = 0;")
        self.lines = ([Line(1, "try {")] + [Line(line.indent + 1, line.text) for line in self.lines]
                      + [Line(1, "} catch (tr::Error &tr_e) {"), Line(2, "tr::note_line(tr_e, tr_line);"),
                         Line(2, "throw;"), Line(1, "}")])

    def divisor_cache(self, node: h.BinOp, ops) -> str | None:
        """The reciprocal cache of an int64 `%` or `//` whose divisor stays the
        same through its loop (passes/divisors.py), declared among the function's
        locals; None elsewhere (prange bodies: a cache per thread would be needed)."""
        if node not in self.cached_divisions or self.kernel is not None or ops.compute != "int64" \
                or isinstance(ops.result, T.Array):
            return None
        self.module.include("transpile_rt/ops/divisor.hpp")
        name = self.tmp("divisor")
        self.divisor_caches.append(f"tr::DivisorCache {name};")
        return name

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
                # a statement that may leave by break/continue/return is a region of its own
                # (lower_regions.py: every variable it writes comes in, to go back out unchanged)
                j = i + 1
                while (not self.tf.fallbacks[stmts[i]].exits and j < len(stmts) and stmts[j] in self.tf.fallbacks
                       and not self.tf.fallbacks[stmts[j]].exits):
                    j += 1
                flagged = self.region([self.tf.fallbacks[s] for s in stmts[i:j]])
                for name in sorted(set().union(*(self.tf.fallbacks[s].writes for s in stmts[i:j])) - flagged):
                    self.mark_bound(name)
                i = j
                continue
            s = stmts[i]
            self.comment(s)
            getattr(self, "s_" + type(s).__name__)(s)
            i += 1

    def nested(self, header: str, body, footer: str = "}") -> None:
        self.emit(header)
        self.depth += 1
        self.block(body)
        self.depth -= 1
        self.lines.append(Line(self.depth, footer))

    # ---- statements ------------------------------------------------------------


def _one_expression(body) -> bool:
    """`return <expression>` (after a docstring), perhaps after a few
    assignments to local names (`a = t - 0.3; return f(a)`): marked inline, so
    that GCC's -O2 inlines it into its callers as it would a lambda, where
    common subexpressions of calls merge (rk4's two stages at the same t call
    math.cos once) and no call clobbers the loop's registers.  GCC still
    weighs each call: a right-hand side of a few statements is inlined into
    Euler's loop (which vector_clones.py leaves one copy: its loop carries
    t[i] into t[i + 1], three per-CPU copies made GCC keep it out of line)."""
    stmts = [s for s in body if not (isinstance(s, h.ExprStmt) and isinstance(s.value, h.Const))]
    return (1 <= len(stmts) <= 4 and isinstance(stmts[-1], h.Return) and stmts[-1].value is not None
            and all(isinstance(s, h.Assign) and all(isinstance(t, h.Name) for t in s.targets) for s in stmts[:-1]))


def _declared_name(param: str) -> str:
    """The name a C++ parameter declaration gives (a held parameter is received as `x_arg`)."""
    return re.search(r"\w+$", param).group(0)


def _short(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def lower_program(program: Program, entry: TypedFunction, options, entry_symbol: str, construct=None):
    """The render model, plus the fallback regions, the report and the
    @jit_class layouts used, for the cache entry."""
    lowerer = ModuleLowerer(program, options)
    module = lowerer.lower(entry, entry_symbol, construct)
    return module, lowerer.regions, lowerer.fallback_report, lowerer.layouts
