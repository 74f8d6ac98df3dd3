"""Float sums a loop only accumulates, kept scalar (TR_IN_ORDER,
runtime_cpp/transpile_rt/in_order.hpp).

Python adds the terms of `s += a[i] * b[i]` in order, so GCC may vectorize
such a loop only as an in-order reduction: the products in vectors, then
each lane added to s one after another.  The adds remain one chain, as in
the scalar loop, and a shuffle per lane comes on top: bench_core's dot
(1e6 elements) 1.40 ms vectorized against 0.86 ms scalar, pairwise's
three-term sums 2.75 ms against 2.33 ms (-O3 -march=native, AVX-512).
Numba (LLVM) leaves these loops scalar.  So an innermost loop whose body
only assigns float locals from loads and + - * (at least one of them a sum
`s += ...`) stays scalar; a loop with a division, a sqrt or a call in it
(n-body) gains from vectors in spite of its in-order sums and is left to
the vectorizer, as is a loop that also stores.
"""
from __future__ import annotations

from ..hir import nodes as h
from ..hir import types as T

HEADER = "transpile_rt/in_order.hpp"


def in_order_sums(tf, loop: h.For) -> list[str]:
    """The float locals `loop` sums in order, when its body is nothing else
    than cheap float arithmetic on locals; else []."""
    sums = set()
    for stmt in loop.body:
        if isinstance(stmt, h.AugAssign) and isinstance(stmt.target, h.Name):
            target, value, adds = stmt.target, stmt.value, stmt.op in ("+", "-")
        elif isinstance(stmt, h.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], h.Name) \
                and stmt.annotation is None:
            target, value = stmt.targets[0], stmt.value
            adds = isinstance(value, h.BinOp) and value.op in ("+", "-") and isinstance(value.left, h.Name) \
                and value.left.id == target.id
        else:
            return []
        t = tf.var_types.get(target.id)
        if stmt in tf.fallbacks or not (isinstance(t, T.Scalar) and t.dtype in ("float32", "float64")) \
                or not _cheap(tf, value):
            return []
        paths = tf.path_types
        if paths and target.id in paths.boxed:  # a value in one of several slots (a tagged one is one variable)
            return []
        if adds:
            sums.add(target.id)
    return sorted(sums)


def _cheap(tf, node) -> bool:
    """Loads, names, constants and + - * of numbers: nothing a vector unit does much faster."""
    if isinstance(node, h.Const):
        return True
    t = tf.types.get(node)
    if not (isinstance(t, T.Scalar) and t.kind in "iuf"):
        return False
    if isinstance(node, h.Name):
        return True
    if isinstance(node, h.UnaryOp):
        return node.op in ("-", "+") and _cheap(tf, node.operand)
    if isinstance(node, h.BinOp):
        return node not in tf.calls and node.op in ("+", "-", "*") and _cheap(tf, node.left) and _cheap(tf, node.right)
    if isinstance(node, h.Subscript):
        info = tf.subscripts.get(node)
        return info is not None and info.kind == "element" and isinstance(node.value, h.Name) \
            and all(_cheap(tf, i) for i in node.index)
    return False
