"""Typing of subscripts: a[i, j], a[1:-1, ::2], a[mask], t[0], and stores
into them.  NumPy's basic-indexing rules decide the result's ndim; the
layout stays "C" (unit innermost stride) only when the last axis is kept
whole with step 1."""
from __future__ import annotations

from ..hir import nodes as h
from ..hir import types as T
from ..library import lookup_iteration
from ..library.base import NOT_CONST
from . import records
from .index_info import IndexInfo


def _part_kind(typer, idx) -> str:
    if isinstance(idx, h.Const) and idx.value is Ellipsis:
        return "ellipsis"
    if isinstance(idx, h.Slice):
        if idx.lower is None and idx.upper is None and idx.step is None:
            return "all"
        return "slice"
    if isinstance(idx, h.Const) and idx.value is None:
        return "newaxis"
    t = typer.tf.types.get(idx)
    if t == T.NONE:
        return "newaxis"
    if isinstance(t, T.Scalar) and t.kind in "iu":
        return "int"
    if isinstance(t, T.Tuple) and t.items and all(isinstance(i, T.Scalar) and i.kind in "iu" for i in t.items):
        return "tuple"  # a[t]: a[t[0], t[1], ...], as NumPy reads a tuple index
    if isinstance(t, T.Array) and t.dtype == "bool":
        return "mask"
    if isinstance(t, T.Array) and t.scalar.kind in "iu":
        return "fancy"
    if isinstance(t, T.Scalar) and t.dtype == "bool":
        return "boolscalar"
    raise typer.error(idx, f"arrays cannot be indexed with {t}",
                      "indices must be integers, slices, None/np.newaxis or a boolean mask")


def _unit_step(typer, idx) -> bool:
    if idx.step is None:
        return True
    return typer.const(idx.step) == 1


def getitem(typer, node: h.Subscript, base: T.Type) -> IndexInfo:
    if isinstance(base, (T.Dict, T.Str)):
        from . import dicts

        return dicts.getitem(typer, node, base)
    if isinstance(base, T.List):
        from . import lists

        return lists.getitem(typer, node, base)
    if isinstance(base, T.Tuple):
        return _tuple_getitem(typer, node, base)
    if isinstance(base, T.LibIter):
        return _lib_subscript(typer, node, base)
    if isinstance(base, (T.RecordArray, T.Record)):
        return records.getitem(typer, node, base, getitem)
    if not isinstance(base, T.Array):
        raise typer.error(node, f"'{base}' object is not subscriptable")
    parts = tuple(_part_kind(typer, i) for i in node.index)
    if parts.count("ellipsis") > 1:
        raise typer.error(node, "an index can only have a single ellipsis ('...')")
    if "ellipsis" in parts and any(p in ("mask", "fancy", "tuple") for p in parts):
        raise typer.error(node, "an ellipsis ('...') beside an index array, a boolean mask or a tuple is not "
                                "supported in compiled code", "write the axes it stands for as ':'")
    if "mask" in parts:
        masks = [typer.tf.types[i] for i, p in zip(node.index, parts) if p == "mask"]
        if len(parts) == 1 and masks[0].ndim == base.ndim:
            return IndexInfo("mask", T.Array(base.dtype, 1, "C"), parts)
        if any(m.ndim != 1 for m in masks):
            raise typer.error(node, "a boolean mask beside other indices must be 1-dimensional in compiled code",
                                    "index with the mask alone (same shape as the array), or with a 1-d mask "
                                    "per axis")
        # a 1-d mask covers one axis: the int array of its True positions there (NumPy's rule)
        info = _fancy_getitem(typer, node, base, tuple("fancy" if p == "mask" else p for p in parts))
        return IndexInfo("fancy", info.result, parts)
    if "fancy" in parts:
        return _fancy_getitem(typer, node, base, parts)
    if "boolscalar" in parts:
        raise typer.error(node, "indexing with a boolean scalar is not supported")
    if "tuple" in parts:
        return _tuple_index(typer, node, base, parts)
    n_axes = sum(p in ("int", "slice", "all") for p in parts)
    if n_axes > base.ndim:
        raise typer.error(node, f"too many indices for array: array is {base.ndim}-dimensional, but {n_axes} "
                                "were indexed")
    n_new = parts.count("newaxis")
    ndim = base.ndim - parts.count("int") + n_new
    if ndim == 0 and n_new == 0 and "ellipsis" not in parts:  # with `...`, a 0-d view (NumPy's rule)
        return IndexInfo("element", base.scalar, parts)
    # The axes no index names are whole (`:`), where the `...` stands or else at the end.
    rest = [("all", None)] * (base.ndim - n_axes)
    pairs = [q for i, p in zip(node.index, parts) for q in (rest if p == "ellipsis" else [(p, i)])]
    if "ellipsis" not in parts:
        pairs += rest
    # Which source axis ends up last?  Unit stride survives only if the
    # source's last axis is kept whole-step.
    layout = "A"
    if base.layout == "C":
        axes = [k for k, (p, _) in enumerate(pairs) if p in ("int", "slice", "all")]
        if not axes:
            layout = "C"
        else:
            p, idx = pairs[axes[-1]]
            trailing_new = all(q == "newaxis" for q, _ in pairs[axes[-1] + 1:])
            if trailing_new and (p == "all" or (p == "slice" and _unit_step(typer, idx))):
                layout = "C"
    return IndexInfo("view", T.Array(base.dtype, ndim, layout, base.readonly), parts)


def _tuple_index(typer, node, base: T.Array, parts) -> IndexInfo:
    """a[t] with t a tuple of ints (np.ndindex's items, shapes): each item
    indexes one axis; an element, or a view of the axes left.  Beside other
    indices (a[t, j]) NumPy reads a tuple as an integer array instead."""
    if len(parts) != 1:
        raise typer.error(node, "a tuple beside other indices is an integer-array index in NumPy, which compiled "
                                "code does not take", "write the index with the tuple's items: a[t[0], t[1], j]")
    n_axes = len(typer.tf.types[node.index[0]].items)
    if n_axes > base.ndim:
        raise typer.error(node, f"too many indices for array: array is {base.ndim}-dimensional, but {n_axes} "
                                "were indexed")
    if n_axes == base.ndim:
        return IndexInfo("element", base.scalar, parts)
    return IndexInfo("view", T.Array(base.dtype, base.ndim - n_axes, base.layout, base.readonly), parts)


def _fancy_getitem(typer, node, base: T.Array, parts) -> IndexInfo:
    """a[idx], a[i_arr, j_arr], a[idx, 1:3], a[:, idx]: a new array.  The
    index arrays (with integer scalars beside them) broadcast together; their
    dimensions replace them when they are adjacent and come first otherwise
    (NumPy's rule, applied again at run time by tr::fancy::plan)."""
    if "boolscalar" in parts:
        raise typer.error(node, "indexing with a boolean scalar is not supported")
    arrays = [typer.tf.types[i] for i, p in zip(node.index, parts) if p == "fancy"]
    if any(a.ndim == 0 for a in arrays):
        raise typer.error(node, "indexing with 0-d integer arrays is not supported", "use int(i) instead")
    n_axes = sum(p in ("int", "slice", "all", "fancy") for p in parts)
    if n_axes > base.ndim:
        raise typer.error(node, f"too many indices for array: array is {base.ndim}-dimensional, but {n_axes} "
                                "were indexed")
    b = max(a.ndim for a in arrays)
    ndim = b + sum(p in ("slice", "all", "newaxis") for p in parts) + (base.ndim - n_axes)
    return IndexInfo("fancy", T.Array(base.dtype, ndim, "C"), parts)


def _tuple_getitem(typer, node, base: T.Tuple) -> IndexInfo:
    if len(node.index) != 1:
        raise typer.error(node, "tuple indices must be a single integer or slice")
    idx = node.index[0]
    n = len(base.items)
    if isinstance(idx, h.Slice):
        bounds = [None if p is None else typer.const(p) for p in (idx.lower, idx.upper, idx.step)]
        if any(b is NOT_CONST for b in bounds):
            raise typer.error(node, "tuple slices need constant bounds")
        picked = tuple(range(n))[slice(*bounds)]
        return IndexInfo("tuple_slice", T.Tuple(tuple(base.items[i] for i in picked)), const_index=picked)
    value = typer.const(idx)
    if value is not NOT_CONST:
        if not isinstance(value, int) or isinstance(value, bool):
            raise typer.error(node, "tuple indices must be integers")
        if not -n <= value < n:
            raise typer.error(node, "tuple index out of range")
        return IndexInfo("tuple_item", base.items[value % n], const_index=value % n)
    elem = base.homogeneous
    t = typer.tf.types.get(idx)
    if elem is None or not (isinstance(t, T.Scalar) and t.kind in "iu"):
        raise typer.error(node, "a tuple of mixed types can only be indexed with a constant",
                          "write t[0], t[1], ... instead of t[i]")
    return IndexInfo("tuple_item", elem)


def _lib_subscript(typer, node: h.Subscript, base: T.LibIter, value: T.Type | None = None) -> IndexInfo:
    """a.flat[i] and a.flat[i] = v: the library iterator's rule (library/numpy_iter.py) decides."""
    rule = lookup_iteration(base.kind)
    if rule.getitem is None:
        raise typer.error(node, f"'{base}' object is not subscriptable")
    result = rule.getitem(base, [typer.tf.types.get(i) for i in node.index])
    problem = result if isinstance(result, str) else None
    if problem is None and value is not None:
        problem = rule.settable(base, value) if rule.settable else f"'{base}' does not support item assignment"
    if problem is not None:
        raise typer.error(node, problem)
    return IndexInfo("lib", result)


def setitem(typer, target: h.Subscript, base: T.Type, value: T.Type) -> IndexInfo:
    if isinstance(base, (T.Dict, T.Str)):
        from . import dicts

        return dicts.setitem(typer, target, base, value)
    if isinstance(base, T.List):
        from . import lists

        return lists.setitem(typer, target, base, value)
    if isinstance(base, T.LibIter):
        typer.index_types(target)
        return _lib_subscript(typer, target, base, value)
    if isinstance(base, (T.RecordArray, T.Record)):
        return records.setitem(typer, target, base, value, getitem)
    if not isinstance(base, T.Array):
        raise typer.error(target, f"'{base}' object does not support item assignment")
    typer.index_types(target)
    info = getitem(typer, target, base)
    if isinstance(value, T.Scalar):
        if value.kind == "c" and base.scalar.kind != "c":
            raise typer.error(target, f"cannot store a complex value in a {base.dtype} array")
    elif isinstance(value, T.Array):
        if info.kind == "element":
            raise typer.error(target, "setting an array element with a sequence")
        if value.ndim > info.result.ndim and info.kind != "mask":
            raise typer.error(target, f"could not broadcast a {value.ndim}-d array into a {info.result.ndim}-d "
                                      "selection")
    else:
        raise typer.error(target, f"cannot store {value} in an array")
    if base.readonly:
        return IndexInfo(info.kind, info.result, info.parts, readonly_write=True)
    return info
