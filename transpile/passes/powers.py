"""Powers whose CPython result may be a complex number.

CPython's `x ** y` with a negative float (or int) x and a float y that is
not a whole number is a complex number (`(-4.0) ** 0.5` is
`(1.2246467991473532e-16+2j)`), where NumPy scalars give nan.  Compiled code
holds a Python float power in a double, so such a power compiles only where
the complex case cannot happen: the exponent is an int or a float constant
that is a whole number, or the base is never negative (passes/signs.py:
`x * x + 1.0`, `math.sqrt(...)`, a local only ever given such values).
Anywhere else the statement runs as Python, and its value keeps CPython's
type (or the function runs in CPython, an error under fullgraph=True)."""
from __future__ import annotations

import math

from ..diagnostics import PathTypeConflict
from ..hir import nodes as h
from ..hir import types as T
from . import fallback
from .hir_walk import walk_body
from .path_rules import RunAsPython, statement_of
from .signs import Signs


def _integral(node, t) -> bool:
    """An exponent that is a whole number whatever its value."""
    while isinstance(node, h.UnaryOp) and node.op in ("-", "+") and isinstance(node.operand, (h.Const, h.UnaryOp)):
        node = node.operand  # -1.0
    if isinstance(node, h.Const) and type(node.value) is float:
        return math.isfinite(node.value) and node.value == math.floor(node.value)
    return isinstance(t, T.Scalar) and t.kind in "iub"


def maybe_complex(tf, flag_ops) -> list:
    """The `**` operations and `**=` statements of tf computed with CPython's
    float rules (both operands Python numbers, or so by flags: flag_ops)
    whose result may be complex, in source order."""
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
        if ops is None or ops.compute != "float64" or not isinstance(ops.result, T.Scalar):
            continue
        if not (ops.python_semantics or node in flag_ops):
            continue
        if _integral(exponent, tf.types.get(exponent)):
            continue
        signs = signs or Signs(tf)
        if isinstance(node, h.BinOp) and signs.never_negative(base):
            continue
        found.append(node)
    return found


def check(typer, parent, flag_ops) -> None:
    """Raises RunAsPython for the statement of the first such power that
    still compiles, or the conflict where that statement cannot run as
    Python (fullgraph=True; the function then runs in CPython)."""
    for node in maybe_complex(typer.tf, flag_ops):
        stmt = statement_of(parent, node)
        if stmt in typer.tf.fallbacks or stmt in typer.python_stmts:
            continue
        conflict = PathTypeConflict(
            "this power is a complex number in CPython when its base is negative and its exponent is not a "
            "whole number, and compiled code holds it as a float", node.loc,
            "if the base is never negative, say so (math.sqrt(x), abs(x) ** y); NumPy scalars (np.float64) give "
            "nan instead; complex(x) ** y always gives a complex")
        if stmt is not None and fallback.may_run_as_python(typer, stmt):
            raise RunAsPython(stmt, conflict)
        raise conflict
