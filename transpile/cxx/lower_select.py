"""`if c: x = a else: x = b` with cheap integer arms, lowered as
tr::select(c, a, b): both arms computed, no branch (a cmov on x86-64).
A test that goes either way at random (collatz's `x % 2 == 0`) costs a
mispredicted branch every other time; the arms here cannot raise or have
effects, so computing both changes nothing but the time."""
from __future__ import annotations

import numpy as np

from ..hir import nodes as h
from ..hir import types as T

_CHEAP_OPS = {"+", "-", "*", "&", "|", "^"}


class SelectLowering:
    """FunctionLowerer's rule for if/else statements that assign one integer."""

    def branchless_if(self, s: h.If) -> bool:
        if self.kernel is not None or len(s.body) != 1 or len(s.orelse) != 1:
            return False
        a, b = s.body[0], s.orelse[0]
        if not (_simple_assign(a) and _simple_assign(b)) or a.targets[0].id != b.targets[0].id:
            return False
        if a in self.tf.fallbacks or b in self.tf.fallbacks:
            return False
        name = a.targets[0].id
        t = self.tf.var_types.get(name)
        if not (isinstance(t, T.Scalar) and t.kind in "iu" and t.dtype != "bool"):
            return False
        paths = self.tf.path_types
        if name in self.unbound.names or paths and (name in paths.tagged or name in paths.boxed):
            return False
        if self.type_of(a.value) != t or self.type_of(b.value) != t:
            return False
        if not (self.cheap(a.value, t) and self.cheap(b.value, t)):
            return False
        test, x_node, y_node = s.test, a.value, b.value
        swapped = isinstance(test, h.Compare) and test.ops == ("==",) and isinstance(test.comparators[0], h.Const) \
            and test.comparators[0].value == 0 and type(test.comparators[0].value) is int \
            and _int64(self.tf.types.get(test.left)) and self.cheap(test.left, self.tf.types[test.left])
        if swapped:  # `if v == 0:` tests v itself: select(v, b, a) saves computing the bool
            test, x_node, y_node = test.left, b.value, a.value
        mask = _low_bits(test, self.tf.types)
        if mask is not None and self.cheap(test.left, self.tf.types[test.left]):
            # v % 2**k is v & (2**k - 1) for any sign: the bits tested in place
            select, cond = f"tr::select_bits<{mask}>", self.expr(test.left).code
        else:
            select, cond = "tr::select", f"int64_t({self.expr(test).code})" if swapped else self.condition(test)
        x, y = self.expr(x_node).code, self.expr(y_node).code
        for arm in (a, b):  # the arms' source lines stay beside the C++ (they cannot raise: no line kept)
            loc = arm.loc
            self.emit(f"// {loc.filename.rsplit('/', 1)[-1]}:{loc.line}  {loc.source_line.strip()}")
        self.emit(f"{self.var(name)} = {select}({cond}, {x}, {y});  // both arms cheap: no branch")
        return True

    def cheap(self, node, t) -> bool:
        """An expression of type t whose every part has type t (no conversion,
        so no NumPy range check), with no effects, that cannot raise, a few
        instructions long."""
        if isinstance(node, h.Const):
            info = np.iinfo(t.dtype)
            return type(node.value) is int and info.min <= node.value <= info.max
        if self.tf.types.get(node) != t:
            return False
        if isinstance(node, h.Name):
            return node not in self.unbound.reads and node not in self.tf.consts and node.id in self.tf.var_types
        if isinstance(node, h.UnaryOp):
            return node.op in ("-", "~") and self.cheap(node.operand, t)
        if isinstance(node, h.BinOp) and node not in self.tf.calls:
            if node.op in _CHEAP_OPS:
                return self.cheap(node.left, t) and self.cheap(node.right, t)
            if node.op in ("//", "%"):  # by a constant power of two: a shift or a mask (ops/operators.hpp)
                d = node.right
                return isinstance(d, h.Const) and type(d.value) is int and d.value > 0 \
                    and d.value & (d.value - 1) == 0 and self.cheap(d, t) and self.cheap(node.left, t)
        return False


def _low_bits(test, types) -> int | None:
    """2**k - 1 when test is `v % 2**k` on an int64 v, with 2**k - 1 an
    immediate of a test instruction (31 bits); else None."""
    if not (isinstance(test, h.BinOp) and test.op == "%" and _int64(types.get(test.left))):
        return None
    d = test.right
    if isinstance(d, h.Const) and type(d.value) is int and 1 < d.value <= 2**31 and d.value & (d.value - 1) == 0:
        return d.value - 1
    return None


def _int64(t) -> bool:
    return isinstance(t, T.Scalar) and t.dtype == "int64"


def _simple_assign(stmt) -> bool:
    return isinstance(stmt, h.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], h.Name) \
        and stmt.annotation is None
