"""Type inference: argument types in, a type for every variable and
expression out (side tables; the HIR is not touched).

Each local gets one C++ type, joined over every value assigned to it and
iterated to a fixed point so loop-carried and recursive values settle; the
type of each definition is kept too (def_types), so passes/paths.py can tell
where a value's Python type differs by path and keep CPython's answer there.
Calls to other @jit functions are specialized on their argument types and
join the same translation unit.  The rules live in infer_statements.py,
infer_expressions.py and infer_calls.py; this module is the driver.
"""
from __future__ import annotations

import builtins
import types

import numpy as np

from ..diagnostics import (FULLGRAPH_NOTE, FunctionNotCompilable, MultipleErrors, TypingError, UnsupportedSyntaxError,
                           raise_collected)
from ..hir import nodes as h
from ..hir import types as T
from ..library.base import NOT_CONST
from ..hir import promote
from ..values import replace
from . import exits, fallback, lists, paths
from . import dicts  # dicts, sets, strs, itertools
from . import lambdas  # lambdas, key= functions
from . import trys  # try/except
from . import optional  # None-or-a-value
from . import live_globals  # module-level values: frozen and guarded, or read live
from . import operator_calls  # pow(a, b) is a ** b
from .assigned import assigned_names, find_code, may_return_value
from .hir_walk import first_definition, taken_apart_calls, top_level_index, truth_only_boolops
from .infer_calls import CallTyping
from .infer_expressions import ExpressionTyping
from .infer_statements import StatementTyping
from .typed import TypedFunction

MAX_PASSES = 40




class Program:
    """Every function of one translation unit, keyed by (function, argument types)."""

    def __init__(self, options, frontend):
        self.options = options
        self.frontend = frontend  # pyfunc -> hir.Function
        self.functions: dict = {}
        self.in_progress: dict = {}
        self.order: list[TypedFunction] = []
        self.jit_deps: dict = {}  # (module, qualname) -> pyfunc of every jit function compiled in
        self.closures: dict = {}  # code object of a nested def -> a function object for it
        self.global_deps: dict = {}  # (module, name) -> value of frozen globals
        self.live_globals: dict = {}  # (module, name, attrs) -> guard (passes/live_globals.py)
        self.synthetic: dict = {}  # stub function of a lifted lambda -> its hir.Function (passes/lambdas.py)

    def specialize(self, pyfunc, arg_types: tuple, extra_params: tuple = ()) -> TypedFunction | None:
        """Types pyfunc for arg_types; extra_params are the free variables of a
        nested function, passed as trailing parameters (lambda lifting)."""
        key = (pyfunc, arg_types)
        if key in self.functions:
            return self.functions[key]
        if key in self.in_progress:
            return None  # recursion: the caller uses the provisional return type
        fn = self.synthetic[pyfunc] if pyfunc in self.synthetic else self.frontend(pyfunc)
        fn = operator_calls.spelled_as_operators(fn, getattr(pyfunc, "__globals__", {}))
        if extra_params:
            fn = replace(fn, params=fn.params + tuple(h.Param(fn.loc, n) for n in extra_params))
        name = f"{fn.name}_{len(self.order) + len(self.in_progress)}"
        tf = TypedFunction(fn, pyfunc, arg_types, name)
        typer = FunctionTyper(self, tf)
        self.in_progress[key] = typer
        try:
            typer.run()
        finally:
            del self.in_progress[key]
        self.functions[key] = tf
        self.order.append(tf)
        if pyfunc not in self.synthetic:  # a lambda's source is its enclosing function's
            self.jit_deps[(pyfunc.__module__, pyfunc.__qualname__)] = pyfunc
        return tf

    def provisional_return(self, pyfunc, arg_types):
        typer = self.in_progress.get((pyfunc, arg_types))
        return typer.tf.return_type if typer else None






class FunctionTyper(StatementTyping, ExpressionTyping, CallTyping):
    def __init__(self, program: Program, tf: TypedFunction):
        self.program = program
        self.tf = tf
        self.fn = tf.hir
        self.globals = tf.pyfunc.__globals__
        self.locals = assigned_names(self.fn.body, {p.name for p in self.fn.params}, self.fn)
        self.truth_only = truth_only_boolops(self.fn.body)  # `and`/`or` whose value only meets a truth test
        self.taken_apart = taken_apart_calls(self.fn.body)  # calls whose tuple result never escapes whole
        self.changed = False
        self.unknown: list = []
        # a lifted lambda cannot fall back (its statement is part of a line): errors go to its caller
        self.fullgraph = program.options.fullgraph or tf.pyfunc in program.synthetic
        self.fullgraph_errors: dict = {}
        self.held: dict = {}  # name -> why it is a Python object (passes/fallback.py: containers, path conflicts)
        self.python_stmts: dict = {}  # statement (or if test) -> why it runs as Python (fallback.run_as_python)
        self.own_reasons: dict = {}  # statement -> why it ran as Python before a variable it names was held
        self.def_types: dict = {}  # definition (store target, passes/reaching.py) -> type of the value it assigns
        self.def_consts: dict = {}  # definition -> the int constant it assigns
        self.local_defs: dict = {}  # name -> (def statement, function object) of nested functions
        self.library_args: set = set()  # list displays given to library calls: read while compiling (lists.py)
        self.find_local_defs(self.fn.body)
        self.local_lambdas = lambdas.find_local_lambdas(self)  # f = lambda ...

    # ---- driver ----------------------------------------------------------

    def run(self) -> None:
        params = self.fn.params
        if len(params) != len(self.tf.arg_types):
            raise TypingError(f"{self.fn.name}() takes {len(params)} arguments but {len(self.tf.arg_types)} were given",
                              self.fn.loc)
        self.tf.params = tuple(p.name for p in params)
        for p, t in zip(params, self.tf.arg_types):
            self.tf.var_types[p.name] = t
        if not may_return_value(self.fn.body):
            # Known before typing, so a recursive call of a function that
            # returns nothing has a type (None) while it is being typed.
            self.tf.return_type = T.NONE
        from . import device_arrays, parallel, returns  # prange loops: privates, reductions, races

        while True:
            self.settle()
            try:
                self.tf.path_types = paths.analyse(self)
                break
            except paths.Hold as held:  # the variable becomes a Python object: type the function again
                fallback.hold(self, held.name, held.conflict.message.split(";")[0])
            except paths.RunAsPython as conflict:  # the statement runs as Python: type the function again
                fallback.run_as_python(self, conflict.stmt, conflict.conflict.message.split(";")[0])
        if self.tf.path_types.boxes_returns:  # each return site boxes a value of its own type
            self.tf.return_type = T.ANY
        else:
            self.tf.weak_returns = returns.weak_varies(self.tf, self.program) or (
                bool(self.tf.path_types.tagged) and isinstance(self.tf.return_type, T.Scalar))
        parallel.analyse(self)
        device_arrays.check(self)  # GPU memory: kernels and shape queries only

    def settle(self) -> None:
        """Types every statement until the types stop changing."""
        for _ in range(MAX_PASSES):
            self.changed = False
            self.unknown = []
            self.tf.fallbacks.clear()
            self.fullgraph_errors.clear()
            self.def_types.clear()
            self.def_consts.clear()
            self.tf.coerce.clear()  # an Any that a later pass typed (an array) must not stay coerced to float
            self.block(self.fn.body)
            if self.tf.return_type is not None and self.tf.return_type != T.NONE \
                    and optional.falls_through(self.fn.body) and optional.join(self, self.fn, self.tf.return_type,
                                                                            T.NONE, "") not in (None, self.tf.return_type):
                self.tf.return_type = T.Optional(self.tf.return_type)  # the end returns None
                self.changed = True
            if not self.changed and not self.unknown:
                break
            if not self.changed and self.unknown:
                node = self.unknown[0]
                what = f"'{node.id}'" if isinstance(node, h.Name) else "this expression"
                raise TypingError(f"cannot determine the type of {what}", node.loc,
                                  "assign the variable before it is used on every path")
        else:
            raise TypingError("types did not settle (a value keeps widening)", self.fn.loc)
        if self.fullgraph_errors:
            raise_collected(sorted(self.fullgraph_errors.values(), key=lambda e: (e.loc.line, e.loc.col)))
        if self.tf.return_type is None:
            self.tf.return_type = T.NONE

    # ---- nested functions (closures) ---------------------------------------

    def find_local_defs(self, stmts) -> None:
        """Nested `def`s: the statement runs as Python (it makes the function
        object), and calls to it compile, its free variables passed as
        extra arguments."""
        import ast

        for s in stmts:
            for sub in ("body", "orelse"):
                if hasattr(s, sub):
                    self.find_local_defs(getattr(s, sub))
            if not isinstance(s, h.Unsupported):
                continue
            body = fallback.parse_statement(self.fn, s.loc)
            if len(body) != 1 or not isinstance(body[0], ast.FunctionDef):
                continue
            node = body[0]
            if node.decorator_list or node.args.defaults or node.args.kw_defaults or node.args.vararg \
                    or node.args.kwarg or node.args.kwonlyargs:
                continue
            code = find_code(self.tf.pyfunc.__code__, node.name, s.loc.line)
            if code is None or node.name in self.local_defs:
                self.local_defs.pop(node.name, None)
                continue
            fn = self.program.closures.get(code)
            if fn is None:
                cells = tuple(types.CellType() for _ in code.co_freevars)
                fn = types.FunctionType(code, self.globals, node.name, None, cells)
                self.program.closures[code] = fn
            self.local_defs[node.name] = (s, fn)

    def call_closure(self, node, fn, args, kwargs):
        free = fn.__code__.co_freevars
        outer = []
        for name in free:
            if name not in self.locals:
                raise UnsupportedSyntaxError(f"nested function {fn.__name__}() uses '{name}' from an enclosing scope "
                                             "other than this function", node.loc)
            t = self.tf.var_types.get(name)
            if t is None:
                self.unknown.append(node)
                return None
            # it is passed the variable's value at the call: CPython's if the variable is surely assigned by
            # then (a top-level assignment before the call's statement) and every assignment gives its type
            first = first_definition(self.fn.body, {p.name for p in self.fn.params}, name)
            types = {dt for d, dt in self.def_types.items() if getattr(d, "id", None) == name}
            if first is None or first >= (top_level_index(self.fn.body, node) or 0) or types - {t} \
                    or any(name in info.writes for info in self.tf.fallbacks.values()):
                # (the whole function: the def, run as Python, made a cell that compiled stores do not reach)
                raise FunctionNotCompilable(
                    f"nested function {fn.__name__}() reads '{name}', which may be unassigned at this call or hold "
                    "values of other types", node.loc,
                    f"assign '{name}' before the call, with values of one type, or pass it as an argument")
            outer.append(t)
        return self.call_jit(node, fn, fn, args, kwargs, tuple(free), tuple(outer))

    # ---- helpers ---------------------------------------------------------

    def error(self, node, message: str, hint: str | None = None) -> TypingError:
        return TypingError(message, node.loc, hint)

    def join(self, node, a: T.Type, b: T.Type, what: str) -> T.Type:
        if a == b:
            return a
        opt = optional.join(self, node, a, b, what)
        if opt is not None:
            return opt
        # A Python object from fallback code is converted where it meets a typed value.
        # (arrays from Python may have any strides: the variable becomes strided).
        if a == T.ANY and isinstance(b, (T.Scalar, T.Array)):
            return b.with_layout("A") if isinstance(b, T.Array) else b
        if b == T.ANY and isinstance(a, (T.Scalar, T.Array)):
            return a.with_layout("A") if isinstance(a, T.Array) else a
        if isinstance(a, T.Scalar) and isinstance(b, T.Scalar):
            return promote.scalar_join(a, b)
        if isinstance(a, T.Array) and isinstance(b, T.Array) and a.dtype == b.dtype and a.ndim == b.ndim:
            layout = "C" if a.layout == b.layout == "C" else "A"
            return T.Array(a.dtype, a.ndim, layout, a.readonly or b.readonly)
        if isinstance(a, T.Tuple) and isinstance(b, T.Tuple) and len(a.items) == len(b.items):
            return T.Tuple(tuple(self.join(node, x, y, what) for x, y in zip(a.items, b.items)))
        if isinstance(a, T.List) and isinstance(b, T.List):
            return lists.join(self, node, a, b, what)
        if isinstance(a, dicts.MAPS) or isinstance(b, dicts.MAPS):
            return dicts.join(self, node, a, b, what)
        if {a, b} == {T.STR, T.ANY}:
            return T.STR
        raise self.error(node, f"{what} holds values of two incompatible types: {a} and {b}",
                         "give each kind of value its own variable")

    def join_return(self, s, old, t):
        """A return that runs as Python gives a Python object: then every
        return site boxes its own value (passes/paths.py), rather than the
        object being converted to the other sites' type."""
        if old is None:
            return t
        if T.ANY in (old, t):
            return T.ANY
        return self.join(s, old, t, "the return value")

    def set_var(self, node, name: str, t: T.Type) -> None:
        old = self.tf.var_types.get(name)
        new = t if old is None else self.join(node, old, t, f"variable '{name}'")
        if new != old:
            self.tf.var_types[name] = new
            self.changed = True

    def record(self, node, t):
        if t is not None:
            self.tf.types[node] = t
        return t

    # ---- compile-time values ---------------------------------------------

    def global_value(self, name: str):
        if name in self.globals:
            return self.globals[name]
        if hasattr(builtins, name):
            return getattr(builtins, name)
        return NOT_CONST

    def const(self, node):
        """The compile-time value of an expression, or NOT_CONST."""
        if isinstance(node, h.Const):
            return node.value
        if isinstance(node, h.UnaryOp) and node.op in "-+":
            v = self.const(node.operand)
            if isinstance(v, (int, float, complex)) and not isinstance(v, bool):
                return -v if node.op == "-" else v
            return NOT_CONST
        if isinstance(self.tf.consts.get(node), live_globals.LiveRead):
            return NOT_CONST  # read when the code runs, so never a compile-time value (passes/live_globals.py)
        if isinstance(node, h.Name):
            if node.id in self.locals:
                return NOT_CONST
            v = self.global_value(node.id)
            return v
        if isinstance(node, h.Attribute):
            base = self.const(node.value)
            if base is NOT_CONST:
                t = self.tf.types.get(node.value)
                if isinstance(t, T.Array) and node.attr == "dtype":
                    return np.dtype(t.dtype)
                return NOT_CONST
            return getattr(base, node.attr, NOT_CONST)
        if isinstance(node, h.TupleExpr):
            values = tuple(self.const(e) for e in node.elts)
            return NOT_CONST if any(v is NOT_CONST for v in values) else values
        return NOT_CONST

    def type_of_value(self, node, value) -> T.Type:
        """Type of a global or attribute value seen while compiling."""
        if isinstance(value, bool):
            return T.BOOL
        if isinstance(value, int):
            if not -2**63 <= value < 2**63:
                raise self.error(node, f"the constant {value} does not fit in int64")
            return T.INT
        if isinstance(value, float):
            return T.FLOAT
        if isinstance(value, complex):
            return T.COMPLEX
        if isinstance(value, np.generic) and value.dtype.name in T.DTYPES:
            return T.Scalar(value.dtype.name)
        if isinstance(value, np.ndarray):
            if value.dtype.name not in T.DTYPES:
                raise self.error(node, f"global array of dtype {value.dtype} is not supported")
            return T.Array(value.dtype.name, value.ndim, "C", readonly=True)
        if isinstance(value, tuple):
            return T.Tuple(tuple(self.type_of_value(node, v) for v in value))
        if value is None:
            return T.NONE
        if isinstance(value, type) and issubclass(value, np.generic) and np.dtype(value).name in T.DTYPES:
            return T.DType(np.dtype(value).name)
        if isinstance(value, np.dtype) and value.name in T.DTYPES:
            return T.DType(value.name)
        return T.CompileTimeValue(value)

    # ---- statements ------------------------------------------------------

    def block(self, stmts) -> None:
        for s in stmts:
            if isinstance(s, h.Unsupported):
                self.fall_back(s, s.errors)
                continue
            if s in self.python_stmts:
                self.fall_back(s, [UnsupportedSyntaxError(self.python_stmts[s], s.loc)])
                continue
            held = fallback.held_name(self, s)
            if held is not None:
                self.fall_back(s, [UnsupportedSyntaxError(fallback.held_reason(self, held, s), s.loc)])
                continue
            method = STMT_RULES.get(type(s))
            try:
                method(self, s)
            except MultipleErrors as exc:
                self.fall_back(s, exc.errors)
            except (UnsupportedSyntaxError, TypingError) as exc:
                self.fall_back(s, [exc])

    def fall_back(self, s, errors) -> None:
        """Statement s runs as Python: its writes get the declared type or Any."""
        first = errors[0]
        construct = first.message.split(" is not supported")[0] if " is not supported" in first.message \
            else type(s).__name__.lower()
        local_def = any(entry[0] is s for entry in self.local_defs.values())
        outputs = fallback.object_mode_types(self, s)  # numba's objmode: Python on purpose, outputs typed
        if self.fullgraph and not local_def and outputs is None:
            for err in errors:
                loc = err.loc or s.loc
                said = FULLGRAPH_NOTE in err.message  # a callee's error, already said so
                self.fullgraph_errors[(loc.line, loc.col)] = UnsupportedSyntaxError(
                    err.message if said else f"{err.message}{FULLGRAPH_NOTE}", loc, err.hint)
        names = fallback.analyse(self.fn, s)
        fallback.share_containers(self, s, names.loads | names.stores)
        lists.check_fallback(self, s, names.loads | names.stores, first.message.splitlines()[0])
        lambdas.check_fallback(self, s, names.loads)
        for kind, node in names.escapes:
            if kind not in exits.EXITS:
                raise FunctionNotCompilable(f"'{kind}' inside a statement that runs as Python", s.loc,
                                            "the whole function runs in CPython")
        info = fallback.FallbackInfo(s, first.message, construct, names.loads & self.locals,
                                     names.stores & self.locals, names.definite & self.locals)
        if names.escapes:  # compiled code carries the exit out (cxx/lower_regions.py)
            exits.note_exits(self, s, info, names.escapes)
        info.quiet = local_def or outputs is not None
        comment = fallback.typing_comment(self.fn, s.loc)
        if outputs is not None:
            info.declared_names = fallback.object_mode_outputs(self, s, outputs, info.writes)
        elif comment is not None:
            info.declared = fallback.parse_typing(comment[0], comment[1], self.typing_name,
                                                  fallback.ndim_hint(self, info.writes, names.top_return))
        else:  # x = np.random.random(): a draw whose type is known (library/random_lib.py)
            info.declared = fallback.draw_result(self, s)
        if names.top_return:
            info.returns = True
            t = info.declared or T.ANY
            old = self.tf.return_type
            new = self.join_return(s, old, t)
            if new != old:
                self.tf.return_type = new
                self.changed = True
        for name in sorted(info.writes):
            try:
                self.set_var(s, name, info.declared_for(name) or T.ANY)
            except TypingError as exc:
                if self.fullgraph:
                    raise
                # e.g. a variable that is None in compiled code and a Python object here
                raise FunctionNotCompilable(exc.message, exc.loc, "the whole function runs in CPython") from None
        self.tf.fallbacks[s] = info

    def typing_name(self, name: str):
        value = self.global_value(name)
        if value is NOT_CONST:
            return None
        try:
            np.dtype(value)
        except TypeError:
            return None
        return value

    def number(self, node, t):
        """Type of an operand where a number is needed: Any becomes float64."""
        if t == T.ANY:
            self.tf.coerce[node] = T.FLOAT
            return T.FLOAT
        return t


    # ---- expressions -----------------------------------------------------

    def expr(self, node) -> T.Type | None:
        method = EXPR_RULES.get(type(node))
        if method is None:
            raise UnsupportedSyntaxError(f"{type(node).__name__} is not supported here", node.loc)
        return self.record(node, method(self, node))





STMT_RULES = {
    h.Assign: FunctionTyper.s_Assign, h.AugAssign: FunctionTyper.s_AugAssign, h.ExprStmt: FunctionTyper.s_ExprStmt,
    h.If: FunctionTyper.s_If, h.While: FunctionTyper.s_While, h.For: FunctionTyper.s_For,
    h.Return: FunctionTyper.s_Return, h.Assert: FunctionTyper.s_Assert, h.Pass: FunctionTyper.s_nothing,
    h.Raise: FunctionTyper.s_Raise, h.Delete: FunctionTyper.s_Delete,
    h.Break: FunctionTyper.s_nothing, h.Continue: FunctionTyper.s_nothing,
}
EXPR_RULES = {
    h.Const: FunctionTyper.e_Const, h.Name: FunctionTyper.e_Name, h.BinOp: FunctionTyper.e_BinOp,
    h.UnaryOp: FunctionTyper.e_UnaryOp, h.BoolOp: FunctionTyper.e_BoolOp, h.Compare: FunctionTyper.e_Compare,
    h.IfExp: FunctionTyper.e_IfExp, h.TupleExpr: FunctionTyper.e_TupleExpr,
    h.Attribute: FunctionTyper.e_Attribute, h.Subscript: FunctionTyper.e_Subscript,
    h.Slice: FunctionTyper.e_Slice, h.Call: FunctionTyper.e_Call, h.GenExp: FunctionTyper.e_GenExp,
    h.Starred: FunctionTyper.e_Starred,
}
EXPR_RULES.update({h.ListExpr: lists.e_ListExpr, h.ListComp: lists.e_ListComp})
EXPR_RULES.update({h.DictExpr: dicts.e_DictExpr, h.SetExpr: dicts.e_SetExpr, h.DictComp: dicts.e_DictComp,
                   h.SetComp: dicts.e_SetComp, h.FString: dicts.e_FString})
EXPR_RULES[h.Lambda] = lambdas.e_Lambda
EXPR_RULES[h.TryHandler] = trys.caught  # which of several except clauses runs (passes/trys.py)
