"""Lowering of lambdas and key= functions (typed in passes/lambdas.py;
runtime: transpile_rt/keyfunc.hpp).  A mixin of FunctionLowerer, first in
its bases so its methods see these nodes before the others.

Calls of a lambda are ordinary calls of the lifted function (call_jit);
`f = lambda ...` emits nothing.  A key function becomes a C++ lambda that
calls the lifted function with the element and the current values of the
free variables: `[&](const E &x) { return lambda_l3_4(x, a); }`."""
from __future__ import annotations

from ..hir import nodes as h
from .model import CExpr, Line
from .types import ctype

H_KEY = "transpile_rt/keyfunc.hpp"


class LambdaLowering:
    def local_lambda(self, s: h.Assign):
        """`f = lambda ...` (the typer lets no other assignment of a lambda through)."""
        self.lines.append(Line(self.depth, "// (a lambda: compiled where it is called)"))

    def x_Lambda(self, node: h.Lambda) -> CExpr:
        return CExpr("tr::none_t{}")  # only read by the calls that use it

    def x_Call(self, node: h.Call) -> CExpr:
        call = self.tf.calls.get(node)
        if not (call and call[0] == "keyfn"):
            return super().x_Call(node)
        info = call[2]
        self.module.include(H_KEY)
        self.module.include("transpile_rt/list.hpp")
        lst = self.key_items(node, info)
        key = self.key_callable(info)
        if info.which in ("sort", "sorted"):
            rev = self.key_reverse(node)
            suffix = ""
            if info.asks_python:  # float keys: with a NaN among them CPython's sort decides
                self.module.include("transpile_rt/list_sort_python.hpp")
                self.module.needs_host = True
                suffix = "_floats"
            return CExpr(f"tr::list_{info.which}_key{suffix}({lst}, {key}{rev})")
        return CExpr(f"tr::list_{info.which}_key({lst}, {key})")

    def key_reverse(self, node) -> str:
        for k in node.keywords:
            if k.name == "reverse":
                return f", bool({self.expr(k.value).code})"
        return ""

    def key_items(self, node, info) -> str:
        """The elements as a tr::List (a new one where sorted() needs a copy)."""
        e = ctype(info.elem)
        x = info.iter_node
        if info.kind == "range":
            codes = [self.expr(a).code for a in x.args]
            start, stop, step = ("0", codes[0], "1") if len(codes) == 1 else (
                (codes[0], codes[1], "1") if len(codes) == 2 else tuple(codes))
            return f"tr::list_range<{e}>(int64_t({start}), int64_t({stop}), int64_t({step}))"
        if info.kind == "iterable":  # a dict, set or dict view
            return self.list_of_iterable(x, self.type_of(x), info.elem).code
        code = self.expr(x)
        if info.kind == "tuple":
            return f"tr::list_from_tuple<{e}>({code.code})"
        if info.kind == "array":
            return f"tr::list_from_array<{e}>({self.ev(code)})"
        if info.kind == "list" and info.which == "sorted":
            return f"tr::list_copy({code.code})"
        return code.code  # a list (min/max read it, sort sorts it), a generator's new list

    def key_callable(self, info) -> str:
        _, key, sources = self.tf.calls[info.keycall]
        callee = self.program.functions[key]
        _, arg_types = key
        item = self.tmp("item")
        args = []
        for (kind, where), t in zip(sources, arg_types):
            if kind == "pos":
                args.append(self.convert(CExpr(item), info.elem, t))
            elif kind == "outer":
                args.append(self.convert(CExpr(self.var(where)), self.tf.var_types[where], t))
            else:  # a default value
                args.append(self.constant(where, t).code)
        return f"[&](const {ctype(info.elem)} &{item}) {{ return {callee.cxx_name}({', '.join(args)}); }}"

