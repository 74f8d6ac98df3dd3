"""NumPy reductions (sum, prod, mean, min, max, argmin, argmax, var, std,
any, all; axis= and keepdims=) and cumulative operations (cumsum, cumprod,
diff).  Result dtypes are asked of NumPy; C++ in numpy/reduce.hpp and
numpy/cumulative.hpp."""
from __future__ import annotations

import numpy as np

from .base import CExpr
from ..hir import types as T
from .registry import register, register_method
from .base import NOT_CONST, Entry
from .numpy_common import (H_CUM, H_JOIN, H_REDUCE, H_SHAPE, array_code, axis_code, code_of, dtype_arg,
                           dtype_of_value, int_arg, is_array, is_none_arg, keepdims_arg, need_array)


def _reduce_dtype(fn, dtype: str) -> str:
    return np.asarray(fn(np.ones(2, dtype=dtype))).dtype.name


REDUCTIONS = {
    "sum": np.sum, "prod": np.prod, "mean": np.mean, "min": np.min, "max": np.max, "amin": np.min,
    "amax": np.max, "argmin": np.argmin, "argmax": np.argmax, "var": np.var, "std": np.std,
}


def _ddof_code(ls) -> str:
    """ddof= or its NumPy 2 spelling correction=."""
    for kw in ("ddof", "correction"):
        if kw in ls.kwargs:
            return ls.kwargs[kw].code
    return "0"


def _reduction(name):
    fn = REDUCTIONS[name]
    cxx = {"amin": "min", "amax": "max"}.get(name, name)
    with_ddof = name in ("var", "std")

    def infer(site):
        keywords = ("a", "axis", "ddof", "correction", "keepdims") if with_ddof else ("a", "axis", "keepdims")
        site.check_arity(1, 2, keywords)
        if "ddof" in site.kwargs and "correction" in site.kwargs:
            raise site.error("ddof and correction can't be provided simultaneously.")
        result, info = infer_base(site)
        keep = site.const_arg(None, "keepdims", False)
        if keep is NOT_CONST or keep not in (True, False, None):
            raise site.error(f"np.{name}(keepdims=...) must be True or False, known while compiling")
        if not keep:
            return result, info
        # keepdims=True: the reduced axes stay, with length 1
        return T.Array(result.dtype, site.args[0].ndim, "C"), ("keep", info)

    def infer_base(site):
        a = site.args[0]
        if not isinstance(a, T.Array) or a.ndim == 0:
            raise site.error(f"np.{name}() needs an array, not {site.args[0]}")
        if a.dtype.startswith("complex") and name in ("min", "max", "amin", "amax", "argmin", "argmax"):
            raise site.error(f"np.{name}() of complex arrays is not supported")
        rdtype = _reduce_dtype(fn, a.dtype)
        axis_node = site.arg_node(1, "axis")
        axis = None if axis_node is None else site.const(axis_node)
        if axis is NOT_CONST:
            raise site.error(f"np.{name}(axis=...) needs an axis known while compiling (a literal int)")
        if axis is None or a.ndim <= 1:
            if axis is not None and not -1 <= axis <= 0:
                raise site.error(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
            return T.Scalar(rdtype), None
        if not isinstance(axis, int) or not -a.ndim <= axis < a.ndim:
            raise site.error(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
        return T.Array(rdtype, a.ndim - 1, "C"), axis % a.ndim

    def lower(ls):
        info = ls.site_info
        if isinstance(info, tuple) and info[0] == "keep":
            nd = ls.arg_types[0].ndim
            if info[1] is None:
                return CExpr(f"tr::np::keep_all<{nd}>({lower_base(ls, None).code})")
            return CExpr(f"tr::np::keep_axis({lower_base(ls, info[1]).code}, {info[1]})")
        return lower_base(ls, info)

    def lower_base(ls, info):
        lw = ls.lower
        x = ls.args[0]
        rt = lw.elem(ls.result.dtype)
        if info is None:
            if name in ("argmin", "argmax"):
                return CExpr(f"tr::np::{cxx}({x.code})")
            if with_ddof:
                ddof = _ddof_code(ls)
                return CExpr(f"tr::np::{cxx}<{rt}>({x.code}, int64_t({ddof}))")
            return CExpr(f"tr::np::{cxx}<{rt}>({x.code})")
        if name in ("argmin", "argmax"):
            return CExpr(f"tr::np::{cxx}_axis({lw.ev(x)}, {info})")
        if with_ddof:
            ddof = _ddof_code(ls)
            return CExpr(f"tr::np::{cxx}_axis<{rt}>({lw.ev(x)}, {info}, int64_t({ddof}))")
        return CExpr(f"tr::np::{cxx}_axis<{rt}>({lw.ev(x)}, {info})")

    return Entry(f"numpy.{name}", infer, lower, (H_REDUCE,))


for _name in REDUCTIONS:
    _entry = _reduction(_name)
    register(getattr(np, _name), _entry)
    if _name not in ("amin", "amax"):
        register_method(_name, _entry)


def _anyall(name):
    def infer(site):
        site.check_arity(1, 2, ("a", "axis", "keepdims"))
        a = site.args[0]
        keep = keepdims_arg(site)
        if isinstance(a, T.Scalar):
            if not is_none_arg(site, 1, "axis") or keep:
                raise site.error(f"np.{name}() of a scalar with axis= or keepdims= is not supported")
            return T.Scalar("bool"), ("scalar", 0, False)
        if not is_array(a):
            raise site.error(f"np.{name}() needs an array, not {a}")
        if keep and a.ndim == 0:
            raise site.error(f"np.{name}(keepdims=True) of a 0-d array is not supported")
        result = T.Array("bool", a.ndim, "C") if keep else None
        if is_none_arg(site, 1, "axis"):
            return result or T.Scalar("bool"), ("whole", a.ndim, keep)
        int_arg(site, 1, "axis", "axis")
        if a.ndim <= 1:
            return result or T.Scalar("bool"), ("whole_checked", a.ndim, keep)
        return result or T.Array("bool", a.ndim - 1, "C"), ("axis", a.ndim, keep)

    def lower(ls):
        lw = ls.lower
        kind, nd, keep = ls.site_info
        x = ls.args[0]
        if kind == "scalar":
            return CExpr(f"bool(tr::truthy({x.code}))")
        if kind == "whole":
            code = f"tr::np::{name}({x.code})"
        else:
            ax = lw.hoist(axis_code(ls, 1, "axis", 0))
            if kind == "whole_checked":
                code = f"(tr::np::detail::normalize_axis({ax}, {nd}), tr::np::{name}({x.code}))"
            else:
                code = f"tr::np::{name}_axis({lw.ev(x)}, {ax})"
                return CExpr(f"tr::np::keep_axis({code}, {ax})" if keep else code)
        return CExpr(f"tr::np::keep_all<{nd}>({code})" if keep else code)

    return Entry(f"numpy.{name}", infer, lower, (H_REDUCE,))


for _name in ("any", "all"):
    register(getattr(np, _name), _anyall(_name))
    register_method(_name, _anyall(_name))


# ---- cumsum / cumprod / diff -----------------------------------------------------

def _cumulative(name):
    fn = getattr(np, name)

    def infer(site):
        site.check_arity(1, 3, ("a", "axis", "dtype"))
        a = need_array(site, 0, "a", f"np.{name}", 0)
        dtype = dtype_arg(site, 2, None) or np.asarray(fn(np.ones(2, dtype=a.dtype))).dtype.name
        if is_none_arg(site, 1, "axis"):
            return T.Array(dtype, 1, "C"), ("flat",)
        int_arg(site, 1, "axis", "axis")
        if a.ndim == 0:
            raise site.error(f"np.{name}() of a 0-d array with axis= is not supported")
        return T.Array(dtype, a.ndim, "C"), ("axis",)

    def lower(ls):
        lw = ls.lower
        rt = lw.elem(ls.result.dtype)
        x = lw.ev(ls.args[0])
        if ls.site_info[0] == "flat":
            lw.module.include(H_SHAPE)
            return CExpr(f"tr::np::{name}<{rt}>(tr::np::ravel({x}), 0)")
        return CExpr(f"tr::np::{name}<{rt}>({x}, {axis_code(ls, 1, 'axis', 0)})")

    return Entry(f"numpy.{name}", infer, lower, (H_CUM,))


for _name in ("cumsum", "cumprod"):
    register(getattr(np, _name), _cumulative(_name))
    register_method(_name, _cumulative(_name))


def _diff_infer(site):
    site.check_arity(1, 5, ("a", "n", "axis", "prepend", "append"))
    a = need_array(site, 0, "a", "np.diff", 1)
    int_arg(site, 1, "n", "n")
    int_arg(site, 2, "axis", "axis")
    dtypes = [a.dtype]
    extra = []
    for i, kw in ((3, "prepend"), (4, "append")):
        t = site.arg_type(i, kw)
        if t is None or t == T.NONE:
            extra.append(None)
            continue
        if isinstance(t, T.Scalar):
            extra.append("scalar")
        elif isinstance(t, T.Array) and t.ndim == a.ndim:
            extra.append("array")
        else:
            raise site.error(f"np.diff({kw}=...) needs a scalar or an array of {a.ndim} dimension(s), not {t}")
        dtypes.append(dtype_of_value(t))
    dtype = np.result_type(*[np.dtype(d) for d in dtypes]).name
    return T.Array(dtype, a.ndim, "C"), tuple(extra)


def _diff_lower(ls):
    lw = ls.lower
    rt = lw.elem(ls.result.dtype)
    nd = ls.result.ndim
    x = lw.hoist(lw.ev(ls.args[0]), ls.arg_types[0])
    n = code_of(ls, 1, "n", "1")
    ax = lw.hoist(axis_code(ls, 2, "axis", -1))
    pre, app = ls.site_info
    if pre is None and app is None:
        return CExpr(f"tr::np::diff<{rt}>({x}, int64_t({n}), {ax})")
    lw.module.include(H_JOIN)
    parts = []
    for kind, i, kw in ((pre, 3, "prepend"), (None, None, None), (app, 4, "append")):
        if i is None:
            parts.append(x)
        elif kind == "scalar":
            parts.append(f"tr::np::lane_full<{rt}>({x}, {ax}, {code_of(ls, i, kw)})")
        elif kind == "array":
            parts.append(array_code(ls, i, kw))
    n = lw.hoist(f"int64_t({n})")
    return CExpr(f"(tr::np::check_diff_order({n}), tr::np::diff<{rt}>(tr::np::concatenate<{rt}, {nd}>({ax}, "
                 f"{', '.join(parts)}), {n}, {ax}))")


register(np.diff, Entry("numpy.diff", _diff_infer, _diff_lower, (H_CUM,)))
