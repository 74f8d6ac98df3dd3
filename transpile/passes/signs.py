"""Float values that are never negative: `x * x`, sums and products of such
values, non-negative constants, sqrt and fabs, and the local variables that
are only ever assigned such values (`s = 0.0` then `s += t * t`).

"Never negative" means `not (v < 0)`: v is >= 0, -0.0 or NaN.  math.sqrt
raises ValueError exactly for a negative argument (a NaN gives NaN), so a
sqrt of such a value needs no check (cxx lowering: tr::math::sqrt_unchecked),
and the loop around it no throwing branch (n-body, pairwise distances).

IEEE arithmetic keeps the property: (-0.0) * (-0.0) and (-0.0) + (-0.0) are
not negative, NaN stays NaN and inf + x, inf * x with x never negative are
inf or NaN.  Division is left out (1.0 / -0.0 is -inf).  Integers are left
out too: a wrapped int64 product can be negative.
"""
from __future__ import annotations

import math

from ..hir import nodes as h
from ..hir import types as T
from ..library.registry import entry_for
from .hir_walk import walk_body


def _float(t) -> bool:
    return isinstance(t, T.Scalar) and t.kind == "f"


class Signs:
    """never_negative(node) for the expressions of one typed function."""

    def __init__(self, tf):
        self.tf = tf
        self._results = {id(e) for e in filter(None, (entry_for(math.sqrt), entry_for(math.fabs), entry_for(abs)))}
        self.vars = self._variables()

    def never_negative(self, node) -> bool:
        if isinstance(node, h.Const):
            v = node.value
            return type(v) in (int, float) and not v < 0
        if not _float(self.tf.types.get(node)):
            return False
        if isinstance(node, h.Name):
            return node.id in self.vars and node not in self.tf.consts
        if isinstance(node, h.BinOp) and node not in self.tf.calls:
            left, right = node.left, node.right
            if node.op == "*" and _same_value(left, right):
                return True
            if node.op == "**":  # an even power; or a power >= 0 of a value never negative ((-0.0) ** -1 is -inf)
                e = right.value if isinstance(right, h.Const) else None
                return type(e) is int and e % 2 == 0 or type(e) in (int, float) and e >= 0 \
                    and self.never_negative(left)
            if node.op in ("+", "*"):
                return self.never_negative(left) and self.never_negative(right)
            return False
        if isinstance(node, h.Call) and node in self.tf.calls:
            kind, entry, _ = self.tf.calls[node]
            return kind == "lib" and id(entry) in self._results
        return False

    def _variables(self) -> set:
        """Float locals assigned only by `name = value` / `name += value` /
        `name *= value` whose values are never negative, given that the
        candidates are: the greatest fixed point, starting from all."""
        defs: dict = {}
        # the caller's values, and module variables others may assign: any sign
        other: set = {p.name for p in self.tf.hir.params} | set(self.tf.hir.declared_globals)
        for s in walk_body(self.tf.hir.body):
            if isinstance(s, h.Unsupported) or s in self.tf.fallbacks:
                return set()  # Python code writes locals there: assume nothing
            if isinstance(s, h.Assign):
                if len(s.targets) == 1 and isinstance(s.targets[0], h.Name) and s.annotation is None:
                    defs.setdefault(s.targets[0].id, []).append(s)
                else:
                    other |= _names(s.targets)
            elif isinstance(s, h.AugAssign):
                if isinstance(s.target, h.Name) and s.op in ("+", "*"):
                    defs.setdefault(s.target.id, []).append(s)
                else:
                    other |= _names((s.target,))
            elif isinstance(s, h.For):  # comprehension targets are renamed apart: not locals
                other |= _names((s.target,))
        self.vars = {v for v, ds in defs.items() if v not in other and _float(self.tf.var_types.get(v))}
        changed = True
        while changed:
            changed = False
            for v in list(self.vars):
                if not all(self.never_negative(d.value) for d in defs[v]):
                    self.vars.discard(v)
                    changed = True
        return self.vars


def _names(targets) -> set:
    out = set()
    for t in targets:
        for n in walk_body((t,)):
            if isinstance(n, h.Name):
                out.add(n.id)
    return out


def _same_value(a, b) -> bool:
    """Two reads in one expression that give one value: the same variable, or
    the same element (of the same variable, at the same variables or
    constants); nothing between them can assign (no walrus in the subset)."""
    if isinstance(a, h.Name) and isinstance(b, h.Name):
        return a.id == b.id
    if isinstance(a, h.Const) and isinstance(b, h.Const):
        return type(a.value) is type(b.value) and a.value == b.value
    return isinstance(a, h.Subscript) and isinstance(b, h.Subscript) and len(a.index) == len(b.index) \
        and isinstance(a.value, h.Name) and _same_value(a.value, b.value) \
        and all(isinstance(i, (h.Name, h.Const)) and _same_value(i, j) for i, j in zip(a.index, b.index))
