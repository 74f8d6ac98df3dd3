"""Python's evaluation order where C++ leaves it unspecified.

CPython evaluates a call's arguments and a binary operator's operands left
to right; C++ does not order function arguments or the operands of `+`, `*`,
... . The order is visible only when two of them can raise (the first
exception wins: `atan2(sqrt(-1.0), x[5])` is sqrt's ValueError, not
IndexError), so only then are the operands evaluated into temporaries, in a
lambda so that the expression stays one expression (it may sit in a
condition or a short-circuited operand). Names, literals and arithmetic
that cannot raise need nothing."""
from __future__ import annotations

from ..hir import nodes as h
from ..hir import types as T
from .model import CExpr

# Operators on scalars that never raise (ints wrap as NumPy's do; float
# results are IEEE values); the rest (/, //, %, **, <<, >>, @) may.
_QUIET_OPS = {"+", "-", "*", "&", "|", "^"}


def may_raise(tf, node, unbound=frozenset()) -> bool:
    """Whether evaluating node can raise (conservative: unknown means yes);
    `unbound`: the reads that may find their variable unassigned."""
    if node in tf.coerce or node in tf.calls:  # a fallback value converted; a @jit_class method or property
        return True
    if isinstance(node, (h.Name, h.Const)):
        return node in unbound  # UnboundLocalError
    t = tf.types.get(node)
    if isinstance(t, T.Array):  # array operations may raise on shapes (broadcasting)
        return True
    if isinstance(node, h.Attribute):
        return may_raise(tf, node.value, unbound)
    if isinstance(node, h.UnaryOp):
        return may_raise(tf, node.operand, unbound)
    if isinstance(node, h.BinOp):
        return node.op not in _QUIET_OPS or may_raise(tf, node.left, unbound) or may_raise(tf, node.right, unbound)
    if isinstance(node, h.Compare):
        return any(may_raise(tf, n, unbound) for n in (node.left, *node.comparators))
    if isinstance(node, h.BoolOp):
        return any(may_raise(tf, n, unbound) for n in node.values)
    if isinstance(node, h.IfExp):
        return any(may_raise(tf, n, unbound) for n in (node.test, node.body, node.orelse))
    if isinstance(node, h.TupleExpr):
        return any(may_raise(tf, n, unbound) for n in node.elts)
    return True  # calls, subscripts (index checks), containers, ...


def needs_order(lower, nodes) -> list[int]:
    """Positions among nodes (in Python's evaluation order) to evaluate into
    temporaries: those that may raise, when there are two or more and each is
    a scalar (a C++ value: lazy array expressions are not copied)."""
    raising = [i for i, n in enumerate(nodes) if may_raise(lower.tf, n, lower.unbound.reads)]
    if len(raising) < 2 or not all(isinstance(lower.tf.types.get(nodes[i]), T.Scalar) for i in raising):
        return []
    return raising


def in_order(lower, codes: list[CExpr], positions: list[int], build) -> CExpr:
    """build(codes) with codes[positions] evaluated first, left to right.
    Statements the lowering hoists while building go inside the lambda, after
    the temporaries they may use."""
    codes = list(codes)
    decls = []
    for i in positions:
        name = lower.tmp("o")
        decls.append(f"auto {name} = {codes[i].code};")
        codes[i] = CExpr(name)
    outer, lower.pre = lower.pre, []
    try:
        out = build(codes)
        inner = lower.pre
    finally:
        lower.pre = outer
    return CExpr("([&]() { " + " ".join(decls + inner) + f" return {out.code}; }}())")
