"""NumPy linear algebra: dot, matmul, outer, cross, trace, linalg.norm.
C++ in numpy/linalg.hpp and numpy/linalg_more.hpp."""
import math

import numpy as np

from .base import CExpr
from ..hir import types as T
from ..hir import promote
from .registry import register, register_method
from .base import NOT_CONST, Entry
from .python_calls import H_CALLS
from .numpy_common import (H_JOIN, H_LA, H_LINALG, H_SHAPE, Fail, array_code, axis_code, code_of, const_value,
                           int_arg, keepdims_arg, lowering, need_array, real_float, type_at)


def _product(kind):
    def infer(site):
        site.check_arity(2, 2)
        a, b = site.args
        if not (isinstance(a, T.Array) and isinstance(b, T.Array)) or not (1 <= a.ndim <= 2 and 1 <= b.ndim <= 2):
            raise site.error(f"np.{kind}() supports 1-d and 2-d arrays, not {a} and {b}")
        rdtype = np.result_type(np.dtype(a.dtype), np.dtype(b.dtype)).name
        ndim = a.ndim + b.ndim - 2
        return (T.Scalar(rdtype) if ndim == 0 else T.Array(rdtype, ndim, "C")), None

    def lower(ls):
        lw = ls.lower
        rt = lw.elem(ls.result.dtype)
        if by_numpy(ls):
            lw.module.needs_host = True
        return CExpr(f"tr::np::{kind}<{rt}>({lw.ev(ls.args[0])}, {lw.ev(ls.args[1])})")

    # needs_python: a floating-point product is NumPy's own (its BLAS), called with the GIL
    return Entry(f"numpy.{kind}", infer, lower, (H_LINALG,), needs_python=True)


def by_numpy(ls) -> bool:
    """A floating-point or complex result of a product or norm is computed by
    NumPy itself (python_calls.hpp: the bits of BLAS's sums and of
    NumPy's pairwise sums are theirs), through the bridge's host table."""
    return np.dtype(ls.result.dtype).kind in "fc"


register(np.dot, _product("dot"))
register_method("dot", _product("dot"))
register(np.matmul, _product("matmul"))


def _outer_infer(site):
    site.check_arity(2, 2, ("a", "b"))
    a = need_array(site, 0, "a", "np.outer")
    b = need_array(site, 1, "b", "np.outer")
    try:
        ops = promote.ufunc_call(np.multiply, [T.Array(a.dtype, 1), T.Array(b.dtype, 1)])
    except promote.PromotionError as exc:
        raise site.error(str(exc)) from None
    return T.Array(ops.result.dtype, 2, "C"), ops.compute


def _outer_lower(ls):
    lw = ls.lower
    lw.module.include(H_SHAPE)
    a, b = array_code(ls, 0, "a"), array_code(ls, 1, "b")
    flat = [f"tr::np::ravel({c})" if t.ndim != 1 else c for c, t in zip((a, b), ls.arg_types)]
    return lw.lazy(f"tr::binary<tr::op::mul, {lw.elem(ls.site_info)}>(tr::np::as_column({flat[0]}), "
                   f"tr::np::as_row({flat[1]}))")


register(np.outer, Entry("numpy.outer", _outer_infer, _outer_lower, (H_JOIN,)))


def _cross_infer(site):
    site.check_arity(2, 2, ("a", "b"))
    a = need_array(site, 0, "a", "np.cross", 1)
    b = need_array(site, 1, "b", "np.cross", 1)
    for kw in ("axisa", "axisb", "axisc", "axis"):
        if kw in site.kwargs:
            raise site.error(f"np.cross({kw}=...) is not supported in compiled code (vectors on the last axis)")
    dtype = np.promote_types(np.dtype(a.dtype), np.dtype(b.dtype)).name
    if dtype == "bool":
        raise site.error("np.cross() of boolean arrays: numpy boolean subtract is not supported")
    return T.Array(dtype, max(a.ndim, b.ndim), "C"), None


def _cross_lower(ls):
    lw = ls.lower
    return CExpr(f"tr::np::cross<{lw.elem(ls.result.dtype)}, {ls.result.ndim}>({array_code(ls, 0, 'a')}, "
                 f"{array_code(ls, 1, 'b')})")


register(np.cross, Entry("numpy.cross", _cross_infer, _cross_lower, (H_LA,)))


def _trace_infer(site):
    site.check_arity(1, 2, ("a", "offset"))
    a = need_array(site, 0, "a", "trace")
    if a.ndim != 2:
        raise site.error("trace() is supported for 2-d arrays in compiled code")
    int_arg(site, 1, "offset", "offset")
    return T.Scalar(np.asarray(np.trace(np.ones((2, 2), dtype=a.dtype))).dtype.name), None


def _trace_lower(ls):
    off = code_of(ls, 1, "offset", "0")
    return CExpr(f"tr::np::trace<{ls.lower.elem(ls.result.dtype)}>({array_code(ls, 0, 'a')}, int64_t({off}))")


register(np.trace, Entry("numpy.trace", _trace_infer, _trace_lower, (H_LA,)))
register_method("trace", Entry("trace", _trace_infer, _trace_lower, (H_LA,)))

_KIND = {2: 0, math.inf: 1, -math.inf: 2, 0: 3, 1: 4}


def _norm_infer(site):
    site.check_arity(1, 3, ("x", "ord", "axis", "keepdims"))
    x = need_array(site, 0, "x", "np.linalg.norm")
    rdtype = real_float(x.dtype)
    ord_ = const_value(site, 1, "ord", None, "ord=")
    keep = keepdims_arg(site)
    if isinstance(ord_, bool) or not (ord_ is None or isinstance(ord_, (int, float, str))):
        raise site.error(f"np.linalg.norm() ord={ord_!r} is not supported")
    axis_node = site.arg_node(2, "axis")
    axis = None if axis_node is None else site.const(axis_node)
    if axis is None and axis_node is not None and site.arg_type(2, "axis") != T.NONE:
        axis = NOT_CONST
    if axis is NOT_CONST:
        int_arg(site, 2, "axis", "axis")
    elif axis is not None and not isinstance(axis, int):
        raise site.error("np.linalg.norm() axis must be None or an int in compiled code")
    result, info = _norm_kind(site, x, rdtype, ord_, axis)
    if isinstance(info, Fail):
        return result, info
    if keep:
        result, info = T.Array(rdtype, x.ndim, "C"), ("keep", info, x.ndim)
    return result, ("norm", ord_, info)


def _norm_kind(site, x, rdtype, ord_, axis):
    vector = axis is not None or x.ndim == 1
    if vector:
        if isinstance(ord_, str):
            return T.Scalar(rdtype), Fail("value", f"Invalid norm order '{ord_}' for vectors")
        kind = 0 if ord_ is None else _KIND.get(ord_, 5)
        if axis is not None and x.ndim > 1:
            return T.Array(rdtype, x.ndim - 1, "C"), ("axis", kind, ord_)
        return T.Scalar(rdtype), ("vector", kind, ord_, axis is not None)
    if ord_ is None or (ord_ in ("fro", "f") and x.ndim == 2):
        return T.Scalar(rdtype), ("fro",)
    if x.ndim != 2:
        return T.Scalar(rdtype), Fail("value", "Improper number of dimensions to norm.")
    if ord_ in (1, -1, math.inf, -math.inf):
        return T.Scalar(rdtype), ("matrix", ord_ in (1, -1), ord_ > 0)
    if ord_ in (2, -2, "nuc"):
        raise site.error(f"np.linalg.norm(ord={ord_!r}) of a matrix needs singular values, which compiled code "
                         "does not compute")
    return T.Scalar(rdtype), Fail("value", "Invalid norm order for matrices.")


@lowering
def _norm_lower(ls):
    _, ord_, info = ls.site_info
    if ls.lower.module.options.backend == "cpu":
        return _norm_by_numpy(ls, ord_)
    if info[0] != "keep":
        return _norm_lower_base(ls, info)
    base = _norm_lower_base(ls, info[1])
    if info[1][0] == "axis":
        return CExpr(f"tr::np::keep_axis({base.code}, {axis_code(ls, 2, 'axis', 0)})")
    return CExpr(f"tr::np::keep_all<{info[2]}>({base.code})")


def _norm_by_numpy(ls, ord_):
    """np.linalg.norm(x, ord, axis, keepdims) called in NumPy: it sums with
    BLAS's dot or pairwise (add.reduce), as no loop here does bit for bit.
    ord keeps its Python type (NumPy raises 1/ord in it)."""
    lw = ls.lower
    lw.module.needs_host = True
    lw.module.include(H_CALLS)
    if ord_ is None or isinstance(ord_, str):  # 'fro' / 'f' of a matrix: NumPy's default norm
        ord_code = "tr::none_t{}"
    elif isinstance(ord_, int):
        ord_code = f"int64_t({ord_})"
    else:
        ord_code = f"double({ord_!r})" if math.isfinite(ord_) else ("__builtin_inf()" if ord_ > 0 else "-__builtin_inf()")
    axis = code_of(ls, 2, "axis")
    axis_code_ = "tr::none_t{}" if axis is None or type_at(ls, 2, "axis") == T.NONE else f"int64_t({axis})"
    keep = code_of(ls, 3, "keepdims")
    keep_code = f"bool({keep})" if keep is not None else "false"
    args = ", ".join(f"tr::box({code}, true)" for code in (array_code(ls, 0, "x"), ord_code, axis_code_, keep_code))
    return CExpr(f'tr::call_python<{lw.ctype(ls.result)}>("numpy.linalg", "norm", {{{args}}})')


def _norm_lower_base(ls, info):
    lw = ls.lower
    rt = lw.elem(ls.result.dtype)
    x = array_code(ls, 0, "x")
    if info[0] == "fro":
        return CExpr(f"tr::np::norm<{rt}>({x}, 0)")
    if info[0] == "matrix":
        return CExpr(f"tr::np::matrix_norm<{rt}>({x}, {'true' if info[1] else 'false'}, "
                     f"{'true' if info[2] else 'false'})")
    kind, ord_ = info[1], info[2]
    p = repr(float(ord_)) if kind == 5 else "2.0"
    if info[0] == "axis":
        return CExpr(f"tr::np::norm_axis<{rt}>({x}, {axis_code(ls, 2, 'axis', 0)}, {kind}, {p})")
    code = f"tr::np::norm<{rt}>({x}, {kind}, {p})"
    if info[3]:  # a 1-d array with axis=: the axis must still be valid
        code = f"(tr::np::detail::normalize_axis({axis_code(ls, 2, 'axis', 0)}, 1), {code})"
    return CExpr(code)


register(np.linalg.norm, Entry("numpy.linalg.norm", _norm_infer, _norm_lower, (H_LA,), needs_python=True))
