"""Module-level values seen by compiled code as CPython sees them.

* Immutable values (numbers, NumPy scalars, tuples of them, None, str) read
  by name are frozen into the generated code; the specialization keeps a
  guard on the binding (identity, checked by the bridge at each call) and is
  rebuilt when the name is rebound to a different value.
* Names the function declares `global` are read by statements that run as
  Python, as its stores are: those rebind them, to values of any type.
* Mutable ones are read when the code runs: a module-level NumPy array is
  the caller's object (compiled code reads and writes it in place), and a
  number or array that is an attribute of a global object (`gp.v` with `gp`
  a module of the user's project, a plain object or a @jit_class instance)
  is read live.  Such values are *live reads*: each compiled function reads
  them all with one Python callback when it starts and again after each of
  its fallback regions (Python code may have rebound them), into locals
  that the code uses; their types are guarded at each call.

The typer records each read here (`Program.live_globals`); the lowering
emits the callback (cxx/lower.py) and the dispatcher turns the records into
the bridge's per-call guards (dispatcher.py)."""
from __future__ import annotations

import sys
import types
from dataclasses import dataclass

import numpy as np

from ..diagnostics import UnsupportedSyntaxError
from ..hir import nodes as h
from ..hir import types as T

# Guard kinds, as the dispatcher stores them: what the value is compared on.
VALUE = "value"  # frozen: identity at each call, then the value's hash
TYPE = "type"  # a live scalar: its Python type
ARRAY = "array"  # a live array: identity at each call, then dtype/ndim/writability


@dataclass(frozen=True)
class LiveRead:
    """tf.consts marker of a Name/Attribute read live into local `var`."""

    var: str
    text: str  # the expression, as Python evaluates it in the callback


def name(typer, node: h.Name, value, t: T.Type) -> T.Type:
    """A module-level name whose value compiled code reads (not a local)."""
    key = (getattr(typer.tf.pyfunc, "__module__", ""), node.id, ())
    if isinstance(value, np.ndarray):
        t = live_type(value, t)
        _live(typer, node, node.id, node.id, t)
        typer.program.live_globals[key] = (ARRAY, signature(value))
        return t
    if node.id in typer.fn.declared_globals:
        # rebound by the function's own statements (which run as Python) to values of any type
        raise UnsupportedSyntaxError(f"reading '{node.id}', which this function declares global", node.loc)
    typer.tf.consts[node] = value
    typer.program.global_deps[key[:2]] = value
    return t


def attribute(typer, node: h.Attribute, base, value, t: T.Type) -> T.Type:
    """base.attr where base is a compile-time object: live when base is an
    object the user's code may change, frozen (as before) for library
    modules, classes and functions."""
    if isinstance(t, T.CompileTimeValue):
        return t  # np.float64, a submodule: the chain goes on
    chain = _chain(node)
    if chain is None or not _changeable(base):
        typer.tf.consts[node] = value
        return t
    root, attrs = chain
    key = (getattr(typer.tf.pyfunc, "__module__", ""), root, attrs)
    text = ".".join((root,) + attrs)
    if isinstance(t, T.Array):
        t = live_type(value, t)
        typer.program.live_globals[key] = (ARRAY, signature(value))
    elif isinstance(t, T.Scalar):
        typer.program.live_globals[key] = (TYPE, signature(value))
    else:  # tuples, None: frozen, rebuilt when rebound
        typer.tf.consts[node] = value
        typer.program.live_globals[key] = (VALUE, value)
        return t
    _live(typer, node, "tr_live_" + "_".join((root,) + attrs), text, t)
    return t


def _live(typer, node, var: str, text: str, t: T.Type) -> None:
    typer.tf.consts[node] = LiveRead(var, text)
    old = typer.tf.var_types.get(var)
    if old != t:
        typer.tf.var_types[var] = t
        typer.changed = True


def live_type(value: np.ndarray, t: T.Array) -> T.Array:
    """Any strides (the global may be rebound to a strided array while the
    code runs), writable unless the array is not."""
    return T.Array(t.dtype, t.ndim, "A", readonly=not value.flags.writeable)


def signature(value) -> str:
    """What a live array's compiled type depends on."""
    return f"{value.dtype.str} {value.ndim} {'ro' if not value.flags.writeable else 'rw'}" \
        if isinstance(value, np.ndarray) else type(value).__qualname__


def _chain(node):
    """(root name, attribute names) of a chain like gp.v or cfg.sub.v."""
    attrs = []
    while isinstance(node, h.Attribute):
        attrs.append(node.attr)
        node = node.value
    return (node.id, tuple(reversed(attrs))) if isinstance(node, h.Name) else None


def _changeable(base) -> bool:
    """Objects whose attributes user code rebinds: modules of the user's
    project and plain objects (not classes, functions or library modules)."""
    if isinstance(base, types.ModuleType):
        top = base.__name__.split(".")[0]
        path = getattr(base, "__file__", None) or ""
        return not (top in sys.stdlib_module_names or "site-packages" in path or "dist-packages" in path
                    or top in ("numpy", "transpile") or not path)
    return not isinstance(base, (type, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
                                 np.dtype, np.ufunc))


def reads(tf) -> list:
    """The live reads of one function: [(var, text, type)], deduplicated, in
    a stable order."""
    seen = {}
    for value in tf.consts.values():
        if isinstance(value, LiveRead):
            seen[value.var] = value.text
    return [(var, text, tf.var_types[var]) for var, text in sorted(seen.items())]
