"""Which names a function body assigns, and which values a body may return: syntactic facts typing needs first."""
from __future__ import annotations

import types

from ..hir import nodes as h
from . import fallback


def assigned_names(body, out: set, fn=None) -> set:
    for stmt in body:
        if isinstance(stmt, h.Unsupported):
            out |= fallback.written_names(fn, stmt)
        if isinstance(stmt, h.Assign):
            for t in stmt.targets:
                target_names(t, out)
        elif isinstance(stmt, h.AugAssign):
            target_names(stmt.target, out)
        elif isinstance(stmt, h.For):
            target_names(stmt.target, out)
        for sub in ("body", "orelse"):
            if hasattr(stmt, sub):
                assigned_names(getattr(stmt, sub), out, fn)
    return out


def may_return_value(body) -> bool:
    """Whether a `return <value>` may run (statements that fall back count as may)."""
    for stmt in body:
        if isinstance(stmt, h.Unsupported) or (isinstance(stmt, h.Return) and stmt.value is not None):
            return True
        if any(may_return_value(getattr(stmt, sub, ())) for sub in ("body", "orelse")):
            return True
    return False


def target_names(t, out: set) -> None:
    if isinstance(t, h.Name):
        out.add(t.id)
    elif isinstance(t, h.TupleExpr):
        for e in t.elts:
            target_names(e, out)


def find_code(code, name: str, line: int):
    """The code object of a def nested (at any depth) in `code`."""
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            if const.co_name == name and const.co_firstlineno == line:
                return const
            found = find_code(const, name, line)
            if found is not None:
                return found
    return None
