"""NumPy sorting, searching and counting: sort, argsort, unique,
searchsorted, bincount, histogram.  C++ in numpy/sorting.hpp and
numpy/histogram.hpp."""
from __future__ import annotations

import numpy as np

from .base import CExpr
from ..hir import types as T
from .registry import register, register_method
from .base import Entry
from .numpy_common import (H_HIST, H_SHAPE, H_SORT, WEAK_VALUE, Fail, array_code, axis_code, cast_check, code_of,
                           const_value, dtype_of_value, has_arg, int_arg, lowering, need_array, type_at)


_SORT_KINDS = (None, "quicksort", "mergesort", "heapsort", "stable")


def _sort_kind(site, index):
    kind = const_value(site, index, "kind", None, "kind=")
    if kind not in _SORT_KINDS:
        raise site.error(f"sort kind must be one of 'quick', 'heap', or 'stable' (got '{kind}')")
    stable = const_value(site, None, "stable", None, "stable=")
    if stable not in (None, True, False):
        raise site.error("stable= must be True, False or None")
    if "order" in site.kwargs and site.kwargs["order"] != T.NONE:
        raise site.error("order= (structured arrays) is not supported in compiled code")


def _sorter(name, inplace=False):
    def infer(site):
        site.check_arity(1, 3, ("a", "axis", "kind", "order", "stable"))
        a = need_array(site, 0, "a", f"np.{name}")
        _sort_kind(site, 2)
        rdtype = "int64" if name == "argsort" else a.dtype
        if inplace:
            if a.ndim == 0:
                raise site.error("sort() of a 0-d array")
            int_arg(site, 1, "axis", "axis")
            if a.readonly:
                return T.NONE, Fail("value", "assignment destination is read-only")
            return T.NONE, "inplace"
        if has_arg(site, 1, "axis") and site.arg_type(1, "axis") == T.NONE:
            return T.Array(rdtype, 1, "C"), "flat"
        int_arg(site, 1, "axis", "axis")
        if a.ndim == 0:
            return T.Array(rdtype, 0, "C"), Fail("value", "Cannot sort a 0-d array")
        return T.Array(rdtype, a.ndim, "C"), "axis"

    @lowering
    def lower(ls):
        lw = ls.lower
        x = array_code(ls, 0, "a")
        fn = "sort_inplace" if inplace else name
        if ls.site_info == "flat":
            lw.module.include(H_SHAPE)
            return CExpr(f"tr::np::{fn}(tr::np::ravel({x}), 0)")
        return CExpr(f"tr::np::{fn}({x}, {axis_code(ls, 1, 'axis', -1)})")

    return Entry(f"numpy.{name}", infer, lower, (H_SORT,), writes_arguments=inplace)


register(np.sort, _sorter("sort"))
register(np.argsort, _sorter("argsort"))
register_method("argsort", _sorter("argsort"))
register_method("sort", _sorter("sort", inplace=True))


def _unique_infer(site):
    site.check_arity(1, 4, ("ar", "return_index", "return_inverse", "return_counts", "axis", "equal_nan", "sorted"))
    a = need_array(site, 0, "ar", "np.unique")
    flags = tuple(bool(const_value(site, i, kw, False, f"{kw}=")) for i, kw in
                  ((1, "return_index"), (2, "return_inverse"), (3, "return_counts")))
    if const_value(site, None, "axis", None, "axis=") is not None:
        raise site.error("np.unique(axis=...) is not supported in compiled code")
    if const_value(site, None, "equal_nan", True, "equal_nan=") is not True:
        raise site.error("np.unique(equal_nan=False) is not supported in compiled code")
    if const_value(site, None, "sorted", True, "sorted=") is not True:
        raise site.error("np.unique(sorted=False) is not supported in compiled code")
    values = T.Array(a.dtype, 1, "C")
    parts = [values]
    if flags[0]:
        parts.append(T.Array("int64", 1, "C"))
    if flags[1]:
        parts.append(T.Array("int64", max(a.ndim, 1), "C"))
    if flags[2]:
        parts.append(T.Array("int64", 1, "C"))
    if len(parts) == 1:
        return values, flags
    return T.Tuple(tuple(parts)), flags


def _unique_lower(ls):
    lw = ls.lower
    x = array_code(ls, 0, "ar")
    if ls.arg_types[0].ndim == 0:
        lw.module.include(H_SHAPE)
        x = f"tr::np::reshape<1>({x}, {{1}})"
    want_index, want_inverse, want_counts = ls.site_info
    r = lw.hoist(f"tr::np::unique({x}, {'true' if want_index else 'false'}, {'true' if want_inverse else 'false'})")
    parts = [f"{r}.values"]
    if want_index:
        parts.append(f"{r}.index")
    if want_inverse:
        parts.append(f"{r}.inverse")
    if want_counts:
        parts.append(f"{r}.counts")
    if len(parts) == 1:
        return CExpr(parts[0])
    return CExpr(f"{lw.ctype(ls.result)}({', '.join(parts)})")


register(np.unique, Entry("numpy.unique", _unique_infer, _unique_lower, (H_SORT,)))


def _compare_dtype(a: str, v: T.Type) -> str:
    other = WEAK_VALUE[v.dtype] if isinstance(v, T.Scalar) and v.weak else np.dtype(v.dtype)
    try:
        return np.result_type(np.dtype(a), other).name
    except (TypeError, OverflowError):
        return np.result_type(np.dtype(a), np.dtype(dtype_of_value(v))).name


def _searchsorted_infer(site):
    site.check_arity(2, 4, ("a", "v", "side", "sorter"))
    a = need_array(site, 0, "a", "searchsorted")
    if a.ndim != 1:
        raise site.error("searchsorted() needs a 1-d array")
    v = site.arg_type(1, "v")
    if not isinstance(v, (T.Scalar, T.Array)):
        raise site.error(f"searchsorted() v must be a scalar or an array, not {v}")
    side = const_value(site, 2, "side", "left", "side=")
    if side not in ("left", "right"):
        raise site.error(f"side must be 'left' or 'right' (got '{side}')")
    sorter = site.arg_type(3, "sorter")
    if sorter is not None and sorter != T.NONE and not (isinstance(sorter, T.Array) and sorter.ndim == 1
                                                        and sorter.scalar.kind in "iu"):
        raise site.error(f"searchsorted() sorter must be a 1-d array of ints, not {sorter}")
    ct = _compare_dtype(a.dtype, v)
    if isinstance(v, T.Scalar):
        return T.Scalar("int64"), (ct, side == "right")
    return T.Array("int64", v.ndim, "C"), (ct, side == "right")


def _searchsorted_lower(ls):
    lw = ls.lower
    ct, right = ls.site_info
    a = array_code(ls, 0, "a")
    v = type_at(ls, 1, "v")
    vcode = array_code(ls, 1, "v") if isinstance(v, T.Array) else code_of(ls, 1, "v")
    extra = ""
    st = type_at(ls, 3, "sorter")
    if st is not None and st != T.NONE:
        extra = ", " + array_code(ls, 3, "sorter")
    fn = "searchsorted" if isinstance(v, T.Array) else "searchsorted_scalar"
    return CExpr(f"tr::np::{fn}<{lw.elem(ct)}>({a}, {vcode}, {'true' if right else 'false'}{extra})")


register(np.searchsorted, Entry("numpy.searchsorted", _searchsorted_infer, _searchsorted_lower, (H_SORT,)))
register_method("searchsorted", Entry("searchsorted", _searchsorted_infer, _searchsorted_lower, (H_SORT,)))


# ---- bincount / histogram ------------------------------------------------------------

def _bincount_infer(site):
    site.check_arity(1, 3, ("x", "weights", "minlength"))
    x = need_array(site, 0, "x", "np.bincount")
    w = site.arg_type(1, "weights")
    weighted = w is not None and w != T.NONE
    int_arg(site, 2, "minlength", "minlength")
    out = T.Array("float64" if weighted else "int64", 1, "C")
    if weighted and not (isinstance(w, T.Array) and w.scalar.kind in "biuf"):
        raise site.error(f"np.bincount() weights must be a real array, not {w}")
    if x.ndim != 1:
        return out, Fail("value", "object too deep for desired array" if x.ndim > 1 else
                         "object of too small depth for desired array")
    if not cast_check(x.dtype, "int64", "safe"):
        return out, Fail("type", f"Cannot cast array data from dtype('{x.dtype}') to dtype('int64') according to "
                                 "the rule 'safe'")
    if weighted and w.ndim != 1:
        return out, Fail("value", "object too deep for desired array")
    return out, weighted


@lowering
def _bincount_lower(ls):
    x = array_code(ls, 0, "x")
    ml = code_of(ls, 2, "minlength", "0")
    if ls.site_info:
        return CExpr(f"tr::np::bincount({x}, {array_code(ls, 1, 'weights')}, int64_t({ml}))")
    return CExpr(f"tr::np::bincount({x}, int64_t({ml}))")


register(np.bincount, Entry("numpy.bincount", _bincount_infer, _bincount_lower, (H_HIST,)))


def _histogram_infer(site):
    site.check_arity(1, 3, ("a", "bins", "range", "density", "weights"))
    a = need_array(site, 0, "a", "np.histogram")
    if a.dtype.startswith("complex"):
        raise site.error("np.histogram() of complex values is not supported")
    x_dtype = "uint8" if a.dtype == "bool" else a.dtype
    bins = site.arg_type(1, "bins")
    density = const_value(site, None, "density", None, "density=")
    if density not in (None, True, False):
        raise site.error("density= must be True, False or None")
    w = site.kwargs.get("weights")
    weighted = w is not None and w != T.NONE
    if weighted and not (isinstance(w, T.Array) and w.scalar.kind in "biuf"):
        raise site.error(f"np.histogram() weights must be a real array, not {w}")
    hist_dtype = "float64" if density else (w.dtype if weighted else "int64")
    rng = site.arg_type(2, "range")
    if bins is None or (isinstance(bins, T.Scalar) and bins.kind in "iu"):
        if rng is None or rng == T.NONE:
            has_range = False
            edge = x_dtype if x_dtype in ("float32", "float64") else "float64"
            bin_dtype = edge
        else:
            if not (isinstance(rng, T.Tuple) and len(rng.items) == 2 and
                    all(isinstance(i, T.Scalar) and i.kind in "biuf" for i in rng.items)):
                raise site.error(f"np.histogram() range must be a tuple of two numbers, not {rng}")
            has_range = True
            vals = [WEAK_VALUE[i.dtype] if i.weak else np.dtype(i.dtype) for i in rng.items]
            edge = np.result_type(*vals).name
            if np.dtype(edge).kind not in "f":
                edge = "float64"
            bin_dtype = np.result_type(*vals, np.dtype(x_dtype)).name
            if np.dtype(bin_dtype).kind in "iub":
                bin_dtype = np.result_type(np.dtype(bin_dtype), 0.0).name
        result = T.Tuple((T.Array(hist_dtype, 1, "C"), T.Array(bin_dtype, 1, "C")))
        return result, ("uniform", bin_dtype, edge, has_range, weighted, bool(density))
    if isinstance(bins, T.Array) and bins.ndim == 1 and bins.scalar.kind in "biuf":
        if rng is not None and rng != T.NONE:
            raise site.error("np.histogram() range= with an array of bins is not supported")
        result = T.Tuple((T.Array(hist_dtype, 1, "C"), T.Array(bins.dtype, 1, "C")))
        return result, ("edges", bins.dtype, None, False, weighted, bool(density))
    raise site.error(f"np.histogram() bins must be an int or a 1-d array of edges, not {bins}")


def _histogram_lower(ls):
    lw = ls.lower
    kind, bin_dtype, edge, has_range, weighted, density = ls.site_info
    x = array_code(ls, 0, "a")
    if ls.arg_types[0].dtype == "bool":
        x = f"tr::copy_as<uint8_t>({x})"
    w = ", " + ls.lower.ev(ls.kwargs["weights"]) if weighted else ""
    raw_h = "int64_t" if not weighted else lw.elem(ls.kw_types["weights"].dtype)
    if kind == "uniform":
        nbins = code_of(ls, 1, "bins", "10")
        if has_range:
            rt = type_at(ls, 2, "range")
            r = lw.hoist(code_of(ls, 2, "range"), rt)
            lo, hi = f"double(std::get<0>({r}))", f"double(std::get<1>({r}))"
        else:
            lo = hi = "0.0"
        call = (f"tr::np::histogram_uniform<{lw.elem(bin_dtype)}, {lw.elem(edge)}, {raw_h}>({x}, int64_t({nbins}), "
                f"{'true' if has_range else 'false'}, {lo}, {hi}{w})")
    else:
        call = f"tr::np::histogram_edges<{raw_h}>({x}, {array_code(ls, 1, 'bins')}{w})"
    r = lw.hoist(call)
    hist = f"tr::np::histogram_density({r})" if density else f"{r}.hist"
    return CExpr(f"{lw.ctype(ls.result)}({hist}, {r}.edges)")


register(np.histogram, Entry("numpy.histogram", _histogram_infer, _histogram_lower, (H_HIST,)))
