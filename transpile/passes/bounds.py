"""Bounds-check elimination: which element indices are in range wherever they
run (the lowering drops their check), and which would be if a condition on
loop-invariant values held (loop versioning: that condition is tested once
before the loop, which runs unchecked when it holds and checked otherwise, so
an out-of-range index still raises NumPy's IndexError at the same iteration).

Values are linear forms (forms.py) over int64 variables and array shapes.
Facts come from `for` loops (`i` of `range(a, b[, step])` lies in [a, b);
the counter of `enumerate(arr)` in [0, len(arr))) and from tests
(`if 0 <= b < n:`).  An index `i + c` of axis k of `arr` needs
lo(i) + c >= 0 and hi(i) + c <= arr.shape[k].

Mutation: a fact or a comparison is only used where none of the names it
mentions can have been rebound since the values were read.  A variable is
*stable* when the function assigns it once, outside every loop (parameters
never assigned are stable too): its value is its definition's wherever it is
bound, so `n = a.shape[0]` lets `range(n)` bound `a[i]`, and
`c = np.zeros((n, m))` gives `c.shape`.  Other names must be unassigned in
the loop the check is hoisted to (assignments in statements that run as
Python count), and the loop variable must be unassigned in its own body.
Array shapes never change in place, so rebinding is the only mutation that
matters.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..hir import nodes as h
from ..hir import types as T
from ..values import fields
from .assigned import assigned_names, target_names
from .forms import Form, shape_atom, var_atom

_CREATE = {"numpy.zeros", "numpy.ones", "numpy.empty", "numpy.full"}
_LIKE = {"numpy.zeros_like", "numpy.ones_like", "numpy.empty_like", "numpy.full_like"}


@dataclass
class Version:
    """A loop run unchecked while `guard` holds: each form d there means d <= 0."""

    guard: list = field(default_factory=list)
    covers: set = field(default_factory=set)  # index nodes in range while the guard holds

    def require(self, d: Form) -> None:
        """Adds d <= 0, keeping one condition per set of terms (the strongest)."""
        for i, g in enumerate(self.guard):
            if g.terms == d.terms:
                self.guard[i] = g if g.c >= d.c else d
                return
        self.guard.append(d)


@dataclass
class BoundsFacts:
    proven: set = field(default_factory=set)  # index nodes in range wherever they run
    versions: dict = field(default_factory=dict)  # For node -> Version


@dataclass(frozen=True)
class _Fact:
    lo: Form  # the variable lies in [lo, hi)
    hi: Form
    origin: object = None  # the For loop whose counter it is (None: a test's)


def analyse(tf, versioning=True) -> BoundsFacts:
    """versioning: whether loops may be versioned (True, False, or the set of
    loops that may be: those holding a body done either way with
    boundscheck=False, cxx/lower_speculate.py)."""
    return _Analysis(tf, versioning).run()


class _Analysis:
    def __init__(self, tf, versioning: bool):
        self.tf = tf
        self.fn = tf.hir
        self.versioning = versioning
        self.out = BoundsFacts()
        self.in_body: dict = {}  # loop node -> names assigned in its body (fallback code included)
        self.varies: dict = {}  # loop node -> those and the loop's own target: what differs between iterations
        self.unversionable: set = set()  # loops that must be lowered once (prange, fallback code inside)
        tagged = set()
        if tf.path_types is not None:  # values held in per-path slots: not plain int64 variables
            tagged = set(tf.path_types.tagged) | set(tf.path_types.boxed)
        self.plain = {n for n, t in tf.var_types.items() if n not in tagged and t != T.ANY}  # held: Python objects
        sites: dict = {}
        self._count_sites(self.fn.body, sites, in_loop=False)
        self.stable = {n for n in self.plain if n in tf.params and n not in sites}
        self.stable |= {n for n, ss in sites.items() if n in self.plain and n not in tf.params and len(ss) == 1
                        and ss[0][1] is False and isinstance(ss[0][0], h.Assign)}
        self.defs = {n: ss[0][0] for n, ss in sites.items() if n in self.stable}
        self._int_defs: dict = {}
        self._shape_defs: dict = {}

    def run(self) -> BoundsFacts:
        self.block(self.fn.body, [], {})
        return self.out

    # ---- what assigns what --------------------------------------------------

    def _writes(self, stmt) -> set:
        if isinstance(stmt, h.Unsupported) or stmt in self.tf.fallbacks:
            return assigned_names([stmt], set(), self.fn) | (
                self.tf.fallbacks[stmt].writes if stmt in self.tf.fallbacks else set())
        out: set = set()
        for e in _child_exprs(stmt):  # comprehension targets are assigned too (renamed apart, but still locals)
            for n in _walk(e):
                if isinstance(n, (h.GenExp, h.CompFor)):
                    target_names(n.target, out)
        if isinstance(stmt, h.Assign):
            for t in stmt.targets:
                target_names(t, out)
        elif isinstance(stmt, (h.AugAssign, h.For)):
            target_names(stmt.target, out)
        return out

    def _count_sites(self, body, sites: dict, in_loop: bool) -> None:
        for stmt in body:
            for n in self._writes(stmt):
                sites.setdefault(n, []).append((stmt, in_loop or isinstance(stmt, h.For)))
            if isinstance(stmt, (h.For, h.While)):
                inner: dict = {}
                self._count_sites(stmt.body, inner, True)
                self._count_sites(stmt.orelse, inner, True)
                self.in_body[stmt] = set().union(*(self._writes(s) for s in _stmts(stmt.body)))
                self.varies[stmt] = self.in_body[stmt] | (self._writes(stmt) if isinstance(stmt, h.For) else set())
                if (stmt in self.tf.parallel or any(s in self.tf.fallbacks or isinstance(s, h.Unsupported)
                                                    or s in self.tf.parallel or getattr(s, "test", None) in self.tf.fallbacks
                                                    for s in _stmts(stmt.body))
                        or stmt.orelse or _has_lambda(stmt)):
                    self.unversionable.add(stmt)
                for n, ss in inner.items():
                    sites.setdefault(n, []).extend(ss)
            elif isinstance(stmt, h.If):
                self._count_sites(stmt.body, sites, in_loop)
                self._count_sites(stmt.orelse, sites, in_loop)

    # ---- forms of int64 expressions ---------------------------------------

    def is_int64(self, node) -> bool:
        return _is_int64(self.tf.types.get(node))

    def local_array(self, node):
        """The name of a local array variable read by `node`, or None."""
        if isinstance(node, h.Name) and node.id in self.plain and node not in self.tf.consts \
                and isinstance(self.tf.var_types.get(node.id), T.Array):
            return node.id
        return None

    def form(self, node, facts):
        """The exact value of an int64 expression as a Form, or None."""
        if isinstance(node, h.Const) and type(node.value) is int and abs(node.value) <= 2 ** 40:
            return Form.const(node.value)
        if not self.is_int64(node):
            return None
        if isinstance(node, h.Name):
            if node.id not in self.plain or node in self.tf.consts:
                return None
            if node.id in facts:
                return Form.atom(var_atom(node.id))
            if node.id in self.stable:
                d = self.int_def(node.id)
                if d is not None:
                    return d
            return Form.atom(var_atom(node.id))
        if isinstance(node, h.BinOp) and node.op in ("+", "-", "*"):
            a, b = self.form(node.left, facts), self.form(node.right, facts)
            if a is None or b is None:
                return None
            if node.op == "+":
                return a + b
            if node.op == "-":
                return a - b
            if a.is_const():
                return b.scale(a.c)
            if b.is_const():
                return a.scale(b.c)
            return None
        if isinstance(node, h.UnaryOp) and node.op in ("-", "+"):
            a = self.form(node.operand, facts)
            return None if a is None else (a.scale(-1) if node.op == "-" else a)
        if isinstance(node, h.Subscript):  # a.shape[k]
            info = self.tf.subscripts.get(node)
            v = node.value
            if info is not None and info.kind == "tuple_item" and isinstance(info.const_index, int) \
                    and isinstance(v, h.Attribute) and v.attr == "shape":
                arr = self.local_array(v.value)
                if arr is not None:
                    return self.shape(arr, info.const_index)
            return None
        if isinstance(node, h.Call):
            call = self.tf.calls.get(node)
            if call and call[0] == "lib" and getattr(call[1], "name", None) == "len" and len(node.args) == 1:
                arr = self.local_array(node.args[0])
                if arr is not None:
                    return self.shape(arr, 0)
        return None

    def stored(self, node, facts=None):
        """The value an int64 expression leaves in a variable or a loop bound:
        wrapped to int64, so a form that might overflow stays opaque."""
        f = self.form(node, facts or {})
        return None if f is None else f.stored()

    def int_def(self, name):
        if name not in self._int_defs:
            self._int_defs[name] = None  # cycles (impossible for stable names) end here
            self._int_defs[name] = self._int_def(name)
        return self._int_defs[name]

    def _int_def(self, name):
        stmt = self.defs.get(name)
        if stmt is None or len(stmt.targets) != 1:
            return None
        target, value = stmt.targets[0], stmt.value
        if isinstance(target, h.Name):
            return self.stored(value)
        if isinstance(target, h.TupleExpr) and isinstance(value, h.Attribute) and value.attr == "shape":
            arr = self.local_array(value.value)  # n, m = a.shape
            names = [e.id if isinstance(e, h.Name) else None for e in target.elts]
            if arr is not None and name in names:
                return self.shape(arr, names.index(name))
        return None

    def shape(self, arr: str, k: int) -> Form:
        """arr.shape[k]: its definition's when arr is stable and made by a known call."""
        if arr in self.stable:
            dims = self.shape_def(arr)
            if dims is not None and 0 <= k < len(dims) and dims[k] is not None:
                return dims[k]
        return Form.atom(shape_atom(arr, k))

    def shape_def(self, arr):
        if arr not in self._shape_defs:
            self._shape_defs[arr] = None
            self._shape_defs[arr] = self._shape_def(arr)
        return self._shape_defs[arr]

    def _shape_def(self, arr):
        stmt = self.defs.get(arr)
        if stmt is None or len(stmt.targets) != 1 or not isinstance(stmt.targets[0], h.Name):
            return None
        value = stmt.value
        src = self.local_array(value)
        if src is not None:  # c = a: the same array
            return [self.shape(src, k) for k in range(self.tf.var_types[arr].ndim)]
        call = self.tf.calls.get(value) if isinstance(value, h.Call) else None
        if not call or call[0] != "lib":
            return None
        name = getattr(call[1], "name", None)
        if name in _LIKE and value.args and not value.keywords:
            src = self.local_array(value.args[0])
            if src is not None:
                return [self.shape(src, k) for k in range(self.tf.var_types[src].ndim)]
        if name in _CREATE and value.args and not any(k.name == "shape" for k in value.keywords):
            dims = value.args[0]
            items = dims.elts if isinstance(dims, h.TupleExpr) else (dims,)
            return [self.stored(d) for d in items]  # zeros() refuses negative sizes: exact
        return None

    # ---- the walk -----------------------------------------------------------

    def block(self, body, loops: list, facts: dict) -> dict:
        for stmt in body:
            facts = self.stmt(stmt, loops, facts)
        return facts

    def stmt(self, stmt, loops, facts) -> dict:
        if isinstance(stmt, h.For):
            self.exprs(stmt.iter, loops, facts)
            inner = self.enter_loop(stmt, facts)
            counter = self.counter_fact(stmt, inner)
            if counter is not None:
                inner = dict(inner)
                inner[counter[0]] = counter[1]
            self.block(stmt.body, loops + [stmt], inner)
            self.block(stmt.orelse, loops, self.enter_loop(stmt, facts))
            return _kill(facts, self.varies[stmt])
        if isinstance(stmt, h.While):
            inner = self.enter_loop(stmt, facts)
            self.exprs(stmt.test, loops + [stmt], inner)
            self.block(stmt.body, loops + [stmt], inner)
            self.block(stmt.orelse, loops, inner)
            return _kill(facts, self.varies[stmt])
        if isinstance(stmt, h.If):
            self.exprs(stmt.test, loops, facts)
            body = dict(facts)
            body.update(self.test_facts(stmt.test, facts))
            after_body = self.block(stmt.body, loops, body)
            after_else = self.block(stmt.orelse, loops, dict(facts))
            return {n: f for n, f in facts.items() if after_body.get(n) == f and after_else.get(n) == f}
        if stmt not in self.tf.fallbacks and not isinstance(stmt, h.Unsupported):
            for node in _child_exprs(stmt):
                self.exprs(node, loops, facts)
        return _kill(facts, self._writes(stmt))

    def enter_loop(self, loop, facts) -> dict:
        """Facts that hold in every iteration: none of their names is assigned in the loop."""
        return _kill(facts, self.varies[loop])

    def counter_fact(self, loop: h.For, facts):
        assigned = self.in_body[loop]
        it, target = loop.iter, loop.target
        call = self.tf.calls.get(it) if isinstance(it, h.Call) else None
        if not call or call[0] != "lib" or loop in self.tf.parallel:
            return None
        name = getattr(call[1], "name", None)
        if name == "range" and isinstance(target, h.Name) and 1 <= len(it.args) <= 3 and not it.keywords:
            var = target.id
            args = [self.stored(a, facts) for a in it.args]
            if any(a is None for a in args):
                return None
            start, stop = (Form.const(0), args[0]) if len(args) == 1 else (args[0], args[1])
            step = 1
            if len(args) == 3:
                step = args[2].c if args[2].is_const() else 0
            if step == 0:
                return None
            lo, hi = (start, stop) if step > 0 else (stop + Form.const(1), start + Form.const(1))
        elif name == "enumerate" and isinstance(target, h.TupleExpr) and len(target.elts) == 2 \
                and isinstance(target.elts[0], h.Name) and len(it.args) == 1 and not it.keywords:
            var = target.elts[0].id
            arr = self.local_array(it.args[0])
            if arr is None:
                return None
            lo, hi = Form.const(0), self.shape(arr, 0)
        else:
            return None
        if var not in self.plain or var in assigned or not _is_int64(self.tf.var_types.get(var)):
            return None
        if (lo.names() | hi.names()) & self.varies[loop]:  # the bounds were read at the loop's start
            return None
        return var, _Fact(lo, hi, loop)

    def test_facts(self, test, facts) -> dict:
        """`lo <= v < hi` (and its `and`-ed parts) as facts about v."""
        parts = test.values if isinstance(test, h.BoolOp) and test.op == "and" else (test,)
        found: dict = {}
        for part in parts:
            if not isinstance(part, h.Compare):
                continue
            operands = (part.left,) + tuple(part.comparators)
            for op, a, b in zip(part.ops, operands, operands[1:]):
                self._compare(op, a, b, facts, found)
        return {v: _Fact(lo, hi) for v, (lo, hi) in found.items() if lo is not None and hi is not None}

    def _compare(self, op, a, b, facts, found):
        if op in (">", ">="):
            op, a, b = {">": "<", ">=": "<="}[op], b, a
        if op not in ("<", "<="):
            return
        fa, fb = self.form(a, facts), self.form(b, facts)
        if fa is None or fb is None or (fa.names() | fb.names()) & set(facts):
            return  # bounds that move with a loop counter would be stale by the next iteration
        if isinstance(b, h.Name) and b.id in self.plain and self.is_int64(b) and b.id not in facts:
            lo = fa if op == "<=" else fa + Form.const(1)
            found.setdefault(b.id, [None, None])[0] = lo
        if isinstance(a, h.Name) and a.id in self.plain and self.is_int64(a) and a.id not in facts:
            hi = fb if op == "<" else fb + Form.const(1)
            found.setdefault(a.id, [None, None])[1] = hi

    # ---- indices ------------------------------------------------------------

    def exprs(self, node, loops, facts) -> None:
        for sub in _walk(node):
            if isinstance(sub, h.Subscript):
                self.access(sub, loops, facts)

    def access(self, sub: h.Subscript, loops, facts) -> None:
        info = self.tf.subscripts.get(sub)
        arr = self.local_array(sub.value)
        if info is None or info.kind != "element" or arr is None or not loops:
            return
        if any(lp in self.tf.parallel for lp in loops) or "tuple" in info.parts:  # a tuple covers several axes
            return
        axis = 0
        for idx, part in zip(sub.index, info.parts):
            if part != "int":
                continue
            self.axis(sub, idx, arr, axis, loops, facts)
            axis += 1

    def axis(self, sub, idx, arr, k, loops, facts) -> None:
        f = self.form(idx, facts)
        if f is None:
            return
        fact_vars = [n for n in f.names() if n in facts and f.coeff(var_atom(n))]
        if len(fact_vars) > 1:
            return
        origin = None
        if fact_vars:
            v = fact_vars[0]
            coeff, fact = f.coeff(var_atom(v)), facts[v]
            if coeff not in (1, -1):
                return
            rest = f - Form.atom(var_atom(v)).scale(coeff)
            if coeff == 1:
                lo, hi = rest + fact.lo, rest + fact.hi
            else:
                lo, hi = rest - fact.hi + Form.const(1), rest - fact.lo + Form.const(1)
            origin = fact.origin
        else:
            lo, hi = f, f + Form.const(1)
        obligations = [(Form.const(0), lo), (hi, self.shape(arr, k))]
        names = set().union(*(a.names() | b.names() for a, b in obligations))
        candidates = self.invariant_loops(loops, names, origin)
        if not candidates:
            return
        guard = []
        for lhs, rhs in obligations:
            d = lhs - rhs
            if d.is_const():
                if d.c > 0:
                    return  # out of range whenever it runs: the check stays
                continue
            guard.append(d)
        if not guard:
            self.out.proven.add(idx)
            return
        loop = next((lp for lp in candidates if isinstance(lp, h.For) and lp not in self.unversionable), None)
        if loop is None or not (self.versioning is True or self.versioning and loop in self.versioning):
            return
        version = self.out.versions.setdefault(loop, Version())
        for d in guard:
            version.require(d)
        version.covers.add(idx)

    def invariant_loops(self, loops, names: set, origin) -> list:
        """The enclosing loops, outermost first, that hold the counter's loop
        and in which none of `names` changes: a comparison of those values
        made when one of them starts holds wherever the index runs in it."""
        names = {n for n in names if n not in self.stable}
        start = loops.index(origin) if origin is not None else len(loops) - 1
        found = []
        for i in range(start, -1, -1):
            if names & self.varies[loops[i]]:
                break
            found.insert(0, loops[i])
        return found


def _is_int64(t) -> bool:
    return isinstance(t, T.Scalar) and t.dtype == "int64"


def _kill(facts: dict, names: set) -> dict:
    if not names:
        return facts
    return {v: f for v, f in facts.items() if v not in names and not ((f.lo.names() | f.hi.names()) & names)}


def _stmts(body):
    for s in body:
        yield s
        for sub in ("body", "orelse"):
            yield from _stmts(getattr(s, sub, ()))


def _has_lambda(loop) -> bool:
    return any(isinstance(n, h.Lambda) for s in _stmts(loop.body) for e in _child_exprs(s) for n in _walk(e))


def _child_exprs(stmt):
    """The expressions a statement evaluates itself (not its nested bodies')."""
    if isinstance(stmt, h.Assign):
        return list(stmt.targets) + [stmt.value]
    if isinstance(stmt, h.AugAssign):
        return [stmt.target, stmt.value]
    if isinstance(stmt, (h.ExprStmt,)):
        return [stmt.value]
    if isinstance(stmt, h.Return):
        return [stmt.value] if stmt.value is not None else []
    if isinstance(stmt, h.Assert):
        return [stmt.test] + ([stmt.msg] if stmt.msg is not None else [])
    if isinstance(stmt, (h.If, h.While)):
        return [stmt.test]
    if isinstance(stmt, h.For):
        return [stmt.iter]
    if isinstance(stmt, h.Raise):
        return [stmt.exc]
    return []


def _walk(node):
    """node and every expression under it."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
            continue
        if not isinstance(n, h.Node) or isinstance(n, h.Lambda):  # a lambda's body is its own function
            continue
        yield n
        for name in fields(n):
            if name != "loc":
                v = getattr(n, name)
                if isinstance(v, (h.Node, list, tuple)):
                    stack.append(v)
