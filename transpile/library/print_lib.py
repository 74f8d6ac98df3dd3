"""print() in compiled code (runtime: transpile_rt/builtins/print.hpp).

Each argument becomes its text as CPython spells it: ints, bools, float64,
None, strs and tuples of them are formatted in C++ (str.hpp: floats with
repr's shortest digits); other values (arrays, float32 and complex scalars,
NumPy scalars inside tuples, dicts, sets, instances, values of fallback code)
are boxed and asked for str() through the bridge.  The line goes to the
Python object sys.stdout / sys.stderr of the moment, so output interleaves
with Python's own prints.  What cannot be decided while compiling (a file
object other than sys.stdout/sys.stderr, a sep that is not a str) is a
TypingError: the statement falls back and CPython prints it.
"""
from __future__ import annotations

import builtins
import sys

from .base import CExpr
from ..hir import nodes as h
from ..hir import types as T
from .registry import register
from .base import Entry

H_PRINT = "transpile_rt/builtins/print.hpp"
_NATIVE_STR = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float64")
_FILES = {"stdout": 1, "stderr": 2}


def _native(t, repr_: bool) -> bool:
    """Whether C++ spells str(x) (repr(x) when repr_) exactly as CPython for values of type t."""
    if t == T.STR or t == T.NONE:
        return True
    if isinstance(t, T.Scalar):
        # NumPy scalars' repr is np.float64(1.5): only their str() is the bare number
        return t.dtype in _NATIVE_STR and (t.weak or not repr_)
    if isinstance(t, T.Tuple):
        return all(_native(i, True) for i in t.items)
    return False


def _boxable(t) -> bool:
    """Whether the value can be handed to Python to be formatted there."""
    if isinstance(t, (T.Scalar, T.Array, T.Dict, T.Set, T.Instance)) or t in (T.STR, T.NONE, T.ANY):
        return not isinstance(t, T.DeviceArray)
    if isinstance(t, T.Tuple):
        return all(_boxable(i) and not isinstance(i, (T.Instance, T.Optional)) for i in t.items)
    if isinstance(t, T.Optional):
        return isinstance(t.inner, (T.Scalar, T.Array, T.Instance)) or t.inner == T.STR
    if isinstance(t, T.List):  # the elements list.hpp converts (cxx/lower_lists.py conv)
        return _list_item(T.INT if t.elem is None else t.elem)
    return False


def _list_item(t) -> bool:
    if isinstance(t, T.List):
        return _list_item(T.INT if t.elem is None else t.elem)
    if isinstance(t, T.Tuple):
        return all(_list_item(i) for i in t.items)
    return isinstance(t, (T.Scalar, T.Array, T.Str)) and not isinstance(t, T.DeviceArray)


def _file(site) -> int:
    node = site.kw_nodes.get("file")
    if node is None or (isinstance(node, h.Const) and node.value is None):
        return 1
    if isinstance(node, h.Attribute) and node.attr in _FILES and site.const(node.value) is sys:
        return _FILES[node.attr]
    raise site.error("print(file=...) compiles for sys.stdout and sys.stderr only")


def _print(site):
    for kw in site.kwargs:
        if kw not in ("sep", "end", "file", "flush"):
            raise site.error(f"'{kw}' is an invalid keyword argument for print()")
    for kw in ("sep", "end"):
        t = site.kwargs.get(kw)
        if t is not None and t not in (T.STR, T.NONE):
            raise site.error(f"{kw} must be None or a string, not {t}")
    flush = site.kwargs.get("flush")
    if flush is not None and not (isinstance(flush, T.Scalar) and flush.kind in "biuf"):
        raise site.error(f"print(flush=...) of {flush} is not supported in compiled code")
    for t in site.args:
        if not (_native(t, False) or _boxable(t)):
            raise site.error(f"print() of {t} is not supported in compiled code")
    return T.NONE, _file(site)


def _text(lw, t, code: str, repr_: bool) -> str:
    """C++ expression: the tr::Str CPython's str(x) (repr(x)) gives."""
    if t == T.STR:
        return lw.str_repr(code) if repr_ else code
    if t == T.NONE:
        return "tr::print::none_text()"
    if _native(t, repr_) and isinstance(t, T.Scalar):
        return f"tr::str_of({code})"
    if _native(t, repr_):  # a tuple: its items' reprs
        value = lw.hoist(code)
        items = [_text(lw, it, f"std::get<{i}>({value})", True) for i, it in enumerate(t.items)]
        return f"tr::print::tuple_text({', '.join(items)})"
    if isinstance(t, (T.Optional, T.Instance)):
        inner = t.inner if isinstance(t, T.Optional) else t
        weak = isinstance(inner, T.Scalar) and inner.weak
        obj = f"tr::topy::one({code}{', true' if weak else ''})"
    else:
        obj = lw.py_object(t, lw.hoist(code) if isinstance(t, T.Tuple) else code)  # items read one by one
    return f"tr::print::text_of({obj}{', true' if repr_ else ''})"


def _print_lower(ls):
    lw = ls.lower
    lw.module.needs_host = True  # the module receives the bridge's host table (tr_module_init)
    pieces = [lw.hoist(_text(lw, t, a.code, False)) for a, t in zip(ls.args, ls.arg_types)]

    def text_kw(name, default):
        if name not in ls.kwargs or ls.kw_types[name] == T.NONE:
            return default
        return ls.kwargs[name].code

    sep, end = text_kw("sep", 'tr::Str(" ", 1)'), text_kw("end", 'tr::Str("\\n", 1)')
    flush = f"bool({ls.kwargs['flush'].code})" if "flush" in ls.kwargs else "false"
    array = "nullptr"
    if pieces:
        array = lw.tmp("pr")
        lw.pre.append(f"const tr::Str {array}[] = {{{', '.join(pieces)}}};")
    return CExpr(f"tr::print::write({ls.site_info}, {flush}, {sep}, {end}, {array}, {len(pieces)})")


register(builtins.print, Entry("print", _print, _print_lower, (H_PRINT,), takes_none=True, needs_python=True))
