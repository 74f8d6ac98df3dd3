"""Lambdas and key functions in compiled code (issue 7).

A `lambda` is lambda-lifted like a nested `def` (infer.FunctionTyper.call_closure):
it becomes a function of its own parameters plus the enclosing locals its body
reads, passed as trailing arguments with their values at the time of the call
(CPython's closures read the current values too).  The function is typed per
argument types and joins the translation unit; its HIR is made here from the
Lambda node (Program.synthetic), so it needs no source of its own.  A lambda
body that cannot be compiled makes the statement that uses the lambda fall back
(its own statement cannot run as Python: it is part of a line).

Where a lambda may appear:

* as `key=` of sorted(), min(), max() and list.sort() -- so may a nested def,
  a module-level helper, a @jit function or a library callable (abs, len);
* called directly, `(lambda x: x + 1)(y)`;
* assigned once to a local, `f = lambda x: x * k`, which is then only called
  (`f(3.0)`) or passed as `key=f`: the assignment compiles to nothing.

Anything else (a lambda passed to a helper, stored in a list, returned)
falls back with the reason.
"""
from __future__ import annotations

import builtins
from dataclasses import dataclass

from ..diagnostics import FULLGRAPH_NOTE, FunctionNotCompilable, MultipleErrors, TypingError, UnsupportedSyntaxError
from ..hir import nodes as h
from ..hir import types as T
from ..library import lookup_callable
from ..library.base import NOT_CONST
from ..library.container_rules import SET_ORDER_HINT, set_order_problem
from .hir_walk import children
from .targets import is_user_function, jit_target

PASS = object()  # lambdas.call(): not a call this module handles
KEYED = {"sorted": builtins.sorted, "min": builtins.min, "max": builtins.max}


@dataclass(eq=False)
class LambdaFn:
    """The compile-time value of a lambda expression."""

    node: h.Lambda
    stub: object  # a Python function with the lambda's signature and globals (the key of its specializations)
    free: tuple  # enclosing locals the body reads

    def __repr__(self):
        return "lambda"


# ---- making the lifted function ------------------------------------------------------

def _names(node, out: set) -> set:
    if isinstance(node, h.Name):
        out.add(node.id)
    for child in children(node):
        _names(child, out)
    return out


def lambda_fn(typer, node: h.Lambda) -> LambdaFn:
    program = typer.program
    stubs = program.__dict__.setdefault("lambda_stubs", {})
    stub = stubs.get(node)
    if stub is None:
        fn = typer.fn
        code = compile(f"lambda {', '.join(node.params)}: None", fn.filename or "<lambda>", "eval")
        stub = eval(code, typer.globals)  # noqa: S307 - a stub: the lambda's signature and globals
        stub.__qualname__ = f"{fn.qualname}.<lambda>"
        params = tuple(h.Param(node.loc, p) for p in node.params)
        hir = h.Function(node.loc, f"lambda_l{node.loc.line}", stub.__qualname__, params,
                         (h.Return(node.body.loc, node.body),), fn.filename, fn.first_line, fn.source, fn.file_lines)
        program.synthetic[stub] = hir
        stubs[node] = stub
    local_lambdas = getattr(typer, "local_lambdas", {})
    free = sorted(n for n in _names(node.body, set()) - set(node.params)
                  if n in typer.locals and n not in local_lambdas and n not in typer.local_defs)
    return LambdaFn(node, stub, tuple(free))


def e_Lambda(typer, node: h.Lambda):
    """A lambda as a value: only calls and key= read it (others reject a compile-time value)."""
    return T.CompileTimeValue(lambda_fn(typer, node))


def specialize(typer, call_node, target, pyfunc, args, free, kwargs=None):
    """Types the call of a lambda / local def / helper with `args` (+ the free
    variables); None while a type is unknown."""
    free_types = []
    for name in free:
        t = typer.tf.var_types.get(name)
        if t is None:
            typer.unknown.append(call_node)
            return None
        free_types.append(t)
    try:
        return typer.call_jit(call_node, target, pyfunc, list(args), kwargs or {}, tuple(free), tuple(free_types))
    except (MultipleErrors, UnsupportedSyntaxError, TypingError) as exc:
        if pyfunc not in typer.program.synthetic:
            raise
        errors = exc.errors if isinstance(exc, MultipleErrors) else [exc]
        first = errors[0]
        message = first.message.replace(FULLGRAPH_NOTE, "")
        where = f" (line {first.loc.line})" if first.loc is not None and first.loc.line != call_node.loc.line else ""
        raise UnsupportedSyntaxError(f"the lambda cannot be compiled: {message}{where}", call_node.loc,
                                     first.hint) from None


# ---- lambdas assigned to locals -------------------------------------------------------

def _walk_exprs(node, parent_call, out: list):
    """(Name, how it is used) for every Name under node: 'call' (the function of
    a call), 'key' (the key= of a call), 'other'."""
    if isinstance(node, h.Name):
        out.append((node, "other"))
        return
    if isinstance(node, h.Call):
        if isinstance(node.func, h.Name):
            out.append((node.func, "call"))
        else:
            _walk_exprs(node.func, None, out)
        for a in node.args:
            _walk_exprs(a, None, out)
        for k in node.keywords:
            if k.name == "key" and isinstance(k.value, h.Name) and _keyed_call(node):
                out.append((k.value, "key"))
            else:
                _walk_exprs(k.value, None, out)
        return
    for child in children(node):
        _walk_exprs(child, None, out)


def _keyed_call(node: h.Call) -> bool:
    f = node.func
    return (isinstance(f, h.Name) and f.id in KEYED) or (isinstance(f, h.Attribute) and f.attr == "sort")


def find_local_lambdas(typer) -> dict:
    """name -> Lambda node of `name = lambda ...` assigned once and only called
    or passed as key= (anything else: the assignment falls back, with the reason)."""
    from . import fallback

    counts, candidates, uses = {}, {}, []

    def count(name):
        counts[name] = counts.get(name, 0) + 1

    def targets(t):
        if isinstance(t, h.Name):
            count(t.id)
        elif isinstance(t, h.TupleExpr):
            for e in t.elts:
                targets(e)

    def visit(stmts):
        for s in stmts:
            if isinstance(s, h.Unsupported):
                for n in fallback.written_names(typer.fn, s):
                    count(n)
                for n in fallback.analyse(typer.fn, s).loads:
                    count(n)  # read by Python code: not a compiled-only lambda
                continue
            if isinstance(s, h.Assign):
                for t in s.targets:
                    targets(t)
                if len(s.targets) == 1 and isinstance(s.targets[0], h.Name) and isinstance(s.value, h.Lambda):
                    candidates[s.targets[0].id] = s
                    _walk_exprs(s.value.body, None, uses)
                    continue
            elif isinstance(s, h.AugAssign):
                targets(s.target)
            elif isinstance(s, h.For):
                targets(s.target)
            for child in children(s):
                if isinstance(child, h.Expr):
                    _walk_exprs(child, None, uses)
            for sub in ("body", "orelse"):
                if hasattr(s, sub):
                    visit(getattr(s, sub))

    visit(typer.fn.body)
    params = {p.name for p in typer.fn.params}
    bad = {n.id for n, how in uses if how == "other"}
    return {name: s for name, s in candidates.items()
            if counts.get(name) == 1 and name not in params and name not in bad and name not in typer.local_defs}


def is_local_lambda(typer, s) -> bool:
    """s_Assign: `f = lambda ...` of a local lambda compiles to nothing."""
    if not isinstance(s.value, h.Lambda):
        return False
    if len(s.targets) == 1 and isinstance(s.targets[0], h.Name) \
            and getattr(typer, "local_lambdas", {}).get(s.targets[0].id) is s:
        return True
    if len(s.targets) == 1 and isinstance(s.targets[0], h.Name) and not lambda_fn(typer, s.value).free:
        return False  # a function value (passes/function_values.py): the variable holds it
    raise UnsupportedSyntaxError("a lambda reading local variables stored in a variable is compiled only when the "
                                 "variable is assigned once and only called or passed as key= of sorted(), min(), "
                                 "max() or list.sort()", s.loc)


def check_fallback(typer, stmt, names) -> None:
    """A statement that runs as Python cannot see a lambda that exists only in compiled code
    (assigned to a local, or passed here as a function value: passes/function_values.py)."""
    if typer.fullgraph:
        return
    for n in sorted(names):
        if any(f.fn in typer.program.synthetic for f in T.functions_in(typer.tf.var_types.get(n) or T.NONE)):
            raise FunctionNotCompilable(f"'{n}' holds a lambda made in compiled code and is read by a statement "
                                        "that runs as Python", stmt.loc, "the whole function runs in CPython")
    for n in sorted(names):
        if n in getattr(typer, "local_lambdas", {}):
            raise FunctionNotCompilable(f"the lambda '{n}' is used by a statement that runs as Python", stmt.loc,
                                        "the whole function runs in CPython")


# ---- calls ----------------------------------------------------------------------------

def call(typer, node: h.Call):
    """Calls this module types: of a lambda, of a local lambda, and
    sorted/min/max/list.sort with key=.  PASS for every other call."""
    func = node.func
    if isinstance(func, h.Lambda) or (isinstance(func, h.Name) and func.id in getattr(typer, "local_lambdas", {})):
        lam = func if isinstance(func, h.Lambda) else typer.local_lambdas[func.id].value
        typed = typer.call_arguments(node)
        if typed is None:
            return None
        args, kwargs = typed
        lf = lambda_fn(typer, lam)
        return specialize(typer, node, lf.stub, lf.stub, args, lf.free, kwargs)
    local = getattr(typer, "local_lambdas", {})
    for a in list(node.args) + [k.value for k in node.keywords if k.name != "key"]:
        if isinstance(a, h.Lambda) and not lambda_fn(typer, a).free:
            continue  # a function value (passes/function_values.py)
        if isinstance(a, h.Lambda) or (isinstance(a, h.Name) and a.id in local):
            raise UnsupportedSyntaxError("passing a lambda to a function is not supported in compiled code", a.loc,
                                         "compiled code calls lambdas directly and as key= of sorted(), min(), "
                                         "max() and list.sort()")
    if not any(k.name == "key" for k in node.keywords):
        return PASS
    if isinstance(func, h.Name) and func.id in KEYED and func.id not in typer.locals \
            and typer.global_value(func.id) is KEYED[func.id]:
        return key_call(typer, node, func.id)
    if isinstance(func, h.Attribute) and func.attr == "sort":
        recv = typer.expr(func.value)
        if recv is None:
            return None
        if isinstance(recv, T.List):
            return key_call(typer, node, "sort", recv)
    return PASS


@dataclass(eq=False)
class KeyInfo:
    which: str  # sorted, min, max, sort
    kind: str  # list, tuple, array, range, generator
    elem: T.Type
    keycall: h.Call  # synthetic call of the key function (its tf.calls entry is the specialization)
    iter_node: object
    asks_python: bool = False  # a sort by float keys: with a NaN key, CPython's sort decides (listsort.py)


def _elements(typer, node, t):
    """(element type, kind) of what sorted/min/max iterate."""
    if isinstance(t, T.List):
        if t.elem is None:
            typer.unknown.append(node)
        return t.elem, "list"
    if isinstance(t, T.Generator):
        return t.elt, "generator"
    if isinstance(t, T.Range):
        return T.INT, "range"
    if isinstance(t, T.Tuple):
        if not t.items or t.homogeneous is None:
            raise typer.error(node, f"key= over the tuple {t} is not supported in compiled code",
                              "use a list of one element type")
        return t.homogeneous, "tuple"
    if isinstance(t, T.Array) and t.ndim >= 1:
        if t.ndim == 1:
            return t.scalar, "array"
        return T.Array(t.dtype, t.ndim - 1, "C" if t.layout == "C" else "A", t.readonly), "array"
    if isinstance(t, T.Set):  # ties under key= are kept in the set's order
        raise typer.error(node, set_order_problem(t, "key="), SET_ORDER_HINT)
    if isinstance(t, (T.Dict, T.DictView)):  # iterated into a new list first
        from ..library.base import NotYetKnown
        from ..library.lists import _seq_elem

        try:
            return _seq_elem(None, t)[0], "iterable"
        except NotYetKnown:
            typer.unknown.append(node)
            return None, "iterable"
    raise typer.error(node, f"key= over {t} is not supported in compiled code",
                      "iterate a list, tuple, range or 1-d array")


def _orderable(typer, node, t):
    if isinstance(t, T.Scalar) and t.kind != "c" or t == T.STR:  # strs: by code points (UTF-8's byte order)
        return
    if isinstance(t, T.Tuple):
        for i in t.items:
            _orderable(typer, node, i)
        return
    if isinstance(t, T.List) and t.elem is not None:
        _orderable(typer, node, t.elem)
        return
    raise typer.error(node, f"key functions returning {t} are not supported in compiled code",
                      "return a number, a str or a tuple of them")


def key_target(typer, key_node):
    """(dispatcher, pyfunc, free names) of a key= value."""

    if isinstance(key_node, h.Lambda):
        lf = lambda_fn(typer, key_node)
        return lf.stub, lf.stub, lf.free
    if isinstance(key_node, h.Name) and key_node.id in getattr(typer, "local_lambdas", {}):
        lf = lambda_fn(typer, typer.local_lambdas[key_node.id].value)
        return lf.stub, lf.stub, lf.free
    if isinstance(key_node, h.Name) and key_node.id in typer.local_defs:
        fn = typer.local_defs[key_node.id][1]
        for name in fn.__code__.co_freevars:
            if name not in typer.locals:
                raise UnsupportedSyntaxError(f"nested function {fn.__name__}() uses '{name}' from an enclosing "
                                             "scope other than this function", key_node.loc)
        return fn, fn, tuple(fn.__code__.co_freevars)
    value = typer.const(key_node)
    if value is NOT_CONST:
        raise UnsupportedSyntaxError("key= must be a lambda, a function defined in this function or a module-level "
                                     "function to be compiled", key_node.loc)
    pyfunc = jit_target(value)
    if pyfunc is not None:
        return value, pyfunc, ()
    if is_user_function(value):
        return value, value, ()
    if lookup_callable(value) is not None:  # key=abs: compiled as lambda x: abs(x)
        wrappers = typer.program.__dict__.setdefault("key_wrappers", {})
        lam = wrappers.get(key_node)
        if lam is None:
            lam = h.Lambda(key_node.loc, ("x",), h.Call(key_node.loc, key_node, (h.Name(key_node.loc, "x"),)))
            wrappers[key_node] = lam
        lf = lambda_fn(typer, lam)
        return lf.stub, lf.stub, ()
    raise UnsupportedSyntaxError(f"key={getattr(value, '__name__', value)!s} is not supported in compiled code",
                                 key_node.loc)


def key_call(typer, node: h.Call, which: str, recv=None):
    kw = {k.name: k.value for k in node.keywords}
    allowed = {"key", "reverse"} if which in ("sorted", "sort") else {"key"}
    for name in kw:
        if name not in allowed:
            raise UnsupportedSyntaxError(f"{which}() with key= and {name}= is not supported in compiled code",
                                         node.loc)
    if which == "sort":
        if node.args:
            raise typer.error(node, "sort() takes no positional arguments")
        if recv.frozen:
            raise typer.error(node, "'tuple' object has no attribute 'sort'")
        iter_node = node.func.value
        elem, kind = _elements(typer, iter_node, recv)
    else:
        if len(node.args) != 1:
            raise UnsupportedSyntaxError(f"{which}() of several arguments with key= is not supported in compiled "
                                         "code", node.loc, f"pass one iterable: {which}((a, b), key=...)")
        iter_node = node.args[0]
        t = typer.expr(iter_node)
        if t is None:
            return None
        elem, kind = _elements(typer, iter_node, t)
    if "reverse" in kw:
        rev = typer.expr(kw["reverse"])
        if rev is not None and not (isinstance(rev, T.Scalar) and rev.kind in "biu"):
            raise typer.error(node, f"{which}(reverse=) needs a bool")
    key_node = kw["key"]
    if isinstance(key_node, h.Const) and key_node.value is None:
        raise UnsupportedSyntaxError(f"{which}(key=None) is not supported in compiled code", node.loc,
                                     "leave key= out")
    if elem is None:
        return None
    keycalls = typer.__dict__.setdefault("keycalls", {})
    keycall = keycalls.get(node)
    if keycall is None:
        keycall = h.Call(key_node.loc, key_node, (h.Name(key_node.loc, "__key_item"),))
        keycalls[node] = keycall
    target, pyfunc, free = key_target(typer, key_node)
    ret = specialize(typer, keycall, target, pyfunc, [elem], free)
    if ret is None:
        return None
    _orderable(typer, key_node, ret)
    floats = which in ("sort", "sorted") and isinstance(ret, T.Scalar) and ret.kind == "f"
    typer.tf.calls[node] = ("keyfn", which, KeyInfo(which, kind, elem, keycall, iter_node, floats))
    if which == "sort":
        return T.NONE
    if which == "sorted":
        return T.List(elem)
    return elem
