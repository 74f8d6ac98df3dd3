"""NumPy order statistics: np.median, np.quantile and np.percentile (the
default "linear" method), over the whole array or along one axis.  Result
dtypes are asked of NumPy with the same kinds of arguments; the C++ in
numpy/quantile.hpp repeats NumPy's arithmetic, so values match bit for
bit.  What this does not cover (complex or boolean quantiles, q given as a
sequence, out=, overwrite_input=True, keepdims=True, other methods) is a
TypingError: the call runs in CPython."""
from __future__ import annotations

import numpy as np

from .base import CExpr
from ..hir import types as T
from .registry import register
from .base import Entry
from .numpy_common import array_code, code_of, const_value, need_array

H_QUANTILE = "transpile_rt/numpy/quantile.hpp"


def _axis(site, a: T.Array, index: int):
    """None (whole array) or the normalized axis, known while compiling."""
    axis = const_value(site, index, "axis", None, "axis=")
    if axis is None:
        return None
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise site.error("axis= must be None or an int in compiled code")
    if not -a.ndim <= axis < a.ndim:
        raise site.error(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
    return axis % a.ndim


def _common(site, name, a: T.Array, axis_index: int):
    for kw, default in (("keepdims", False), ("overwrite_input", False), ("out", None)):
        if kw in site.kwargs and const_value(site, None, kw, default, f"{kw}=") != default:
            raise site.error(f"np.{name}({kw}=...) is not supported in compiled code")
    axis = _axis(site, a, axis_index)
    return axis


def _result(dtype: str, a: T.Array, axis):
    if axis is None or a.ndim == 1:
        return T.Scalar(dtype)
    return T.Array(dtype, a.ndim - 1, "C")


def _sequence_q(q) -> bool:
    if isinstance(q, T.List):
        return isinstance(q.elem, T.Scalar) and q.elem.kind in "biuf"
    return isinstance(q, T.Array) and q.ndim == 1 and q.scalar.kind in "biuf"


def _median_infer(site):
    site.check_arity(1, 2, ("a", "axis", "keepdims", "overwrite_input", "out"))
    a = need_array(site, 0, "a", "np.median", 1)
    if a.scalar.kind not in "biuf":
        raise site.error(f"np.median() of {a.dtype} values is not supported in compiled code")
    axis = _common(site, "median", a, 1)
    dtype = np.asarray(np.median(np.ones(3, dtype=a.dtype))).dtype.name
    return _result(dtype, a, axis), axis


def _median_lower(ls):
    lw = ls.lower
    rt = lw.elem(ls.result.dtype)
    x = array_code(ls, 0, "a")
    if isinstance(ls.result, T.Scalar):
        return CExpr(f"tr::np::median<{rt}>({x})")
    return CExpr(f"tr::np::median_axis<{rt}>({x}, {ls.site_info})")


def _quantile(name):
    fn = getattr(np, name)
    percent = name == "percentile"

    def infer(site):
        site.check_arity(1, 3, ("a", "q", "axis", "keepdims", "overwrite_input", "out", "method"))
        a = need_array(site, 0, "a", f"np.{name}", 1)
        if site.arg_node(1, "q") is None:
            raise site.error(f"np.{name}() missing required argument 'q'")
        if a.scalar.kind not in "iuf":  # bool: NumPy's subtract raises TypeError; complex: TypeError
            raise site.error(f"np.{name}() of {a.dtype} values is not supported in compiled code")
        method = const_value(site, None, "method", "linear", "method=")
        if method != "linear":
            raise site.error(f"np.{name}(method={method!r}) is not supported in compiled code (only 'linear')")
        q = site.arg_type(1, "q")
        if _sequence_q(q):
            return _infer_sequence(site, a, q)
        if not isinstance(q, T.Scalar) or not (q.weak and q.kind in "biuf" or q.dtype == "float64"):
            raise site.error(f"np.{name}() q must be a number, a list of numbers or a 1-d array in compiled code, "
                             f"not {q}")
        # A Python int q selects an element (quantile) or becomes q / 100 (percentile); a
        # float q interpolates, weakly typed when it is a Python float (NEP 50).
        int_q = q.weak and q.kind in "bi" and not percent
        sample_q = {True: 1, False: 0.5}[int_q] if q.weak else np.float64(0.5)
        dtype = np.asarray(fn(np.ones(3, dtype=a.dtype), sample_q * (100 if percent else 1))).dtype.name
        axis = _common(site, name, a, 2)
        return _result(dtype, a, axis), (axis, int_q)

    def _infer_sequence(site, a, q):
        """q a list of numbers or a 1-d array (whole array only): one result per q, as NumPy
        makes it from np.asanyarray(q) (not weak: float32 data gives float64)."""
        if const_value(site, 2, "axis", None, "axis=") is not None:
            raise site.error(f"np.{name}() with a sequence q and axis= is not supported in compiled code")
        _common(site, name, a, 2)
        kind = q.elem.kind if isinstance(q, T.List) else q.scalar.kind
        int_q = kind in "biu" and not percent
        sample = np.array([1 if int_q else 0.5]) * (100 if percent else 1)
        dtype = np.asarray(fn(np.ones(3, dtype=a.dtype), sample)).dtype.name
        return T.Array(dtype, 1, "C"), ("sequence", int_q)

    def lower(ls):
        lw = ls.lower
        rt = lw.elem(ls.result.dtype)
        axis, int_q = ls.site_info
        x = array_code(ls, 0, "a")
        if axis == "sequence":
            q = array_code(ls, 1, "q") if isinstance(ls.arg_types[1] if len(ls.arg_types) > 1 else ls.kw_types["q"],
                                                     T.Array) else code_of(ls, 1, "q")
            return CExpr(f"tr::np::quantiles<{rt}>({x}, {q}, {str(int_q).lower()}, {str(percent).lower()})")
        args = f"double({code_of(ls, 1, 'q')}), {str(int_q).lower()}, {str(percent).lower()}"
        if isinstance(ls.result, T.Scalar):
            return CExpr(f"tr::np::quantile<{rt}>({x}, {args})")
        return CExpr(f"tr::np::quantile_axis<{rt}>({x}, {axis}, {args})")

    return Entry(f"numpy.{name}", infer, lower, (H_QUANTILE,))


register(np.median, Entry("numpy.median", _median_infer, _median_lower, (H_QUANTILE,)))
register(np.quantile, _quantile("quantile"))
register(np.percentile, _quantile("percentile"))
