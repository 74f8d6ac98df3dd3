"""Powers of Python numbers whose result type depends on the values.

CPython's `x ** y` with a negative float (or int) x and a float y that is
not a whole number is a complex number (`(-4.0) ** 0.5` is
`(1.2246467991473532e-16+2j)`), where NumPy scalars give nan; and an int to
a negative int power is a float (`2 ** -1` is 0.5).  Compiled code holds a
power in one C++ type, so such a power compiles only where the other type
cannot come: a float power where the exponent is an int or a float constant
that is a whole number, or the base is never negative (passes/signs.py:
`x * x + 1.0`, `math.sqrt(...)`, a local only ever given such values); an
int power where the exponent is never negative (a constant, `len(...)`, or
the counter of a `for` over `range` from a non-negative start upwards,
assigned nowhere else).  Anywhere else the statement runs as Python, and
its value keeps CPython's type (or the function runs in CPython, an error
under fullgraph=True)."""
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


def _upward_range(it, tf) -> bool:
    """range(stop), or range(start, stop[, step]) with a constant start >= 0
    and a constant step > 0: every value is >= 0."""
    if not (isinstance(it, h.Call) and isinstance(it.func, h.Name) and it.func.id == "range"
            and tf.calls.get(it, ("",))[0] == "lib" and not it.keywords and 1 <= len(it.args) <= 3):
        return False
    if len(it.args) == 1:
        return True
    start, step = it.args[0], it.args[2] if len(it.args) == 3 else None
    return isinstance(start, h.Const) and type(start.value) is int and start.value >= 0 \
        and (step is None or isinstance(step, h.Const) and type(step.value) is int and step.value > 0)


def _range_counters(tf) -> set:
    """Locals assigned only as the counter of one such `for`: never negative."""
    counters, other = {}, set()
    for s in walk_body(tf.hir.body):
        if isinstance(s, h.For) and isinstance(s.target, h.Name):
            counters.setdefault(s.target.id, []).append(_upward_range(s.iter, tf))
        elif isinstance(s, (h.Assign, h.AugAssign, h.For)):
            targets = s.targets if isinstance(s, h.Assign) else (s.target,)
            other |= {n.id for t in targets for n in walk_body((t,)) if isinstance(n, h.Name)}
    return {name for name, ok in counters.items() if ok == [True] and name not in other
            and name not in tf.params and name not in tf.hir.declared_globals}


def _never_negative_int(node, tf, counters) -> bool:
    if isinstance(node, h.Const):
        return type(node.value) in (int, bool) and node.value >= 0
    if isinstance(node, h.Name):
        return node.id in counters
    return isinstance(node, h.Call) and isinstance(node.func, h.Name) and node.func.id == "len" \
        and tf.calls.get(node, ("",))[0] == "lib"


def value_dependent(tf, flag_ops) -> list:
    """The `**` operations and `**=` statements of tf computed with CPython's
    rules (both operands Python numbers, or so by flags: flag_ops) whose
    result may be of another type than compiled code holds, in source order."""
    signs = counters = None
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
            counters = _range_counters(tf) if counters is None else counters
            if not _never_negative_int(exponent, tf, counters):
                found.append(node)
            continue
        if ops.compute != "float64":
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
    for node in value_dependent(typer.tf, flag_ops):
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
