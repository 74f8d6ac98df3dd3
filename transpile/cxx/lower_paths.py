"""Lowering of per-path typing (passes/paths.py): the run-time flags that say whether a value is a Python number, and calls chosen by them."""
from __future__ import annotations

from ..hir import nodes as h
from ..hir import types as T
from ..passes.hir_walk import walk
from .model import CExpr
from .names import weak_flag


class PathFlagLowering:
    """Sets and reads the tr_weak_<v> flags; picks a callee by an argument's flag."""

    def set_weak_flag(self, name, vt, weak: str | None = None):
        """weak: C++ computing the flag where it is known at run time only.
        In a prange kernel only an iteration's own variables keep one: its
        reductions' flags are set after the loop (lower_parallel.py)."""
        if self.tf.path_types and name in self.tf.path_types.tagged and \
                (not self.kernel or name in self.kernel.private):
            self.emit(f"{self.weak_flag_of(name)} = {weak or ('true' if vt.weak else 'false')};")

    def call_flag(self, call, flag_of) -> str:
        """Whether the result of a compiled call is a Python number: flag_of(callee)
        for the callee that ran (per-path typing may pick one by an argument's flag)."""
        main = self.program.functions[self.tf.calls[call][1]]
        if call not in self.tf.path_types.dispatch:
            return flag_of(main)
        arg, alt_key = self.tf.path_types.dispatch[call]
        alt, flag = flag_of(self.program.functions[alt_key]), flag_of(main)
        return flag if alt == flag else f"({self.weak_code(arg)} ? {alt} : {flag})"  # the same bit either way

    def x_Call(self, node: h.Call) -> CExpr:
        code = self.dispatched_call(node)
        if not (self.tf.path_types and node in self.tf.path_types.call_flags):
            return code
        # its result meets +, -, *: the callee's flag (tr::ret_weak) is caught before any other call
        flag = self.tmp("wf")
        self.pre.append(f"bool {flag} = false;")
        self.caught_flags[node] = flag
        return CExpr(f"([&]() {{ auto tr_v = {code.code}; {flag} = {self.callee_flag(node)}; return tr_v; }}())")

    def callee_flag(self, call) -> str:
        """C++ of whether a compiled call's scalar result is a Python number, read right after the call."""
        return self.call_flag(call, lambda f: "tr::ret_weak()" if f.weak_returns else
                              ("true" if f.return_type.weak else "false"))

    def dispatched_call(self, node: h.Call) -> CExpr:
        dispatch = self.tf.path_types.dispatch if self.tf.path_types else {}
        if node not in dispatch:
            return super().x_Call(node)
        # one specialization per type of the argument that is a Python float or an np.float64 by path
        # (the same C++ signature): the call goes to the one for the type the argument has
        arg, alt_key = dispatch[node]
        _, key, sources = self.tf.calls[node]
        target = f"({self.weak_code(arg)} ? {self.program.functions[alt_key].cxx_name} : " \
                 f"{self.program.functions[key].cxx_name})"
        return self.call_jit(node, key, sources, target)

    def x_BinOp(self, node: h.BinOp) -> CExpr:
        flag_ops = self.tf.path_types.flag_ops if self.tf.path_types else {}
        if node not in flag_ops:
            return super().x_BinOp(node)
        # /, //, %, ** of values that are Python floats or np.float64s by path:
        # CPython's rules when both are Python floats, NumPy's otherwise (passes/paths.py)
        a, b = self.expr(node.left), self.expr(node.right)
        at, bt = self.type_of(node.left), self.type_of(node.right)
        calls = [n for n in (node.left, node.right) if n in self.tf.path_types.call_flags]
        operands = (a, b)
        if calls:  # the operands first (left to right), then the flags their calls set
            a, b = CExpr("tr_l"), CExpr("tr_r")
        python = self.binop(node.op, flag_ops[node], a, T.Scalar(at.dtype, weak=True), b, T.Scalar(bt.dtype, weak=True))
        numpy = self.binop(node.op, self.tf.ops[node], a, at, b, bt)
        choice = f"({self.weak_code(node.left)} && {self.weak_code(node.right)} ? {python.code} : {numpy.code})"
        if calls:
            return CExpr(f"([&]() {{ auto tr_l = {operands[0].code}; auto tr_r = {operands[1].code}; "
                         f"return {choice}; }}())")
        return CExpr(choice)

    def reads_caught_flag(self, node) -> bool:
        """Whether node's flag is made of a flag caught from a call in it: the
        value must then be computed before the flag is read."""
        calls = self.tf.path_types.call_flags if self.tf.path_types else ()
        return bool(calls) and any(n in calls for n in walk(node))

    def weak_code(self, node) -> str:
        """C++ for whether node's value is a Python number (passes/paths.py):
        a flag, or `and` of its operands' for +, -, * of Python floats and
        np.float64s (the result is a Python float only if both are)."""
        path_types = self.tf.path_types
        if isinstance(node, h.BinOp) and node in path_types.weak_exprs:
            return f"({self.weak_code(node.left)} && {self.weak_code(node.right)})"
        if isinstance(node, h.Compare) and node in path_types.weak_exprs:  # bool, or np.bool_ if either is NumPy's
            return f"({self.weak_code(node.left)} && {self.weak_code(node.comparators[0])})"
        if isinstance(node, h.BoolOp) and node in path_types.weak_choices:  # the flag of the operand picked
            out = self.weak_code(node.values[-1])
            for v in reversed(node.values[:-1]):  # its tests raise nothing and give the same truth again
                picked, other = (self.weak_code(v), out) if node.op == "or" else (out, self.weak_code(v))
                out = f"({self.condition(v)} ? {picked} : {other})"
            return out
        if isinstance(node, h.IfExp) and node in path_types.weak_choices:
            return f"({self.condition(node.test)} ? {self.weak_code(node.body)} : {self.weak_code(node.orelse)})"
        if isinstance(node, h.Call) and path_types.weak_calls.get(node) == "abs":  # the argument's own type
            return self.weak_code(node.args[0])
        if isinstance(node, h.Call) and node in path_types.weak_calls:  # max/min return the argument they pick
            a, b = node.args
            op = ">" if path_types.weak_calls[node] == "max" else "<"  # the first unless the second is beyond it
            return f"(({self.expr(b).code}) {op} ({self.expr(a).code}) ? {self.weak_code(b)} : {self.weak_code(a)})"
        if isinstance(node, h.Name) and node.id in path_types.tagged:
            return self.weak_flag_of(node.id)
        if isinstance(node, h.Call) and node in path_types.call_flags:
            return self.caught_flags[node]
        t = self.type_of(node)
        return "true" if isinstance(t, T.Scalar) and t.weak else "false"

    def weak_flag_of(self, name) -> str:
        return weak_flag(self.var(name))
