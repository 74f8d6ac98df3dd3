"""Expression lowering: typed HIR expressions -> C++ expression text.

Array operations produce lazy expression templates (fused into one loop at
jit_level O1, evaluated per operation at O0); scalar operations are plain
C++ on operands converted to the computation type NumPy/CPython picked."""
from __future__ import annotations

import numpy as np

from ..diagnostics import PathTypeConflict, TypingError
from ..hir import nodes as h
from ..hir import types as T
from ..library import lookup_iteration
from ..library.attributes import lookup as lookup_attr
from . import lower_records
from ..library.base import LowerSite
from ..library.numpy_common import WIDE_INT
from ..library.numpy_ufuncs import functor_of, numpy_loop_functor
from ..passes.live_globals import LiveRead
from ..hir.promote import BINARY_UFUNCS, COMPARISONS, UNARY_UFUNCS, mixed_sign_comparison
from .model import CExpr
from .order import call_in_order, in_order, may_raise, needs_order, simple_code, star_holder
from .stores import checked, needs_check
from .types import SCALAR_CTYPES, ctype, literal

INFIX = {"+", "-", "*", "<<", ">>", "&", "|", "^", "<", "<=", ">", ">=", "==", "!="}
SMALL_INTS = {"bool", "int8", "int16", "uint8", "uint16"}
PY_FUNCS = {"/": "tr::py::truediv", "//": "tr::py::floordiv", "%": "tr::py::mod", "**": "tr::py::pow",
            "<<": "tr::py::lshift", ">>": "tr::py::rshift"}
NP_FUNCS = {"//": "tr::op::floordiv", "%": "tr::op::mod", "**": "tr::op::pow", "<<": "tr::op::lshift",
            ">>": "tr::op::rshift"}


class ExprLowerer:
    """Mixin of FunctionLowerer: needs self.tf, self.hoist, self.lazy, self.ev."""

    def expr(self, node) -> CExpr:
        node = self.tf.unpacked.get(node, node)  # a library call with `*t`: the call with t's items apart
        method = getattr(self, "x_" + type(node).__name__)
        out = method(node)
        if node in self.tf.coerce:  # a Python object from fallback code meets typed code
            from .lower_optional import coerced

            unwrapped = coerced(self, node, out)
            if unwrapped is not None:  # a value that may be None, where a value is needed
                return unwrapped
            declared = self.tf.coerce[node]
            if isinstance(declared, (T.Scalar, T.Array)) and declared != T.FLOAT:  # named by # @jit.typing
                self.module.include("transpile_rt/typed_object.hpp")
                return CExpr(f"tr::from_object<{ctype(declared)}>({out.code})")
            return CExpr(f"tr::to_float({out.code}, {self.where(node)})")
        return out

    def where(self, node) -> str:
        return '"' + f"{node.loc.filename.rsplit('/', 1)[-1]}:{node.loc.line}" + '"'

    def type_of(self, node) -> T.Type:
        t = self.tf.types[node]
        if isinstance(t, T.Optional) and node in self.tf.coerce:  # unwrapped where a value is needed
            return t.inner
        if t == T.ANY and node in self.tf.coerce:  # converted where it meets typed code (expr())
            return self.tf.coerce[node]
        return t

    # ---- leaves ----------------------------------------------------------

    def x_Name(self, node: h.Name) -> CExpr:
        if node in self.tf.consts:
            if isinstance(self.tf.consts[node], LiveRead):
                return self.live_value(self.tf.consts[node], node)
            return self.constant(self.tf.consts[node], self.type_of(node))
        check = self.check_bound(node)
        if check:  # a read that may find the variable unassigned
            return CExpr(f"({check}, {self.var(node.id)})")
        return CExpr(self.var(node.id))

    def x_Const(self, node: h.Const) -> CExpr:
        t = self.type_of(node)
        if isinstance(t, T.CompileTimeValue):  # a string argument, read while compiling
            return CExpr("tr::none_t{}")
        return CExpr(literal(node.value, t))

    def constant(self, value, t: T.Type) -> CExpr:
        if isinstance(t, T.Array):
            return CExpr(self.module.array_constant(value, t) + "()")
        if isinstance(t, T.DType):
            return CExpr("tr::none_t{}")
        return CExpr(literal(value, t))

    # ---- operators ---------------------------------------------------------

    def x_BinOp(self, node: h.BinOp) -> CExpr:
        if self.tf.calls.get(node, ("",))[0] == "jit":  # an operator method of a @jit_class
            return self.call_jit(node, self.tf.calls[node][1], self.tf.calls[node][2])
        if node.op == "@":
            return self.call_lib(node, [node.left, node.right], {})
        ops = self.tf.ops[node]
        a, b = self.expr(node.left), self.expr(node.right)
        at, bt = self.type_of(node.left), self.type_of(node.right)
        first = needs_order(self, [node.left, node.right])
        for i, (x, t) in enumerate(((a, at), (b, bt))):  # NumPy's check of a Python int raises after both operands
            other = (node.left, node.right)[1 - i]
            if not first and self.checks_python_int(node.op, ops, x, t) and may_raise(self.tf, other, self.unbound.reads):
                first = [1 - i]
        cache = self.divisor_cache(node, ops)
        if first:
            return in_order(self, [a, b], first, lambda c: self.binop(node.op, ops, c[0], at, c[1], bt, cache),
                            [node.left, node.right], ops.result)
        return self.binop(node.op, ops, a, at, b, bt, cache)

    def binop(self, op, ops, a: CExpr, at, b: CExpr, bt, divisor_cache: str | None = None) -> CExpr:
        result = ops.result
        ct = SCALAR_CTYPES[ops.compute]
        if op in COMPARISONS and mixed_sign_comparison(ops.compute, (at, bt)):
            if isinstance(result, T.Array):
                return self.lazy(f"tr::binary<{functor_of(BINARY_UFUNCS[op])}, {WIDE_INT}>({a.code}, {b.code})")
            (a, at), (b, bt) = self.zero_d(a, at), self.zero_d(b, bt)
            return CExpr(f"(static_cast<{WIDE_INT}>({a.code}) {op} static_cast<{WIDE_INT}>({b.code}))")
        if op in COMPARISONS and ops.python_semantics and {getattr(at, "kind", ""), getattr(bt, "kind", "")} == {"i", "f"}:
            # CPython compares a Python int with a float exactly (2**53 + 1 != 2.0**53), not in double
            i, f = (a, b) if at.kind == "i" else (b, a)
            order = "tr::py::int_float_order" if at.kind == "i" else "-tr::py::int_float_order"
            return CExpr(f"tr::py::ordered({order}(int64_t({i.code}), double({f.code})), \"{op}\")")
        if isinstance(result, T.Array):
            functor = functor_of(BINARY_UFUNCS[op])
            if op == "**":
                functor = _array_power(at, bt, ops.compute)
                # NumPy's power loop where it is not a square, root or reciprocal (numpy_loops.hpp)
                loop = numpy_loop_functor(self, np.power, ops.compute) if functor in _LOOPED_POWERS else None
                if loop is not None:
                    functor = f"{_LOOPED_POWERS[functor]}<{loop}>" if _LOOPED_POWERS[functor] else loop
            if op not in COMPARISONS:
                (a, _), (b, _) = self.weak_int_operand(a, at, ops.compute), self.weak_int_operand(b, bt, ops.compute)
            return self.lazy(f"tr::binary<{functor}, {ct}>({a.code}, {b.code})")
        a, at = self.zero_d(a, at)
        b, bt = self.zero_d(b, bt)
        if not ops.python_semantics and op not in COMPARISONS:  # NEP 50: a Python int must fit the dtype it meets
            (a, at), (b, bt) = self.weak_int_operand(a, at, ops.compute), self.weak_int_operand(b, bt, ops.compute)
        exact = op in PY_FUNCS or op in NP_FUNCS  # function templates deduce from exact types
        ac, bc = self.as_ct(a, at, ops.compute, exact), self.as_ct(b, bt, ops.compute, exact)
        rt = ctype(result)
        if ops.python_semantics and op in PY_FUNCS:
            if op == "/" and ops.compute == "float64" and at.kind in "iub" and bt.kind in "iub":
                return CExpr(f"tr::py::truediv_int(int64_t({a.code}), int64_t({b.code}))")
            return CExpr(f"{PY_FUNCS[op]}({ac}, {bc}, {divisor_cache})" if divisor_cache
                         else f"{PY_FUNCS[op]}({ac}, {bc})")
        if op in NP_FUNCS:
            return CExpr(f"{NP_FUNCS[op]}_cached({ac}, {bc}, {divisor_cache})" if divisor_cache
                         else f"{NP_FUNCS[op]}::apply({ac}, {bc})")
        if op == "/":
            return CExpr(f"({ac} / {bc})")
        if op in INFIX:
            if ops.compute in ("int64", "uint64") and _is_literal(a.code) and (op in ("<<", ">>") or
                                                                            _is_literal(b.code)):
                ac = self.as_ct(a, at, ops.compute, exact=True)  # C++ would shift or multiply in 32-bit int
            text = f"({ac} {op} {bc})"
            if ops.compute in SMALL_INTS and op not in ("<", "<=", ">", ">=", "==", "!="):
                text = f"{rt}{text}"
            return CExpr(text)
        raise TypingError(f"operator {op} is not supported here", None)

    def checks_python_int(self, op, ops, x: CExpr, t) -> bool:
        """Whether binop checks Python int operand x against a narrower dtype (weak_int_operand)."""
        return not ops.python_semantics and op not in COMPARISONS and self.python_int_checked(x, t, ops.compute)

    @staticmethod
    def python_int_checked(x: CExpr, t, compute: str) -> bool:
        return isinstance(t, T.Scalar) and t.dtype == "int64" and needs_check(t, compute, x.code, "element")

    def weak_int_operand(self, x: CExpr, t: T.Type, compute: str):
        """A Python int operand of an operation computed in a narrower integer
        dtype: NumPy raises OverflowError when it does not fit ("Python integer
        300 out of bounds for int8"); literals that fit are left alone."""
        if self.python_int_checked(x, t, compute):
            return CExpr(checked(self, x.code, t, compute)), T.Scalar(compute)
        return x, t

    def zero_d(self, x: CExpr, t: T.Type):
        """A 0-d array operand of a scalar operation: its element."""
        if isinstance(t, T.Array) and t.ndim == 0:
            return CExpr(f"{self.ev(x)}.data[0]"), t.scalar
        return x, t

    def as_ct(self, x: CExpr, t: T.Type, compute: str, exact: bool = False) -> str:
        """Scalar operand converted to the computation type (exact: even a
        literal gets that C++ type, for calls that deduce it)."""
        if isinstance(t, T.Scalar) and _is_literal(x.code):
            text = literal(_num(x.code), T.Scalar(compute))
            if exact and text.lstrip("-").isdigit():
                text = f"{SCALAR_CTYPES[compute]}({text})"
            return text
        if isinstance(t, T.Scalar) and t.dtype == compute:
            return x.code
        return f"tr::cast<{SCALAR_CTYPES[compute]}>({x.code})"

    def x_UnaryOp(self, node: h.UnaryOp) -> CExpr:
        ops = self.tf.ops[node]
        if node.op in "-+" and isinstance(node.operand, h.Const) and isinstance(ops.result, T.Scalar) \
                and not isinstance(node.operand.value, bool):
            value = node.operand.value
            return CExpr(literal(-value if node.op == "-" else value, ops.result))
        x, xt = self.zero_d(self.expr(node.operand), self.type_of(node.operand))
        if node.op == "not":
            return CExpr(f"(!tr::truthy({x.code}))")
        if isinstance(ops.result, T.Array):
            return self.lazy(f"tr::unary<{functor_of(UNARY_UFUNCS[node.op])}, {SCALAR_CTYPES[ops.compute]}>({x.code})")
        xc = self.as_ct(x, xt, ops.compute)
        rt = ctype(ops.result)
        if node.op == "-":
            return CExpr(f"{rt}(-({xc}))" if xc.startswith("-") else f"{rt}(-{xc})")  # not C++'s --
        if node.op == "+":
            return CExpr(f"{rt}({xc})")
        return CExpr(f"tr::op::invert::apply({xc})")

    def x_Compare(self, node: h.Compare) -> CExpr:
        if self.tf.calls.get(node, ("",))[0] == "jit":  # a comparison method of a @jit_class
            return self.call_jit(node, self.tf.calls[node][1], self.tf.calls[node][2])
        ops = self.tf.ops[node]
        operands = [node.left] + list(node.comparators)
        codes = [self.expr(o) for o in operands]
        types = [self.type_of(o) for o in operands]
        if len(node.ops) == 1:
            first = needs_order(self, operands)
            if first:  # both operands may raise: Python's first exception wins (C++ leaves `==`'s order open)
                return in_order(self, codes, first,
                                lambda c: self.compare_one(node.ops[0], ops[0], c[0], types[0], c[1], types[1]),
                                operands, self.type_of(node))
            return self.compare_one(node.ops[0], ops[0], codes[0], types[0], codes[1], types[1])
        if _zero_to(node, types, codes):  # 0 <= x < n: one unsigned compare, not two branches (histogram)
            return CExpr(f"tr::in_range({codes[1].code}, {codes[2].code})")
        # a < b < c: each operand evaluated once, in order, and the later ones
        # only while the comparisons so far hold (Python short-circuits).
        names = [c.code if c.code.isidentifier() else self.tmp("c") for c in codes]
        body = [f"auto {names[0]} = {codes[0].code};"] if names[0] != codes[0].code else []
        for i, op in enumerate(node.ops):
            if names[i + 1] != codes[i + 1].code:
                body.append(f"auto {names[i + 1]} = {codes[i + 1].code};")
            part = self.compare_one(op, ops[i], CExpr(names[i]), types[i], CExpr(names[i + 1]), types[i + 1]).code
            last = i == len(node.ops) - 1
            body.append(f"return tr::truthy({part});" if last else f"if (!tr::truthy({part})) return false;")
        return CExpr("([&]() -> bool { " + " ".join(body) + " }())")

    def compare_one(self, op, ops, a, at, b, bt) -> CExpr:
        from .lower_optional import OptCompare, compare

        if isinstance(ops, OptCompare):  # one side may be None
            return compare(self, op, ops, a, at, b, bt)
        if op in ("is", "is not"):
            same = at == bt  # only None comparisons reach here
            # known from the types, but both operands still run, left to right:
            # they may raise or write (`a[5] is None`, `x.fill(0) is None`)
            value = "true" if same == (op == "is") else "false"
            effects = [f"(void)({c.code})" for c in (a, b) if not c.code.isidentifier() and c.code != "tr::none"]
            return CExpr(f"({', '.join(effects + [value])})" if effects else value)
        return self.binop(op, ops, a, at, b, bt)

    def lazily(self, lower) -> str:
        """C++ for an operand Python may not evaluate (a branch of `x if c
        else y`, the operands of `and`/`or` after the first): what lowering
        it would hoist before the statement (a sorted() copy, an unbound
        check) runs only when the operand does."""
        saved, self.pre = self.pre, []
        try:
            code = lower()
        finally:
            pre, self.pre = self.pre, saved
        return f"([&]() {{ {' '.join(pre)} return {code}; }}())" if pre else code

    def x_BoolOp(self, node: h.BoolOp) -> CExpr:
        rt = self.tf.types[node]  # not type_of(): expr() converts a coerced result, once
        values = [self.expr(node.values[0])] + [CExpr(self.lazily(lambda v=v: self.expr(v).code))
                                                for v in node.values[1:]]
        if rt == T.BOOL or rt == T.Scalar("bool"):
            joiner = " && " if node.op == "and" else " || "
            return CExpr("(" + joiner.join(f"tr::truthy({v.code})" for v in values) + ")")
        ct = ctype(rt)
        code = f"tr::cast<{ct}>({values[-1].code})"
        for v in reversed(values[:-1]):
            test = "!tr::truthy(tr_v)" if node.op == "and" else "tr::truthy(tr_v)"
            code = f"([&]() -> {ct} {{ auto tr_v = {v.code}; if ({test}) return tr::cast<{ct}>(tr_v); return {code}; }}())"
        return CExpr(code)

    def x_IfExp(self, node: h.IfExp) -> CExpr:
        rt = self.tf.types[node]  # not type_of(): expr() converts a coerced result, once
        test = self.expr(node.test)
        body = self.lazily(lambda: self.convert(self.expr(node.body), self.type_of(node.body), rt))
        orelse = self.lazily(lambda: self.convert(self.expr(node.orelse), self.type_of(node.orelse), rt))
        return CExpr(f"(tr::truthy({test.code}) ? {body} : {orelse})")

    def x_TupleExpr(self, node: h.TupleExpr) -> CExpr:
        t = self.type_of(node)
        if isinstance(t, T.CompileTimeValue):  # classes for isinstance(), read while compiling
            return CExpr("tr::none_t{}")
        items = [self.convert(self.expr(e), self.type_of(e), it) for e, it in zip(node.elts, t.items)]
        if sum(not simple_code(i) for i in items) > 1:
            # Braces make C++ evaluate the items left to right, as Python does.
            return CExpr(f"{ctype(t)}{{{', '.join(items)}}}")
        return CExpr(f"{ctype(t)}({', '.join(items)})")

    def x_TryHandler(self, node: h.TryHandler) -> CExpr:
        """Whether the exception caught (cxx/lower_stmts.py's tr_caught) is this except clause's."""
        return CExpr("(" + " || ".join(f"tr_caught.code == {c}" for c in self.tf.consts[node]) + ")")

    # ---- attributes, subscripts, calls -------------------------------------

    def x_Attribute(self, node: h.Attribute) -> CExpr:
        if node in self.tf.consts:
            if isinstance(self.tf.consts[node], LiveRead):
                return self.live_value(self.tf.consts[node], node)
            return self.constant(self.tf.consts[node], self.type_of(node))
        if node in self.tf.calls:  # a property of a @jit_class
            return self.call_jit(node, self.tf.calls[node][1], self.tf.calls[node][2])
        if isinstance(self.type_of(node), T.CompileTimeValue):  # np.ndarray for isinstance()
            return CExpr("tr::none_t{}")
        base_t = self.type_of(node.value)
        if isinstance(base_t, T.Instance):
            return CExpr(self.field_ref(node))
        rule = lookup_attr(base_t, node.attr)
        return rule.lower(self, self.expr(node.value), base_t, self.type_of(node))

    def field_ref(self, node: h.Attribute) -> str:
        """The C++ lvalue of field node.attr of a @jit_class instance."""
        from .lower_classes import field_name

        return f"{self.expr(node.value).code}->{field_name(node.attr)}"

    def x_Subscript(self, node: h.Subscript) -> CExpr:
        info = self.tf.subscripts[node]
        if info.kind.startswith("record_"):
            return lower_records.subscript(self, node, info)
        base = self.expr(node.value)
        if info.kind == "tuple_item":
            if info.const_index is not None:
                return CExpr(f"std::get<{info.const_index}>({base.code})")
            return CExpr(f"tr::tuple_get({base.code}, {self.int_code(node.index[0], 'item')})")
        if info.kind == "tuple_slice":
            tmp = self.hoist(base.code, self.type_of(node.value))
            items = ", ".join(f"std::get<{i}>({tmp})" for i in info.const_index)
            return CExpr(f"{ctype(info.result)}({items})")
        if info.kind == "lib":  # a.flat[i]
            rule = lookup_iteration(self.type_of(node.value).kind)
            return CExpr(rule.get_code(self, base.code, [self.expr(i).code for i in node.index]))
        arr = self.ev(base)
        if info.kind == "mask":
            return CExpr(f"tr::mask_get({arr}, {self.ev(self.expr(node.index[0]))})")
        idx = ", ".join(self.index_code(i, p) for i, p in zip(node.index, info.parts))
        if info.kind == "fancy":
            self.module.include("transpile_rt/fancy.hpp")
            return CExpr(f"tr::fancy_get<{ctype(info.result)}>({arr}, {idx})")
        if info.kind == "element":  # cxx/lower_speculate.py: a load done either way stays in range
            return CExpr(self.speculated_load(node, f"tr::at({arr}{', ' if idx else ''}{idx})", ctype(info.result)))
        return CExpr(f"tr::view<{ctype(info.result)}>({arr}{', ' if idx else ''}{idx})")

    def x_Call(self, node: h.Call) -> CExpr:
        kind, target, info = self.tf.calls[node]
        if kind == "jit":
            return self.call_jit(node, target, info)
        args = list(node.args)
        if isinstance(node.func, h.Attribute) and (node.func.value in self.tf.types and not isinstance(
                self.tf.types[node.func.value], T.CompileTimeValue)):
            args = [node.func.value] + args
        return self.call_lib(node, args, {k.name: k.value for k in node.keywords})

    def call_lib(self, node, arg_nodes, kw_nodes) -> CExpr:
        _, entry, info = self.tf.calls[node]
        for header in entry.headers:
            self.module.include(header)
        if info == "generator":  # sum/min/max/any/all over a generator expression: one loop
            start = arg_nodes[1] if len(arg_nodes) > 1 else kw_nodes.get("start")
            return self.reduce_generator(entry.name, arg_nodes[0], self.type_of(node), start)
        args = [self.expr(a) for a in arg_nodes]
        kwargs = {k: self.expr(v) for k, v in kw_nodes.items()}
        arg_types = [self.type_of(a) for a in arg_nodes]
        kw_types = {k: self.type_of(v) for k, v in kw_nodes.items()}

        def lower(codes):
            site = LowerSite(info, self.type_of(node), codes[:len(args)], dict(zip(kwargs, codes[len(args):])),
                             arg_types, kw_types, self, tuple(map(self.signs.never_negative, arg_nodes)))
            return entry.lower(site)

        # A call used as a statement (print(), a.sort()) may lower to statements of
        # its own, which cannot sit in in_order's lambda: values only.
        first = needs_order(self, [*arg_nodes, *kw_nodes.values()]) \
            if isinstance(self.type_of(node), (T.Scalar, T.Array)) else []
        if first:  # keywords follow the positional arguments in the source
            return in_order(self, [*args, *kwargs.values()], first, lower, [*arg_nodes, *kw_nodes.values()],
                            self.type_of(node))
        return lower([*args, *kwargs.values()])

    def call_jit(self, node, key, sources, target: str | None = None) -> CExpr:
        """target: C++ naming the function to call, where it is not the callee
        of `key` alone (one of two specializations picked at run time)."""
        callee = self.program.functions[key]
        function = target or callee.cxx_name
        pyfunc, arg_types = key
        kw = {k.name: k.value for k in getattr(node, "keywords", ())}
        args = []
        new = None
        holders = {}  # starred node -> (temporary, C++ of its tuple) where the tuple is not a variable
        for (kind, where), t in zip(sources, arg_types):
            if kind == "new":  # the instance being constructed: __init__ runs on it
                new = where
                continue
            args.append(self.argument_code(node, kind, where, t, kw, holders))
        # Python evaluates arguments left to right (keywords in source order);
        # C++ leaves the order unspecified, so several non-trivial arguments are
        # evaluated into temporaries first, in Python's order.
        if new is not None:
            from .lower_classes import construct_code

            return CExpr(construct_code(self, new, callee.cxx_name, args))
        return call_in_order(self, function, args, sources, getattr(node, "args", ()), kw, holders)

    def argument_code(self, node, kind: str, where, t, kw: dict, holders: dict) -> str:
        """C++ of the argument a compiled call passes for one parameter of type
        t, from where the typer found it (passes/infer_calls.py call_jit)."""
        if kind == "expr":  # a method's receiver or an operator's operand
            return self.convert(self.expr(where), self.type_of(where), t)
        if kind == "pos":
            return self.convert(self.expr(node.args[where]), self.type_of(node.args[where]), t)
        if kind == "star":  # item k of the tuple `*value` unpacks
            starred, k = node.args[where[0]], where[1]
            item = CExpr(f"std::get<{k}>({star_holder(self, starred, holders)})")
            return self.convert(item, self.type_of(starred).items[k], t)
        if kind == "pack":  # *args: the extra positional arguments, in a tuple (a braced list: evaluated in order)
            items = [self.argument_code(node, k, w, it, kw, holders) for (k, w), it in zip(where, t.items)]
            return f"{ctype(t)}{{{', '.join(items)}}}"
        if kind == "kw":
            return self.convert(self.expr(kw[where]), self.type_of(kw[where]), t)
        if kind == "outer":  # a free variable of a nested function: its current value
            return self.convert(CExpr(self.var(where)), self.tf.var_types[where], t)
        return self.constant(where, t).code

    # ---- conversions --------------------------------------------------------

    def convert(self, x: CExpr, src: T.Type, dst: T.Type) -> str:
        """C++ text of value x (type src) as a value of type dst."""
        if isinstance(dst, T.Array):
            if src == T.ANY:  # its type is known only when it runs: CPython's may not be an array at all
                raise PathTypeConflict(f"a value that may or may not be a {dst.spell()} depending on the path "
                                       "is stored where compiled code holds that array")
            code = self.ev(x)
            if src != dst:
                return f"{ctype(dst)}({code})"
            return code
        if src == dst:
            return x.code
        if src == T.ANY and isinstance(dst, T.Scalar):
            return f"tr::cast<{ctype(dst)}>(tr::to_float({x.code}, \"value from fallback code\"))"
        if isinstance(dst, T.Scalar):
            return f"tr::cast<{ctype(dst)}>({x.code})"
        return f"{ctype(dst)}({x.code})"


# Float array powers that reach NumPy's power loop: -> the functor calling it
# (None: the loop itself) -- complex ones keep the runtime's loops.
_LOOPED_POWERS = {"tr::op::pow_scalar_exponent": "tr::op::pow_scalar_exponent_by", "tr::op::pow": None}


def _array_power(base, exponent, compute: str) -> str:
    """The functor of `array ** exponent` (operators.hpp).  NumPy computes a
    scalar 2, 0.5 or -1 exponent as np.square / np.sqrt / np.reciprocal; for
    complex arrays NumPy 2 does so only for a Python int (-1, 2) or a Python
    float (0.5), a NumPy scalar exponent going through its power loop."""
    scalar = isinstance(exponent, T.Scalar) or isinstance(exponent, T.Array) and exponent.ndim == 0
    if not (scalar and isinstance(base, T.Array)):
        return "tr::op::pow"
    if not compute.startswith("complex"):
        return "tr::op::pow_scalar_exponent"
    if isinstance(exponent, T.Scalar) and exponent.weak:
        return {"i": "tr::op::cpow_python_int", "f": "tr::op::cpow_python_float"}.get(exponent.kind, "tr::op::pow")
    return "tr::op::pow"


def _num(text: str):
    return float(text) if "." in text else int(text)


def _is_literal(code: str) -> bool:
    return code.lstrip("-").replace(".", "", 1).isdigit()


def _zero_to(node: h.Compare, types, codes) -> bool:
    """`0 <= x < n` on int64 values, n a name or a literal (evaluating it
    when x < 0, where Python does not, changes nothing)."""
    zero = node.left
    return (node.ops == ("<=", "<") and isinstance(zero, h.Const) and type(zero.value) is int and zero.value == 0
            and all(isinstance(t, T.Scalar) and t.dtype == "int64" for t in types[1:])
            and (codes[2].code.isidentifier() or codes[2].code.isdigit()))
