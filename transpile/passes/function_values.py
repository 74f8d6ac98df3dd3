"""Functions as values in the typer (issue 13; the type: hir/functions.py).

A function named in compiled code is a compile-time value (its calls are
resolved while compiling).  Where it is used as a value -- passed to a
compiled function, stored in a variable, put in a tuple, returned -- it
becomes a T.Function, typed by its identity, so a callee is specialized for
it and calls it directly.  Calling a function value is calling that function:
a @jit function or a helper of the project compiles with the caller (a lambda
made here is its lifted function), a library callable is the library's call,
and anything else (a closure, a function of another package) makes the
calling statement run as Python, which receives the function object.

A lambda made in compiled code exists only there: one that reads enclosing
locals is not turned into a value (its statement runs as Python), and a
statement running as Python may not read a variable holding one (the whole
function runs in CPython)."""
from __future__ import annotations

from ..diagnostics import UnsupportedSyntaxError
from ..hir import nodes as h
from ..hir import types as T
from ..library import lookup_callable
from . import lambdas
from .targets import is_function_value, is_user_function, jit_target


def as_value(typer, node, t):
    """t, the type of expression `node`, as a value that is stored, passed or
    returned: a function becomes a T.Function (recorded as node's type, for
    the lowering); other types are returned unchanged."""
    if not isinstance(t, T.CompileTimeValue):
        return t
    value = t.value
    if isinstance(value, lambdas.LambdaFn):
        if value.free:
            raise UnsupportedSyntaxError("a lambda that reads local variables cannot be passed or stored in "
                                         "compiled code", node.loc, "define it at module level, or pass the values "
                                         "it reads as arguments")
        out = T.Function(value.stub)
    elif isinstance(node, (h.Name, h.Attribute)) and is_function_value(value) \
            and not isinstance(value, type):
        out = T.Function(value)
    elif isinstance(node, h.TupleExpr) and isinstance(value, tuple) and len(value) == len(node.elts):
        items = tuple(as_value(typer, e, typer.tf.types.get(e)) for e in node.elts)
        if not all(isinstance(i, T.Function) for i in items):
            return t
        out = T.Tuple(items)
    else:
        return t
    typer.tf.types[node] = out
    return out


def call(typer, node: h.Call, fn, args, kwargs):
    """The call of function value `fn` with argument types args/kwargs."""
    if fn in typer.program.synthetic:  # a lambda made in compiled code, passed here
        return lambdas.specialize(typer, node, fn, fn, args, (), kwargs)
    pyfunc = jit_target(fn)
    if pyfunc is None and is_user_function(fn):
        pyfunc = fn
    if pyfunc is not None:
        return typer.call_jit(node, fn, pyfunc, args, kwargs)
    if lookup_callable(fn) is not None:
        return typer.call_entry(node, fn, args, kwargs, list(node.args), {k.name: k.value for k in node.keywords})
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)
    why = "a closure" if getattr(fn, "__closure__", None) else "not a function compiled code can compile"
    raise UnsupportedSyntaxError(f"the function value {name} is {why}: its call runs as Python", node.loc)

