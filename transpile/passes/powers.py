"""Powers of Python numbers whose result type depends on the values.

CPython's `x ** y` with a negative float (or int) x and a float y that is
not a whole number is a complex number (`(-4.0) ** 0.5` is
`(1.2246467991473532e-16+2j)`), where NumPy scalars give nan; and an int to
a negative int power is a float (`2 ** -1` is 0.5).  Compiled code holds a
power in one C++ type, so such a power compiles only where the other type
cannot come: a float power where the exponent is an int or a float constant
that is a whole number, or the base is never negative (passes/signs.py:
`x * x + 1.0`, `math.sqrt(...)`, a local only ever given such values); an
int power where the exponent is never negative (a constant, `len(...)`, a
read that only the counter of a `for` over `range` from a non-negative
start upwards reaches -- passes/reaching.py --, and sums, products,
quotients and remainders of those).  Constants are the typer's
(module constants included).  Anywhere else the statement runs as Python, and
its value keeps CPython's type (or the function runs in CPython, an error
under fullgraph=True)."""
from __future__ import annotations

import math

from ..diagnostics import PathTypeConflict
from ..hir import nodes as h
from ..hir import types as T
from ..library.base import NOT_CONST
from . import fallback
from .hir_walk import walk_body
from .path_rules import RunAsPython, statement_of
from .reaching import UNDEF
from .signs import Signs


def _lib_call(node, tf, name: str) -> bool:
    call = tf.calls.get(node) if isinstance(node, h.Call) else None
    return bool(call) and call[0] == "lib" and getattr(call[1], "name", None) == name and not node.keywords


def _whole(v) -> bool:
    """A compile-time exponent that is a whole number (an int, or a finite float with no fraction)."""
    return isinstance(v, int) or isinstance(v, float) and math.isfinite(v) and v == math.floor(v)


def _upward_range(it, typer) -> bool:
    """range(stop), or range(start, stop[, step]) with a constant start >= 0
    and a constant step > 0: every value is >= 0."""
    if not _lib_call(it, typer.tf, "range") or not 1 <= len(it.args) <= 3:
        return False
    if len(it.args) == 1:
        return True
    start, step = typer.const(it.args[0]), typer.const(it.args[2]) if len(it.args) == 3 else 1
    return type(start) is int and start >= 0 and type(step) is int and step > 0


def _never_negative_int(node, typer, reach, parent) -> bool:
    """A constant >= 0, len(...), abs(...), a read that only definitions as the
    counter of an upward range (or none: UnboundLocalError) reach, or `+`,
    `*`, `//`, `%` of such values (Python's ints do not wrap: `k + 1` of a
    counter k is never negative, so `2 ** (k + 1)` is an int in CPython)."""
    v = typer.const(node)
    if v is not NOT_CONST:
        return isinstance(v, int) and v >= 0
    if isinstance(node, h.BinOp) and node.op in ("+", "*", "//", "%"):
        ops = typer.tf.ops.get(node)
        return bool(ops) and ops.python_semantics and ops.compute == "int64" and all(
            _never_negative_int(side, typer, reach, parent) for side in (node.left, node.right))
    if _lib_call(node, typer.tf, "abs") and len(node.args) == 1:
        return True
    if isinstance(node, h.Name):
        defs = reach.uses.get(node)
        return bool(defs) and all(d == UNDEF or isinstance(parent.get(d), h.For) and parent[d].target is d
                                  and _upward_range(parent[d].iter, typer) for d in defs)
    return _lib_call(node, typer.tf, "len")


def value_dependent(typer, reach, parent, flag_ops) -> list:
    """The `**` operations and `**=` statements of the function computed with
    CPython's rules (both operands Python numbers, or so by flags: flag_ops)
    whose result may be of another type than compiled code holds, in source order."""
    tf = typer.tf
    signs = None
    found = []
    for node in walk_body(tf.hir.body):
        if isinstance(node, h.BinOp) and node.op == "**":
            base, exponent = node.left, node.right
        elif isinstance(node, h.AugAssign) and node.op == "**":
            base, exponent = node.target, node.value
        else:
            continue
        ops = tf.ops.get(node)
        if ops is None or not isinstance(ops.result, T.Scalar) or not (ops.python_semantics or node in flag_ops):
            continue
        if ops.compute == "int64" and ops.result.kind == "i":  # int ** int: a float for a negative exponent
            if not _never_negative_int(exponent, typer, reach, parent):
                found.append(node)
            continue
        if ops.compute != "float64":
            continue
        v, t = typer.const(exponent), tf.types.get(exponent)
        if _whole(v) if v is not NOT_CONST else isinstance(t, T.Scalar) and t.kind in "iub":
            continue
        signs = signs or Signs(tf)
        if isinstance(node, h.BinOp) and signs.never_negative(base):
            continue
        found.append(node)
    return found


def check(typer, reach, parent, flag_ops) -> None:
    """Raises RunAsPython for the statement of the first such power that
    still compiles, or the conflict where that statement cannot run as
    Python (fullgraph=True; the function then runs in CPython)."""
    for node in value_dependent(typer, reach, parent, flag_ops):
        stmt = statement_of(parent, node)
        if stmt in typer.tf.fallbacks or stmt in typer.python_stmts:
            continue
        if typer.tf.ops[node].compute == "int64":
            conflict = PathTypeConflict(
                "this power is a float in CPython when its exponent is negative, and compiled code holds it as "
                "an int", node.loc, "write a float base (2.0 ** n) if a float is meant, or make the exponent a "
                "range() counter or a constant")
        else:
            conflict = PathTypeConflict(
                "this power is a complex number in CPython when its base is negative and its exponent is not a "
                "whole number, and compiled code holds it as a float", node.loc,
                "if the base is never negative, say so (math.sqrt(x), abs(x) ** y); NumPy scalars (np.float64) "
                "give nan instead; complex(x) ** y always gives a complex")
        if stmt is not None and fallback.may_run_as_python(typer, stmt):
            raise RunAsPython(stmt, conflict)
        raise conflict
