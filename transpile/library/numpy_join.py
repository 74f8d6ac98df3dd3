"""NumPy joining and repeating: concatenate, stack, vstack, hstack, tile,
repeat, copyto.  C++ in numpy/join.hpp."""
from __future__ import annotations

import numpy as np

from .base import CExpr
from ..hir import types as T
from .registry import register, register_method
from .base import Entry
from .numpy_common import (DEFAULT_DTYPE, H_JOIN, H_SHAPE, Fail, array_code, axis_code, cast_check, code_of,
                           const_value, dtype_arg, has_arg, int_arg, is_none_arg, lowering, need_array,
                           sequence_codes, sequence_items, type_at)


def _join_dtype(site, items, index):
    given = dtype_arg(site, index, None)
    common = np.result_type(*[np.dtype(t.dtype) for t in items]).name
    if given is None:
        return common, None
    casting = const_value(site, None, "casting", "same_kind", "casting=")
    for t in items:
        if not cast_check(t.dtype, given, casting):
            return given, Fail("type", f"Cannot cast array data from dtype('{t.dtype}') to dtype('{given}') according "
                                       f"to the rule '{casting}'")
    return given, None


def _concatenate_infer(site):
    site.check_arity(1, 2, ("axis", "dtype", "casting"))
    items = sequence_items(site, 0, None, "np.concatenate")
    dtype, failure = _join_dtype(site, items, None)
    if has_arg(site, 1, "axis") and site.const(site.arg_node(1, "axis")) is None:
        return T.Array(dtype, 1, "C"), failure or ("flat", len(items))
    int_arg(site, 1, "axis", "axis")
    nd = items[0].ndim
    if nd == 0:
        return T.Array(dtype, 1, "C"), Fail("value", "zero-dimensional arrays cannot be concatenated")
    for i, t in enumerate(items):
        if t.ndim != nd:
            return T.Array(dtype, nd, "C"), Fail(
                "value", f"all the input arrays must have same number of dimensions, but the array at index 0 has "
                         f"{nd} dimension(s) and the array at index {i} has {t.ndim} dimension(s)")
    return T.Array(dtype, nd, "C"), failure or ("axis", len(items))


@lowering
def _concatenate_lower(ls):
    lw = ls.lower
    kind, n = ls.site_info
    rt = lw.elem(ls.result.dtype)
    codes = sequence_codes(ls, 0, None, n)
    if kind == "flat":
        lw.module.include(H_SHAPE)
        codes = [f"tr::np::ravel({c})" for c in codes]
        return CExpr(f"tr::np::concatenate<{rt}, 1>(0, {', '.join(codes)})")
    return CExpr(f"tr::np::concatenate<{rt}, {ls.result.ndim}>({axis_code(ls, 1, 'axis', 0)}, {', '.join(codes)})")


register(np.concatenate, Entry("numpy.concatenate", _concatenate_infer, _concatenate_lower, (H_JOIN,)))


def _stack_infer(site):
    site.check_arity(1, 2, ("axis", "dtype", "casting"))
    items = sequence_items(site, 0, None, "np.stack")
    dtype, failure = _join_dtype(site, items, None)
    int_arg(site, 1, "axis", "axis")
    nd = items[0].ndim
    if any(t.ndim != nd for t in items):
        return T.Array(dtype, nd + 1, "C"), Fail("value", "all input arrays must have the same shape")
    return T.Array(dtype, nd + 1, "C"), failure or len(items)


@lowering
def _stack_lower(ls):
    lw = ls.lower
    rt = lw.elem(ls.result.dtype)
    codes = sequence_codes(ls, 0, None, ls.site_info)
    return CExpr(f"tr::np::stack<{rt}, {ls.result.ndim - 1}>({axis_code(ls, 1, 'axis', 0)}, {', '.join(codes)})")


register(np.stack, Entry("numpy.stack", _stack_infer, _stack_lower, (H_JOIN,)))


def _vhstack(name):
    def infer(site):
        site.check_arity(1, 1, ("dtype", "casting"))
        items = sequence_items(site, 0, None, f"np.{name}")
        if any(t.ndim == 0 for t in items):
            raise site.error(f"np.{name}() of 0-d arrays is not supported")
        dtype, failure = _join_dtype(site, items, None)
        if name == "vstack":
            nds = [max(t.ndim, 2) for t in items]
            axis = 0
        else:
            nds = [t.ndim for t in items]
            axis = 0 if items[0].ndim == 1 else 1
        nd = nds[0]
        for i, d in enumerate(nds):
            if d != nd:
                return T.Array(dtype, nd, "C"), Fail(
                    "value", f"all the input arrays must have same number of dimensions, but the array at index 0 "
                             f"has {nd} dimension(s) and the array at index {i} has {d} dimension(s)")
        return T.Array(dtype, nd, "C"), failure or (axis, tuple(t.ndim for t in items))

    @lowering
    def lower(ls):
        lw = ls.lower
        rt = lw.elem(ls.result.dtype)
        axis, ndims = ls.site_info
        codes = sequence_codes(ls, 0, None, len(ndims))
        if name == "vstack":
            codes = [f"tr::np::as_row({c})" if d == 1 else c for c, d in zip(codes, ndims)]
        return CExpr(f"tr::np::concatenate<{rt}, {ls.result.ndim}>({axis}, {', '.join(codes)})")

    return Entry(f"numpy.{name}", infer, lower, (H_JOIN,))


register(np.vstack, _vhstack("vstack"))
register(np.hstack, _vhstack("hstack"))


# ---- tile / repeat / copyto ---------------------------------------------------------

def _tile_infer(site):
    site.check_arity(2, 2, ("A", "reps"))
    a = need_array(site, 0, "A", "np.tile")
    reps = site.arg_type(1, "reps")
    if isinstance(reps, T.Scalar) and reps.kind in "iu":
        k = 1
    elif isinstance(reps, T.Tuple) and all(isinstance(i, T.Scalar) and i.kind in "iu" for i in reps.items):
        k = len(reps.items)
    else:
        raise site.error(f"np.tile() reps must be an int or a tuple of ints, not {reps}")
    return T.Array(a.dtype, max(a.ndim, k), "C"), k


def _tile_lower(ls):
    lw = ls.lower
    reps_t = type_at(ls, 1, "reps")
    code = code_of(ls, 1, "reps")
    if isinstance(reps_t, T.Scalar):
        reps = f"{{int64_t({code})}}"
    else:
        tmp = lw.hoist(code, reps_t)
        reps = "{" + ", ".join(f"int64_t(std::get<{i}>({tmp}))" for i in range(ls.site_info)) + "}"
    return CExpr(f"tr::np::tile<{ls.result.ndim}>({array_code(ls, 0, 'A')}, {reps})")


register(np.tile, Entry("numpy.tile", _tile_infer, _tile_lower, (H_JOIN,)))


def _repeat_infer(site):
    site.check_arity(2, 3, ("a", "repeats", "axis"))
    a = need_array(site, 0, "a", "repeat")
    r = site.arg_type(1, "repeats")
    if isinstance(r, T.Scalar) and r.kind in "iub":
        rk = "scalar"
    elif isinstance(r, T.Array) and r.ndim <= 1 and r.dtype != "bool" and r.scalar.kind in "iu":
        rk = "array"
    else:
        raise site.error(f"repeat() repeats must be an int or a 1-d array of ints, not {r}")
    if is_none_arg(site, 2, "axis"):
        return T.Array(a.dtype, 1, "C"), ("flat", rk)
    int_arg(site, 2, "axis", "axis")
    if a.ndim == 0:
        raise site.error("repeat() of a 0-d array with axis= is not supported")
    return T.Array(a.dtype, a.ndim, "C"), ("axis", rk)


def _repeat_lower(ls):
    lw = ls.lower
    kind, rk = ls.site_info
    x = array_code(ls, 0, "a")
    if kind == "flat":
        lw.module.include(H_SHAPE)
        x = f"tr::np::ravel({x})"
    ax = "0" if kind == "flat" else axis_code(ls, 2, "axis", 0)
    r = f"int64_t({code_of(ls, 1, 'repeats')})" if rk == "scalar" else array_code(ls, 1, "repeats")
    if rk == "array" and type_at(ls, 1, "repeats").ndim == 0:
        r = f"tr::np::reshape<1>({r}, {{1}})"
        lw.module.include(H_SHAPE)
    return CExpr(f"tr::np::repeat({x}, {r}, {ax})")


register(np.repeat, Entry("numpy.repeat", _repeat_infer, _repeat_lower, (H_JOIN,)))
register_method("repeat", Entry("repeat", _repeat_infer, _repeat_lower, (H_JOIN,)))


def _copyto_infer(site):
    site.check_arity(2, 2, ("dst", "src", "casting", "where"))
    dst = need_array(site, 0, "dst", "np.copyto")
    src = site.arg_type(1, "src")
    if not isinstance(src, (T.Scalar, T.Array)):
        raise site.error(f"np.copyto() src must be an array or a scalar, not {src}")
    casting = const_value(site, None, "casting", "same_kind", "casting=")
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise site.error("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'")
    where = site.kwargs.get("where")
    if where is not None and not (isinstance(where, (T.Scalar, T.Array)) and where.dtype == "bool"):
        raise site.error(f"np.copyto() where= must be booleans, not {where}")
    if dst.readonly:
        return T.NONE, Fail("value", "assignment destination is read-only")
    if isinstance(src, T.Scalar) and src.weak:
        src_dtype = DEFAULT_DTYPE[src.dtype]
        ok = src.dtype == "bool" or np.dtype(src_dtype).kind == np.dtype(dst.dtype).kind or \
            (src.dtype == "int64" and np.dtype(dst.dtype).kind in "fc") or \
            (src.dtype == "float64" and np.dtype(dst.dtype).kind == "c") or casting == "unsafe"
        if not ok:
            return T.NONE, Fail("type", f"Cannot cast scalar from dtype('{src_dtype}') to dtype('{dst.dtype}') "
                                        f"according to the rule '{casting}'")
    elif not cast_check(src.dtype, dst.dtype, casting):
        what = "array data" if isinstance(src, T.Array) else "scalar"
        return T.NONE, Fail("type", f"Cannot cast {what} from dtype('{src.dtype}') to dtype('{dst.dtype}') "
                                    f"according to the rule '{casting}'")
    if isinstance(src, T.Array) and src.ndim > dst.ndim:
        return T.NONE, Fail("value", f"could not broadcast input array from a {src.ndim}-d array into a "
                                     f"{dst.ndim}-d array")
    if isinstance(where, T.Array) and where.ndim > dst.ndim:
        return T.NONE, Fail("value", "could not broadcast where mask into the destination")
    return T.NONE, "ok"


@lowering
def _copyto_lower(ls):
    lw = ls.lower
    dst = lw.hoist(array_code(ls, 0, "dst"), type_at(ls, 0, "dst"))
    src = code_of(ls, 1, "src")
    if "where" in ls.kwargs:
        ct = lw.elem(type_at(ls, 0, "dst").dtype)
        src = f"tr::select<{ct}>({ls.kwargs['where'].code}, {src}, {dst})"
    return CExpr(f"(tr::assign({dst}, {src}), tr::none_t{{}})")


register(np.copyto, Entry("numpy.copyto", _copyto_infer, _copyto_lower, (H_JOIN,), writes_arguments=True))
