"""`if c:` as the whole body of a loop, whose statements only compute float
locals from values that cannot raise, lowered without a branch: the test is
kept in a bool, the body runs either way, and each variable it assigns is
put back where the test is false (`x = c ? x : was`).

A branch in a loop body stops GCC from vectorizing the loop unless it can
if-convert it itself, which it cannot when the body loads with a stride
(n-body's `if i != j:` over pos[j, 0..2]).  Computing the body when the
test is false changes nothing Python could see: its operations have no
effects and cannot raise (float + - *, NumPy float division, sqrt of a value
never negative, loads at indices proven in range), and every variable it
writes gets its old value back.  A load whose index is not proven in range
(boundscheck=False) is done only where the test holds (a masked load once
vectorized), so the body reads no memory Python would not.
"""
from __future__ import annotations

import math

from ..hir import nodes as h
from ..hir import types as T
from ..library.registry import entry_for
from ..passes.hir_walk import walk_body

_OPS = ("+", "-", "*")


class SpeculationLowering:
    """FunctionLowerer's rule for a loop body that is one `if` without else."""

    def setup_speculation(self) -> None:
        self.speculated = None  # the C++ bool of the test whose body is being lowered unconditionally
        self.loop_ifs = {s.body[0] for s in walk_body(self.fn.body)
                         if isinstance(s, h.For) and len(s.body) == 1 and isinstance(s.body[0], h.If)
                         and not s.body[0].orelse}

    def speculation_loops(self) -> frozenset:
        """The loops holding a candidate: versioned on their indices' ranges
        (passes/bounds.py), so that under the guard every load is in range."""
        return frozenset(s for s in walk_body(self.fn.body) if isinstance(s, h.For)
                         and any(n in self.loop_ifs for n in walk_body(s.body)))

    def speculated_if(self, s: h.If) -> bool:
        if s not in self.loop_ifs or self.kernel is not None or self.speculated is not None:
            return False
        if not all(self._plain_assign(stmt) for stmt in s.body):
            return False
        cond = self.tmp("c")
        self.emit(f"const bool {cond} = {self.condition(s.test)};  // the body cannot raise: run either way")
        live = self._live_out(s)
        self.speculated = cond
        for stmt in s.body:
            target = stmt.targets[0] if isinstance(stmt, h.Assign) else stmt.target
            if target.id not in live:  # its value is read only below, in this body
                self.block((stmt,))
                continue
            # kept only where the test holds, the update inside the select (GCC's conditional reduction)
            self.comment(stmt)
            v, value = self.var(target.id), self.expr(stmt.value).code
            new = value if isinstance(stmt, h.Assign) else f"({v} {stmt.op} {value})"
            self.emit(f"{v} = {cond} ? {new} : {v};")
        self.speculated = None
        return True

    def _live_out(self, s: h.If) -> set:
        """The variables the body assigns whose value may be read after it: not
        those assigned before any read in it and read nowhere else (n-body's
        dx, r2, inv), whose old value no one sees (and whose select would be
        a loop-carried value GCC cannot vectorize)."""
        inside = {id(n) for n in walk_body(s.body)}
        read_outside = {n.id for n in walk_body(self.fn.body) if isinstance(n, h.Name) and id(n) not in inside}
        live, seen = set(), set()
        for stmt in s.body:
            target = (stmt.targets[0] if isinstance(stmt, h.Assign) else stmt.target).id
            reads = {n.id for n in walk_body((stmt.value,)) if isinstance(n, h.Name)}
            if target not in seen and (isinstance(stmt, h.AugAssign) or target in reads or target in read_outside):
                live.add(target)
            seen.add(target)
        return live

    def speculated_load(self, node: h.Subscript, code: str, ctype_text: str) -> str:
        """A load in a speculated body at an index not proven in range: only where the test holds."""
        if self.speculated is None or all(self.in_range(i) for i in node.index):
            return code
        return f"({self.speculated} ? {code} : {ctype_text}{{}})"

    def _plain_assign(self, stmt) -> bool:
        if stmt in self.tf.fallbacks:
            return False
        if isinstance(stmt, h.Assign):
            if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], h.Name) or stmt.annotation is not None:
                return False
            target = stmt.targets[0]
        elif isinstance(stmt, h.AugAssign) and isinstance(stmt.target, h.Name) and stmt.op in _OPS:
            target = stmt.target
            if stmt.target in self.unbound.reads:
                return False
        else:
            return False
        t = self.tf.var_types.get(target.id)
        paths = self.tf.path_types
        if not (isinstance(t, T.Scalar) and t.kind == "f") or target.id in self.unbound.names \
                or paths and (target.id in paths.tagged or target.id in paths.boxed):
            return False
        vt = self.tf.types.get(stmt.value)
        return isinstance(vt, T.Scalar) and vt.dtype == t.dtype and self._cannot_raise(stmt.value)

    def _cannot_raise(self, node) -> bool:
        """An expression without effects that cannot raise (and reads no memory out of range where it is
        done either way)."""
        if isinstance(node, h.Const):
            return type(node.value) in (int, float)
        t = self.tf.types.get(node)
        number = isinstance(t, T.Scalar) and t.kind in "iuf" and t.dtype != "bool"
        if isinstance(node, h.Name):
            return node not in self.unbound.reads and node.id in self.tf.var_types \
                and (number or isinstance(t, T.Array))
        if not number:
            return False
        if isinstance(node, h.UnaryOp):
            return node.op in ("-", "+") and self._cannot_raise(node.operand)
        if isinstance(node, h.BinOp) and node not in self.tf.calls:
            # Python's float / raises ZeroDivisionError; a NumPy float's gives inf or nan
            ok = node.op in _OPS or node.op == "/" and t.kind == "f" and not t.weak
            return ok and self._cannot_raise(node.left) and self._cannot_raise(node.right)
        if isinstance(node, h.Subscript):
            info = self.tf.subscripts.get(node)
            if info is None or info.kind != "element" or not isinstance(node.value, h.Name):
                return False
            checked = self.module.options.boundscheck and not all(self.in_range(i) for i in node.index)
            return not checked and all(self._cannot_raise(i) for i in (node.value, *node.index))
        if isinstance(node, h.Call) and len(node.args) == 1 and not node.keywords:
            kind, entry, _ = self.tf.calls.get(node, (None, None, None))
            arg = node.args[0]
            if kind != "lib" or not self._cannot_raise(arg):
                return False
            # float() of a number, fabs and sqrt of a value never negative cannot raise
            return entry is entry_for(float) or entry is entry_for(math.fabs) \
                or entry is entry_for(math.sqrt) and self.signs.never_negative(arg)
        return False
