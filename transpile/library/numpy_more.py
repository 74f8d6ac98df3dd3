"""The wider NumPy API numeric code uses: any/all, cumulative operations,
joining and repeating, sorting and searching, counting, outer/cross/trace,
linalg.norm, np.real/np.imag.  Result dtypes follow NumPy 2 (asked of NumPy
itself); C++ spellings live in runtime_cpp/transpile_rt/numpy/.

Errors NumPy raises whatever the values (a float array given to bincount,
arrays of different ndim given to concatenate) are found while compiling
and raised when the call runs, with NumPy's exception type, so compiled
code fails where Python fails."""
from __future__ import annotations

import math

import numpy as np

from ..cxx.model import CExpr
from ..hir import types as T
from ..passes import promote
from . import register, register_method
from .base import NOT_CONST, Entry
from .numpy_lib import H_REDUCE, H_SHAPE, dtype_arg

H_SORT = "transpile_rt/numpy/sorting.hpp"
H_HIST = "transpile_rt/numpy/histogram.hpp"
H_JOIN = "transpile_rt/numpy/join.hpp"
H_CUM = "transpile_rt/numpy/cumulative.hpp"
H_LA = "transpile_rt/numpy/linalg_more.hpp"
H_ITEM = "transpile_rt/numpy/item.hpp"

_WEAK_VALUE = {"bool": False, "int64": 0, "float64": 0.0, "complex128": 0j}
_DEFAULT_DTYPE = {"bool": "bool", "int64": "int64", "float64": "float64", "complex128": "complex128"}
_ERR = {"value": "TR_ERR_VALUE", "type": "TR_ERR_TYPE", "index": "TR_ERR_INDEX"}


# ---- helpers -------------------------------------------------------------------

class Fail:
    """Typing info of a call that NumPy would reject whatever the values:
    lowered to code that raises `kind` with `message` when it runs."""

    def __init__(self, kind: str, message: str):
        self.kind, self.message = kind, message


def fail_lower(ls) -> CExpr:
    info = ls.site_info
    text = info.message.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    ls.lower.module.include(H_JOIN)
    return CExpr(f'tr::np::fail<{ls.lower.ctype(ls.result)}>({_ERR[info.kind]}, "{text}")')


def lowering(fn):
    """Wraps an entry's lower: Fail infos raise at run time."""

    def lower(ls):
        if isinstance(ls.site_info, Fail):
            return fail_lower(ls)
        return fn(ls)

    return lower


def is_array(t) -> bool:
    return isinstance(t, T.Array)


def need_array(site, index, keyword, what, min_ndim=0) -> T.Array:
    t = site.arg_type(index, keyword)
    if not isinstance(t, T.Array):
        raise site.error(f"{what}() needs an array, not {t}")
    if t.ndim < min_ndim:
        raise site.error(f"{what}() needs an array of at least {min_ndim} dimension(s), not {t}")
    return t


def has_arg(site, index, keyword) -> bool:
    return site.arg_node(index, keyword) is not None


def const_value(site, index, keyword, default, what):
    """A compile-time constant argument (None, bool, int, str)."""
    node = site.arg_node(index, keyword)
    if node is None:
        return default
    v = site.const(node)
    if v is NOT_CONST:
        raise site.error(f"{what} must be known while compiling (a literal)")
    return v


def is_none_arg(site, index, keyword) -> bool:
    node = site.arg_node(index, keyword)
    return node is None or site.arg_type(index, keyword) == T.NONE


def int_arg(site, index, keyword, what):
    t = site.arg_type(index, keyword)
    if t is not None and not (isinstance(t, T.Scalar) and t.kind in "iub"):
        raise site.error(f"{what} must be an integer, not {t}")


def code_of(ls, index, keyword, default=None) -> str | None:
    if index is not None and index < len(ls.args):
        return ls.args[index].code
    if keyword in ls.kwargs:
        return ls.kwargs[keyword].code
    return default


def array_code(ls, index, keyword) -> str:
    if index is not None and index < len(ls.args):
        return ls.lower.ev(ls.args[index])
    return ls.lower.ev(ls.kwargs[keyword])


def type_at(ls, index, keyword):
    if index is not None and index < len(ls.arg_types):
        return ls.arg_types[index]
    return ls.kw_types.get(keyword)


def axis_code(ls, index, keyword, default) -> str:
    code = code_of(ls, index, keyword)
    return f"int64_t({code})" if code is not None else str(default)


def dtype_of_value(t: T.Scalar | T.Array) -> str:
    """The dtype np.asarray gives a value of type t (Python scalars: default dtypes)."""
    if isinstance(t, T.Scalar) and t.weak:
        return _DEFAULT_DTYPE[t.dtype]
    return t.dtype


def real_float(dtype: str) -> str:
    """NumPy's float result dtype for norms: float32 stays, complex gives its real type."""
    return {"float32": "float32", "complex64": "float32"}.get(dtype, "float64")


def sequence_items(site, index, keyword, what) -> list[T.Array]:
    t = site.arg_type(index, keyword)
    if isinstance(t, T.Tuple) and t.items and all(isinstance(i, T.Array) for i in t.items):
        return list(t.items)
    raise site.error(f"{what}() needs a tuple of arrays in compiled code, not {t}")


def sequence_codes(ls, index, keyword, n) -> list[str]:
    t = type_at(ls, index, keyword)
    code = code_of(ls, index, keyword)
    tmp = ls.lower.hoist(code, t)
    return [f"std::get<{i}>({tmp})" for i in range(n)]


def cast_check(src: str, dst: str, casting: str) -> bool:
    return bool(np.can_cast(np.dtype(src), np.dtype(dst), casting=casting))


# ---- any / all -----------------------------------------------------------------

def keepdims_arg(site) -> bool:
    keep = const_value(site, None, "keepdims", False, "keepdims=")
    if keep not in (True, False, None):
        raise site.error("keepdims= must be True or False")
    return bool(keep)


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


# ---- concatenate / stack / vstack / hstack --------------------------------------

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
        src_dtype = _DEFAULT_DTYPE[src.dtype]
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


register(np.copyto, Entry("numpy.copyto", _copyto_infer, _copyto_lower, (H_JOIN,)))


# ---- sort / argsort / unique / searchsorted ----------------------------------------

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

    return Entry(f"numpy.{name}", infer, lower, (H_SORT,))


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
    other = _WEAK_VALUE[v.dtype] if isinstance(v, T.Scalar) and v.weak else np.dtype(v.dtype)
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
            vals = [_WEAK_VALUE[i.dtype] if i.weak else np.dtype(i.dtype) for i in rng.items]
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


# ---- outer / cross / trace / linalg.norm ------------------------------------------------

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
    if not keep or isinstance(info, Fail):
        return result, info
    return T.Array(rdtype, x.ndim, "C"), ("keep", info, x.ndim)


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
    info = ls.site_info
    if info[0] != "keep":
        return _norm_lower_base(ls, info)
    base = _norm_lower_base(ls, info[1])
    if info[1][0] == "axis":
        return CExpr(f"tr::np::keep_axis({base.code}, {axis_code(ls, 2, 'axis', 0)})")
    return CExpr(f"tr::np::keep_all<{info[2]}>({base.code})")


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


register(np.linalg.norm, Entry("numpy.linalg.norm", _norm_infer, _norm_lower, (H_LA,)))


# ---- np.real / np.imag / ndarray.conj / np.astype ------------------------------------------

def _part_fn(part):
    from .attributes import lookup

    def infer(site):
        site.check_arity(1, 1, ("val",))
        t = site.args[0]
        rule = lookup(t, part)
        if rule is None:
            raise site.error(f"np.{part}() needs a number or an array, not {t}")
        return rule.infer(t), rule  # np.real(2.0) is 2.0, a Python float, as in NumPy

    def lower(ls):
        t = ls.arg_types[0]
        return ls.site_info.lower(ls.lower, ls.args[0], t, ls.result)

    return Entry(f"numpy.{part}", infer, lower, (H_ITEM,))


register(np.real, _part_fn("real"))
register(np.imag, _part_fn("imag"))


def _conj_infer(site):
    from .numpy_lib import _conj_method_infer

    return _conj_method_infer(site)


def _conj_lower(ls):
    from .numpy_lib import _conj_method_lower

    return _conj_method_lower(ls)


register_method("conj", Entry("conj", _conj_infer, _conj_lower, ("transpile_rt/numpy/ufunc.hpp",)))
