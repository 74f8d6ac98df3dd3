"""NumPy array shape and copies: reshape, transpose, swapaxes, moveaxis,
squeeze, expand_dims, atleast_1d/2d/3d, diag, flip, ravel, flatten, copy,
np.array of an array, astype, item, fill.  C++ in numpy/shape.hpp."""
from __future__ import annotations

import operator

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .base import CExpr
from ..hir import types as T
from .registry import register, register_method
from .base import NOT_CONST, Entry
from .numpy_common import (H_CREATE, H_ITEM, H_SHAPE, Fail, array_code, axis_code, const_value, dtype_arg,
                           dtype_of_value, int_arg, lowering, need_array)


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


# ---- axes: transpose, swapaxes, moveaxis, squeeze, expand_dims, atleast_nd, diag ---------------------

_ITEM = 8  # the stand-in's itemsize: its axis k has stride _ITEM * (k + 1)


def _ask_numpy(fn, ndim):
    """What NumPy makes of constant axes, asked of NumPy itself (its checks of axes depend on ndim alone):
    fn applied to a stand-in of ndim length-1 axes whose strides number them (no element is read).  The
    source axis of each result axis, or the Fail raising NumPy's exception where the call runs."""
    stand_in = as_strided(np.zeros(1), (1,) * ndim, tuple(_ITEM * (k + 1) for k in range(ndim)))
    try:
        return tuple(s // _ITEM - 1 for s in fn(stand_in).strides)
    except (ValueError, TypeError, IndexError) as exc:  # AxisError is both a ValueError and an IndexError
        kind = ("axis" if isinstance(exc, np.exceptions.AxisError) else "value" if isinstance(exc, ValueError)
                else "type" if isinstance(exc, TypeError) else "index")
        return Fail(kind, str(exc))


def _const_args(site, what):
    """The arguments after the array, each known while compiling (positional, keywords)."""
    values = [const_value(site, i, None, None, f"{what}()'s arguments") for i in range(1, len(site.args))]
    return values, {k: const_value(site, None, k, None, f"{what}({k}=...)") for k in site.kwargs}


def _axes_view(what, call, most=None, keywords=(), method=False):
    """np.transpose, np.swapaxes, np.moveaxis, np.squeeze and their methods, with constant axes: views of
    the array's axes permuted or (length-1 ones) dropped; call(stand_in, *args, **kwargs) is NumPy's own
    (most: how many positional arguments at most, the array included; None: NumPy says)."""
    def infer(site):
        site.check_arity(1, most or len(site.args), keywords)
        a = need_array(site, 0, None, what)
        values, kw = _const_args(site, what)
        if what == "squeeze" and a.ndim and (values or [kw.get("axis")])[0] is None:
            raise site.error(f"{what}() without axis= gives as many dimensions as the array has axes of length 1, "
                             "known only when the code runs", "pass axis= (an int or a tuple of ints, known while "
                             "compiling) naming the axes of length 1 to drop")
        src = _ask_numpy(lambda s: call(s, *values, **kw), a.ndim)
        if isinstance(src, Fail):
            return a, src
        if src == tuple(range(a.ndim)):  # every axis in place: the array itself
            return a, None
        if len(src) == a.ndim:
            return T.Array(a.dtype, a.ndim, "A", a.readonly), ("transpose", src)
        kept_last = not src or src[-1] == a.ndim - 1  # unit stride stays innermost
        dropped = sum(1 << k for k in range(a.ndim) if k not in src)
        return T.Array(a.dtype, len(src), "C" if a.layout == "C" and kept_last else "A", a.readonly), \
            ("squeeze", dropped)

    def lower(ls):
        arr = ls.lower.ev(ls.args[0])
        if not isinstance(ls.site_info, tuple):
            return CExpr(arr)
        kind, axes = ls.site_info
        if kind == "transpose":
            return CExpr(f"tr::np::transpose({arr}, {{{', '.join(map(str, axes))}}})")
        return CExpr(f"tr::np::squeeze<{ls.lower.ctype(ls.result)}>({arr}, {axes}u)")

    return Entry(what if method else f"numpy.{what}", infer, lowering(lower), (H_SHAPE,))


register(np.transpose, _axes_view("transpose", np.transpose, 2, ("axes",)))
register_method("transpose", _axes_view("transpose", lambda s, *axes: s.transpose(*axes), method=True))
register(np.swapaxes, _axes_view("swapaxes", np.swapaxes, 3, ("axis1", "axis2")))
register_method("swapaxes", _axes_view("swapaxes", lambda s, *args: s.swapaxes(*args), 3, method=True))
register(np.moveaxis, _axes_view("moveaxis", np.moveaxis, 3, ("source", "destination")))
register(np.squeeze, _axes_view("squeeze", np.squeeze, 2, ("axis",)))
register_method("squeeze", _axes_view("squeeze", lambda s, *args, **kw: s.squeeze(*args, **kw), 2, ("axis",),
                                      method=True))


def _newaxes_lower(ls):
    """site_info: per result axis, "tr::newaxis" or "tr::all" (an axis of the array), or None: the array."""
    arr = ls.lower.ev(ls.args[0])
    if ls.site_info is None:
        return CExpr(arr)
    return CExpr(f"tr::view<{ls.lower.ctype(ls.result)}>({arr}, {', '.join(ls.site_info)})")


def _newaxes_type(a, parts):
    return T.Array(a.dtype, len(parts), "C" if a.layout == "C" else "A", a.readonly)


def _expand_dims_infer(site):
    site.check_arity(1, 2, ("axis",))
    a = need_array(site, 0, None, "expand_dims")
    values, kw = _const_args(site, "expand_dims")
    found = _ask_numpy(lambda s: np.expand_dims(s, *values, **kw), a.ndim)
    if isinstance(found, Fail):  # a missing axis too: NumPy's TypeError
        return a, found
    axis = (values or [kw.get("axis")])[0]
    axes = axis if isinstance(axis, tuple) else (axis,)
    out = a.ndim + len(axes)
    new = {operator.index(k) % out for k in axes}  # NumPy accepted them: in range, no repeats
    parts = tuple("tr::newaxis" if k in new else "tr::all" for k in range(out))
    return _newaxes_type(a, parts), parts


def _expand_dims_lower(ls):
    new_axes = sum(1 << k for k, part in enumerate(ls.site_info) if part == "tr::newaxis")
    view = _newaxes_lower(ls)
    return CExpr(f"tr::np::as_reshaped({view.code}, {ls.lower.ev(ls.args[0])}, uint64_t({new_axes}))")


register(np.expand_dims, Entry("numpy.expand_dims", _expand_dims_infer, lowering(_expand_dims_lower), (H_SHAPE,)))


def _atleast(n):
    """np.atleast_1d/2d/3d of one array: the array itself, or a view with NumPy's new length-1 axes; of a
    number, a new array of one element."""
    patterns = {1: {0: "n"}, 2: {0: "nn", 1: "na"}, 3: {0: "nnn", 1: "nan", 2: "aan"}}[n]

    def infer(site):
        site.check_arity(1, 1)
        a = site.args[0]
        if isinstance(a, T.Scalar):
            return T.Array(dtype_of_value(a), n, "C"), "scalar"
        a = need_array(site, 0, None, f"atleast_{n}d")
        if a.ndim >= n:
            return a, None
        parts = tuple({"n": "tr::newaxis", "a": "tr::all"}[c] for c in patterns[a.ndim])
        return _newaxes_type(a, parts), parts

    def lower(ls):
        if ls.site_info != "scalar":
            return _newaxes_lower(ls)
        elem = ls.lower.elem(ls.result.dtype)
        return CExpr(f"tr::np::full<{elem}, {n}>({{{', '.join(['1'] * n)}}}, tr::cast<{elem}>({ls.args[0].code}))")

    return Entry(f"numpy.atleast_{n}d", infer, lower, (H_SHAPE, H_CREATE))


register(np.atleast_1d, _atleast(1))
register(np.atleast_2d, _atleast(2))
register(np.atleast_3d, _atleast(3))


def _diag_infer(site):
    """np.diag(v, k): a new 2-d array of a 1-d v; of a 2-d array, its k-th diagonal, a read-only view as in
    NumPy (stores into it raise NumPy's ValueError in compiled code)."""
    site.check_arity(1, 2, ("k",))
    a = need_array(site, 0, "v", "diag")
    int_arg(site, 1, "k", "diag()'s k")
    if a.ndim == 1:
        return T.Array(a.dtype, 2, "C"), None
    if a.ndim == 2:
        return T.Array(a.dtype, 1, "A", readonly=True), None
    return T.Array(a.dtype, 1, "C"), Fail("value", "Input must be 1- or 2-d.")


def _diag_lower(ls):
    return CExpr(f"tr::np::diag({array_code(ls, 0, 'v')}, {axis_code(ls, 1, 'k', 0)})")


register(np.diag, Entry("numpy.diag", _diag_infer, lowering(_diag_lower), (H_SHAPE,)))


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
    value = ls.args[0].code if ls.site_info == "scalar" else f"tr::np::item({ls.lower.ev(ls.args[0])})"
    a = ls.arg_types[0]
    if (a.dtype if isinstance(a, T.Scalar) else a.scalar.dtype) == "uint64":  # past int64: no wrap
        ls.lower.module.include("transpile_rt/builtins/builtins.hpp")
        return CExpr(f"tr::builtins::to_int(uint64_t({value}))")
    return CExpr(f"tr::cast<{ct}>({value})")


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
