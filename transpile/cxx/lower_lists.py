"""Lowering of lists (runtime: transpile_rt/list.hpp): literals,
comprehensions and generator expressions that make lists, subscripts,
operators, iteration, and the converters used at the entry boundary.

A mixin of FunctionLowerer, placed before ExprLowerer so its x_* methods
see list operands first and hand everything else on."""
from __future__ import annotations

from ..hir import nodes as h
from ..hir import types as T
from .model import CExpr, Line
from .order import simple_code
from .types import SCALAR_CTYPES, ctype

H_LIST = "transpile_rt/list.hpp"


def conv(t: T.Type) -> str:
    """The tr::cv converter type of t (list.hpp): Python objects <-> compiled values."""
    if isinstance(t, T.Scalar):
        return f"tr::cv::Scalar<{SCALAR_CTYPES[t.dtype]}, {'true' if t.weak else 'false'}>"
    if isinstance(t, T.Array):
        return f"tr::cv::Arr<{SCALAR_CTYPES[t.dtype]}, {t.ndim}, {'tr::C' if t.layout == 'C' else 'tr::A'}>"
    if isinstance(t, T.Tuple):
        return f"tr::cv::Tup<{', '.join(conv(i) for i in t.items)}>"
    if isinstance(t, T.List):
        return f"tr::cv::Lst<{conv(T.INT if t.elem is None else t.elem)}, {'true' if t.frozen else 'false'}>"
    if isinstance(t, T.Str):  # through topy.hpp's box/unbox of a str
        return "tr::cv::Scalar<tr::Str, false>"
    from ..diagnostics import FunctionNotCompilable  # the whole function runs in CPython (or, fullgraph: this error)

    raise FunctionNotCompilable(f"a list of {t} cannot cross between Python and compiled code",
                                hint="pass and return lists of numbers, bools, strs, arrays, tuples or lists")


def elem_of(t: T.List) -> T.Type:
    return T.INT if t.elem is None else t.elem


class ListLowering:
    def use_lists(self):
        self.module.include(H_LIST)

    # ---- making lists --------------------------------------------------------------

    def x_ListExpr(self, node: h.ListExpr) -> CExpr:
        t = self.type_of(node)
        if isinstance(t, T.CompileTimeValue):  # str literals a library call read while compiling
            return CExpr("tr::none_t{}")
        self.use_lists()
        e = elem_of(t)
        items = [self.convert(self.expr(x), self.type_of(x), e) for x in node.elts]
        if not items:
            return CExpr(f"tr::List<{ctype(e)}>::make()")
        if sum(not simple_code(i) for i in items) > 1:  # Python evaluates the items left to right
            items = [i if simple_code(i) else self.hoist(i) for i in items]
        return CExpr(f"tr::list_of<{ctype(e)}>({', '.join(items)})")

    def x_ListComp(self, node: h.ListComp) -> CExpr:
        return self.comprehension(node.clauses, node.elt, self.type_of(node))

    def x_GenExp(self, node: h.GenExp) -> CExpr:
        """A generator expression not consumed by sum/min/max/any/all
        (list(), tuple(), sorted()): made into a list first."""
        clause = h.CompFor(node.loc, node.target, node.iter, node.conds)
        self.tf.loops[clause] = self.tf.loops[node]
        return self.comprehension((clause,), node.elt, T.List(self.type_of(node).elt))

    def comprehension(self, clauses, elt, t: T.List) -> CExpr:
        """A list comprehension: its loops append to a new list."""
        self.use_lists()
        e = elem_of(t)

        def add(out, _elems=None):
            elt_t = self.type_of(elt) if elt not in self.tf.coerce else T.FLOAT
            value = self.convert(self.expr(elt), elt_t, e)
            self.emit(f"{out}.push({ctype(e)}({value}));")

        return self.filled(clauses, f"tr::List<{ctype(e)}>::make()", "list", add)

    def filled(self, clauses, make: str, prefix: str, add) -> CExpr:
        """The loops of a list/dict/set comprehension, emitted before the
        statement (through self.pre, so while-conditions re-run them): a new
        container `auto out = make;`, then add(out, elems) in the innermost loop
        (a clause with no target hands its elements to add)."""
        out = self.tmp(prefix)
        saved = self.lines, self.depth, self.pre
        self.lines, self.depth, self.pre = [], 0, []
        self.emit(f"auto {out} = {make};")
        opened = 0
        for clause in clauses:
            it = self.tf.loops[clause]
            header, elems = self.iteration(clause.iter, it)
            self.emit(header)
            self.depth += 1
            opened += 1
            if clause.target is not None:
                self.bind_loop_target(clause.target, elems, it)
            for cond in clause.conds:
                self.emit(f"if (!{self.condition(cond)}) continue;")
        add(out, elems)
        for _ in range(opened):
            self.depth -= 1
            self.lines.append(Line(self.depth, "}"))
        body = self.lines
        self.lines, self.depth, self.pre = saved
        self.pre.extend("    " * line.indent + line.text for line in body)
        return CExpr(out)

    def list_of_iterable(self, node, it, elem_t) -> CExpr:
        """A new list of the elements of a dict, set, dict view or itertools
        iterator (list(d), sorted(d.items()), max(d.values())...)."""
        self.use_lists()
        e = ctype(elem_t)
        loop = h.CompFor(node.loc, None, node, ())
        self.tf.loops[loop] = it

        def add(out, elems):
            value = elems if isinstance(elems, str) else f"{e}({', '.join(elems)})"
            self.emit(f"{out}.push({e}({value}));")

        return self.filled((loop,), f"tr::List<{e}>::make()", "list", add)

    def x_Call(self, node: h.Call) -> CExpr:
        kind, target, _ = self.tf.calls[node]
        if kind == "lib" and getattr(target, "name", "") in ("range", "prange"):
            return CExpr("tr::none_t{}")  # read from the node by list(range(...)) and friends
        return super().x_Call(node)

    # ---- subscripts ------------------------------------------------------------------

    def x_Subscript(self, node: h.Subscript) -> CExpr:
        info = self.tf.subscripts[node]
        if not info.kind.startswith("list_"):
            return super().x_Subscript(node)
        self.use_lists()
        base = self.expr(node.value).code
        idx = node.index[0]
        if info.kind == "list_item":
            return CExpr(f"tr::list_at({base}, {self.int_code(idx, 'item')})")
        return CExpr(f"tr::list_slice({base}, {self.index_code(idx, 'slice')})")

    def list_store(self, target: h.Subscript, value: CExpr, vt, info):
        self.use_lists()
        lt = self.type_of(target.value)
        base = self.expr(target.value).code
        idx = target.index[0]
        if info.kind == "list_item":
            code = self.convert(value, vt, elem_of(lt))
            if not simple_code(code):  # Python evaluates the value before the index
                code = self.hoist(code)
            self.emit(f"tr::list_store_at({base}, {self.int_code(idx, 'item')}) = {code};")
        else:
            src = self.convert(value, vt, lt)
            self.emit(f"tr::list_set_slice({base}, {self.index_code(idx, 'slice')}, {src});")

    def list_aug_item(self, s: h.AugAssign, info):
        """lst[i] += v"""
        self.use_lists()
        ops = self.tf.ops[s]
        lt = self.type_of(s.target.value)
        e = elem_of(lt)
        base = self.hoist(self.expr(s.target.value).code)
        value = self.expr(s.value)
        ref = self.tmp("ref")
        self.emit(f"{{ auto &{ref} = tr::list_at({base}, {self.int_code(s.target.index[0], 'item')});")
        expr = self.binop(s.op, ops, CExpr(ref), e, value, self.type_of(s.value))
        if isinstance(e, T.Array):
            self.lines.append(Line(self.depth + 1, f"tr::assign({ref}, {expr.code}); }}"))
        else:
            self.lines.append(Line(self.depth + 1, f"{ref} = {self.convert(expr, ops.result, e)}; }}"))

    # ---- operators ----------------------------------------------------------------------

    def x_BinOp(self, node: h.BinOp) -> CExpr:
        ops = self.tf.ops.get(node)
        if not (isinstance(ops, tuple) and ops and ops[0] == "list"):
            return super().x_BinOp(node)
        self.use_lists()
        rt = self.type_of(node)
        a, b = self.expr(node.left), self.expr(node.right)
        if ops[1] == "concat":
            a = self.convert(a, self.type_of(node.left), rt)
            b = self.convert(b, self.type_of(node.right), rt)
            return CExpr(f"tr::list_concat({a}, {b})")
        if ops[1] == "repeat_r":
            return CExpr(f"tr::list_repeat({a.code}, int64_t({b.code}))")
        return CExpr(f"tr::list_repeat({b.code}, int64_t({a.code}))")

    def list_augassign(self, s: h.AugAssign):
        self.use_lists()
        kind = self.tf.ops[s][1]
        target = self.expr(s.target).code
        lt = self.type_of(s.target)
        value = self.expr(s.value)
        vt = self.type_of(s.value)
        if kind == "iadd":
            from ..library.lists import as_list

            self.emit(f"tr::list_iadd({target}, {as_list(self, value, vt, lt)});")
        elif kind == "imul":
            self.emit(f"tr::list_imul({target}, int64_t({value.code}));")
        else:  # a tuple of any length: t += u makes a new tuple
            dst = self.tf.var_types[s.target.id]
            self.emit(f"{target} = {self.convert(CExpr(f'tr::list_concat({target}, {value.code})'), lt, dst)};")

    def compare_one(self, op, ops, a, at, b, bt) -> CExpr:
        if not (isinstance(ops, tuple) and ops and ops[0] in ("list", "tuple")):
            return super().compare_one(op, ops, a, at, b, bt)
        self.use_lists()
        kind = ops[1]
        if kind == "in":
            if ops[0] == "tuple":
                tup = self.hoist(b.code)
                n = len(bt.items)
                code = "(" + " || ".join(f"tr::py_eq(std::get<{i}>({tup}), {a.code})" for i in range(n)) + ")" \
                    if n else "false"
                if n > 1 and not simple_code(a.code):
                    val = self.hoist(a.code)
                    code = "(" + " || ".join(f"tr::py_eq(std::get<{i}>({tup}), {val})" for i in range(n)) + ")"
            else:
                code = f"tr::list_contains({b.code}, {a.code})"
            return CExpr(f"(!{code})" if op == "not in" else code)
        code = f"tr::py_eq({a.code}, {b.code})"
        return CExpr(f"(!{code})" if op == "!=" else code)

    # ---- iteration -----------------------------------------------------------------------

    def list_iterable(self, node, it: T.List, counter):
        """for x in lst: the length is read at every step (CPython's list
        iterator sees appends made by the loop body)."""
        self.use_lists()
        lst = self.tmp("l")
        self.pre.append(f"auto {lst} = {self.expr(node).code};")
        return f"{lst}.size()", f"{lst}[{counter}]"
