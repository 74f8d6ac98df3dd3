"""Lists in library calls: list methods (typed in passes/lists.py, which
widens the receiver), and the builtins and NumPy functions that take lists
(len, sum, min, max, sorted, reversed, list, tuple, np.array, np.asarray,
np.concatenate, np.stack).  Those are wrappers around the entries already
registered: a call with no list argument goes to the previous entry."""
from __future__ import annotations

import builtins

import numpy as np

from .base import CExpr
from ..hir import types as T
from ..hir import promote
from .registry import wrap as wrap_entry
from .base import Entry, Handoff, NotYetKnown, refuse_keywords
from .container_rules import SET_ORDER_HINT, set_order_problem

H_LIST = "transpile_rt/list.hpp"


class Mine:
    """site_info of a call this module handles (vs the wrapped entry's own)."""

    __slots__ = ("data",)

    def __init__(self, data):
        self.data = data


def wrap(obj, name, infer, lower, extra_headers=()):
    wrap_entry(obj, lambda old: _wrapped(old, name, infer, lower, extra_headers))


def _wrapped(old, name, infer, lower, extra_headers) -> Entry:
    def w_infer(site):
        r = infer(site)
        if r is not None and isinstance(r[1], Handoff):  # another entry lowers it, with the info as it is
            return r
        if r is not None:
            return r[0], Mine(r[1])
        if old is None:
            raise site.error(f"{name}() of {', '.join(str(t) for t in site.args)} is not supported in compiled code")
        return old.infer(site)

    def w_lower(ls):
        if isinstance(ls.site_info, Mine):
            ls.site_info = ls.site_info.data
            return lower(ls)
        return old.lower(ls)

    headers = tuple(old.headers) if old else ()
    return Entry(name, w_infer, w_lower, headers + (H_LIST,) + tuple(extra_headers))


def _ct(ls, t):
    return ls.lower.ctype(t)


def _elem_ct(lw, t: T.List) -> str:
    return lw.ctype(T.INT if t.elem is None else t.elem)


def _is_list(t):
    return isinstance(t, T.List)


def _as_list_type(site):
    """The list type of argument 0 and how the lowering gets it: a list as it
    is (None), or a dict/set/dict view iterated into a new list (its node)."""
    t = site.args[0]
    if isinstance(t, (T.Dict, T.Set, T.DictView)):
        elem, _ = _seq_elem(site, t)
        return T.List(elem), site.arg_nodes[0]
    return t, None


def _list_arg(ls) -> str:
    """C++ of argument 0 as a list (see _as_list_type)."""
    node = ls.site_info
    if node is None:
        return ls.args[0].code
    t = ls.arg_types[0]
    elem, _ = _seq_elem(None, t)
    return ls.lower.list_of_iterable(node, t, elem).code


# ---- methods ------------------------------------------------------------------------

def _method(name):
    def lower(ls):
        lw = ls.lower
        recv = ls.args[0].code
        lt = ls.arg_types[0]
        e = _elem_ct(lw, lt)
        args = ls.args[1:]
        types = ls.arg_types[1:]
        if name == "append":
            return CExpr(f"tr::list_append({recv}, {lw.convert(args[0], types[0], lt.elem)})")
        if name == "insert":
            return CExpr(f"tr::list_insert({recv}, int64_t({args[0].code}), {e}({lw.convert(args[1], types[1], lt.elem)}))")
        if name == "extend":
            return CExpr(f"tr::list_extend({recv}, {as_list(lw, args[0], types[0], lt)})")
        if name == "pop":
            if args:
                return CExpr(f"tr::list_pop({recv}, int64_t({args[0].code}))")
            return CExpr(f"tr::list_pop({recv})")
        if name in ("remove", "count"):
            return CExpr(f"tr::list_{name}({recv}, {args[0].code})")
        if name == "index":
            lo = f"int64_t({args[1].code})" if len(args) > 1 else "0"
            hi = f"int64_t({args[2].code})" if len(args) > 2 else "INT64_MAX"
            return CExpr(f"tr::list_find({recv}, {args[0].code}, {lo}, {hi}, {_numpy_type(types[0])})")
        if name == "copy":
            return CExpr(f"tr::list_copy({recv})")
        if name == "sort":
            rev = ls.kwargs.get("reverse")
            return CExpr(f"tr::{_sort_function(ls, lt)}({recv}{', bool(' + rev.code + ')' if rev is not None else ''})")
        return CExpr(f"tr::list_{name}({recv})")  # clear, reverse

    return Entry(f"list.{name}", None, lower, (H_LIST,))


METHODS = {n: _method(n) for n in ("append", "extend", "insert", "pop", "remove", "index", "count", "clear", "copy",
                                   "sort", "reverse")}
H_SORT_PYTHON = "transpile_rt/list_sort_python.hpp"


def float_elements(t) -> bool:
    """A list of floats: with a NaN among them, CPython's own sort decides the order (list_sort_python.hpp)."""
    return isinstance(t, T.List) and isinstance(t.elem, T.Scalar) and t.elem.kind == "f"


def _sort_function(ls, t) -> str:
    """The runtime's sort for a list of type t."""
    if not float_elements(t):
        return "list_sort"
    ls.lower.module.needs_host = True  # the call into Python
    return "list_sort_floats"


# sorting a list of floats may call into Python (its needs_python: the GIL, never on a prange thread)
METHODS["sort_floats"] = Entry("list.sort", None, METHODS["sort"].lower, (H_LIST, H_SORT_PYTHON),
                               needs_python=True)


def _heap_lower(name):
    def lower(ls):
        heap, lt = ls.args[0].code, ls.arg_types[0]
        item = [f"{_elem_ct(ls.lower, lt)}({ls.lower.convert(ls.args[1], ls.arg_types[1], lt.elem)})"] \
            if len(ls.args) > 1 else []
        return CExpr(f"tr::{HEAP_RUNTIME[name]}({', '.join([heap] + item)})")

    return Entry(f"heapq.{name}", None, lower, (H_LIST,))


HEAP_RUNTIME = {"heappush": "heap_push", "heappop": "heap_pop", "heapify": "heapify",
                "heappushpop": "heap_pushpop", "heapreplace": "heap_replace"}
HEAP_FUNCTIONS = {name: _heap_lower(name) for name in HEAP_RUNTIME}  # typed by passes/lists.heap_call


def as_list(lw, x: CExpr, t, like: T.List) -> str:
    """C++ list of like's element type from a list, homogeneous tuple or 1-d array value."""
    if isinstance(t, T.List):
        return lw.convert(x, t, T.List(like.elem, t.frozen)) if t.elem != like.elem else x.code
    e = lw.ctype(like.elem)
    if isinstance(t, T.Tuple):
        return f"tr::list_from_tuple<{e}>({x.code})"
    return f"tr::list_from_array<{e}>({lw.ev(x)})"


# ---- builtins -------------------------------------------------------------------------

def _len(site):
    if len(site.args) == 1 and _is_list(site.args[0]):
        return T.INT, None
    return None


wrap(builtins.len, "len", _len, lambda ls: CExpr(f"{ls.args[0].code}.size()"))


def _sum(site):
    if not site.args:
        return None
    t = site.args[0]
    if isinstance(t, T.Generator) and not isinstance(t.elt, T.Scalar):
        raise site.error(f"sum() of a generator of {t.elt} is not supported")
    t, source = _as_list_type(site)
    if not _is_list(t):
        return None
    site.check_arity(1, 2, ("start",))
    start = site.arg_type(1, "start") or T.INT
    if not isinstance(t.elem, T.Scalar):
        raise site.error(f"sum() of {t} is not supported in compiled code", "sum a list of numbers")
    try:
        return promote.binary("+", start, t.elem).result, source
    except promote.PromotionError as exc:
        raise site.error(str(exc)) from None


def _sum_lower(ls):
    start = ls.args[1].code if len(ls.args) > 1 else (ls.kwargs["start"].code if "start" in ls.kwargs else "0")
    ct = _ct(ls, ls.result)
    return CExpr(f"tr::list_sum<{ct}>({_list_arg(ls)}, {ct}({start}))")


wrap(builtins.sum, "sum", _sum, _sum_lower)


def _minmax(which):
    def infer(site):
        refuse_keywords(site, which)
        if len(site.args) == 1 and isinstance(site.args[0], T.Generator) and not isinstance(site.args[0].elt,
                                                                                            T.Scalar):
            raise site.error(f"{which}() of a generator of {site.args[0].elt} is not supported")
        if len(site.args) != 1:
            return None
        t, source = _as_list_type(site)
        if not _is_list(t):
            return None
        if not isinstance(t.elem, (T.Scalar, T.Tuple, T.Str)) or (isinstance(t.elem, T.Scalar) and t.elem.kind == "c"):
            raise site.error(f"{which}() of {t} is not supported in compiled code")
        return t.elem, source

    def lower(ls):
        return CExpr(f"tr::list_{which}({_list_arg(ls)})")

    return infer, lower


wrap(builtins.min, "min", *_minmax("min"))
wrap(builtins.max, "max", *_minmax("max"))


def _numpy_type(t) -> str:
    """How list.index's ValueError writes the value (list.hpp not_in_list):
    nullptr for a Python value, "np.int64" for a NumPy scalar's repr, "" where
    compiled code cannot write it (np.float32's shortest digits, complex)."""
    if not isinstance(t, T.Scalar) or t.weak:
        return "nullptr"
    return f'"np.{t.dtype}"' if t.kind in "iub" or t.dtype == "float64" else '""'


def _seq_elem(site, t):
    """Element type of a list-like argument of list()/tuple()/sorted(), and its kind."""
    if isinstance(t, T.List):
        return t.elem, "list"
    if isinstance(t, T.Generator):
        return t.elt, "list"  # x_GenExp makes a list
    if isinstance(t, T.Range):
        return T.INT, "range"
    if isinstance(t, T.Tuple):
        if not t.items:
            return None, "tuple"
        if t.homogeneous is None:
            raise site.error(f"a list of the mixed types {t} is not supported in compiled code")
        return t.homogeneous, "tuple"
    if isinstance(t, T.Array) and t.ndim >= 1:
        if t.ndim == 1:
            return t.scalar, "array"
        return T.Array(t.dtype, t.ndim - 1, "C" if t.layout == "C" else "A", t.readonly), "array"
    if t == T.STR:  # its code points, iterated into a new list
        return T.STR, "iterable"
    if isinstance(t, T.Set) and site is not None:
        problem = set_order_problem(t, site.name)
        if problem:
            raise site.error(problem, SET_ORDER_HINT)
    if isinstance(t, (T.Dict, T.Set, T.DictView)):  # iterated into a new list
        d = t.dict if isinstance(t, T.DictView) else t
        kind = t.kind if isinstance(t, T.DictView) else "keys"
        elem = t.elt if isinstance(t, T.Set) else \
            {"keys": d.key, "values": d.value, "items": T.Tuple((d.key, d.value))}[kind]
        if T.UNKNOWN in (elem.items if isinstance(elem, T.Tuple) else (elem,)):
            raise NotYetKnown(t)
        return elem, "iterable"
    return NotImplemented, None


def _make_list(ls, kind, fresh_ok):
    """C++ list (a new one unless fresh_ok and the value is already new) from argument 0."""
    lw = ls.lower
    rt = ls.result
    e = _elem_ct(lw, rt)
    x, t = ls.args[0], ls.arg_types[0]
    if kind == "range":
        args = ", ".join(f"int64_t({a})" for a in ls.site_info[1])
        return f"tr::list_range<{e}>({args})"
    if kind == "tuple":
        return f"tr::list_from_tuple<{e}>({x.code})" if t.items else f"tr::List<{e}>::make()"
    if kind == "array":
        return f"tr::list_from_array<{e}>({lw.ev(x)})"
    if isinstance(t, T.Generator) and fresh_ok:
        return x.code
    if kind == "iterable":
        return lw.list_of_iterable(ls.site_info[1], t, rt.elem).code
    return f"tr::list_copy({x.code})"


def _range_args(site):
    node = site.arg_nodes[0]
    return node


def _list_ctor(frozen):
    name = "tuple" if frozen else "list"

    def infer(site):
        if not site.args:
            if frozen:
                return None
            return T.List(None), ("empty", ())
        site.check_arity(1, 1)
        t = site.args[0]
        if frozen and isinstance(t, T.Tuple):
            return t, ("same", ())
        elem, kind = _seq_elem(site, t)
        if elem is NotImplemented:
            return None
        if kind == "range":
            return T.List(T.INT, frozen), ("range", tuple(site.arg_nodes[0].args))
        return T.List(elem, frozen), (kind, site.arg_nodes[0] if kind == "iterable" else ())

    def lower(ls):
        kind, _ = ls.site_info
        if kind == "empty":
            return CExpr(f"tr::List<{_elem_ct(ls.lower, ls.result)}>::make()")
        if kind == "same":
            return ls.args[0]
        if kind == "range":
            lw = ls.lower
            nodes = ls.site_info[1]
            codes = [lw.expr(n).code for n in nodes]
            start, stop, step = ("0", codes[0], "1") if len(codes) == 1 else (
                (codes[0], codes[1], "1") if len(codes) == 2 else tuple(codes))
            return CExpr(f"tr::list_range<{_elem_ct(ls.lower, ls.result)}>(int64_t({start}), int64_t({stop}), int64_t({step}))")
        return CExpr(_make_list(ls, kind, True))

    return infer, lower


wrap(builtins.list, "list", *_list_ctor(False))
wrap(builtins.tuple, "tuple", *_list_ctor(True))


def _sorted(site):
    if not site.args:
        return None
    site.check_arity(1, 1, ("reverse",))
    t = site.args[0]
    elem, kind = _seq_elem(site, t)
    if elem is NotImplemented or kind == "range":
        if kind == "range":
            return T.List(T.INT), ("range_sorted", tuple(site.arg_nodes[0].args))
        return None
    if elem is None:
        return T.List(None), (kind, ())
    if isinstance(elem, T.Array) or (isinstance(elem, T.Scalar) and elem.kind == "c"):
        raise site.error(f"sorted() of {t} is not supported in compiled code")
    rev = site.arg_type(1, "reverse")
    if rev is not None and not (isinstance(rev, T.Scalar) and rev.kind in "biu"):
        raise site.error("sorted(reverse=) needs a bool")
    info = (kind, site.arg_nodes[0] if kind == "iterable" else ())
    return T.List(elem), (Handoff(SORTED_FLOATS, info) if float_elements(T.List(elem)) else info)


def _sorted_lower(ls):
    kind, nodes = ls.site_info
    rev = ls.kwargs.get("reverse")
    rev = f", bool({rev.code})" if rev is not None else ""
    if kind == "range_sorted":
        ls.site_info = ("range", nodes)
        return _list_ctor(False)[1](ls)
    lst = _make_list(ls, kind, True)
    lw = ls.lower
    tmp = lw.tmp("sorted")
    lw.pre.append(f"auto {tmp} = {lst};")
    lw.pre.append(f"tr::{_sort_function(ls, ls.result)}({tmp}{rev});")
    return CExpr(tmp)


wrap(builtins.sorted, "sorted", _sorted, _sorted_lower)
SORTED_FLOATS = Entry("sorted", None, _sorted_lower, (H_LIST, H_SORT_PYTHON), needs_python=True)


def _reversed(site):
    if len(site.args) == 1 and _is_list(site.args[0]):
        return site.args[0], None
    return None


wrap(builtins.reversed, "reversed", _reversed, lambda ls: CExpr(f"tr::list_reversed({ls.args[0].code})"))


# ---- NumPy ----------------------------------------------------------------------------

def _nested(t):
    """(dtype, ndim) of np.array(value) for a list/tuple value, or None."""
    if isinstance(t, T.Scalar):
        return t.dtype, 0
    if isinstance(t, T.Array):
        return t.dtype, t.ndim
    if isinstance(t, T.List):
        if t.elem is None:
            return "float64", 1
        inner = _nested(t.elem)
        return None if inner is None else (inner[0], inner[1] + 1)
    if isinstance(t, T.Tuple) and t.homogeneous is not None:
        inner = _nested(t.homogeneous)
        return None if inner is None else (inner[0], inner[1] + 1)
    return None


def _np_array(site):
    if not site.args or not _is_list(site.args[0]):
        return None
    site.check_arity(1, 1, ("dtype",))
    info = _nested(site.args[0])
    if info is None:
        raise site.error(f"np.array() of {site.args[0]} is not supported in compiled code")
    dtype, ndim = info
    if "dtype" in site.kwargs:
        from .numpy_common import dtype_arg

        given = dtype_arg(site, None, "dtype")
        if given is not None:
            dtype = given
    return T.Array(dtype, ndim, "C"), None


def _np_array_lower(ls):
    rt = ls.result
    return CExpr(f"tr::list_to_array<{ls.lower.elem(rt.dtype)}, {rt.ndim}>({ls.args[0].code})")


wrap(np.array, "numpy.array", _np_array, _np_array_lower)
wrap(np.asarray, "numpy.asarray", _np_array, _np_array_lower)


def _join(which):
    def infer(site):
        if not site.args or not _is_list(site.args[0]):
            return None
        t = site.args[0]
        if not isinstance(t.elem, T.Array):
            raise site.error(f"np.{which}() needs a list of arrays in compiled code, not {t}")
        site.check_arity(1, 2, ("axis",))
        from .numpy_common import int_arg

        int_arg(site, 1, "axis", "axis")
        a = t.elem
        if which == "concatenate":
            if a.ndim == 0:
                raise site.error("zero-dimensional arrays cannot be concatenated")
            return T.Array(a.dtype, a.ndim, "C"), None
        return T.Array(a.dtype, a.ndim + 1, "C"), None

    def lower(ls):
        from .numpy_common import axis_code

        rt = ls.result
        axis = axis_code(ls, 1, "axis", 0)
        nd = rt.ndim if which == "concatenate" else rt.ndim - 1
        return CExpr(f"tr::list_{which}<{ls.lower.elem(rt.dtype)}, {nd}>({ls.args[0].code}, {axis})")

    return infer, lower


H_JOIN_LIST = "transpile_rt/numpy/join_list.hpp"
wrap(np.concatenate, "numpy.concatenate", *_join("concatenate"), extra_headers=(H_JOIN_LIST,))
wrap(np.stack, "numpy.stack", *_join("stack"), extra_headers=(H_JOIN_LIST,))


def _bool(site):
    if len(site.args) == 1 and _is_list(site.args[0]):
        return T.BOOL, None
    return None


wrap(builtins.bool, "bool", _bool, lambda ls: CExpr(f"({ls.args[0].code}.size() > 0)"))
