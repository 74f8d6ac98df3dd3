"""Library entries for strs, dicts, sets and itertools: the methods of
dicts/sets/strs (typed in passes/dicts.py), len() of them, str(), set(),
dict(), itertools.product and itertools.combinations."""
from __future__ import annotations

import builtins
import itertools

from .base import CExpr
from ..hir import types as T
from .registry import register, wrap
from .base import NOT_CONST, Entry
from .container_rules import check_key, formattable

H_STR = "transpile_rt/str.hpp"
H_DICT = "transpile_rt/dict.hpp"
H_STR_CASE = "transpile_rt/str_case.hpp"  # str methods and repr() that need Python's Unicode tables


# ---- methods (passes/dicts.method_call types them; site_info = (name, receiver type)) -------

JUSTIFY = {"ljust": "<", "rjust": ">", "center": "^"}  # str methods: tr::str_justify's `how`
STRIP = {"lstrip": 1, "rstrip": 2, "strip": 3}  # tr::str_strip's ends
STR_TESTS = {"isalpha": "IS_ALPHA", "isdigit": "IS_DIGIT", "isalnum": "IS_ALNUM", "isupper": "IS_UPPER",
             "islower": "IS_LOWER", "isdecimal": "IS_DECIMAL", "isnumeric": "IS_NUMERIC"}  # str_case.hpp
H_STR_METHODS = "transpile_rt/str_methods.hpp"

def _method_lower(ls):
    name, recv = ls.site_info
    lw = ls.lower
    r = ls.args[0].code
    args = ls.args[1:]
    types = ls.arg_types[1:]
    if recv == T.STR:
        if name in ("upper", "lower"):
            lw.module.needs_host = True  # text that is not ASCII is mapped by Python (str_case.hpp)
            return CExpr(f"tr::str_{name}({r})")
        if name == "join":
            if isinstance(types[0], T.Tuple):
                return CExpr(f"std::apply([&](const auto &...tr_parts) {{ return tr::str_join_sep({r}, "
                             f"tr_parts...); }}, {args[0].code})")
            lw.use_lists()
            items = args[0].code if types[0].elem is not None else f"tr::List<tr::Str>({args[0].code})"  # `[]`
            return CExpr(f"tr::str_sep_join({r}, {items})")
        if name in JUSTIFY:
            fill = f", {args[1].code}" if len(args) == 2 else ""
            return CExpr(f"tr::str_justify({r}, int64_t({args[0].code}){fill}, '{JUSTIFY[name]}')")
        if name == "zfill":
            return CExpr(f"tr::str_zfill({r}, int64_t({args[0].code}))")
        if name in STR_TESTS:
            lw.module.needs_host = True  # text that is not ASCII is tested by Python (str_case.hpp)
            return CExpr(f"tr::str_is<tr::{STR_TESTS[name]}>({r})")
        if name in STRIP:
            chars = f", &{lw.hoist(args[0].code)}" if args else ""
            return CExpr(f"tr::str_strip({r}, {STRIP[name]}{chars})")
        if name == "split":
            lw.use_lists()
        return CExpr(f"tr::str_{name}({', '.join([r] + [a.code for a in args])})")
    if isinstance(recv, T.Set):
        if name in ("add", "discard", "remove"):
            return CExpr(f"({r}.{name}({lw.convert(args[0], types[0], recv.elt)}), tr::none_t{{}})")
        if name == "clear":
            return CExpr(f"({r}.clear(), tr::none_t{{}})")
        if name == "copy":
            return CExpr(f"{r}.copy()")
        fn = {"union": "set_or", "intersection": "set_and", "difference": "set_sub", "issubset": "set_issubset"}[name]
        rt = ls.result if isinstance(ls.result, T.Set) else T.Set(recv.elt)
        return CExpr(f"tr::{fn}({lw.convert(ls.args[0], recv, rt)}, {lw.convert(args[0], types[0], rt)})")
    # dict
    if name in ("keys", "values", "items"):
        return CExpr(r)
    key = lw.convert(args[0], types[0], recv.key) if args else None
    if name == "get" and isinstance(ls.result, T.Optional):  # None or the value
        return CExpr(f"tr::get_optional({r}, {key})")
    if name == "get":
        return CExpr(f"{r}.get({key}, {lw.convert(args[1], types[1], recv.value)})")
    if name == "pop":
        if len(args) == 2:
            return CExpr(f"{r}.pop({key}, {lw.convert(args[1], types[1], recv.value)})")
        return CExpr(f"{r}.pop({key})")
    if name == "setdefault":
        dt = lw.type_of_recv_var(recv) if hasattr(lw, "type_of_recv_var") else recv
        return CExpr(f"{r}.setdefault({key}, {lw.convert(args[1], types[1], dt.value)})")
    if name == "clear":
        return CExpr(f"({r}.clear(), tr::none_t{{}})")
    if name == "copy":
        return CExpr(f"{r}.copy()")
    if name == "update":
        return CExpr(f"({r}.update({lw.convert(args[0], types[0], recv)}), tr::none_t{{}})")
    raise NotImplementedError(name)


METHODS = {name: Entry(name, None, _method_lower, (H_DICT, H_STR))
           for name in ("get", "keys", "values", "items", "pop", "setdefault", "clear", "copy", "update", "add",
                        "discard", "remove", "union", "intersection", "difference", "issubset", "startswith",
                        "endswith", "ljust", "rjust", "center", "zfill")}
METHODS["join"] = Entry("join", None, _method_lower, (H_DICT, H_STR, "transpile_rt/list.hpp"))
METHODS.update({name: Entry(name, None, _method_lower, (H_DICT, H_STR, H_STR_METHODS))
                for name in ("find", "rfind", "index", "count", "replace", "split", "isspace", *STRIP)})
METHODS.update({name: Entry(name, None, _method_lower, (H_DICT, H_STR, H_STR_CASE), needs_python=True)
                for name in STR_TESTS})
# repr() of a str in an f-string or %r (cxx/lower_dicts.py str_repr): not a call, but recorded as one in
# tf.calls, so that what asks whether code runs Python (prange, try bodies, callers) sees it
STR_REPR = Entry("repr", None, None, (H_STR_CASE,), needs_python=True)
METHODS.update({name: Entry(name, None, _method_lower, (H_DICT, H_STR, H_STR_CASE),
                            needs_python=True) for name in ("upper", "lower")})


# ---- len() of strs, dicts, sets and views: wraps the builtins entry ---------------------------

def _wrap_len(prev):
    def infer(site):
        if len(site.args) == 1 and isinstance(site.args[0], (T.Str, T.Dict, T.Set, T.DictView)):
            return T.INT, ("dicts", site.args[0])
        return prev.infer(site)

    def lower(ls):
        if isinstance(ls.site_info, tuple) and ls.site_info and ls.site_info[0] == "dicts":
            if ls.site_info[1] == T.STR:
                return CExpr(f"tr::str_len({ls.args[0].code})")
            return CExpr(f"{ls.args[0].code}.size()")
        return prev.lower(ls)

    return Entry("len", infer, lower, tuple(prev.headers) + (H_STR, H_DICT))


def _wrap_bool(prev):
    def infer(site):
        if len(site.args) == 1 and isinstance(site.args[0], (T.Str, T.Dict, T.Set)):
            return T.BOOL, ("dicts",)
        return prev.infer(site)

    def lower(ls):
        if ls.site_info == ("dicts",):
            return CExpr(f"tr::truthy({ls.args[0].code})")
        return prev.lower(ls)

    return Entry("bool", infer, lower, tuple(prev.headers) + (H_STR, H_DICT))


# ---- str(), set(), dict() ---------------------------------------------------------------------

def _str(site):
    site.check_arity(0, 1)
    if not site.args:
        return T.STR, None
    formattable(site.node, site.args[0], None)
    return T.STR, None


def _str_lower(ls):
    if not ls.args:
        return CExpr('tr::Str("", 0)')
    return CExpr(f"tr::str_of({ls.args[0].code})")


def _format(site):
    """format(value, spec): the spec known while compiling (a literal or a constant), as an f-string's."""
    site.check_arity(1, 2)
    spec = site.const_arg(1, None, "")
    if not isinstance(spec, str):
        raise site.error("format() with a spec known only at run time is not supported in compiled code",
                         "write the spec as a literal, or use an f-string")
    formattable(site.node, site.args[0], spec)
    return T.STR, spec


def _format_lower(ls):
    return CExpr(ls.lower.formatted(ls.args[0].code, ls.arg_types[0], None, ls.site_info))


def _ord(site):
    site.check_arity(1, 1)
    if site.args[0] != T.STR:
        raise site.error(f"ord() of {site.args[0]} is not supported in compiled code", "ord() takes a str")
    return T.INT, None


def _chr(site):
    site.check_arity(1, 1)
    t = site.args[0]
    if not T.holds_int64(t):
        raise site.error(f"chr() of {t} is not supported in compiled code", "chr() takes an int")
    return T.STR, None


def _elem_of(t):
    if isinstance(t, T.Range):
        return T.INT
    if isinstance(t, T.Array) and t.ndim == 1:
        return t.scalar
    if isinstance(t, T.Tuple) and t.homogeneous is not None:
        return t.homogeneous
    if isinstance(t, T.List):
        return t.elem
    if isinstance(t, T.Set):
        return t.elt
    if isinstance(t, T.Dict):
        return t.key
    if isinstance(t, T.DictView):
        return {"keys": t.dict.key, "values": t.dict.value, "items": T.Tuple((t.dict.key, t.dict.value))}[t.kind]
    return None


def _set(site):
    site.check_arity(0, 1)
    if not site.args:
        return T.Set(T.UNKNOWN), None
    elem = _elem_of(site.args[0])
    if elem is None or elem == T.UNKNOWN:
        raise site.error(f"set() of {site.args[0]} is not supported in compiled code")
    check_key(site.node, elem)
    return T.Set(elem), (site.arg_nodes[0], site.args[0])


def _set_lower(ls):
    if ls.site_info is None:
        return _empty_map(ls)
    node, it = ls.site_info
    lw = ls.lower
    out = lw.tmp("set")
    saved = lw.lines, lw.depth, lw.pre
    lw.lines, lw.depth, lw.pre = [], 0, []
    lw.emit(f"auto {out} = {lw.ctype(ls.result)}::make();")
    header, elem = lw.iteration(node, it)
    lw.emit(header)
    elem_t = lw.program_elem_type(it)
    code = lw.pack_elems(elem, elem_t) if isinstance(elem, list) else elem
    lw.depth = 1
    lw.emit(f"{out}.add({lw.convert(CExpr(code), elem_t, ls.result.elt)});")
    lw.depth = 0
    lw.emit("}")
    body = lw.lines
    lw.lines, lw.depth, lw.pre = saved
    lw.pre.extend("    " * line.indent + line.text for line in body)
    return CExpr(out)


def _empty_map(ls):
    return CExpr(f"{ls.lower.ctype(ls.result)}::make()")


def _dict(site):
    site.check_arity(0, 0)
    return T.Dict(T.UNKNOWN, T.UNKNOWN), None


# ---- itertools ---------------------------------------------------------------------------------

def _const_int(site, index, keyword, what):
    v = site.const_arg(index, keyword)
    if v is NOT_CONST or not isinstance(v, int) or isinstance(v, bool) or v < 1 or v > 8:
        raise site.error(f"{what} must be a constant integer from 1 to 8 in compiled code")
    return v


def _iterable_ok(site, t):
    if not isinstance(t, (T.Range, T.Array, T.Tuple, T.List)) or (isinstance(t, T.Array) and t.ndim == 0):
        raise site.error(f"itertools over {t} is not supported in compiled code",
                         "iterate over ranges, arrays, tuples or lists")


def _product(site):
    if not site.args:
        raise site.error("product() needs at least one iterable in compiled code")
    for kw in site.kwargs:
        if kw != "repeat":
            raise site.error(f"product() got an unexpected keyword argument '{kw}'")
    repeat = _const_int(site, None, "repeat", "repeat=") if "repeat" in site.kwargs else 1
    for t in site.args:
        _iterable_ok(site, t)
    return T.IterTools("product", tuple(site.args), repeat), None


def _combinations(site):
    site.check_arity(1, 2, ("r",))
    r = _const_int(site, 1, "r", "r")
    _iterable_ok(site, site.args[0])
    return T.IterTools("combinations", (site.args[0],), r), None


def _iter_only(ls):
    raise TypeError("itertools values can only be iterated by a for loop")


def _register():
    register(builtins.str, Entry("str", _str, _str_lower, (H_STR,)))
    register(builtins.format, Entry("format", _format, _format_lower, (H_STR,)))
    register(builtins.ord, Entry("ord", _ord, lambda ls: CExpr(f"tr::str_ord({ls.args[0].code})"), (H_STR_METHODS,)))
    register(builtins.chr, Entry("chr", _chr, lambda ls: CExpr(f"tr::str_chr(int64_t({ls.args[0].code}))"),
                                 (H_STR_METHODS,)))
    register(builtins.dict, Entry("dict", _dict, _empty_map, (H_DICT,)))
    register(builtins.set, Entry("set", _set, _set_lower, (H_DICT,)))
    register(itertools.product, Entry("product", _product, _iter_only, ("transpile_rt/itertools.hpp",)))
    register(itertools.combinations, Entry("combinations", _combinations, _iter_only,
                                           ("transpile_rt/itertools.hpp",)))
    wrap(builtins.len, _wrap_len)
    wrap(builtins.bool, _wrap_bool)


_register()
