"""Lowering of record arrays and records (runtime: transpile_rt/records.hpp;
typing: passes/records.py).  A field's value is read and written at its
byte offset (tr::rec::get/set); stores convert and check the value as a
store into an array of the field's dtype would (cxx/stores.py)."""
from __future__ import annotations

from ..diagnostics import FunctionNotCompilable
from ..hir import nodes as h
from ..hir import types as T
from ..library.records_lib import field_code, value_code
from ..passes.records import element_type
from .model import CExpr, Line
from .stores import checked, needs_check
from .types import ctype, elem

HEADER = "transpile_rt/records.hpp"


def uses_records(program) -> bool:
    for tf in program.order:
        types = list(tf.arg_types) + list(tf.var_types.values()) + list(tf.types.values())
        if any(isinstance(t, (T.RecordArray, T.Record)) for t in types):
            return True
    return False


def refuse_in_region(names_types) -> None:
    """Records do not cross into statements that run as Python (their dtype
    is a number of this process's bridge table, which a cached module cannot
    name): such a function runs in CPython as a whole."""
    for name, t in names_types:
        if any(isinstance(x, (T.RecordArray, T.Record)) for x in T.leaves(t)):
            raise FunctionNotCompilable(f"'{name}' holds records ({t}), which a statement running as Python "
                                        "would need; the function runs in CPython")


def record_pointer(lw, node) -> str:
    """C++ pointer to the bytes of the record `node` evaluates to: a[i]
    straight from the array (no view made), else the record's data."""
    info = lw.tf.subscripts.get(node) if isinstance(node, h.Subscript) else None
    if info is not None and info.kind == "record_item":
        arr = lw.ev(lw.expr(node.value))
        idx = ", ".join(lw.index_code(i, p) for i, p in zip(node.index, info.parts))
        return f"&tr::at({arr}, {idx})"
    return f"({lw.expr(node).code}).data"


def subscript(lw, node: h.Subscript, info) -> CExpr:
    """a[i] (a record), a['x'] (a field's array) and r['x'] (a field's value)."""
    if info.kind == "record_value":
        name, offset = info.const_index
        return CExpr(value_code(record_pointer(lw, node.value), elem(info.result.dtype), offset))
    arr = lw.ev(lw.expr(node.value))
    if info.kind == "record_nested":  # r['p']: the structure inside the record, a record itself
        return CExpr(f"tr::rec::nested<{info.result.rec.itemsize}, {info.const_index[1]}>({arr})")
    if info.kind == "record_field":
        t = info.result
        return CExpr(field_code(arr, elem(t.dtype) if isinstance(t, T.Array) else f"tr::rec::Bytes<{t.rec.itemsize}>",
                                *info.const_index[1:]))
    idx = ", ".join(lw.index_code(i, p) for i, p in zip(node.index, info.parts))
    return CExpr(f"tr::rec::item({arr}, {idx})")


def store(lw, target: h.Subscript, value: CExpr, vt, info) -> None:
    """r['x'] = v (a[i]['x'] = v), a['x'] = v and a[i] = r."""
    if info.readonly_write:
        lw.emit("tr::readonly_error();")
        return
    if info.kind == "record_copy":  # a[i] = r: the record's bytes (r may be a[i] itself)
        src = lw.hoist(value.code)
        arr = lw.ev(lw.expr(target.value))
        idx = ", ".join(lw.index_code(i, p) for i, p in zip(target.index, info.parts))
        lw.emit(f"tr::rec::copy(&tr::at({arr}, {idx}), {src}.data);")
        return
    dst = info.result.dtype
    if info.kind == "record_field":  # every record's field: an array store
        if needs_check(vt, dst, value.code, "view"):
            value = CExpr(lw.hoist(checked(lw, value.code, vt, dst)))
        view = field_code(lw.ev(lw.expr(target.value)), elem(dst), *info.const_index[1:])
        lw.emit(f"tr::assign({view}, {value.code});")
        return
    v = lw.hoist(value.code)  # Python evaluates the value first, then a[i] (IndexError), then stores
    ref = lw.tmp("rec")
    stored = checked(lw, v, vt, dst) if needs_check(vt, dst, v, "element") else f"tr::cast<{elem(dst)}>({v})"
    lw.emit(f"{{ auto *{ref} = {record_pointer(lw, target.value)}; "
            f"tr::rec::set<{elem(dst)}>({ref}, {info.const_index[1]}, {stored}); }}")


def augassign(lw, s, info, ops, value: CExpr, vt) -> None:
    """r['x'] += v: read, compute and store back through one pointer."""
    if info.readonly_write:
        lw.emit("tr::readonly_error();")
        return
    dst = info.result.dtype
    if info.kind == "record_field":
        view = lw.hoist(field_code(lw.ev(lw.expr(s.target.value)), elem(dst), *info.const_index[1:]))
        expr = lw.binop(s.op, ops, CExpr(view), info.result, value, vt)
        lw.emit(f"tr::assign({view}, {expr.code});")
        return
    ref, cur = lw.tmp("rec"), lw.tmp("cur")
    offset = info.const_index[1]
    lw.emit(f"{{ auto *{ref} = {record_pointer(lw, s.target.value)}; "
            f"{elem(dst)} {cur} = {value_code(ref, elem(dst), offset)};")
    expr = lw.binop(s.op, ops, CExpr(cur), info.result, value, vt)
    stored = checked(lw, expr.code, ops.result, dst) if needs_check(ops.result, dst, expr.code, "element") \
        else f"tr::cast<{elem(dst)}>({expr.code})"
    lw.lines.append(Line(lw.depth + 1, f"tr::rec::set<{elem(dst)}>({ref}, {offset}, {stored}); }}"))


def iterable(lw, node, it: T.RecordArray, counter: str):
    """(length, element) of `for r in a`: records of a 1-d array, rows of others."""
    arr = lw.hoist(lw.ev(lw.expr(node)))
    if it.ndim == 1:
        return f"{arr}.shape[0]", f"tr::rec::item({arr}, tr::proven({counter}))"
    return f"{arr}.shape[0]", f"tr::row<{ctype(element_type(it))}>({arr}, {counter})"
