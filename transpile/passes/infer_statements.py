"""Type inference of statements: assignments and their targets, loops, returns, raises."""
from __future__ import annotations

import numpy as np

from ..diagnostics import UnsupportedSyntaxError
from ..hir import nodes as h
from ..hir import types as T
from ..hir import promote
from . import classes, fallback, indexing, lists
from . import dicts  # dicts, sets, strs, itertools
from . import lambdas  # lambdas, key= functions
from . import optional  # None-or-a-value
from . import function_values  # functions passed, stored and returned as values
from . import records  # record arrays and records
from . import trys  # try/except
from .hir_walk import all_writes, outside_loop, stmt_reads, stmt_writes
from .raise_codes import RAISE_CODES
from ..library.container_rules import formattable


class StatementTyping:
    """FunctionTyper's rules for statements (s_<Node>), with the typing of targets they bind."""

    def s_Assign(self, s: h.Assign):
        if lambdas.is_local_lambda(self, s):
            return  # f = lambda ...: calls of f are compiled
        t = function_values.as_value(self, s.value, self.expr(s.value))
        if t == T.ANY:  # a helper's untyped result: its # @jit.typing comment names the type
            declared = fallback.declared_result(self, s)
            if declared is not None:
                self.tf.coerce[s.value] = t = declared
        if s.annotation is not None and t is not None:
            declared = self.annotation_type(s.annotation)
            if declared is not None:
                if isinstance(declared, T.Scalar) and isinstance(t, T.Scalar):
                    t = declared
                elif declared != t:
                    raise self.error(s, f"annotated as {declared} but the value is {t}")
        value = self.const(s.value)
        for target in s.targets:
            if isinstance(value, int) and not isinstance(value, bool):
                self.def_consts[target] = value
            self.bind(target, t, s)
            if isinstance(t, T.List):
                lists.unify(self, s.value, target)

    def annotation_type(self, node):
        v = self.const(node)
        if v is int:
            return T.INT
        if v is float:
            return T.FLOAT
        if v is bool:
            return T.BOOL
        if v is complex:
            return T.COMPLEX
        if isinstance(v, type) and issubclass(v, np.generic):
            return T.Scalar(np.dtype(v).name)
        return None

    def bind(self, target, t, stmt) -> None:
        if t is None:
            return
        if isinstance(target, h.Name):
            if isinstance(t, (T.CompileTimeValue, T.Range, T.Enumerate, T.Zip, T.DType, T.Generator, T.IterTools, T.LibIter, T.DictView)):
                raise self.error(target, f"cannot store {t} in a variable in compiled code",
                                 "use the value directly where it is needed")
            self.set_var(target, target.id, t)
            self.def_types[target] = t
            self.record(target, self.tf.var_types[target.id])
        elif isinstance(target, h.TupleExpr):
            if not isinstance(t, T.Tuple):
                raise self.error(stmt, f"cannot unpack a value of type {t}", "only tuples can be unpacked")
            if len(t.items) != len(target.elts):
                raise self.error(stmt, f"too many values to unpack (expected {len(target.elts)})"
                                 if len(t.items) > len(target.elts) else
                                 f"not enough values to unpack (expected {len(target.elts)}, got {len(t.items)})")
            for sub, item in zip(target.elts, t.items):
                self.bind(sub, item, stmt)
            self.record(target, t)
        elif isinstance(target, h.Subscript):
            base = self.expr(target.value)
            if base is None:
                return
            base = optional.subscript_base(self, target.value, base, store=True)
            if base is None:
                return
            optional.indices(self, target, base)
            info = indexing.setitem(self, target, base, t)
            self.tf.subscripts[target] = info
        elif isinstance(target, h.Attribute):
            classes.store_field(self, target, t, stmt)
        else:
            raise UnsupportedSyntaxError("assignment to this kind of target is not supported", target.loc)

    def s_AugAssign(self, s: h.AugAssign):
        target = s.target
        cur = self.number(target, self.expr(target))
        val = self.number(s.value, self.expr(s.value))
        if cur is None or val is None:
            return
        cur, val = optional.binop(self, s, s.op, cur, val, target, s.value, inplace=True)
        if cur is None or val is None:
            return
        if isinstance(cur, T.List):
            return lists.augassign(self, s, cur, val)
        if isinstance(cur, dicts.MINE) or isinstance(val, dicts.MINE):
            return dicts.augassign(self, s, cur, val)
        ops = self.binop_types(s, s.op, cur, val, s.value)
        self.tf.ops[s] = ops
        if isinstance(cur, T.Array):
            if not isinstance(ops.result, T.Array) or ops.result.ndim > cur.ndim:
                raise self.error(s, f"the result of {s.op} has shape of more dimensions than the target")
            if not promote.can_cast_same_kind(ops.result.dtype, cur.dtype):
                raise self.error(s, f"Cannot cast ufunc output from dtype('{ops.result.dtype}') to "
                                    f"dtype('{cur.dtype}') with casting rule 'same_kind'",
                                 "convert explicitly, e.g. a = a + b or a[:] = (a + b).astype(a.dtype)")
            if cur.readonly:
                raise self.error(s, "assignment destination is read-only")
            return
        if isinstance(target, h.Name):
            self.set_var(target, target.id, ops.result)
            self.def_types[target] = ops.result
        elif isinstance(target, h.Subscript):
            info = indexing.setitem(self, target, self.expr(target.value), ops.result)
            self.tf.subscripts[target] = info
        elif isinstance(target, h.Attribute):
            classes.store_field(self, target, ops.result, s)
        else:
            raise UnsupportedSyntaxError("augmented assignment to this target is not supported", s.loc)

    def s_ExprStmt(self, s: h.ExprStmt):
        if isinstance(s.value, h.Const) and isinstance(s.value.value, str):
            return  # docstring
        self.expr(s.value)

    def truth_test(self, node) -> None:
        t = self.expr(node)
        if t is None:
            return
        if isinstance(t, (T.Array, T.Optional)) and not T.has_truth(t):
            raise self.error(node, "the truth value of an array is ambiguous in compiled code",
                             "use a.any() or a.all()")
        if not T.has_truth(t):
            raise self.error(node, f"cannot test the truth of {t}")

    def s_If(self, s: h.If):
        if isinstance(s.test, h.TryTest):  # try/except (passes/trys.py)
            return trys.s_Try(self, s)
        fallback.python_test(self, s)  # types the test, or makes it run as Python on its own
        self.block(s.body)
        self.block(s.orelse)

    def s_While(self, s: h.While):
        self.truth_test(s.test)
        self.block(s.body)
        self.block(s.orelse)

    def s_For(self, s: h.For):
        it = self.expr(s.iter)
        if it is None:
            return
        it = optional.iterable(self, s.iter, it)
        if it is None:
            return
        self.tf.loops[s] = it
        if isinstance(it, T.Tuple) and not it.items and self.typed_without_body(s):
            self.block(s.orelse)  # `for v in args` given no extra arguments: the body never runs
            return
        elem = self.element_type(s.iter, it)
        self.bind(s.target, elem, s)
        self.block(s.body)
        self.block(s.orelse)

    def typed_without_body(self, s: h.For) -> bool:
        """Whether every name the loop assigns (its body's, and its target
        where it is read after) is assigned elsewhere too, so that its type is
        known without the body; else the loop runs as Python (a name it
        would assign stays unassigned)."""
        fn = self.fn.body
        needed = all_writes(s.body) | (set(stmt_writes(s)) & outside_loop(fn, s, stmt_reads))
        return needed <= outside_loop(fn, s, stmt_writes) | set(self.tf.params)

    def element_type(self, node, it: T.Type) -> T.Type:
        if isinstance(it, T.LibIter):  # np.ndindex, np.nditer, a.flat, ... (library/numpy_iter.py)
            return it.elem
        if isinstance(it, (T.Dict, T.Set, T.DictView, T.IterTools, T.Str)):
            return dicts.element_type(self, node, it)
        if isinstance(it, (T.Enumerate, T.Zip)):
            dicts.iterable_in_zip(self, node, it)
        if isinstance(it, T.Range):
            return T.INT
        if isinstance(it, T.RecordArray):
            return records.element_type(it)
        if isinstance(it, T.Array):
            if it.ndim == 0:
                raise self.error(node, "iteration over a 0-d array")
            if it.ndim == 1:
                return it.scalar
            return T.Array(it.dtype, it.ndim - 1, "C" if it.layout == "C" else "A", it.readonly)
        if isinstance(it, T.Enumerate):
            return T.Tuple((T.INT, self.element_type(node, it.inner)))
        if isinstance(it, T.Zip):
            return T.Tuple(tuple(self.element_type(node, t) for t in it.inners))
        if isinstance(it, T.List):
            if it.elem is None:
                self.unknown.append(node)
            return it.elem
        if isinstance(it, T.Tuple):
            if it.homogeneous is None and it.items:
                raise self.error(node, f"iteration over a tuple of mixed types {it}",
                                 "index the tuple with constants instead")
            if not it.items:  # a comprehension or generator over (): no item type to give its variable
                raise self.error(node, "iteration over an empty tuple")
            return it.homogeneous
        raise self.error(node, f"cannot iterate over {it} in compiled code")

    def s_Return(self, s: h.Return):
        t = T.NONE if s.value is None else function_values.as_value(self, s.value, self.expr(s.value))
        if t is None:
            return
        if isinstance(t, (T.CompileTimeValue, T.Range, T.Enumerate, T.Zip, T.DType, T.Generator, T.IterTools, T.LibIter, T.DictView)):
            raise self.error(s, f"cannot return {t} from compiled code")
        old = self.tf.return_type
        new = self.join_return(s, old, t)
        if new != old:
            self.tf.return_type = new
            self.changed = True

    def s_Assert(self, s: h.Assert):
        self.truth_test(s.test)
        if s.msg is not None:
            if not (isinstance(s.msg, h.Const) and isinstance(s.msg.value, str)):
                msg_t = self.expr(s.msg)
                if msg_t is not None and msg_t != T.STR and not isinstance(msg_t, T.Scalar):
                    raise self.error(s.msg, "assert messages must be strs (literals, f-strings) or numbers")
                if msg_t is not None and msg_t != T.STR:
                    formattable(s.msg, msg_t, None)  # its str() is the message

    def s_Delete(self, s: h.Delete):
        """del lst[i] and del d[k]; anything else runs as Python."""
        for target in s.targets:
            base = self.expr(target.value)
            if base is None:
                return
            index = target.index[0] if len(target.index) == 1 else None
            if isinstance(base, T.List) and not base.frozen and index is not None \
                    and not isinstance(index, h.Slice) and T.is_integer(self.expr(index) or T.NONE):
                continue
            if isinstance(base, T.Dict) and index is not None and not isinstance(index, h.Slice):
                self.expr(index)
                continue
            raise UnsupportedSyntaxError(f"del of an item of {base} is not supported in compiled code", s.loc)

    def s_Raise(self, s: h.Raise):
        """raise E(message): compiled for the exceptions the ABI has codes for,
        with a message that is a str (a literal, an f-string, a str value);
        anything else runs as Python (its message may need str())."""
        exc = s.exc
        cls = self.const(exc.func if isinstance(exc, h.Call) else exc)
        if cls not in RAISE_CODES:
            named = exc.func if isinstance(exc, h.Call) else exc
            raise UnsupportedSyntaxError(f"raising {getattr(named, 'id', 'this exception')} is not supported "
                                         "in compiled code", s.loc,
                                         f"compiled code raises {', '.join(c.__name__ for c in RAISE_CODES)}")
        if isinstance(exc, h.Call):
            literal = exc.args and isinstance(exc.args[0], h.Const) and isinstance(exc.args[0].value, str)
            if exc.keywords or len(exc.args) > 1 or (exc.args and not literal and self.expr(exc.args[0]) != T.STR):
                raise UnsupportedSyntaxError("only exceptions with a str message (a literal, an f-string, a str "
                                             "value) are raised by compiled code", s.loc)
        self.tf.consts[s] = cls

    def s_nothing(self, s):
        pass
