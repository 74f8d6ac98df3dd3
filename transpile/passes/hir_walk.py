"""Walking the HIR for what statements and expressions read and write:
the facts the prange analysis (parallel.py), the device-array check and
lambda lifting share."""
from __future__ import annotations

from ..hir import nodes as h
from ..values import fields, replace


def children(node):
    for field_name in fields(node):
        if field_name == "loc":
            continue
        value = getattr(node, field_name)
        if isinstance(value, h.Node):
            yield value
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, h.Node):
                    yield item


def rebuilt(node, change):
    """node with every node under it that change(n) maps to a new node (not
    None) replaced by it; the rest is shared with the original tree."""
    new = change(node)
    if new is not None:
        return new
    changes = {}
    for field_name in fields(node):
        value = getattr(node, field_name)
        if isinstance(value, h.Node):
            item = rebuilt(value, change)
            if item is not value:
                changes[field_name] = item
        elif isinstance(value, tuple) and any(isinstance(v, h.Node) for v in value):
            items = tuple(rebuilt(v, change) if isinstance(v, h.Node) else v for v in value)
            if any(a is not b for a, b in zip(items, value)):
                changes[field_name] = items
    return replace(node, **changes) if changes else node


def walk(node):
    """Every node under node (node included), statements and expressions."""
    yield node
    for child in children(node):
        yield from walk(child)


def walk_body(stmts):
    for s in stmts:
        yield from walk(s)


def expr_reads(node, out: list, bound=frozenset()) -> list:
    """Name nodes an expression reads (generator targets excluded)."""
    if isinstance(node, h.Name):
        if node.id not in bound:
            out.append(node)
    elif isinstance(node, h.GenExp):
        inner = bound | set(_target_names(node.target))
        expr_reads(node.iter, out, bound)
        expr_reads(node.elt, out, inner)
        for c in node.conds:
            expr_reads(c, out, inner)
    elif node is not None:
        for child in children(node):
            expr_reads(child, out, bound)
    return out


def _target_names(t) -> list:
    if isinstance(t, h.Name):
        return [t.id]
    if isinstance(t, h.TupleExpr):
        return [n for e in t.elts for n in _target_names(e)]
    return []


def genexp_targets(node) -> list:
    return [n for sub in walk(node) if isinstance(sub, h.GenExp) for n in _target_names(sub.target)]


def _target_reads(t, out: list) -> None:
    """Names a store target reads (a[i] = ... reads a and i)."""
    if isinstance(t, h.Subscript):
        expr_reads(t, out)
    elif isinstance(t, h.TupleExpr):
        for e in t.elts:
            _target_reads(e, out)


def stmt_reads(s) -> list:
    """Names the statement itself reads (not those of nested bodies)."""
    out: list = []
    if isinstance(s, h.Assign):
        expr_reads(s.value, out)
        for t in s.targets:
            _target_reads(t, out)
    elif isinstance(s, h.AugAssign):
        expr_reads(s.value, out)
        if isinstance(s.target, h.Name):
            out.append(s.target)
        else:
            _target_reads(s.target, out)
    elif isinstance(s, (h.If, h.While)):
        expr_reads(s.test, out)
    elif isinstance(s, h.For):
        expr_reads(s.iter, out)
    elif isinstance(s, (h.ExprStmt, h.Return)):
        expr_reads(s.value, out)
    elif isinstance(s, h.Assert):
        expr_reads(s.test, out)
        expr_reads(s.msg, out)
    return out


def stmt_writes(s) -> list:
    """Names the statement itself assigns (not those of nested bodies)."""
    out = []
    if isinstance(s, h.Assign):
        for t in s.targets:
            out += _target_names(t)
    elif isinstance(s, h.AugAssign):
        out += _target_names(s.target)
    elif isinstance(s, h.For):
        out += _target_names(s.target)
    for part in ("value", "test", "iter"):
        if hasattr(s, part) and getattr(s, part) is not None:
            out += genexp_targets(getattr(s, part))
    return out


def nested_blocks(s):
    for part in ("body", "orelse"):
        if hasattr(s, part):
            yield getattr(s, part)


def all_writes(stmts) -> set:
    out = set()
    for s in stmts:
        out |= set(stmt_writes(s))
        for b in nested_blocks(s):
            out |= all_writes(b)
    return out


def outside_loop(stmts, loop, names) -> set:
    """Names (stmt_writes or stmt_reads of each statement) of the statements
    other than the `for` statement `loop` (its own target) and its body."""
    out = set()
    for s in stmts:
        if s is not loop:
            out |= {n if isinstance(n, str) else n.id for n in names(s)}
        for b in nested_blocks(s):
            if not (s is loop and b is s.body):
                out |= outside_loop(b, loop, names)
    return out


def root_name(node):
    while isinstance(node, h.Subscript):
        node = node.value
    return node.id if isinstance(node, h.Name) else None


def truth_only_boolops(stmts) -> set:
    """The `and`/`or` expressions whose value is only tested for truth (an if,
    while or assert test, the test of `x if c else y`, `not`, a comprehension's
    condition, or an operand of another such one): their operands may be of any
    type that has a truth value, since the value picked is never used."""
    found = set()

    def tested(e):
        while isinstance(e, h.UnaryOp) and e.op == "not":
            e = e.operand
        if isinstance(e, h.BoolOp):
            found.add(e)
            for v in e.values:
                tested(v)

    for node in walk_body(stmts):
        if isinstance(node, (h.If, h.While, h.Assert, h.IfExp)):
            tested(node.test)
        elif isinstance(node, h.UnaryOp) and node.op == "not":
            tested(node.operand)
        elif isinstance(node, (h.CompFor, h.GenExp)):
            for c in node.conds:
                tested(c)
    return found


def taken_apart_calls(stmts) -> set:
    """Calls whose result is only taken apart: unpacked (`w, v = f(a)`) or
    indexed by a constant (`f(a)[1]`), so the tuple itself never escapes."""
    found = set()
    for node in walk_body(stmts):
        if isinstance(node, h.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], h.TupleExpr) \
                and isinstance(node.value, h.Call):
            found.add(node.value)
        elif isinstance(node, h.Subscript) and isinstance(node.value, h.Call) and len(node.index) == 1 \
                and isinstance(node.index[0], h.Const) and type(node.index[0].value) is int:
            found.add(node.value)
    return found


def first_definition(body, params, name) -> int | None:
    """The index in body of the first top-level statement that assigns name
    (-1 for a parameter): after it the name is assigned on every path."""
    if name in params:
        return -1
    for i, s in enumerate(body):
        if name in stmt_writes(s):
            return i
    return None


def top_level_index(body, node) -> int | None:
    """The index in body of the top-level statement node is part of."""
    for i, s in enumerate(body):
        if any(n is node for n in walk(s)):
            return i
    return None
