"""Typing of record arrays and records (hir/records.py): a['x'] (the field
as a strided array), a[i] (a record, or a record array for slices), r['x']
(a field's value) and stores into them.  Field names are compile-time
strings; a name the dtype lacks is refused here, so the statement runs in
CPython and raises NumPy's ValueError (a precise error under fullgraph)."""
from __future__ import annotations

from ..hir import nodes as h
from ..hir import types as T
from ..library.base import NOT_CONST
from .index_info import IndexInfo


def field_name(typer, node: h.Subscript):
    """The field a subscript names (a['x']), or None when it is not a string."""
    if len(node.index) != 1:
        return None
    value = typer.const(node.index[0])
    return value if isinstance(value, str) and value is not NOT_CONST else None


def field_of(typer, node, rec: T.RecordDtype, name: str):
    """(Scalar, offset) of field `name`, refused with NumPy's message when absent."""
    found = rec.field(name)
    if found is None:
        raise typer.error(node, f"no field of name {name}", "NumPy raises ValueError here")
    return found


def nested(typer, node, base, name: str) -> IndexInfo:
    """r['p'] and a['p'] of a field that is itself a structure: a record (an
    array of them) lying inside the outer one.  Their data is not taken to be
    aligned for the inner fields' types, so those are read record by record."""
    inner, offset = field_of(typer, node, base.rec, name)
    if base.rec.record or getattr(base, "recarray", False):
        raise typer.error(node, "structured fields of np.record records are not compiled")
    if isinstance(base, T.Record):
        return IndexInfo("record_nested", T.Record(inner, base.readonly, False), const_index=(name, offset))
    if base.rec.itemsize % inner.itemsize:
        raise typer.error(node, f"field '{name}' ({inner.itemsize}-byte structures in {base.rec.itemsize}-byte "
                                "records) cannot be viewed as an array of its own type",
                          "read it record by record (a[i]['p']) instead")
    return IndexInfo("record_field", T.RecordArray(inner, base.ndim, "A", base.readonly, False, False),
                     const_index=(name, offset, ()))


def field_view(typer, node, base, name: str) -> IndexInfo:
    """a['x'] (a.x of an np.recarray): the field of every record as an array,
    with a subarray field's axes last; r['v'] of a subarray field: its array."""
    scalar, offset = field_of(typer, node, base.rec, name)
    if isinstance(scalar, T.RecordDtype):
        return nested(typer, node, base, name)
    why = base.rec.viewable(name) or (None if base.aligned else
                                      "the array's data is not aligned for its fields' types (pass a copy)")
    if why:
        raise typer.error(node, why, "read it record by record (a[i]['x']) instead")
    shape = base.rec.shape(name)
    ndim = (base.ndim if isinstance(base, T.RecordArray) else 0) + len(shape)
    return IndexInfo("record_field", T.Array(scalar.dtype, ndim, "A", base.readonly),
                     const_index=(name, offset, shape))


def getitem(typer, node: h.Subscript, base, array_getitem) -> IndexInfo:
    """array_getitem: indexing.getitem, whose rules for integers and slices
    apply to an array of the records' shape."""
    name = field_name(typer, node)
    if isinstance(base, T.Record):
        if name is None:
            raise typer.error(node, "records are indexed by field name in compiled code")
        scalar, offset = field_of(typer, node, base.rec, name)
        if base.rec.shape(name) or isinstance(scalar, T.RecordDtype):
            return field_view(typer, node, base, name)
        return IndexInfo("record_value", scalar, const_index=(name, offset))
    if name is not None:
        return field_view(typer, node, base, name)
    shaped = array_getitem(typer, node, T.Array("uint8", base.ndim, base.layout, base.readonly))
    if shaped.kind == "element":
        return IndexInfo("record_item", base.item, shaped.parts)
    if shaped.kind != "view":
        raise typer.error(node, "record arrays are indexed with integers and slices in compiled code")
    view = T.RecordArray(base.rec, shaped.result.ndim, shaped.result.layout, base.readonly, base.recarray,
                         base.aligned)
    return IndexInfo("view", view, shaped.parts)


def setitem(typer, target: h.Subscript, base, value: T.Type, array_getitem) -> IndexInfo:
    """r['x'] = v, a['x'] = v (the field of every record) and a[i] = r (a
    record of the same dtype; other dtypes convert field by field in NumPy,
    which is not compiled)."""
    typer.index_types(target)
    name = field_name(typer, target)
    if name is None and isinstance(base, T.RecordArray) and isinstance(value, T.Record) and value.rec == base.rec:
        info = getitem(typer, target, base, array_getitem)  # a[i] = r of the same dtype: its bytes copied
        if info.kind == "record_item":
            return IndexInfo("record_copy", info.result, info.parts, readonly_write=base.readonly)
    if name is None:
        raise typer.error(target, "compiled code assigns fields of records (a[i]['x'] = v) and whole records of the "
                                  "same dtype (a[i] = a[j])")
    info = getitem(typer, target, base, array_getitem)
    if not isinstance(info.result, (T.Scalar, T.Array)):
        raise typer.error(target, "a structured field is assigned field by field in compiled code (r['p']['a'] = v)")
    dtype = info.result.dtype
    if isinstance(value, T.Scalar):
        if value.kind == "c" and T.Scalar(dtype).kind != "c":
            raise typer.error(target, f"cannot store a complex value in a {dtype} field")
    elif not (isinstance(value, T.Array) and info.kind == "record_field" and value.ndim <= info.result.ndim):
        raise typer.error(target, f"cannot store {value} in a {dtype} field")
    if base.readonly:
        return IndexInfo(info.kind, info.result, info.parts, readonly_write=True, const_index=info.const_index)
    return info


def element_type(it: T.RecordArray) -> T.Type:
    """What `for r in a` binds: records of a 1-d array, rows of others."""
    if it.ndim == 1:
        return it.item
    return T.RecordArray(it.rec, it.ndim - 1, "C" if it.layout == "C" else "A", it.readonly, it.recarray,
                         it.aligned)
