"""Type inference of expressions other than calls: constants, names, operators, comparisons, subscripts."""
from __future__ import annotations

import numpy as np

from ..diagnostics import UnsupportedSyntaxError
from ..hir import nodes as h
from ..hir import types as T
from ..library.base import NOT_CONST
from ..hir import promote
from . import classes, indexing, lists
from . import dicts  # dicts, sets, strs, itertools
from . import optional  # None-or-a-value
from . import function_values  # functions passed, stored and returned as values
from . import live_globals  # module-level values: frozen and guarded, or read live
from .assigned import target_names


class ExpressionTyping:
    """FunctionTyper's rules for expressions (e_<Node>) other than calls."""

    def e_Const(self, node: h.Const):
        v = node.value
        if isinstance(v, str):
            # a str; library calls read literal ones as constants (kind="stable",
            # side="right", ord="fro")
            return T.STR
        return self.type_of_value(node, v)

    def e_Name(self, node: h.Name):
        if node.id in self.locals:
            t = self.tf.var_types.get(node.id)
            if t is None:
                self.unknown.append(node)
            return t
        value = self.global_value(node.id)
        if value is NOT_CONST:
            raise self.error(node, f"name '{node.id}' is not defined")
        t = self.type_of_value(node, value)
        if not isinstance(t, T.CompileTimeValue):
            return live_globals.name(self, node, value, t)  # frozen and guarded, or read live
        return t

    def binop_types(self, node, op, a, b, right_node):
        exponent = self.const(right_node) if op == "**" else None
        if exponent is NOT_CONST:
            exponent = None
        try:
            return promote.binary(op, a, b, exponent)
        except promote.PromotionError as exc:
            raise self.error(node, str(exc)) from None

    def e_BinOp(self, node: h.BinOp):
        a = self.number(node.left, self.expr(node.left))
        b = self.number(node.right, self.expr(node.right))
        if a is None or b is None:
            return None
        a, b = optional.binop(self, node, node.op, a, b, node.left, node.right)
        if a is None or b is None:
            return None
        if isinstance(a, T.List) or isinstance(b, T.List):
            return lists.binop(self, node, node.op, a, b)
        if isinstance(a, dicts.MINE) or isinstance(b, dicts.MINE):
            ops = dicts.binop(self, node, node.op, a, b)
            self.tf.ops[node] = ops
            return ops.result
        if isinstance(a, T.Instance) or isinstance(b, T.Instance):
            return classes.binary_operator(self, node, node.op, a, b, node.left, node.right)
        if node.op == "@":
            return self.call_entry(node, np.matmul, [a, b], {}, [node.left, node.right], {})
        ops = self.binop_types(node, node.op, a, b, node.right)
        self.tf.ops[node] = ops
        return ops.result

    def e_UnaryOp(self, node: h.UnaryOp):
        a = self.expr(node.operand)
        if a is None:
            return None
        if node.op == "not" and isinstance(a, T.Optional) and not isinstance(a.inner, T.Array):
            self.tf.ops[node] = promote.OpTypes("bool", T.BOOL)
            return T.BOOL
        if node.op != "not":
            a = optional.unary(self, node, node.op, a)
            if a is None:
                return None
        if node.op == "not" and (a == T.ANY or isinstance(a, (T.Str, T.Dict, T.Set))):
            self.tf.ops[node] = promote.OpTypes("bool", T.BOOL)
            return T.BOOL
        a = self.number(node.operand, a)
        if node.op == "not" and isinstance(a, T.Array):
            raise self.error(node, "the truth value of an array is ambiguous", "use a.any() or a.all()")
        try:
            ops = promote.unary(node.op, a)
        except promote.PromotionError as exc:
            raise self.error(node, str(exc)) from None
        self.tf.ops[node] = ops
        return ops.result

    def e_BoolOp(self, node: h.BoolOp):
        types = [self.number(v, self.expr(v)) for v in node.values]
        if any(t is None for t in types):
            return None
        if all(t == T.STR for t in types):  # `name or "default"`: one of the strs
            return T.STR
        if node in self.truth_only and not all(isinstance(t, T.Scalar) for t in types) and \
                all(T.has_truth(t) for t in types):  # `while stack and n < k`: only the truth is used
            return T.BOOL
        for v, t in zip(node.values, types):
            if not isinstance(t, T.Scalar):
                raise self.error(v, f"'{node.op}' needs scalar operands, not {t}",
                                 "for arrays use & and | (elementwise)")
        result = types[0]
        for v, t in zip(node.values[1:], types[1:]):
            result = self.join(v, result, t, f"the '{node.op}' expression")
        return result

    def e_Compare(self, node: h.Compare):
        left = self.number(node.left, self.expr(node.left))
        rights = [self.number(c, self.expr(c)) for c in node.comparators]
        if left is None or any(r is None for r in rights):
            return None
        if len(node.ops) == 1 and node.ops[0] not in ("is", "is not", "in", "not in") and \
                (isinstance(left, T.Instance) or isinstance(rights[0], T.Instance)):
            return classes.binary_operator(self, node, node.ops[0], left, rights[0], node.left, node.comparators[0])
        results = []
        operands = [left] + rights
        op_types = []
        operand_nodes = [node.left] + list(node.comparators)
        for i, op in enumerate(node.ops):
            a, b = operands[i], operands[i + 1]
            special = optional.compare(self, node, op, a, b, operand_nodes[i], operand_nodes[i + 1])
            if special is not None:
                op_types.append(special)
                results.append(T.BOOL)
                continue
            if op not in ("is", "is not", "==", "!=", "in", "not in"):
                a, b = optional.binop(self, node, op, a, b, operand_nodes[i], operand_nodes[i + 1])
                if a is None or b is None:
                    return None
            if op in ("is", "is not"):
                if not (a == T.NONE or b == T.NONE):
                    raise self.error(node, "'is' is supported only for comparisons with None")
                op_types.append(None)
                results.append(T.BOOL)
                continue
            dict_op = dicts.compare(self, node, op, a, b)
            if dict_op is not None:
                op_types.append(dict_op)
                results.append(T.BOOL)
                continue
            list_op = lists.compare(self, node, op, a, b)
            if list_op is not None:
                op_types.append(list_op)
                results.append(T.BOOL)
                continue
            if op in ("in", "not in"):
                raise UnsupportedSyntaxError(f"'{op}' is not supported in compiled code", node.loc)
            ops = self.binop_types(node, op, a, b, node.comparators[i])
            op_types.append(ops)
            results.append(ops.result)
        self.tf.ops[node] = tuple(op_types)
        if len(results) > 1 and any(isinstance(r, T.Array) for r in results):
            raise self.error(node, "chained comparisons of arrays are ambiguous",
                             "write (a < b) & (b < c)")
        # `a < b < c` is its first false comparison's result, or its last: np.bool_ when all
        # are; bool and np.bool_ by path otherwise (paths.py accepts only truth tests of it).
        return results[0] if len(set(results)) == 1 else T.BOOL

    def e_IfExp(self, node: h.IfExp):
        self.truth_test(node.test)
        a = self.expr(node.body)
        b = self.expr(node.orelse)
        if a is None or b is None:
            return a or b
        return self.join(node, a, b, "the conditional expression")

    def e_TupleExpr(self, node: h.TupleExpr):
        items = [self.expr(e) for e in node.elts]
        if any(t is None for t in items):
            return None
        if items and all(isinstance(t, T.CompileTimeValue) for t in items):
            # (int, float) for isinstance(): a value only library calls read
            return T.CompileTimeValue(tuple(t.value for t in items))
        items = [function_values.as_value(self, e, t) for e, t in zip(node.elts, items)]
        for e, t in zip(node.elts, items):
            if isinstance(t, (T.CompileTimeValue, T.Range, T.Enumerate, T.Zip, T.IterTools, T.LibIter, T.DictView)):
                raise self.error(e, f"cannot put {t} in a tuple in compiled code")
        return T.Tuple(tuple(items))

    def e_Attribute(self, node: h.Attribute):
        base = self.expr(node.value)
        if base is None:
            return None
        base = optional.attribute_base(self, node.value, base, node.attr)
        if base is None:
            return None
        if isinstance(base, T.CompileTimeValue):
            value = getattr(base.value, node.attr, NOT_CONST)
            if value is NOT_CONST:
                raise self.error(node, f"module '{getattr(base.value, '__name__', base.value)}' has no attribute "
                                       f"'{node.attr}'")
            return live_globals.attribute(self, node, base.value, value, self.type_of_value(node, value))
        if isinstance(base, T.Instance):
            return classes.read_attribute(self, node, base)
        from ..library import attributes

        rule = attributes.lookup(base, node.attr)
        if rule is None:
            raise self.error(node, f"'{base}' has no attribute '{node.attr}' in compiled code")
        return rule.infer(base)

    def e_Subscript(self, node: h.Subscript):
        base = self.expr(node.value)
        if base is None:
            return None
        base = optional.subscript_base(self, node.value, base)
        if base is None:
            return None
        self.index_types(node)
        optional.indices(self, node, base)
        info = indexing.getitem(self, node, base)
        self.tf.subscripts[node] = info
        return info.result

    def index_types(self, node: h.Subscript) -> None:
        """Types each index of x[...] (the parts of slices too)."""
        for idx in node.index:
            if isinstance(idx, h.Slice):
                for part in (idx.lower, idx.upper, idx.step):
                    if part is not None:
                        self.expr(part)
            else:
                self.expr(idx)

    def comprehension_clause(self, clause) -> bool:
        """Types one `for target in iter if cond...` of a generator expression or
        comprehension (clause: h.GenExp or h.CompFor); False while the iterable's
        type is unknown."""
        it = self.expr(clause.iter)
        if it is None:
            return False
        it = optional.iterable(self, clause.iter, it)
        if it is None:
            return False
        elem = self.element_type(clause.iter, it)
        if elem is None:
            return False
        target_names(clause.target, self.locals)
        self.tf.loops[clause] = it
        self.bind(clause.target, elem, clause)
        for cond in clause.conds:
            self.truth_test(cond)
        return True

    def e_GenExp(self, node: h.GenExp):
        if not self.comprehension_clause(node):
            return None
        elt = self.number(node.elt, self.expr(node.elt))
        if elt is None:
            return None
        if not lists.generator_elt_ok(elt):
            raise self.error(node.elt, f"generator expressions of {elt} are not supported",
                             "generate numbers (for sum/min/max/any/all)")
        return T.Generator(elt)

    def e_Slice(self, node):
        raise self.error(node, "a slice is only allowed inside [ ]")
