"""Integer divisions whose divisor stays the same while a loop runs: `x % m`
or `x // m` where `m` is a name the innermost loop around the division does
not assign (`(a + b) % m` in a Fibonacci-mod loop, `(i + 1) % n` for a
periodic index).  The lowering gives each such division a cache of its
divisor's reciprocal (transpile_rt/ops/divisor.hpp), so the loop multiplies
where it divided.  The cache compares the divisor at every use and is
rebuilt when it differs, so this choice decides only speed, never a value."""
from __future__ import annotations

from ..hir import nodes as h
from .assigned import assigned_names
from ..values import fields
from .hir_walk import children

_DIVISIONS = ("%", "//")
_BODIES = ("body", "orelse")


def invariant_divisions(fn) -> set:
    """The BinOp nodes of `%` and `//` by a name, inside a loop that does not
    assign that name (lambda bodies excluded: they run where they are called)."""
    found: set = set()
    _block(fn.body, None, fn, found)
    return found


def _block(body, loop_assigns, fn, found: set) -> None:
    for stmt in body:
        inner = loop_assigns
        if isinstance(stmt, (h.For, h.While)):
            inner = assigned_names(stmt.body, set(), fn)
            if isinstance(stmt, h.For):
                _exprs(stmt.iter, loop_assigns, found)  # evaluated once, outside the loop
        for name in _expression_fields(stmt):
            value = getattr(stmt, name)
            for expr in value if isinstance(value, tuple) else (value,):
                # a while loop's test runs on every iteration: inside the loop
                _exprs(expr, inner if isinstance(stmt, h.While) else loop_assigns, found)
        for sub in _BODIES:
            _block(getattr(stmt, sub, ()), inner, fn, found)


def _expression_fields(stmt):
    skip = {"loc", *_BODIES} | ({"iter"} if isinstance(stmt, h.For) else set())
    return [f for f in fields(stmt) if f not in skip]


def _exprs(node, loop_assigns, found: set) -> None:
    if not isinstance(node, h.Node) or isinstance(node, h.Lambda):
        return
    if (loop_assigns is not None and isinstance(node, h.BinOp) and node.op in _DIVISIONS
            and isinstance(node.right, h.Name) and node.right.id not in loop_assigns):
        found.add(node)
    for child in children(node):
        _exprs(child, loop_assigns, found)
