"""Type inference: argument types in, a type for every variable and
expression out (side tables; the HIR is not touched).

Typing is flow-insensitive per variable (one type per local, widened to hold
every value assigned to it), iterated to a fixed point so loop-carried and
recursive values settle.  Calls to other @jit functions are specialized on
their argument types and join the same translation unit.
"""
from __future__ import annotations

import builtins
import dataclasses
import os
import types
from dataclasses import dataclass, field

import numpy as np

from ..diagnostics import (FunctionNotCompilable, MultipleErrors, PathTypeConflict, SourceLoc, TypingError,
                           UnsupportedSyntaxError, raise_collected)
from ..hir import nodes as h
from ..hir import types as T
from ..library import lookup_callable, lookup_method
from ..library.base import NOT_CONST, CallSite, NotYetKnown
from . import classes, fallback, indexing, lists, paths, promote
from . import dicts  # dicts, sets, strs, itertools
from . import lambdas  # lambdas, key= functions
from . import optional  # None-or-a-value
from . import live_globals  # module-level values: frozen and guarded, or read live

MAX_PASSES = 40


@dataclass
class TypedFunction:
    """A function specialized on argument types, with its side tables."""

    hir: h.Function
    pyfunc: object
    arg_types: tuple
    cxx_name: str
    var_types: dict = field(default_factory=dict)
    types: dict = field(default_factory=dict)  # expr node -> Type
    ops: dict = field(default_factory=dict)  # BinOp/UnaryOp/AugAssign/Compare node -> OpTypes
    calls: dict = field(default_factory=dict)  # Call node -> (kind, target, info)
    subscripts: dict = field(default_factory=dict)  # Subscript node -> indexing.IndexInfo
    consts: dict = field(default_factory=dict)  # Name/Attribute node -> frozen global value
    loops: dict = field(default_factory=dict)  # For node -> element info
    fallbacks: dict = field(default_factory=dict)  # statement -> fallback.FallbackInfo (runs as Python)
    coerce: dict = field(default_factory=dict)  # expr node -> type an Any value is converted to
    parallel: dict = field(default_factory=dict)  # prange For node -> passes.parallel.ParallelLoop
    return_type: T.Type | None = None
    params: tuple = ()
    weak_returns: bool = False  # returns a Python number on some paths, a NumPy scalar on others (passes/returns.py)
    path_types: object = None  # passes/path_rules.PathTypes: values whose C++ type differs by path, and how


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
        if extra_params:
            fn = dataclasses.replace(fn, params=fn.params + tuple(h.Param(fn.loc, n) for n in extra_params))
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


def _assigned_names(body, out: set, fn=None) -> set:
    for stmt in body:
        if isinstance(stmt, h.Unsupported):
            out |= fallback.written_names(fn, stmt)
        if isinstance(stmt, h.Assign):
            for t in stmt.targets:
                _target_names(t, out)
        elif isinstance(stmt, h.AugAssign):
            _target_names(stmt.target, out)
        elif isinstance(stmt, h.For):
            _target_names(stmt.target, out)
        for sub in ("body", "orelse"):
            if hasattr(stmt, sub):
                _assigned_names(getattr(stmt, sub), out, fn)
    return out


def _may_return_value(body) -> bool:
    """Whether a `return <value>` may run (statements that fall back count as may)."""
    for stmt in body:
        if isinstance(stmt, h.Unsupported) or (isinstance(stmt, h.Return) and stmt.value is not None):
            return True
        if any(_may_return_value(getattr(stmt, sub, ())) for sub in ("body", "orelse")):
            return True
    return False


def _target_names(t, out: set) -> None:
    if isinstance(t, h.Name):
        out.add(t.id)
    elif isinstance(t, h.TupleExpr):
        for e in t.elts:
            _target_names(e, out)


def _find_code(code, name: str, line: int):
    """The code object of a def nested (at any depth) in `code`."""
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            if const.co_name == name and const.co_firstlineno == line:
                return const
            found = _find_code(const, name, line)
            if found is not None:
                return found
    return None


def is_user_function(value) -> bool:
    """A plain Python function of the user's own project (not the standard
    library, site-packages or an extension): compiled with its caller."""
    import inspect
    import sysconfig

    if not inspect.isfunction(value) or getattr(value, "__closure__", None):
        return False
    if lookup_callable(value) is not None:  # a library entry (transpile.prange) is not a helper
        return False
    try:
        path = os.path.realpath(inspect.getsourcefile(value) or "")
    except TypeError:
        return False
    if not path or "site-packages" in path or "dist-packages" in path:
        return False
    paths = sysconfig.get_paths()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        root = os.path.realpath(paths.get(key, "") or "/nonexistent")
        if path.startswith(root + os.sep):
            return False
    return True


def jit_target(value):
    """The Python function behind a @jit dispatcher, or None."""
    from .. import _runtime

    return value.py_func if isinstance(value, _runtime.Dispatcher) else None


class FunctionTyper:
    def __init__(self, program: Program, tf: TypedFunction):
        self.program = program
        self.tf = tf
        self.fn = tf.hir
        self.globals = tf.pyfunc.__globals__
        self.locals = _assigned_names(self.fn.body, {p.name for p in self.fn.params}, self.fn)
        self.changed = False
        self.unknown: list = []
        # a lifted lambda cannot fall back (its statement is part of a line): errors go to its caller
        self.fullgraph = program.options.fullgraph or tf.pyfunc in program.synthetic
        self.fullgraph_errors: dict = {}
        self.held: set = set()  # containers shared with fallback code: Python objects (passes/fallback.py)
        self.def_types: dict = {}  # definition (store target, passes/reaching.py) -> type of the value it assigns
        self.def_consts: dict = {}  # definition -> the int constant it assigns
        self.local_defs: dict = {}  # name -> (def statement, function object) of nested functions
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
        if not _may_return_value(self.fn.body):
            # Known before typing, so a recursive call of a function that
            # returns nothing has a type (None) while it is being typed.
            self.tf.return_type = T.NONE
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
                raise TypingError(f"cannot determine the type of '{getattr(node, 'id', '?')}'", node.loc,
                                  "assign the variable before it is used on every path")
        else:
            raise TypingError("types did not settle (a value keeps widening)", self.fn.loc)
        if self.fullgraph_errors:
            raise_collected(sorted(self.fullgraph_errors.values(), key=lambda e: (e.loc.line, e.loc.col)))
        if self.tf.return_type is None:
            self.tf.return_type = T.NONE
        from . import device_arrays, parallel, returns  # prange loops: privates, reductions, races

        self.tf.path_types = paths.analyse(self)
        if self.tf.path_types.boxes_returns:  # each return site boxes a value of its own type
            self.tf.return_type = T.ANY
        else:
            self.tf.weak_returns = returns.weak_varies(self.tf, self.program) or (
                bool(self.tf.path_types.tagged) and isinstance(self.tf.return_type, T.Scalar))
        parallel.analyse(self)
        device_arrays.check(self)  # GPU memory: kernels and shape queries only

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
            code = _find_code(self.tf.pyfunc.__code__, node.name, s.loc.line)
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
            held = fallback.held_name(self, s)
            if held is not None:
                self.fall_back(s, [UnsupportedSyntaxError(fallback.held_reason(held), s.loc)])
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
        if self.fullgraph and not local_def:
            for err in errors:
                loc = err.loc or s.loc
                self.fullgraph_errors[(loc.line, loc.col)] = UnsupportedSyntaxError(
                    f"{err.message} (fullgraph=True forbids falling back to Python)", loc, err.hint)
        names = fallback.analyse(self.fn, s)
        fallback.share_containers(self, s, names.loads | names.stores)
        lists.check_fallback(self, s, names.loads | names.stores, first.message.splitlines()[0])
        lambdas.check_fallback(self, s, names.loads)
        for kind, node in names.escapes:
            raise FunctionNotCompilable(f"'{kind}' inside a statement that runs as Python", s.loc,
                                        "the whole function runs in CPython")
        info = fallback.FallbackInfo(s, first.message, construct, names.loads & self.locals,
                                     names.stores & self.locals, names.definite & self.locals)
        info.quiet = local_def
        comment = fallback.typing_comment(self.fn, s.loc)
        if comment is not None:
            info.declared = fallback.parse_typing(comment[0], comment[1], self.typing_name)
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
                self.set_var(s, name, info.declared or T.ANY)
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

    def s_Assign(self, s: h.Assign):
        if lambdas.is_local_lambda(self, s):
            return  # f = lambda ...: calls of f are compiled
        t = self.expr(s.value)
        if s.annotation is not None and t is not None:
            declared = self.annotation_type(s.annotation)
            if declared is not None:
                if isinstance(declared, T.Scalar) and isinstance(t, T.Scalar):
                    t = declared
                elif declared != t:
                    raise self.error(s, f"annotated as {declared} but the value is {t}")
        value = self.const(s.value)
        for target in s.targets:
            if isinstance(value, int) and not isinstance(value, bool):
                self.def_consts[target] = value
            self.bind(target, t, s)
            if isinstance(t, T.List):
                lists.unify(self, s.value, target)

    def annotation_type(self, node):
        v = self.const(node)
        if v is int:
            return T.INT
        if v is float:
            return T.FLOAT
        if v is bool:
            return T.BOOL
        if v is complex:
            return T.COMPLEX
        if isinstance(v, type) and issubclass(v, np.generic):
            return T.Scalar(np.dtype(v).name)
        return None

    def bind(self, target, t, stmt) -> None:
        if t is None:
            return
        if isinstance(target, h.Name):
            if isinstance(t, (T.CompileTimeValue, T.Range, T.Enumerate, T.Zip, T.DType, T.Generator, T.IterTools, T.DictView)):
                raise self.error(target, f"cannot store {t} in a variable in compiled code",
                                 "use the value directly where it is needed")
            self.set_var(target, target.id, t)
            self.def_types[target] = t
            self.record(target, self.tf.var_types[target.id])
        elif isinstance(target, h.TupleExpr):
            if not isinstance(t, T.Tuple):
                raise self.error(stmt, f"cannot unpack a value of type {t}", "only tuples can be unpacked")
            if len(t.items) != len(target.elts):
                raise self.error(stmt, f"too many values to unpack (expected {len(target.elts)})"
                                 if len(t.items) > len(target.elts) else
                                 f"not enough values to unpack (expected {len(target.elts)}, got {len(t.items)})")
            for sub, item in zip(target.elts, t.items):
                self.bind(sub, item, stmt)
            self.record(target, t)
        elif isinstance(target, h.Subscript):
            base = self.expr(target.value)
            if base is None:
                return
            base = optional.subscript_base(self, target.value, base, store=True)
            if base is None:
                return
            optional.indices(self, target, base)
            info = indexing.setitem(self, target, base, t)
            self.tf.subscripts[target] = info
        elif isinstance(target, h.Attribute):
            classes.store_field(self, target, t, stmt)
        else:
            raise UnsupportedSyntaxError("assignment to this kind of target is not supported", target.loc)

    def s_AugAssign(self, s: h.AugAssign):
        target = s.target
        cur = self.number(target, self.expr(target))
        val = self.number(s.value, self.expr(s.value))
        if cur is None or val is None:
            return
        cur, val = optional.binop(self, s, s.op, cur, val, target, s.value, inplace=True)
        if cur is None or val is None:
            return
        if isinstance(cur, T.List):
            return lists.augassign(self, s, cur, val)
        if isinstance(cur, dicts.MINE) or isinstance(val, dicts.MINE):
            return dicts.augassign(self, s, cur, val)
        ops = self.binop_types(s, s.op, cur, val, s.value)
        self.tf.ops[s] = ops
        if isinstance(cur, T.Array):
            if not isinstance(ops.result, T.Array) or ops.result.ndim > cur.ndim:
                raise self.error(s, f"the result of {s.op} has shape of more dimensions than the target")
            if not promote.can_cast_same_kind(ops.result.dtype, cur.dtype):
                raise self.error(s, f"Cannot cast ufunc output from dtype('{ops.result.dtype}') to "
                                    f"dtype('{cur.dtype}') with casting rule 'same_kind'",
                                 "convert explicitly, e.g. a = a + b or a[:] = (a + b).astype(a.dtype)")
            if cur.readonly:
                raise self.error(s, "assignment destination is read-only")
            return
        if isinstance(target, h.Name):
            self.set_var(target, target.id, ops.result)
            self.def_types[target] = ops.result
        elif isinstance(target, h.Subscript):
            info = indexing.setitem(self, target, self.expr(target.value), ops.result)
            self.tf.subscripts[target] = info
        elif isinstance(target, h.Attribute):
            classes.store_field(self, target, ops.result, s)
        else:
            raise UnsupportedSyntaxError("augmented assignment to this target is not supported", s.loc)

    def s_ExprStmt(self, s: h.ExprStmt):
        if isinstance(s.value, h.Const) and isinstance(s.value.value, str):
            return  # docstring
        self.expr(s.value)

    def truth_test(self, node) -> None:
        t = self.expr(node)
        if t is None:
            return
        if isinstance(t, T.Optional) and not isinstance(t.inner, T.Array):
            return  # None is false, else the value's truth
        if isinstance(t, (T.Array, T.Optional)):
            raise self.error(node, "the truth value of an array is ambiguous in compiled code",
                             "use a.any() or a.all()")
        if not isinstance(t, (T.Scalar, T.NoneType, T.Tuple, T.AnyType, T.List, T.Str, T.Dict, T.Set)):
            raise self.error(node, f"cannot test the truth of {t}")

    def s_If(self, s: h.If):
        self.truth_test(s.test)
        self.block(s.body)
        self.block(s.orelse)

    def s_While(self, s: h.While):
        self.truth_test(s.test)
        self.block(s.body)
        self.block(s.orelse)

    def s_For(self, s: h.For):
        it = self.expr(s.iter)
        if it is None:
            return
        it = optional.iterable(self, s.iter, it)
        if it is None:
            return
        elem = self.element_type(s.iter, it)
        self.tf.loops[s] = it
        self.bind(s.target, elem, s)
        self.block(s.body)
        self.block(s.orelse)

    def element_type(self, node, it: T.Type) -> T.Type:
        if isinstance(it, (T.Dict, T.Set, T.DictView, T.IterTools, T.Str)):
            return dicts.element_type(self, node, it)
        if isinstance(it, (T.Enumerate, T.Zip)):
            dicts.iterable_in_zip(self, node, it)
        if isinstance(it, T.Range):
            return T.INT
        if isinstance(it, T.Array):
            if it.ndim == 0:
                raise self.error(node, "iteration over a 0-d array")
            if it.ndim == 1:
                return it.scalar
            return T.Array(it.dtype, it.ndim - 1, "C" if it.layout == "C" else "A", it.readonly)
        if isinstance(it, T.Enumerate):
            return T.Tuple((T.INT, self.element_type(node, it.inner)))
        if isinstance(it, T.Zip):
            return T.Tuple(tuple(self.element_type(node, t) for t in it.inners))
        if isinstance(it, T.List):
            if it.elem is None:
                self.unknown.append(node)
            return it.elem
        if isinstance(it, T.Tuple):
            if it.homogeneous is None and it.items:
                raise self.error(node, f"iteration over a tuple of mixed types {it}",
                                 "index the tuple with constants instead")
            if not it.items:
                raise self.error(node, "iteration over an empty tuple")
            return it.homogeneous
        raise self.error(node, f"cannot iterate over {it} in compiled code")

    def s_Return(self, s: h.Return):
        t = T.NONE if s.value is None else self.expr(s.value)
        if t is None:
            return
        if isinstance(t, (T.CompileTimeValue, T.Range, T.Enumerate, T.Zip, T.DType, T.Generator, T.IterTools, T.DictView)):
            raise self.error(s, f"cannot return {t} from compiled code")
        old = self.tf.return_type
        new = self.join_return(s, old, t)
        if new != old:
            self.tf.return_type = new
            self.changed = True

    def s_Assert(self, s: h.Assert):
        self.truth_test(s.test)
        if s.msg is not None:
            if not (isinstance(s.msg, h.Const) and isinstance(s.msg.value, str)):
                msg_t = self.expr(s.msg)
                if msg_t is not None and not isinstance(msg_t, T.Scalar):
                    raise self.error(s.msg, "assert messages must be string literals or numbers")

    def s_Delete(self, s: h.Delete):
        """del lst[i] and del d[k]; anything else runs as Python."""
        for target in s.targets:
            base = self.expr(target.value)
            if base is None:
                return
            index = target.index[0] if len(target.index) == 1 else None
            if isinstance(base, T.List) and not base.frozen and index is not None \
                    and not isinstance(index, h.Slice) and T.is_integer(self.expr(index) or T.NONE):
                continue
            if isinstance(base, T.Dict) and index is not None and not isinstance(index, h.Slice):
                self.expr(index)
                continue
            raise UnsupportedSyntaxError(f"del of an item of {base} is not supported in compiled code", s.loc)

    def s_Raise(self, s: h.Raise):
        """raise E("literal message"): compiled for the exceptions the ABI has
        codes for; anything else runs as Python (its message may need str())."""
        exc = s.exc
        cls = self.const(exc.func if isinstance(exc, h.Call) else exc)
        if cls not in RAISE_CODES:
            named = exc.func if isinstance(exc, h.Call) else exc
            raise UnsupportedSyntaxError(f"raising {getattr(named, 'id', 'this exception')} is not supported "
                                         "in compiled code", s.loc,
                                         f"compiled code raises {', '.join(c.__name__ for c in RAISE_CODES)}")
        if isinstance(exc, h.Call):
            if exc.keywords or len(exc.args) > 1 or (exc.args and not (
                    isinstance(exc.args[0], h.Const) and isinstance(exc.args[0].value, str))):
                raise UnsupportedSyntaxError("only exceptions with a string literal message are raised by compiled "
                                             "code", s.loc)
        self.tf.consts[s] = cls

    def s_nothing(self, s):
        pass

    # ---- expressions -----------------------------------------------------

    def expr(self, node) -> T.Type | None:
        method = EXPR_RULES.get(type(node))
        if method is None:
            raise UnsupportedSyntaxError(f"{type(node).__name__} is not supported here", node.loc)
        return self.record(node, method(self, node))

    def e_Const(self, node: h.Const):
        v = node.value
        if isinstance(v, str):
            # a str; library calls read literal ones as constants (kind="stable",
            # side="right", ord="fro")
            return T.STR
        return self.type_of_value(node, v)

    def e_Name(self, node: h.Name):
        if node.id in self.locals:
            t = self.tf.var_types.get(node.id)
            if t is None:
                self.unknown.append(node)
            return t
        value = self.global_value(node.id)
        if value is NOT_CONST:
            raise self.error(node, f"name '{node.id}' is not defined")
        t = self.type_of_value(node, value)
        if not isinstance(t, T.CompileTimeValue):
            return live_globals.name(self, node, value, t)  # frozen and guarded, or read live
        return t

    def binop_types(self, node, op, a, b, right_node):
        exponent = self.const(right_node) if op == "**" else None
        if exponent is NOT_CONST:
            exponent = None
        try:
            return promote.binary(op, a, b, exponent)
        except promote.PromotionError as exc:
            raise self.error(node, str(exc)) from None

    def e_BinOp(self, node: h.BinOp):
        a = self.number(node.left, self.expr(node.left))
        b = self.number(node.right, self.expr(node.right))
        if a is None or b is None:
            return None
        a, b = optional.binop(self, node, node.op, a, b, node.left, node.right)
        if a is None or b is None:
            return None
        if isinstance(a, T.List) or isinstance(b, T.List):
            return lists.binop(self, node, node.op, a, b)
        if isinstance(a, dicts.MINE) or isinstance(b, dicts.MINE):
            ops = dicts.binop(self, node, node.op, a, b)
            self.tf.ops[node] = ops
            return ops.result
        if isinstance(a, T.Instance) or isinstance(b, T.Instance):
            return classes.binary_operator(self, node, node.op, a, b, node.left, node.right)
        if node.op == "@":
            return self.call_entry(node, np.matmul, [a, b], {}, [node.left, node.right], {})
        ops = self.binop_types(node, node.op, a, b, node.right)
        self.tf.ops[node] = ops
        return ops.result

    def e_UnaryOp(self, node: h.UnaryOp):
        a = self.expr(node.operand)
        if a is None:
            return None
        if node.op == "not" and isinstance(a, T.Optional) and not isinstance(a.inner, T.Array):
            self.tf.ops[node] = promote.OpTypes("bool", T.BOOL)
            return T.BOOL
        if node.op != "not":
            a = optional.unary(self, node, node.op, a)
            if a is None:
                return None
        if node.op == "not" and (a == T.ANY or isinstance(a, (T.Str, T.Dict, T.Set))):
            self.tf.ops[node] = promote.OpTypes("bool", T.BOOL)
            return T.BOOL
        a = self.number(node.operand, a)
        if node.op == "not" and isinstance(a, T.Array):
            raise self.error(node, "the truth value of an array is ambiguous", "use a.any() or a.all()")
        try:
            ops = promote.unary(node.op, a)
        except promote.PromotionError as exc:
            raise self.error(node, str(exc)) from None
        self.tf.ops[node] = ops
        return ops.result

    def e_BoolOp(self, node: h.BoolOp):
        types = [self.number(v, self.expr(v)) for v in node.values]
        if any(t is None for t in types):
            return None
        for v, t in zip(node.values, types):
            if not isinstance(t, T.Scalar):
                raise self.error(v, f"'{node.op}' needs scalar operands, not {t}",
                                 "for arrays use & and | (elementwise)")
        result = types[0]
        for v, t in zip(node.values[1:], types[1:]):
            result = self.join(v, result, t, f"the '{node.op}' expression")
        return result

    def e_Compare(self, node: h.Compare):
        left = self.number(node.left, self.expr(node.left))
        rights = [self.number(c, self.expr(c)) for c in node.comparators]
        if left is None or any(r is None for r in rights):
            return None
        if len(node.ops) == 1 and node.ops[0] not in ("is", "is not", "in", "not in") and \
                (isinstance(left, T.Instance) or isinstance(rights[0], T.Instance)):
            return classes.binary_operator(self, node, node.ops[0], left, rights[0], node.left, node.comparators[0])
        results = []
        operands = [left] + rights
        op_types = []
        operand_nodes = [node.left] + list(node.comparators)
        for i, op in enumerate(node.ops):
            a, b = operands[i], operands[i + 1]
            special = optional.compare(self, node, op, a, b, operand_nodes[i], operand_nodes[i + 1])
            if special is not None:
                op_types.append(special)
                results.append(T.BOOL)
                continue
            if op not in ("is", "is not", "==", "!=", "in", "not in"):
                a, b = optional.binop(self, node, op, a, b, operand_nodes[i], operand_nodes[i + 1])
                if a is None or b is None:
                    return None
            if op in ("is", "is not"):
                if not (a == T.NONE or b == T.NONE):
                    raise self.error(node, "'is' is supported only for comparisons with None")
                op_types.append(None)
                results.append(T.BOOL)
                continue
            dict_op = dicts.compare(self, node, op, a, b)
            if dict_op is not None:
                op_types.append(dict_op)
                results.append(T.BOOL)
                continue
            list_op = lists.compare(self, node, op, a, b)
            if list_op is not None:
                op_types.append(list_op)
                results.append(T.BOOL)
                continue
            if op in ("in", "not in"):
                raise UnsupportedSyntaxError(f"'{op}' is not supported in compiled code", node.loc)
            ops = self.binop_types(node, op, a, b, node.comparators[i])
            op_types.append(ops)
            results.append(ops.result)
        self.tf.ops[node] = tuple(op_types)
        if len(results) > 1 and any(isinstance(r, T.Array) for r in results):
            raise self.error(node, "chained comparisons of arrays are ambiguous",
                             "write (a < b) & (b < c)")
        return results[0] if len(results) == 1 else T.BOOL

    def e_IfExp(self, node: h.IfExp):
        self.truth_test(node.test)
        a = self.expr(node.body)
        b = self.expr(node.orelse)
        if a is None or b is None:
            return a or b
        return self.join(node, a, b, "the conditional expression")

    def e_TupleExpr(self, node: h.TupleExpr):
        items = [self.expr(e) for e in node.elts]
        if any(t is None for t in items):
            return None
        if items and all(isinstance(t, T.CompileTimeValue) for t in items):
            # (int, float) for isinstance(): a value only library calls read
            return T.CompileTimeValue(tuple(t.value for t in items))
        for e, t in zip(node.elts, items):
            if isinstance(t, (T.CompileTimeValue, T.Range, T.Enumerate, T.Zip, T.IterTools, T.DictView)):
                raise self.error(e, f"cannot put {t} in a tuple in compiled code")
        return T.Tuple(tuple(items))

    def e_Attribute(self, node: h.Attribute):
        base = self.expr(node.value)
        if base is None:
            return None
        base = optional.attribute_base(self, node.value, base, node.attr)
        if base is None:
            return None
        if isinstance(base, T.CompileTimeValue):
            value = getattr(base.value, node.attr, NOT_CONST)
            if value is NOT_CONST:
                raise self.error(node, f"module '{getattr(base.value, '__name__', base.value)}' has no attribute "
                                       f"'{node.attr}'")
            return live_globals.attribute(self, node, base.value, value, self.type_of_value(node, value))
        if isinstance(base, T.Instance):
            return classes.read_attribute(self, node, base)
        from ..library import attributes

        rule = attributes.lookup(base, node.attr)
        if rule is None:
            raise self.error(node, f"'{base}' has no attribute '{node.attr}' in compiled code")
        return rule.infer(base)

    def e_Subscript(self, node: h.Subscript):
        base = self.expr(node.value)
        if base is None:
            return None
        base = optional.subscript_base(self, node.value, base)
        if base is None:
            return None
        self.index_types(node)
        optional.indices(self, node, base)
        info = indexing.getitem(self, node, base)
        self.tf.subscripts[node] = info
        return info.result

    def index_types(self, node: h.Subscript) -> None:
        """Types each index of x[...] (the parts of slices too)."""
        for idx in node.index:
            if isinstance(idx, h.Slice):
                for part in (idx.lower, idx.upper, idx.step):
                    if part is not None:
                        self.expr(part)
            else:
                self.expr(idx)

    def comprehension_clause(self, clause) -> bool:
        """Types one `for target in iter if cond...` of a generator expression or
        comprehension (clause: h.GenExp or h.CompFor); False while the iterable's
        type is unknown."""
        it = self.expr(clause.iter)
        if it is None:
            return False
        it = optional.iterable(self, clause.iter, it)
        if it is None:
            return False
        elem = self.element_type(clause.iter, it)
        if elem is None:
            return False
        _target_names(clause.target, self.locals)
        self.tf.loops[clause] = it
        self.bind(clause.target, elem, clause)
        for cond in clause.conds:
            self.truth_test(cond)
        return True

    def e_GenExp(self, node: h.GenExp):
        if not self.comprehension_clause(node):
            return None
        elt = self.number(node.elt, self.expr(node.elt))
        if elt is None:
            return None
        if not lists.generator_elt_ok(elt):
            raise self.error(node.elt, f"generator expressions of {elt} are not supported",
                             "generate numbers (for sum/min/max/any/all)")
        return T.Generator(elt)

    def e_Slice(self, node):
        raise self.error(node, "a slice is only allowed inside [ ]")

    def e_Call(self, node: h.Call):
        func = node.func
        handled = lambdas.call(self, node)  # lambdas, key= functions
        if handled is not lambdas.PASS:
            return handled
        if isinstance(func, h.Name) and func.id in self.local_defs:
            typed = self.call_arguments(node)
            if typed is None:
                return None
            args, kwargs = typed
            return self.call_closure(node, self.local_defs[func.id][1], args, kwargs)
        if isinstance(func, h.Name) and func.id == "super" and func.id not in self.locals \
                and self.global_value("super") is builtins.super:
            return classes.super_value(self, node)
        if isinstance(func, h.Attribute):
            recv = self.expr(func.value)
            if recv is None:
                return None
            recv = optional.attribute_base(self, func.value, recv, func.attr)
            if recv is None:
                return None
            if isinstance(recv, T.Instance) or (isinstance(recv, T.CompileTimeValue)
                                                and isinstance(recv.value, classes.SuperRef)):
                typed = self.call_arguments(node)
                if typed is None:
                    return None
                args, kwargs = typed
                if isinstance(recv, T.Instance):
                    return classes.method_call(self, node, recv, args, kwargs)
                return classes.super_call(self, node, recv.value, args, kwargs)
            if isinstance(recv, T.List):
                return lists.method_call(self, node, recv, func.attr)
            if isinstance(recv, (T.Dict, T.Set, T.Str)):
                return dicts.method_call(self, node, recv, func.attr)
            if not isinstance(recv, T.CompileTimeValue):
                entry = lookup_method(recv, func.attr)
                if entry is None:
                    raise self.error(func, f"'{recv}' has no method '{func.attr}' in compiled code")
                typed = self.call_arguments(node)
                if typed is None:
                    return None
                args, kwargs = [recv] + typed[0], typed[1]
                return self.run_entry(node, entry, args, kwargs, [func.value] + list(node.args),
                                      {k.name: k.value for k in node.keywords}, f"{func.attr}")
        callee_t = self.expr(func)
        if callee_t is None:
            return None
        if callee_t == T.ANY:
            raise UnsupportedSyntaxError("calling a value made by fallback code is not supported in compiled code",
                                         node.loc)
        if isinstance(callee_t, T.CompileTimeValue) and id(callee_t.value) in lists._promoting():
            self.promote_ok = getattr(self, "promote_ok", set()) | {a for a in node.args if isinstance(a, h.ListExpr)}
        typed = self.call_arguments(node)
        if typed is None:
            return None
        args, kwargs = typed
        if isinstance(callee_t, T.Instance):
            return classes.call_instance(self, node, callee_t, args, kwargs)
        if isinstance(callee_t, T.CompileTimeValue) and classes.info_of(callee_t.value) is not None:
            return classes.construct(self, node, classes.info_of(callee_t.value), args, kwargs)
        if isinstance(callee_t, T.DType):
            return self.call_entry(node, np.dtype(callee_t.dtype).type, args, kwargs, list(node.args),
                                   {k.name: k.value for k in node.keywords})
        if not isinstance(callee_t, T.CompileTimeValue):
            raise self.error(func, f"'{callee_t}' is not callable")
        target = callee_t.value
        pyfunc = jit_target(target)
        if pyfunc is None and is_user_function(target):
            pyfunc = target  # a plain helper of the user's project: compiled with its caller
        if pyfunc is not None:
            return self.call_jit(node, target, pyfunc, args, kwargs)
        return self.call_entry(node, target, args, kwargs, list(node.args),
                               {k.name: k.value for k in node.keywords})

    def call_arguments(self, node: h.Call):
        """Types of a call's positional and keyword arguments, or None while one is unknown."""
        args = [self.number(a, self.expr(a)) for a in node.args]
        kwargs = {k.name: self.number(k.value, self.expr(k.value)) for k in node.keywords}
        if any(t is None for t in args) or any(t is None for t in kwargs.values()):
            return None
        return args, kwargs

    def call_entry(self, node, target, args, kwargs, arg_nodes, kw_nodes):
        entry = lookup_callable(target)
        if entry is None:
            name = getattr(target, "__qualname__", None) or getattr(target, "__name__", repr(target))
            module = getattr(target, "__module__", None) or ""
            raise UnsupportedSyntaxError(
                f"call to {module + '.' if module and module != 'builtins' else ''}{name} is not supported in "
                "compiled code", node.loc,
                "decorate it with @jit if it is your function, or use a supported NumPy/math function")
        return self.run_entry(node, entry, args, kwargs, arg_nodes, kw_nodes, entry.name, target)

    def run_entry(self, node, entry, args, kwargs, arg_nodes, kw_nodes, name, target=None):
        args, kwargs = optional.call_args(self, node, target, name, args, kwargs, arg_nodes,
                                          kw_nodes)
        site = CallSite(node, args, kwargs, arg_nodes, kw_nodes, self.const, name=name)
        try:
            result, info = entry.infer(site)
        except NotYetKnown:
            self.unknown.append(node)
            return None
        self.tf.calls[node] = ("lib", entry, info)
        return result

    def call_jit(self, node, dispatcher, pyfunc, args, kwargs, free_names=(), free_types=(), receiver=None,
                 operand=None):
        """receiver: where the lowering finds args[0], the instance a method is
        called on (("expr", hir node), ("outer", variable) or ("new", layout));
        operand: the hir node of args[1] for an operator method."""
        import inspect

        sig = inspect.signature(pyfunc)
        try:
            bound = sig.bind(*range(len(args)), **{k: ("kw", k) for k in kwargs})
        except TypeError as exc:
            raise self.error(node, f"{pyfunc.__name__}(): {exc}") from None
        arg_types, sources = [], []
        for pname, param in sig.parameters.items():
            if pname in bound.arguments:
                marker = bound.arguments[pname]
                if isinstance(marker, tuple):
                    arg_types.append(kwargs[marker[1]])
                    sources.append(("kw", marker[1]))
                else:
                    arg_types.append(args[marker])
                    sources.append(("pos", marker))
            else:
                default = param.default
                arg_types.append(self.type_of_value(node, default))
                sources.append(("default", default))
        arg_types = tuple(arg_types) + tuple(free_types)
        sources += [("outer", name) for name in free_names]
        if receiver is not None:
            sources = [receiver if s == ("pos", 0) else ("expr", operand) if operand is not None and s[0] == "pos"
                       else ("pos", s[1] - 1) if s[0] == "pos" else s for s in sources]
        for t in arg_types:
            if isinstance(t, (T.CompileTimeValue, T.Range, T.Enumerate, T.Zip, T.DType, T.IterTools, T.DictView)):
                raise self.error(node, f"cannot pass {t} to a @jit function")
        try:
            callee = self.program.specialize(pyfunc, arg_types, tuple(free_names))
        except PathTypeConflict:
            raise  # its result would cross as an untyped object: this function runs in CPython too
        except FunctionNotCompilable as exc:
            # The helper cannot be compiled at all: this call runs as Python.
            raise UnsupportedSyntaxError(f"{pyfunc.__qualname__}() cannot be compiled: {exc.message}", node.loc,
                                         exc.hint) from None
        if callee is None:
            ret = self.program.provisional_return(pyfunc, arg_types)
            self.tf.calls[node] = ("jit", (pyfunc, arg_types), sources)
            if ret is None:
                self.unknown.append(node)
            return ret
        if callee.path_types and callee.path_types.boxes_returns:
            # Its result would reach this function as an untyped Python object, which the
            # "unknown is float64" rule could give the wrong type: all of it runs in CPython.
            raise PathTypeConflict(f"{pyfunc.__qualname__}() returns values of different types on different "
                                   "paths, so compiled code cannot type its result", node.loc,
                                   f"give {pyfunc.__name__}'s results one type on every path (e.g. 0.0, "
                                   "not 0), or convert them here")
        self.tf.calls[node] = ("jit", (pyfunc, arg_types), sources)
        return callee.return_type


RAISE_CODES = {ValueError: "TR_ERR_VALUE", IndexError: "TR_ERR_INDEX", ZeroDivisionError: "TR_ERR_ZERODIV",
               TypeError: "TR_ERR_TYPE", AssertionError: "TR_ERR_ASSERTION", OverflowError: "TR_ERR_OVERFLOW",
               MemoryError: "TR_ERR_MEMORY", RuntimeError: "TR_ERR_RUNTIME", NotImplementedError: "TR_ERR_NOTIMPL"}

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
}
EXPR_RULES.update({h.ListExpr: lists.e_ListExpr, h.ListComp: lists.e_ListComp})
EXPR_RULES.update({h.DictExpr: dicts.e_DictExpr, h.SetExpr: dicts.e_SetExpr, h.DictComp: dicts.e_DictComp,
                   h.SetComp: dicts.e_SetComp, h.FString: dicts.e_FString})
EXPR_RULES[h.Lambda] = lambdas.e_Lambda
