"""Per-path typing: compiled code keeps one C++ type per variable, so a
variable (or an `and`/`or`/conditional expression) whose value has different
types on different paths is exact only where every use gives CPython's
result whichever path the value came from.

CPython's `s = 0; if c: s = 2.5; return s` returns the int 0 when c is
false; the variable's C++ type is double.  This pass decides, for each use
that may see a value of another type than the variable's C++ type, whether
the use is insensitive to the difference:

* arithmetic and comparisons whose computation type and result type are
  the same for every combination of the operands' possible types (the
  C++ converts the value exactly as CPython/NumPy convert it at the
  operation: `0 + np.float64(x)` is `0.0 + x`);
* truth tests (a conversion keeps zero zero);
* `return v` where v is a Python float on some paths and an np.float64 on
  others: the variable carries a flag saying which (`tagged`), and the
  entry hands CPython's type to the caller (passes/returns.py).

and, where the value itself crosses, keeps the path's type beside it: a
flag for a Python number or a NumPy scalar of one dtype (computed at run
time through +, -, *, comparisons, max/min and calls), a slot per type for
int-or-float values that are returned.  docs/architecture.md lists every
rule.  Any other use (passing such a value to a call, indexing with it, a
statement that runs as Python reading it) would give a value of the wrong
type: a local variable or a parameter is then held as a Python object,
every statement naming it running as Python (Hold; Cython's "safe"
inference makes the same choice); for an expression, the statement
evaluating it runs as Python (RunAsPython); what is left runs in CPython
with a warning naming it and the use (an error under fullgraph=True).
"""
from __future__ import annotations

from ..diagnostics import FunctionNotCompilable, PathTypeConflict, TypingError
from ..hir import nodes as h
from ..hir import types as T
from . import fallback, guesses, powers, reaching
from .hir_walk import walk
from ..hir import promote
from .path_rules import (Hold, PathTypes, RunAsPython, cannot_raise, chain_types, conflict_subject,
                         converts_exactly, differs, flagged_items, ints_fit, keeps_truth, link, picked_argument,
                         picked_types, pure, returns, same_storage, same_value_use, semantics_by_flags, spelled,
                         statement_of, statements, unpacked_into, weak_only, weakness_only, what)

_TRUTH_TESTED = ((h.If, "test"), (h.While, "test"), (h.Assert, "test"), (h.IfExp, "test"))


class _Checker:
    def __init__(self, typer):
        self.typer = typer
        self.tf = typer.tf
        self.parent: dict = {}
        for s in statements(typer.fn.body):
            link(s, self.parent)
        self.reach = reaching.analyse(typer.fn, typer.locals, self.tf.fallbacks,
                                      typer.global_value("range") is range)
        self.dynamic: dict = {}  # grows until it settles (check)
        self.dispatch: dict = {}  # call -> (argument, key of the callee for its other type): grows likewise
        self.reset()

    def reset(self):
        self.possible: dict = {}  # node -> the set of types its value may have, where that set is not {static type}
        self.tagged: set = set()
        self.boxed: dict = {}
        self.boxes_returns = False
        self.weak_exprs: set = set()
        self.flag_reads: set = set()  # nodes whose flags are read (returned; operands of flag_ops)
        self.weak_items: set = set()
        self.flag_ops: dict = {}
        self.weak_calls: dict = {}
        self.weak_choices: set = set()
        self.call_flags: set = set()
        self.grew = False

    # ---- the types a value may have --------------------------------------

    def def_type(self, d, name):
        if d == reaching.UNDEF:
            return None
        if isinstance(d, h.Param):  # a held parameter is boxed on entry, with the argument's own type
            return T.ANY if name in self.typer.held else self.tf.arg_types[self.tf.params.index(name)]
        info = self.tf.fallbacks.get(d)
        if info is not None:
            # A value from Python is converted where it crosses, to the type its
            # comment names or the variable's other assignments give it; with no
            # comment and other assignments, that type may not be the object's.
            if info.declared_for(name) is not None or not self.compiled_defs(name):
                return None
            return T.ANY
        return self.typer.def_types.get(d)

    def compiled_defs(self, name) -> bool:
        return any(not isinstance(d, str) and d not in self.tf.fallbacks for d in self.reach.defs.get(name, ()))

    def types_of(self, node):
        """The possible types of an expression's value (a set), or None when
        only its static type."""
        if node in self.possible:
            return self.possible[node]
        result = None
        static = self.tf.types.get(node)
        if isinstance(node, h.Name) and node in self.reach.uses:
            found = set()
            for d in self.reach.uses[node]:
                t = self.def_type(d, node.id)
                found |= {t, T.Scalar(t.dtype, weak=True)} if d in self.dynamic and t is not None else {t}
            found -= {None}
            if any(differs(t, static) for t in found):
                result = found
        elif isinstance(node, h.Call) and self.weak_callee(node) is not None:
            joined = self.weak_callee(node).return_type  # the callee's flag says which (tr::ret_weak)
            result = {joined, T.Scalar(joined.dtype, weak=True)}
        elif isinstance(node, h.Call) and self.typer.const(node.func) in (max, min) and len(node.args) >= 2 \
                and not node.keywords:
            result = picked_types(self, node, static)
        elif isinstance(node, h.Compare) and len(node.ops) > 1:
            result = chain_types(self, node)
        elif isinstance(node, (h.BoolOp, h.IfExp)):
            parts = node.values if isinstance(node, h.BoolOp) else (node.body, node.orelse)
            found = set()
            for p in parts:
                found |= self.types_of(p) or ({self.tf.types[p]} if p in self.tf.types else set())
            if any(differs(t, static) for t in found):
                result = found
        self.possible[node] = result
        return result

    def callees(self, node) -> list:
        """The compiled functions a call may run: [(argument or None, callee)],
        the first whose argument is a Python number (or None) is the one."""
        call = self.tf.calls.get(node) if isinstance(node, h.Call) else None
        if not (isinstance(call, tuple) and call and call[0] == "jit"):
            return []
        functions = self.typer.program.functions
        main = functions.get(call[1])
        if main is None:
            return []
        if node in self.dispatch:
            arg, alt_key = self.dispatch[node]
            return [(arg, functions[alt_key]), (None, main)]
        return [(None, main)]

    def weak_callee(self, node):
        """The callee of a call whose scalar result is a Python number or a
        NumPy scalar by path (read right after the call: tr::ret_weak)."""
        found = self.callees(node)
        if not found or not isinstance(found[-1][1].return_type, T.Scalar):
            return None
        static = {f.return_type.weak for _, f in found}
        return found[-1][1] if len(static) > 1 or any(f.weak_returns for _, f in found) else None

    def dispatched(self, node, parent) -> bool:
        """A Python float or an np.float64 by path passed to a compiled
        function: each type gets its own specialization, and the call runs the
        one for the type the argument has (tr::weak flag)."""
        if parent in self.dispatch:
            return self.dispatch[parent][0] is node
        if any(isinstance(n, h.Call) and n in self.call_flags for n in walk(node)):
            return False  # a flag caught from a call is set only after the callee is picked
        call = self.tf.calls.get(parent) if isinstance(parent, h.Call) else None
        if not (isinstance(call, tuple) and call and call[0] == "jit" and node in parent.args):
            return False
        (pyfunc, arg_types), sources = call[1], call[2]
        static = self.tf.types.get(node)
        if not weak_only(self.types_of(node), static) or ("pos", parent.args.index(node)) not in sources:
            return False
        j = sources.index(("pos", parent.args.index(node)))
        alt_types = arg_types[:j] + (T.Scalar(arg_types[j].dtype, weak=not arg_types[j].weak),) + arg_types[j + 1:]
        try:
            alt = self.typer.program.specialize(pyfunc, alt_types, tuple(w for kind, w in sources if kind == "outer"))
        except (FunctionNotCompilable, TypingError):
            return False
        main = self.typer.program.functions.get((pyfunc, arg_types))
        if alt is None or main is None or not same_storage(alt.return_type, main.return_type) \
                or alt.return_type == T.ANY:
            return False
        self.dispatch[parent] = (node, (pyfunc, alt_types))
        self.possible.pop(parent, None)
        self.grew = True
        return True

    # ---- uses ------------------------------------------------------------

    def check(self):
        """Every use, until the assignments whose value may be a Python float
        or an np.float64 (self.dynamic) settle."""
        guesses.check(self.typer, self.reach, self.parent, self.not_compilable)
        while True:
            self.reset()
            self.check_uses()
            if not self.grew:
                break
        self.close_tagged()
        powers.check(self.typer, self.reach, self.parent, self.flag_ops)
        for name in self.tagged:
            uses = [u for u in self.reach.uses if u.id == name]
            if uses and not self.assigned_simply(uses[0]):
                raise self.not_compilable(uses[0], name, self.types_of(uses[0]), "an assignment that is not `name = ...`")

    def close_tagged(self):
        """Flags are kept where they are read (returns, and the operands of
        operations whose rules depend on them); a flag that is read needs the
        flags it is computed from: the operands of +, -, * and comparisons,
        the arguments of max/min, the values a variable is assigned."""
        work = list(self.tagged) + list(self.flag_reads)
        seen = set()
        while work:
            item = work.pop()
            key = item if isinstance(item, str) else id(item)
            if key in seen:
                continue
            seen.add(key)
            if isinstance(item, str):  # a variable: every value assigned to it
                self.tagged.add(item)
                for target, value in self.dynamic.items():
                    if target.id == item:
                        work.append(value.value if isinstance(value, h.AugAssign) else value)
                        if isinstance(value, h.AugAssign):
                            work.append(item)
            elif isinstance(item, h.Name):
                if self.types_of(item) is not None:
                    work.append(item.id)
            elif isinstance(item, (h.BinOp, h.Compare)) and item in self.weak_exprs:
                work += [item.left, item.right] if isinstance(item, h.BinOp) else [item.left, item.comparators[0]]
            elif isinstance(item, (h.BoolOp, h.IfExp)) and self.types_of(item) is not None:
                # `x0 or x2`: the flag of the operand it picks, found by testing again
                # what the expression tested (lowering computes it beside the value)
                tests = item.values[:-1] if isinstance(item, h.BoolOp) else (item.test,)
                if not all(cannot_raise(self, t) for t in tests):
                    raise self.not_compilable(item, None, self.types_of(item),
                                              "keeping its flag (a test that is not a plain value)")
                self.weak_choices.add(item)
                work += list(item.values) if isinstance(item, h.BoolOp) else [item.body, item.orelse]
            elif isinstance(item, h.Call) and item in self.weak_calls:
                for arg in item.args:
                    if not pure(arg):
                        raise self.not_compilable(item, None, self.types_of(item),
                                                  "keeping its flag (its arguments are not plain values)")
                    work.append(arg)

    def check_uses(self):
        for use in self.reach.uses:
            if self.types_of(use) is not None:
                self.consumer(use, use)
        # `a and b`, `x if c else 0` with operands of two types, `a < b < c` of two result types; calls
        for node in self.parent:
            chosen = isinstance(node, (h.BoolOp, h.IfExp, h.Call, h.Compare))
            if chosen and statement_of(self.parent, node) in self.tf.fallbacks:
                continue  # evaluated by Python
            if chosen and self.types_of(node) is not None:
                self.consumer(node, node)
            elif flagged_items(self.callees(node)):
                self.unpacked(node)
        for s, reads in self.reach.fallback_reads.items():
            for name, defs in reads.items():
                found = {self.def_type(d, name) for d in defs} - {None}
                if any(differs(t, self.tf.var_types.get(name)) for t in found):
                    raise self.not_compilable(s, name, found, "the statement that runs as Python")
                if any(d in self.dynamic for d in defs):  # a Python float or an np.float64 by path:
                    self.tagged.add(name)  # Python receives it as the type its flag says (lower_regions)
        for s in returns(self.typer.fn.body):
            if s.value is None or s in self.tf.fallbacks or s.value not in self.tf.types:
                continue
            t = self.tf.types[s.value]
            if self.tf.return_type == T.ANY and t != T.ANY:
                self.boxes_returns = True  # another return runs as Python: this one boxes its value too
            elif self.types_of(s.value) is None and differs(t, self.tf.return_type) \
                    and not weak_only((t,), self.tf.return_type):
                self.boxes_returns = True  # each return site boxes its own value
        if self.boxed:
            self.boxes_returns = True
        if self.weak_items and not self.boxes_returns:
            sites = [s.value for s in returns(self.typer.fn.body) if s not in self.tf.fallbacks]
            if not all(isinstance(v, h.TupleExpr) for v in sites) or not isinstance(self.tf.return_type, T.Tuple):
                # e.g. a tuple variable returned, or None from Python beside tuples: built as a Python object
                self.boxes_returns = True
        if self.boxes_returns and any(call[0] == "jit" and call[1] == (self.tf.pyfunc, self.tf.arg_types)
                                      for call in self.tf.calls.values()):
            raise PathTypeConflict("this recursive function returns values of different types on "
                                        "different paths", self.typer.fn.loc,
                                        "return values of one type on every path, e.g. 0.0 rather than 0")

    def consumer(self, node, origin):
        """Raises unless every use of node's value gives CPython's result
        whichever of its possible types it has."""
        parent = self.parent.get(node)
        truth_tested = any(isinstance(parent, cls) and getattr(parent, attr) is node for cls, attr in _TRUTH_TESTED) \
            or isinstance(parent, h.UnaryOp) and parent.op == "not"
        if truth_tested and keeps_truth(self.types_of(node), self.tf.types.get(node)):
            return
        if truth_tested:  # held as its C++ type, a float 0.5 or a value from Python would test otherwise
            raise self.not_compilable(node, getattr(origin, "id", None), self.types_of(node), "its truth test")
        if isinstance(node, h.Compare) and len(node.ops) > 1:  # no flag says which comparison decided
            raise self.not_compilable(node, None, self.types_of(node), what(parent, node))
        single = isinstance(parent, h.Assign) and parent.value is node and len(parent.targets) == 1
        target = parent.targets[0] if single else unpacked_into(self.parent, parent, node)  # or `bd, b = dist, c`
        if isinstance(target, h.Name) and weak_only(self.types_of(node) | {self.tf.types.get(node)},
                                                    self.tf.var_types.get(target.id)):
            # the variable's flag is set from the value's (held in the C++ type of both: not a float32 `x1`)
            self.grow(target, node)
            return
        if same_value_use(self, node, parent):
            return
        if self.dispatched(node, parent):
            self.flag_reads.add(node)  # the call reads the argument's flag
            return
        if picked_argument(self, node, parent):
            self.possible[parent] = {self.tf.types[parent], T.Scalar(self.tf.types[parent].dtype, weak=True)}
            self.weak_calls[parent] = self.typer.const(parent.func).__name__
            return self.consumer(parent, origin)
        flagged = node in self.weak_exprs or node in self.weak_calls or isinstance(node, (h.BoolOp, h.IfExp)) \
            and weak_only(self.types_of(node), self.tf.types.get(node))
        if flagged and isinstance(parent, h.TupleExpr) and isinstance(self.parent.get(parent), h.Return):
            self.weak_items.add(parent.elts.index(node))  # the flag computed from its operands
            self.flag_reads.add(node)  # the return reads its flag
            return
        if flagged and isinstance(parent, h.Return):  # a max/min sets tr::ret_weak() (returns.py), others box
            self.boxes_returns |= not (node in self.weak_calls and isinstance(self.tf.return_type, T.Scalar))
            self.flag_reads.add(node)  # the return reads its flag
            return
        if isinstance(parent, h.Return) and isinstance(node, h.Call) and self.weak_callee(node) is not None \
                and node not in self.dispatch:
            return  # the callee's flag is this function's (passes/returns.py)
        if isinstance(parent, (h.BoolOp, h.IfExp)) and self.types_of(parent) is not None:
            return self.consumer(parent, origin)
        if isinstance(parent, h.BinOp):
            return self.same_op(parent, parent.op, parent.left, parent.right, self.tf.ops.get(parent), origin)
        if isinstance(parent, h.AugAssign) and parent.target is node or (
                isinstance(parent, h.AugAssign) and parent.value is node):
            return self.same_op(parent, parent.op, parent.target, parent.value, self.tf.ops.get(parent), origin)
        if isinstance(parent, h.UnaryOp):
            return self.same_unary(parent, origin)
        if isinstance(parent, h.Compare) and len(parent.ops) == 1 and parent.ops[0] in ("<", "<=", ">", ">=", "==", "!="):
            ops = self.tf.ops.get(parent)
            return self.same_op(parent, parent.ops[0], parent.left, parent.comparators[0],
                                ops[0] if isinstance(ops, tuple) and ops else None, origin, compare=True)
        in_tuple = isinstance(parent, h.TupleExpr) and isinstance(self.parent.get(parent), h.Return)
        if (isinstance(parent, h.Return) or in_tuple) and self.assigned_simply(node):
            if weak_only(self.types_of(node), self.tf.var_types.get(node.id)):
                self.tagged.add(node.id)
                if in_tuple:  # the item's flag goes with the tuple (tr::ret_weak_bits)
                    self.weak_items.add(parent.elts.index(node))
                return
            if all(isinstance(t, T.Scalar) for t in self.types_of(node)):
                joined = self.tf.var_types[node.id]
                alts = {self.def_type(d, node.id) for d in self.reach.defs[node.id]}
                self.boxed[node.id] = tuple(sorted((t for t in alts if differs(t, joined)), key=str))
                return
        raise self.not_compilable(node, getattr(origin, "id", None), self.types_of(node), what(parent, node))

    def assigned_simply(self, node) -> bool:
        """Every assignment of the variable is `name = ...` or `name op= ...`
        (lowering sets the flag or kind there), the parameter's type known."""
        if not isinstance(node, h.Name) or not isinstance(self.tf.var_types.get(node.id), T.Scalar):
            return False
        for d in self.reach.defs.get(node.id, ()):
            if self.def_type(d, node.id) is None:
                return False
            if isinstance(d, h.Param):
                if node.id in self.boxed or not weak_only((self.def_type(d, node.id),), self.tf.var_types[node.id]):
                    return False
            elif not isinstance(self.parent.get(d), (h.Assign, h.AugAssign)) and not (
                    isinstance(self.parent.get(d), h.TupleExpr)
                    and isinstance(self.parent.get(self.parent.get(d)), h.Assign)):
                return False
        return True

    def same_op(self, where, op, left, right, recorded, origin, compare=False):
        if not isinstance(recorded, promote.OpTypes):
            raise self.not_compilable(origin, getattr(origin, "id", None), self.types_of(origin), "the operation")
        lefts = self.types_of(left) or {self.tf.types.get(left)}
        rights = self.types_of(right) or {self.tf.types.get(right)}
        weak_results = set()
        for a in lefts:
            for b in rights:
                # an array beside a number that is Python's or NumPy's by path: the same operation if NumPy's
                # promotion gives one computation for both (a float64 array + 0.0 or np.float64(0.0))
                with_array = not compare and isinstance(a, (T.Scalar, T.Array)) and isinstance(b, (T.Scalar, T.Array))
                if not (isinstance(a, T.Scalar) and isinstance(b, T.Scalar) or with_array):
                    raise self.not_compilable(origin, getattr(origin, "id", None), self.types_of(origin),
                                              f"the '{op}' operation")
                try:
                    ops = self.typer.binop_types(where, op, a, b, right)
                except Exception:  # noqa: BLE001 - a combination CPython rejects: not the same operation
                    ops = None
                if not (self.stored_exactly(left, a, ops) and self.stored_exactly(right, b, ops)):
                    raise self.not_compilable(origin, getattr(origin, "id", None), self.types_of(origin),
                                              f"the '{op}' operation")  # `3000000000 or np.int32(1)`: int32
                if compare:  # a bool either way: the same answer if both convert exactly
                    exact = ops is not None and converts_exactly(self, a, left, recorded.compute) and \
                        converts_exactly(self, b, right, recorded.compute)
                    same = exact and ops.result == recorded.result
                    if exact and not same and isinstance(where, h.Compare) and ops.result.dtype == recorded.result.dtype:
                        weak_results.add(ops.result)  # bool or np.bool_ by path: its use decides
                        continue
                else:
                    same = ops == recorded
                if not same and with_array and not (isinstance(a, T.Scalar) and isinstance(b, T.Scalar)):
                    # with an array, only one computation for every path will do (no flag picks the rules)
                    raise self.not_compilable(origin, getattr(origin, "id", None), self.types_of(origin),
                                              f"the '{op}' operation", where)
                if not same and ops is not None and weakness_only(ops, recorded, op) and (
                        isinstance(where, h.BinOp) or isinstance(where, h.AugAssign) and isinstance(left, h.Name)):
                    weak_results.add(ops.result)  # a Python float or an np.float64 by path: its use decides
                elif not same and isinstance(where, h.BinOp) and semantics_by_flags(ops, recorded, op, a, b):
                    self.flag_ops[where] = ops  # CPython's rules when both are Python floats, NumPy's otherwise
                    weak_results.add(ops.result)
                elif not same:
                    raise self.not_compilable(origin, getattr(origin, "id", None), self.types_of(origin),
                                              f"the '{op}' operation", where)
        if weak_results:
            for n in (left, right):
                if isinstance(n, h.Call) and n not in self.weak_calls and self.types_of(n) is not None:
                    if self.weak_callee(n) is None or isinstance(where, h.AugAssign):  # `x += h(a)`: not caught
                        raise self.not_compilable(origin, getattr(origin, "id", None), self.types_of(origin),
                                                  f"the '{op}' operation on a call's result", where)
                    self.call_flags.add(n)  # the callee's flag, caught as it returns (cxx/lower_paths.py)
            if where in self.flag_ops:  # the rules themselves depend on the operands' flags
                self.flag_reads |= {left, right}
            if isinstance(where, h.AugAssign):
                self.grow(left, where)
                return
            self.weak_exprs.add(where)
            self.possible[where] = weak_results | {recorded.result}
            self.consumer(where, origin)

    def stored_exactly(self, node, t, ops) -> bool:
        """Whether a value of type t held in node's C++ type reaches the
        operation `ops` with the value it has in CPython: the conversion is
        exact, or the operation converts it to that float type anyway."""
        static = self.tf.types.get(node)
        if not isinstance(static, T.Scalar) or t.dtype == static.dtype or converts_exactly(self, t, node, static.dtype):
            return True
        if t.kind in "iu" and static.kind in "iu":
            return ints_fit(self, node, static.dtype)
        return ops is not None and ops.compute == static.dtype and static.kind in "fc"

    def unpacked(self, call):
        """`p, dp = f(...)` where items of f's result carry flags: the
        variables take them (their uses are checked like any other)."""
        parent = self.parent.get(call)
        items = flagged_items(self.callees(call))
        if not (isinstance(parent, h.Assign) and parent.value is call and len(parent.targets) == 1
                and isinstance(parent.targets[0], h.TupleExpr)
                and all(isinstance(e, h.Name) for i, e in enumerate(parent.targets[0].elts) if i in items)):
            raise self.not_compilable(call, None, None, what(parent, call) + " of its tuple result")
        for i, target in enumerate(parent.targets[0].elts):
            if i in items:
                self.grow(target, (call, i))

    def grow(self, target, value):
        if target not in self.dynamic:
            self.dynamic[target] = value
            self.grew = True

    def same_unary(self, parent, origin):
        recorded = self.tf.ops.get(parent)
        for a in self.types_of(parent.operand) or ():
            try:
                ops = promote.unary(parent.op, a)
            except promote.PromotionError:
                ops = None
            if ops != recorded:
                raise self.not_compilable(origin, getattr(origin, "id", None), self.types_of(origin),
                                          f"the unary '{parent.op}'", parent)

    def not_compilable(self, node, name, types, what, where=None):
        subject = conflict_subject(node, name)
        joined = self.tf.var_types.get(name) if name else self.tf.types.get(node)
        kinds = " or ".join(sorted({spelled(t) for t in types or ()} | ({spelled(joined)} if joined else set())))
        line = f" at line {where.loc.line}" if where is not None and where.loc else ""
        conflict = PathTypeConflict(
            f"{subject} may be {kinds} depending on the path taken; compiled code would hold it as "
            f"{spelled(joined)}, "
            f"which changes the result of {what}{line}", node.loc,
            "give it one type on every path (e.g. start from 0.0 rather than 0, or convert with float())")
        if name and fallback.holdable(self.typer, name):
            return Hold(name, conflict)
        stmt = statement_of(self.parent, node)
        if not name and stmt is not None and fallback.may_run_as_python(self.typer, stmt):
            return RunAsPython(stmt, conflict)
        return conflict


def analyse(typer) -> PathTypes:
    """Raises Hold for a variable that must become a Python object, or
    PathTypeConflict where the function cannot compile."""
    checker = _Checker(typer)
    checker.check()
    fallback.mark_outputs(typer.tf, checker.reach)
    return PathTypes(frozenset(checker.tagged), checker.dynamic, frozenset(checker.weak_exprs), checker.boxed,
                     checker.boxes_returns, frozenset() if checker.boxes_returns else frozenset(checker.weak_items),
                     checker.flag_ops, checker.weak_calls, checker.dispatch, frozenset(checker.weak_choices),
                     frozenset(checker.call_flags))
