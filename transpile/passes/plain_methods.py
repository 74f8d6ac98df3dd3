"""@jit on a method of an ordinary class (issue 13; MindSpore's
Cell.construct pattern): `self` is a plain Python object, which compiled code
cannot hold.  When the method uses `self` only to read and assign its
attributes (`self.w`, `self.count += 1`), the method compiles as a function
of those attributes: each attribute it only reads becomes a parameter (typed
like any argument, so its type is part of the specialization), and each one
it assigns becomes a one-element list (compiled lists are written back into
the caller's list when the call ends, also when it raises), which
transpile/plain_methods.py copies back onto the object.

plan() decides whether a method qualifies; rewrite() makes the HIR of the
derived function.  Anything else -- `self` passed on, returned or compared,
its methods called, a statement that runs as Python naming it -- leaves the
method to run in CPython, as before."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..hir import nodes as h
from ..values import replace
from .hir_walk import children, rebuilt


@dataclass(frozen=True)
class Plan:
    self_name: str
    reads: tuple  # attributes only read: parameters
    writes: tuple  # attributes assigned: one-element lists

    def param(self, attr: str) -> str:
        return f"{self.self_name}__{attr}"


def plan(fn: h.Function) -> Plan | str:
    """The attributes the method reads and assigns, or why it cannot be
    compiled this way."""
    if not fn.params:
        return "it has no parameters"
    me = fn.params[0].name
    reads, writes, names = [], [], set()
    problem = []

    def visit(node, stored=False):
        if isinstance(node, h.Unsupported):
            lines = fn.file_lines[node.loc.line - 1:max(node.loc.end_line, node.loc.line)] if fn.file_lines \
                else (node.loc.source_line,)
            if re.search(rf"\b{re.escape(me)}\b", "".join(lines)):
                problem.append(f"line {node.loc.line} uses '{me}' and runs as Python")
            return
        if isinstance(node, h.Name):
            names.add(node.id)
            if node.id == me:
                problem.append(f"'{me}' is used other than through its attributes (line {node.loc.line})")
            return
        if isinstance(node, h.Call) and isinstance(node.func, h.Attribute) and _is_self(node.func.value, me):
            problem.append(f"it calls the method {me}.{node.func.attr}() (line {node.loc.line})")
            return
        if isinstance(node, h.Attribute) and _is_self(node.value, me):
            (writes if stored else reads).append(node.attr)
            return
        if isinstance(node, h.Assign):
            for t in node.targets:
                visit(t, stored=True)
            visit(node.value)
            return
        if isinstance(node, h.AugAssign):
            visit(node.target, stored=True)
            visit(node.value)
            return
        if isinstance(node, h.For) and _mentions_self_attr(node.target, me):
            problem.append(f"a for loop assigns an attribute of '{me}' (line {node.loc.line})")
            return
        if isinstance(node, h.TupleExpr) and stored:
            for e in node.elts:
                visit(e, stored=True)
            return
        for child in children(node):
            visit(child)

    for s in fn.body:
        visit(s)
    if problem:
        return problem[0]
    writes = tuple(dict.fromkeys(writes))
    reads = tuple(a for a in dict.fromkeys(reads) if a not in writes)
    out = Plan(me, reads, writes)
    taken = names | {p.name for p in fn.params}
    clash = [out.param(a) for a in reads + writes if out.param(a) in taken]
    if clash:
        return f"it already has a variable named '{clash[0]}'"
    return out


def _is_self(node, me: str) -> bool:
    return isinstance(node, h.Name) and node.id == me


def _mentions_self_attr(node, me: str) -> bool:
    if isinstance(node, h.Attribute) and _is_self(node.value, me):
        return True
    return any(_mentions_self_attr(c, me) for c in children(node))


def rewrite(fn: h.Function, p: Plan) -> h.Function:
    """The method as a function of (read attributes, assigned attributes as
    one-element lists, the other parameters)."""

    def attribute_param(node):
        if isinstance(node, h.Attribute) and _is_self(node.value, p.self_name):
            name = h.Name(node.loc, p.param(node.attr))
            if node.attr in p.writes:
                return h.Subscript(node.loc, name, (h.Const(node.loc, 0),))
            return name
        return None

    params = tuple(h.Param(fn.params[0].loc, p.param(a)) for a in p.reads + p.writes) + fn.params[1:]
    return replace(fn, params=params, body=tuple(rebuilt(s, attribute_param) for s in fn.body))
