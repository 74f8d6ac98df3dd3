"""NumPy array shape and copies: reshape, transpose, ravel, flatten, copy,
np.array of an array, astype, item, fill.  C++ in numpy/shape.hpp."""
from __future__ import annotations

import numpy as np

from .base import CExpr
from ..hir import types as T
from .registry import register, register_method
from .base import NOT_CONST, Entry
from .numpy_common import H_ITEM, H_SHAPE, dtype_arg


def _copy_infer(site):
    site.check_arity(1, 1)
    a = site.args[0]
    if not isinstance(a, T.Array):
        raise site.error(f"copy() needs an array, not {a}")
    return T.Array(a.dtype, a.ndim, "C"), None


def _copy_lower(ls):
    return CExpr(f"tr::copy_as<{ls.lower.elem(ls.result.dtype)}>({ls.args[0].code})")


register(np.copy, Entry("numpy.copy", _copy_infer, _copy_lower, ()))
register_method("copy", Entry("copy", _copy_infer, _copy_lower, ()))
register(np.array, Entry("numpy.array", _copy_infer, _copy_lower, ()))


def _astype_infer(site):
    site.check_arity(2, 3, ("dtype", "copy"))
    a = site.args[0]
    if not isinstance(a, T.Array):
        raise site.error(f"astype() needs an array, not {a}")
    dtype = dtype_arg(site, 1)
    copy = site.const_arg(2, "copy", True)
    if copy is NOT_CONST:
        raise site.error("astype(copy=...) must be known while compiling")
    if not copy and dtype == a.dtype:  # the array itself, as NumPy returns it
        return a, "same"
    return T.Array(dtype, a.ndim, "C"), None


def _astype_lower(ls):
    if ls.site_info == "same":
        return CExpr(ls.lower.ev(ls.args[0]))
    return _copy_lower(ls)


def _np_astype_infer(site):
    if site.args and isinstance(site.args[0], T.Scalar):
        raise site.error("np.astype() needs an array")
    return _astype_infer(site)


register_method("astype", Entry("astype", _astype_infer, _astype_lower, ()))
if hasattr(np, "astype"):  # NumPy >= 2.1
    register(np.astype, Entry("numpy.astype", _np_astype_infer, _astype_lower, ()))


# ---- shape functions ---------------------------------------------------------------

def _reshape_infer(site):
    a = site.args[0]
    if not isinstance(a, T.Array):
        raise site.error(f"reshape() needs an array, not {a}")
    rest = site.args[1:] or [site.kwargs.get("shape") or site.kwargs.get("newshape")]
    if len(rest) == 1 and rest[0] is not None:
        t = rest[0]
        if isinstance(t, T.Scalar) and t.kind in "iu":
            return T.Array(a.dtype, 1, "C", a.readonly), ("int", 1)
        if isinstance(t, T.Tuple) and all(isinstance(i, T.Scalar) and i.kind in "iu" for i in t.items):
            return T.Array(a.dtype, len(t.items), "C", a.readonly), ("tuple", len(t.items))
    if len(rest) > 1 and all(isinstance(t, T.Scalar) and t.kind in "iu" for t in rest):
        return T.Array(a.dtype, len(rest), "C", a.readonly), ("ints", len(rest))
    raise site.error("reshape() needs a shape: ints or a tuple of ints")


def _reshape_lower(ls):
    lw = ls.lower
    kind, n = ls.site_info
    rest = ls.args[1:] or [ls.kwargs.get("shape") or ls.kwargs.get("newshape")]
    if kind == "tuple":
        tmp = lw.hoist(rest[0].code, ls.arg_types[1] if len(ls.arg_types) > 1 else list(ls.kw_types.values())[0])
        dims = ", ".join(f"int64_t(std::get<{i}>({tmp}))" for i in range(n))
    else:
        dims = ", ".join(f"int64_t({r.code})" for r in rest)
    return CExpr(f"tr::np::reshape<{n}>({lw.ev(ls.args[0])}, {{{dims}}})")


register(np.reshape, Entry("numpy.reshape", _reshape_infer, _reshape_lower, (H_SHAPE,)))
register_method("reshape", Entry("reshape", _reshape_infer, _reshape_lower, (H_SHAPE,)))


def _transpose_infer(site):
    site.check_arity(1, 1)
    a = site.args[0]
    if not isinstance(a, T.Array):
        raise site.error(f"transpose() needs an array, not {a}")
    return T.Array(a.dtype, a.ndim, a.layout if a.ndim <= 1 else "A", a.readonly), None


def _transpose_lower(ls):
    if ls.arg_types[0].ndim <= 1:
        return CExpr(ls.lower.ev(ls.args[0]))
    return CExpr(f"tr::np::transpose({ls.lower.ev(ls.args[0])})")


register(np.transpose, Entry("numpy.transpose", _transpose_infer, _transpose_lower, (H_SHAPE,)))
register_method("transpose", Entry("transpose", _transpose_infer, _transpose_lower, (H_SHAPE,)))


def _flip(name, fixed=None):
    """np.flip(a, axis=None) with the axis known while compiling (an int or a tuple of them), np.fliplr
    (axis 1), np.flipud (axis 0): a view; an axis out of range runs as Python (NumPy's AxisError)."""
    def infer(site):
        site.check_arity(1, 1 if fixed is not None else 2, () if fixed is not None else ("axis",))
        a = site.args[0]
        if not isinstance(a, T.Array) or a.ndim == 0:
            raise site.error(f"{name}() needs an array of at least one dimension, not {a}")
        axis = fixed if fixed is not None else site.const_arg(1, "axis", None)
        axes = range(a.ndim) if axis is None else axis if isinstance(axis, tuple) else (axis,)
        if not all(type(k) is int and -a.ndim <= k < a.ndim for k in axes):
            raise site.error(f"{name}() with axis={axis!r} of a {a.ndim}-d array is not supported in compiled code",
                             "give the axes as ints within the array's dimensions, known while compiling")
        mask = sum(1 << (k % a.ndim) for k in set(k % a.ndim for k in axes))
        return T.Array(a.dtype, a.ndim, "A", a.readonly), mask

    def lower(ls):
        return CExpr(f"tr::np::flip({ls.lower.ev(ls.args[0])}, {ls.site_info}u)")

    return Entry(f"numpy.{name}", infer, lower, (H_SHAPE,))


register(np.flip, _flip("flip"))
register(np.fliplr, _flip("fliplr", 1))
register(np.flipud, _flip("flipud", 0))


def _flat(kind):
    def infer(site):
        site.check_arity(1, 1)
        a = site.args[0]
        if not isinstance(a, T.Array):
            raise site.error(f"{kind}() needs an array, not {a}")
        return T.Array(a.dtype, 1, "C", a.readonly and kind == "ravel"), None

    def lower(ls):
        return CExpr(f"tr::np::{kind}({ls.lower.ev(ls.args[0])})")

    return Entry(kind, infer, lower, (H_SHAPE,))


register(np.ravel, _flat("ravel"))
register_method("ravel", _flat("ravel"))
register_method("flatten", _flat("flatten"))


def _item_infer(site):
    site.check_arity(1, 1)
    a = site.args[0]
    if isinstance(a, T.Scalar):
        return T.Scalar({"b": "bool", "i": "int64", "u": "int64", "f": "float64", "c": "complex128"}[a.kind],
                        weak=True), "scalar"
    if isinstance(a, T.Array):
        return T.Scalar({"b": "bool", "i": "int64", "u": "int64", "f": "float64", "c": "complex128"}[a.scalar.kind],
                        weak=True), "array"
    raise site.error(f"item() of {a}")


def _item_lower(ls):
    ct = ls.lower.ctype(ls.result)
    if ls.site_info == "scalar":
        return CExpr(f"tr::cast<{ct}>({ls.args[0].code})")
    return CExpr(f"tr::cast<{ct}>(tr::np::item({ls.lower.ev(ls.args[0])}))")


register_method("item", Entry("item", _item_infer, _item_lower, (H_ITEM,)))


def _fill_infer(site):
    site.check_arity(2, 2)
    a = site.args[0]
    if not isinstance(a, T.Array) or not isinstance(site.args[1], T.Scalar):
        raise site.error("fill() needs an array and a scalar")
    if a.readonly:
        raise site.error("assignment destination is read-only")
    return T.NONE, None


def _fill_lower(ls):
    return CExpr(f"(tr::assign({ls.lower.ev(ls.args[0])}, {ls.args[1].code}), tr::none_t{{}})")


register_method("fill", Entry("fill", _fill_infer, _fill_lower, (), writes_arguments=True))
