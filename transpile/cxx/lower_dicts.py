"""Lowering of strs, dicts, sets and itertools loops (typed by
passes/dicts.py; C++ in transpile_rt/str.hpp, dict.hpp, itertools.hpp,
topy.hpp).  A mixin of FunctionLowerer, like lower_lists.ListLowering."""
from __future__ import annotations

from ..hir import nodes as h
from ..hir import types as T
from ..passes.dicts import Op
from .model import CExpr, Line
from .types import ctype
from ..frontend.str_format import PercentField, percent_fields
from ..library.container_rules import SPEC, str_spec
from ..library.dicts import H_STR_CASE

H_STR = "transpile_rt/str.hpp"
H_DICT = "transpile_rt/dict.hpp"
H_TOPY = "transpile_rt/topy.hpp"
H_ITER = "transpile_rt/itertools.hpp"


def has(t, kinds) -> bool:
    if isinstance(t, kinds):
        return True
    if isinstance(t, T.Tuple):
        return any(has(i, kinds) for i in t.items)
    if isinstance(t, T.Dict):
        return has(t.key, kinds) or has(t.value, kinds)
    if isinstance(t, T.Set):
        return has(t.elt, kinds)
    if isinstance(t, T.DictView):
        return has(t.dict, kinds)
    if isinstance(t, T.List) and t.elem is not None:
        return has(t.elem, kinds)
    return False


def str_literal(value: str) -> str:
    data = value.encode("utf-8", "surrogatepass")
    out = []
    for b in data:
        c = chr(b)
        if 32 <= b < 127 and c not in '"\\?':
            out.append(c)
        else:
            out.append(f"\\{b:03o}")
    return f'tr::Str("{"".join(out)}", {len(data)})'


def to_py(t, x: str, depth: int = 0) -> str:
    """C++ expression: a tr::Object (new Python object) for value x of type t."""
    if isinstance(t, T.Scalar):  # in its own C++ type: abs(np.True_) is an int in C++, an np.bool_ in Python
        return f"tr::topy::one({ctype(t)}({x}), {'true' if t.weak else 'false'})"
    if isinstance(t, (T.Array, T.Str)):
        return f"tr::topy::one({x})"
    if t == T.ANY:
        return f"tr::Object({x})"
    if isinstance(t, T.Tuple):
        return f"tr::topy::tuple({', '.join(to_py(it, f'std::get<{i}>({x})', depth) for i, it in enumerate(t.items))})"
    if isinstance(t, T.Dict):
        k, v = f"tr_k{depth}", f"tr_v{depth}"
        return (f"tr::topy::dict({x}, [&](const auto &{k}) {{ return {to_py(t.key, k, depth + 1)}; }}, "
                f"[&](const auto &{v}) {{ return {to_py(t.value, v, depth + 1)}; }}, false)")
    if isinstance(t, T.Set):
        k = f"tr_k{depth}"
        return (f"tr::topy::dict({x}, [&](const auto &{k}) {{ return {to_py(t.elt, k, depth + 1)}; }}, "
                f"[&](const auto &) {{ return tr::Object(); }}, true)")
    if t in (T.NONE, T.UNKNOWN):
        return "tr::topy::one(tr::none_t{})"
    if isinstance(t, T.List):  # through list.hpp's converters (the caller's own list, brought up to date)
        from .lower_lists import conv

        return f"tr::cv::to_object<{conv(t)}>({x})"
    raise TypeError(f"values of type {t} cannot cross into Python")


def printf_format(spec: str, t) -> str | None:
    """The printf format for a Python format spec (None: pad str(x))."""
    m = SPEC.match(spec)
    zero, width, prec, kind = m.group("zero") or "", m.group("width") or "", m.group("prec"), m.group("type")
    flags = ("-" if m.group("align") == "<" else "") + (m.group("sign") if m.group("sign") in ("+", " ") else "")
    if kind == "" and t.kind == "f":
        return None
    if kind in ("", "d"):
        return f"%{flags}{zero}{width}lld"
    return f"%{flags}{zero}{width}{'.' + prec if prec is not None else ''}{kind}"


class DictLowering:
    def use_str(self):
        self.module.include(H_STR)

    def use_dict(self):
        self.module.include(H_DICT)

    # ---- headers for every type a function uses ------------------------------------

    def dict_headers(self):
        tf = self.tf
        types = list(tf.var_types.values()) + list(tf.arg_types) + [tf.return_type] + list(tf.types.values())
        for t in types:
            if has(t, (T.Dict, T.Set, T.DictView)):
                self.use_dict()
            if has(t, T.Str):
                self.use_str()
                if T.has_list(t):  # list.hpp's converters box and unbox its strs through topy.hpp
                    self.module.include(H_TOPY)


    # ---- conversions ------------------------------------------------------------------

    def convert(self, x: CExpr, src, dst) -> str:
        if isinstance(dst, (T.Dict, T.Set)) and src != dst and ctype(src) != ctype(dst):
            if has(src, T.Unknown):  # an empty {} / set(): nothing was ever stored in it
                return f"{ctype(dst)}::make()"
            return f"tr::map_convert<{ctype(dst)}>({x.code})"
        return super().convert(x, src, dst)

    def py_object(self, t, code: str) -> str:
        """A tr::Object temporary holding value `code` as a Python object."""
        self.module.include(H_TOPY)
        if T.has_list(t):
            self.module.include("transpile_rt/list.hpp")
        name = self.tmp("o")
        self.emit(f"tr::Object {name} = {to_py(t, code)};")
        return name

    # ---- literals ---------------------------------------------------------------------

    def x_Const(self, node: h.Const) -> CExpr:
        if isinstance(node.value, str):
            self.use_str()
            return CExpr(str_literal(node.value))
        return super().x_Const(node)

    def x_FString(self, node: h.FString) -> CExpr:
        self.use_str()
        return self.joined([str_literal(p) if isinstance(p, str) else self.format_value(p)
                            for p in node.parts if p != ""])

    def percent_format(self, node: h.BinOp) -> CExpr:
        """"literal" % values (passes/dicts.py _percent): the values evaluated
        once, then each conversion formatted as its f-string field."""
        self.use_str()
        values_t = self.type_of(node.right)
        values = self.hoist(self.expr(node.right).code)
        if isinstance(values_t, T.Tuple):
            items = iter([(f"std::get<{i}>({values})", t) for i, t in enumerate(values_t.items)])
        else:
            items = iter([(values, values_t)])
        parts = []
        for field in percent_fields(node.left.value):
            if not isinstance(field, PercentField):
                parts.append(str_literal(field))
                continue
            x, t = next(items)
            if field.conversion == "d" and t.kind == "f":  # int(x)'s digits, as CPython's %d
                fmt = printf_format(field.spec, T.INT)
                parts.append(f'tr::format_int_of_float("{fmt}", "{fmt[:-3]}.0f", double({x}))')
            elif field.conversion == "d":
                parts.append(f'tr::format_printf("{printf_format(field.spec, T.INT)}", int64_t({x}))')
            elif field.conversion == "f":  # float(x), as CPython's %f %e
                parts.append(f'tr::format_printf("{printf_format(field.spec, T.FLOAT)}", double({x}))')
            else:  # %r of a Python number is its str (the typer leaves NumPy scalars' repr to Python)
                text = x if t == T.STR else f"tr::str_of({x})"
                quoted = field.conversion == "r" and t == T.STR
                parts.append(self.str_with_spec(self.str_repr(text) if quoted else text, field.spec))
        return self.joined(parts)

    def str_with_spec(self, text: str, spec: str | None) -> str:
        """A str formatted with a str's spec (fill, alignment, width, precision)."""
        if not spec:
            return text
        width, prec, align, fill = str_spec(spec)
        return f"tr::format_str({text}, {width}, {prec}, '{align}', {str_literal(fill)})"

    def str_repr(self, x: str) -> str:
        """repr() of a str: its text that is not ASCII written by Python (str_case.hpp)."""
        self.module.include(H_STR_CASE)
        self.module.needs_host = True
        return f"tr::str_repr({x})"

    def joined(self, parts: list) -> CExpr:
        """The concatenation of str expressions, each evaluated once, in order."""
        if not parts:
            return CExpr(str_literal(""))
        if sum(not p.isidentifier() and not p.startswith("tr::Str(") for p in parts) > 1:
            parts = [p if p.startswith("tr::Str(") else self.hoist(p) for p in parts]
        if len(parts) == 1:
            return CExpr(parts[0])
        return CExpr(f"tr::str_join({', '.join(parts)})")

    def format_value(self, part: h.FormattedValue) -> str:
        return self.formatted(self.expr(part.value).code, self.type_of(part.value), part.conversion, part.spec)

    def formatted(self, x: str, t, conversion: str | None, spec: str | None) -> str:
        """format(x, spec) (after repr() for conversion "r"): an f-string field, or format() itself."""
        if t == T.STR:
            return self.str_with_spec(self.str_repr(x) if conversion == "r" else x, spec)
        if not spec:
            return f"tr::str_of({x})"
        fmt = printf_format(spec, t)
        if fmt is None:
            m = SPEC.match(spec)
            return f"tr::pad(tr::str_of({x}), {int(m.group('width') or 0)}, {'true' if m.group('zero') else 'false'})"
        if fmt[-1] in "fFeEgG":
            x = f"double({x})"
        return f'tr::format_printf("{fmt}", {x})'

    def x_DictExpr(self, node: h.DictExpr) -> CExpr:
        self.use_dict()
        t = self.type_of(node)
        if not node.keys:
            return CExpr(f"{ctype(t)}::make()")
        body = [f"auto tr_d = {ctype(t)}::make();"]
        for k, v in zip(node.keys, node.values):
            key = self.convert(self.expr(k), self.type_of(k), t.key)
            body.append(f"{{ auto tr_key = {key}; tr_d.set(tr_key, {self.convert(self.expr(v), self.type_of(v), t.value)}); }}")
        return CExpr("([&]() { " + " ".join(body) + " return tr_d; }())")

    def x_SetExpr(self, node: h.SetExpr) -> CExpr:
        self.use_dict()
        t = self.type_of(node)
        body = [f"auto tr_s = {ctype(t)}::make();"]
        for e in node.elts:
            body.append(f"tr_s.add({self.convert(self.expr(e), self.type_of(e), t.elt)});")
        return CExpr("([&]() { " + " ".join(body) + " return tr_s; }())")

    def map_comprehension(self, clauses, t, add) -> CExpr:
        """The loops, emitted before the statement, fill a new dict/set;
        add(out) emits one insertion."""
        self.use_dict()
        return self.filled(clauses, f"{ctype(t)}::make()", "map", add)

    def x_DictComp(self, node: h.DictComp) -> CExpr:
        t = self.type_of(node)

        def add(out, _elems=None):
            key = self.convert(self.expr(node.key), self.type_of(node.key), t.key)
            key = self.hoist(key) if not key.isidentifier() else key
            self.emit(f"{out}.set({key}, {self.convert(self.expr(node.value), self.type_of(node.value), t.value)});")

        return self.map_comprehension(node.clauses, t, add)

    def x_SetComp(self, node: h.SetComp) -> CExpr:
        t = self.type_of(node)

        def add(out, _elems=None):
            self.emit(f"{out}.add({self.convert(self.expr(node.elt), self.type_of(node.elt), t.elt)});")

        return self.map_comprehension(node.clauses, t, add)

    # ---- operators ------------------------------------------------------------------------

    def x_BinOp(self, node: h.BinOp) -> CExpr:
        ops = self.tf.ops.get(node)
        if not isinstance(ops, Op):
            return super().x_BinOp(node)
        if ops.kind == "str_percent":
            return self.percent_format(node)
        return self.dict_binop(ops, self.expr(node.left), self.type_of(node.left), self.expr(node.right),
                               self.type_of(node.right))

    def dict_binop(self, ops: Op, a: CExpr, at, b: CExpr, bt) -> CExpr:
        if ops.kind == "str_concat":
            self.use_str()
            return CExpr(f"tr::str_concat({a.code}, {b.code})")
        if ops.kind == "str_repeat":
            self.use_str()
            text, count = (a, b) if at == T.STR else (b, a)
            return CExpr(f"tr::str_repeat({text.code}, int64_t({count.code}))")
        self.use_dict()
        rt = ops.result
        return CExpr(f"tr::{ops.kind}({self.convert(a, at, rt)}, {self.convert(b, bt, rt)})")

    def compare_one(self, op, ops, a, at, b, bt) -> CExpr:
        if not isinstance(ops, Op):
            return super().compare_one(op, ops, a, at, b, bt)
        neg = op in ("!=", "not in")
        kind = ops.kind
        if kind == "str_eq":
            code = f"({a.code} == {b.code})"
        elif kind == "str_order":
            code = f"({a.code} {op} {b.code})"
        elif kind == "const_false":
            code = "false"
        elif kind == "map_eq":
            self.use_dict()
            if has(at, T.Unknown) or has(bt, T.Unknown):
                code = f"({a.code}.size() == {b.code}.size())"
            else:
                code = f"tr::dict_equal({a.code}, {b.code})"
        elif kind == "str_in":
            code = f"tr::str_contains({b.code}, {a.code})"
        elif kind == "tuple_in":
            tup = self.hoist(b.code)
            val = a.code if a.code.isidentifier() or len(bt.items) < 2 else self.hoist(a.code)
            code = "(" + " || ".join(f"tr::eq_any({val}, std::get<{i}>({tup}))" for i in range(len(bt.items))) + ")" \
                if bt.items else "false"
        elif kind == "map_in":
            self.use_dict()
            keys = bt.elt if isinstance(bt, T.Set) else (bt.key if isinstance(bt, T.Dict) else bt.dict.key)
            if keys == T.UNKNOWN:
                code = "false"
            else:
                code = f"{b.code}.contains({self.convert(a, at, keys)})"
        elif kind == "values_in":
            self.use_dict()
            code = f"tr::values_contain({b.code}, {a.code})"
        else:
            raise NotImplementedError(kind)
        return CExpr(f"(!{code})" if neg else code)

    # ---- subscripts ---------------------------------------------------------------------------

    def dict_key(self, node: h.Subscript) -> str:
        kt = self.type_of(node.value).key
        if len(node.index) == 1:
            return self.convert(self.expr(node.index[0]), self.type_of(node.index[0]), kt)
        items = [self.convert(self.expr(i), self.type_of(i), it) for i, it in zip(node.index, kt.items)]
        return f"{ctype(kt)}{{{', '.join(items)}}}"

    def x_Subscript(self, node: h.Subscript) -> CExpr:
        info = self.tf.subscripts[node]
        if info.kind in ("str_item", "str_slice"):  # by code points (transpile_rt/str_index.hpp)
            self.module.include("transpile_rt/str_index.hpp")
            part = "int" if info.kind == "str_item" else "slice"
            return CExpr(f"tr::{info.kind}({self.expr(node.value).code}, {self.index_code(node.index[0], part)})")
        if info.kind != "dict":
            return super().x_Subscript(node)
        self.use_dict()
        return CExpr(f"{self.expr(node.value).code}.at({self.dict_key(node)})")

    def dict_store(self, target: h.Subscript, value: CExpr, vt):
        self.use_dict()
        dt = self.type_of(target.value)
        code = self.convert(value, vt, dt.value)
        if not (code.isidentifier() or code.lstrip("-").replace(".", "", 1).isdigit()):
            code = self.hoist(code)  # Python evaluates the value before the dict and the key
        base = self.expr(target.value).code
        self.emit(f"{base}.set({self.dict_key(target)}, {code});")

    def is_dict_augassign(self, s) -> bool:
        info = self.tf.subscripts.get(s.target)
        return isinstance(self.tf.ops.get(s), Op) or (info is not None and info.kind == "dict")

    def dict_augassign(self, s: h.AugAssign):
        ops = self.tf.ops.get(s)
        info = self.tf.subscripts.get(s.target)
        is_dict = info is not None and info.kind == "dict"
        value = self.expr(s.value)
        vt = self.type_of(s.value)
        if not is_dict:  # s += "x"
            name = self.var(s.target.id)
            expr = self.dict_binop(ops, CExpr(name), self.type_of(s.target), value, vt)
            self.emit(f"{name} = {self.convert(expr, ops.result, self.tf.var_types[s.target.id])};")
            return
        self.use_dict()
        dt = self.type_of(s.target.value)
        base = self.hoist(self.expr(s.target.value).code)
        key = self.hoist(self.dict_key(s.target))
        cur = self.tmp("cur")
        self.emit(f"{{ auto {cur} = {base}.at({key});")
        if isinstance(ops, Op):
            expr = self.dict_binop(ops, CExpr(cur), dt.value, value, vt)
            self.lines.append(Line(self.depth + 1, f"{base}.set({key}, {expr.code}); }}"))
        elif isinstance(dt.value, T.Array):  # in place, as NumPy's += on the stored array
            expr = self.binop(s.op, ops, CExpr(cur), dt.value, value, vt)
            self.lines.append(Line(self.depth + 1, f"tr::assign({cur}, {expr.code}); }}"))
        else:
            expr = self.binop(s.op, ops, CExpr(cur), dt.value, value, vt)
            self.lines.append(Line(self.depth + 1, f"{base}.set({key}, {self.convert(expr, ops.result, dt.value)}); }}"))

    # ---- iteration ---------------------------------------------------------------------------------

    def dict_elem_type(self, it):
        if isinstance(it, T.Dict):
            return it.key
        if isinstance(it, T.Set):
            return it.elt
        if isinstance(it, T.DictView):
            d = it.dict
            return {"keys": d.key, "values": d.value, "items": T.Tuple((d.key, d.value))}[it.kind]
        if isinstance(it, T.IterTools):
            items = [self.program_elem_type(i) for i in it.inners]
            return T.Tuple(tuple(items) * it.repeat) if it.kind == "product" else T.Tuple((items[0],) * it.repeat)
        return None

    def dict_iteration(self, node, it):
        if isinstance(it, T.IterTools):
            return self.itertools_iteration(node, it)
        self.use_dict()
        d = self.hoist(self.expr(node).code)
        i, n = self.tmp("i"), self.tmp("n")
        what = "set" if isinstance(it, T.Set) else "dictionary"
        header = f'for (int64_t {i} = 0, {n} = {d}.size(); {d}.next({i}, {n}, "{what}"); ++{i}) {{'
        kind = it.kind if isinstance(it, T.DictView) else "keys"
        if kind == "keys":
            return header, f"{d}.key({i})"
        if kind == "values":
            return header, f"{d}.val({i})"
        return header, [f"{d}.key({i})", f"{d}.val({i})"]

    def itertools_iteration(self, node, it):
        self.module.include(H_ITER)
        p, ok = self.tmp("p"), self.tmp("ok")
        lens, elems = [], []
        for arg, t in zip(node.args, it.inners):
            length, elem = self._sub_iterable(arg, t, "@IDX@")
            if isinstance(elem, list):
                raise NotImplementedError("nested iterables in itertools")
            lens.append(length)
            elems.append(elem)
        if it.kind == "product":
            lens, elems = lens * it.repeat, elems * it.repeat
            self.pre.append(f"tr::iter::Product<{len(lens)}> {p}{{{{{', '.join(lens)}}}}};")
        else:
            n = self.hoist(lens[0])
            self.pre.append(f"tr::iter::Combinations<{it.repeat}> {p}{{{n}}};")
            elems = elems * it.repeat
        codes = [e.replace("@IDX@", f"{p}.idx[{k}]") for k, e in enumerate(elems)]
        return f"for (bool {ok} = {p}.begin(); {ok}; {ok} = {p}.next()) {{", codes
