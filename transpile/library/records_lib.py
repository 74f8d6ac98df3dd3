"""Attributes of record arrays and records (hir/records.py): a.shape,
a.ndim, a.size, a.itemsize, and fields read as attributes where NumPy
allows it: a.x of an np.recarray (the field as an array) and r.x of an
np.record.  A plain ndarray's records have no such attributes (NumPy's
AttributeError), so there the typer refuses them and CPython raises."""
from __future__ import annotations

from .base import CExpr
from ..hir import types as T


def field_code(arr: str, elem: str, offset: int, shape: tuple = ()) -> str:
    """a['x'] in C++: the field (C++ type elem) of every record as a strided
    array, a subarray field's axes (`shape`) last (transpile_rt/records.hpp)."""
    return f"tr::rec::field<{', '.join([elem, str(offset)] + [str(n) for n in shape])}>({arr})"


def value_code(pointer: str, elem: str, offset: int) -> str:
    """r['x'] in C++: the field's value, read at its byte offset of the record at `pointer`."""
    return f"tr::rec::get<{elem}>({pointer}, {offset})"


def _array_field(name: str):
    """a.x of an np.recarray, r.v of an np.record's subarray field: an array."""
    def infer(base):
        scalar, _ = base.rec.field(name)
        ndim = (base.ndim if isinstance(base, T.RecordArray) else 0) + len(base.rec.shape(name))
        return T.Array(scalar.dtype, ndim, "A", base.readonly)

    def lower(lw, x, base, result):
        return CExpr(field_code(lw.ev(x), lw.elem(result.dtype), base.rec.field(name)[1], base.rec.shape(name)))

    return infer, lower


def _record_field(name: str):
    def lower(lw, x, base, result):
        return CExpr(value_code(f"({x.code}).data", lw.elem(result.dtype), base.rec.field(name)[1]))

    return (lambda base: base.rec.field(name)[0]), lower


def lookup(base, attr: str, array_attrs: dict):
    """(infer, lower) of base.attr, or None; array_attrs: the rules of arrays (attributes.py).
    Structured fields of np.record records are not compiled (None)."""
    found = base.rec.field(attr)
    if found is not None and isinstance(found[0], T.RecordDtype):
        return None
    if isinstance(base, T.RecordArray):
        if attr in ("shape", "ndim", "size"):
            return array_attrs[attr].infer, array_attrs[attr].lower
        if attr == "itemsize":
            return (lambda a: T.INT), (lambda lw, x, a, r: CExpr(str(a.rec.itemsize)))
        if base.recarray and base.rec.field(attr) is not None and base.aligned and not base.rec.viewable(attr):
            return _array_field(attr)  # else refused: CPython reads it (passes/records.py says why for a['x'])
        return None
    if base.rec.record and base.rec.field(attr) is not None:
        if not base.rec.shape(attr):
            return _record_field(attr)
        if base.aligned and not base.rec.viewable(attr):
            return _array_field(attr)
    return None
