"""What compiled dicts, sets and str() accept, shared by the typer
(passes/dicts.py) and the library entries of str(), set() and dict():
hashable keys and items, storable values, and format specs."""
from __future__ import annotations

import re

from ..diagnostics import TypingError
from ..hir import types as T


def check_key(node, t):
    if isinstance(t, T.Scalar) or t == T.STR or t == T.UNKNOWN:
        return
    if isinstance(t, T.Tuple):
        for i in t.items:
            check_key(node, i)
        return
    raise TypingError(f"unhashable type: '{t}' (compiled dict keys and set items are numbers, strs or tuples "
                      "of them)", node.loc)


def check_value(node, t):
    if isinstance(t, (T.Scalar, T.Array, T.Str, T.Dict, T.Set, T.Unknown)) or t == T.NONE:
        return
    if isinstance(t, T.Tuple):
        for i in t.items:
            check_value(node, i)
        return
    raise TypingError(f"cannot put {t} in a dict in compiled code", node.loc)


# A set is iterated in the order of CPython's hash table, which follows the
# hashes of its items (str's are salted per process) and the history of its
# adds and removals; compiled sets keep insertion order.  So what a set's
# order can change is not compiled: only these consumers are, for items whose
# order is total (no float, whose NaNs compare false) -- a sorted list, the
# least and greatest item, and an int sum (int64 wraps the same either way).
ORDER_FREE = {"sorted": "total", "min": "total", "max": "total", "sum": "int"}


def set_order_problem(t, use: str | None) -> str | None:
    """Why `use` (a builtin's name, None for a loop or comprehension) of set t
    would see the set's order, or None where the result cannot depend on it."""
    def total(i):
        if isinstance(i, T.Tuple):
            return all(total(x) for x in i.items)
        return i == T.STR or isinstance(i, T.Scalar) and i.kind in "biu"

    need = ORDER_FREE.get(use)
    if need == "total" and total(t.elt) or need == "int" and isinstance(t.elt, T.Scalar) and t.elt.kind in "biu":
        return None
    what = "key= over" if use == "key=" else f"{use}() of" if use else "iterating"
    return (f"{what} a set sees the order of CPython's hash table, which compiled sets (kept in insertion order) "
            "do not reproduce")


SET_ORDER_HINT = "iterate sorted(s), or keep the items in a list or dict (both keep insertion order, as CPython)"


# The format specs compiled code writes with printf, which gives CPython's text for them: an alignment
# (< or >, the fill a space), a sign (+, -, space), 0, width, precision, and f F e E g G d or none.
SPEC = re.compile(r"^(?P<align>[<>])?(?P<sign>[-+ ])?(?P<zero>0)?(?P<width>[1-9]\d*)?(?:\.(?P<prec>\d+))?"
                  r"(?P<type>[fFeEgGd]?)$")


# A str's format spec: [[fill]align][0][width][.precision][s] (CPython's ValueError for the rest -- a
# sign, '#', '=', grouping -- is raised by Python).
STR_SPEC = re.compile(r"^(?:(?P<fill>.)?(?P<align>[<>^]))?(?P<zero>0)?(?P<width>\d+)?(?:\.(?P<prec>\d+))?s?$",
                      re.DOTALL)


def str_spec(spec: str) -> tuple[int, int, str, str] | None:
    """(width, precision or -1, alignment, fill) of a str's format spec; None
    for a spec compiled code does not write.  A 0 flag without a fill of its
    own fills with zeros ('05': 'ab000')."""
    m = STR_SPEC.match(spec)
    if m is None:
        return None
    fill = m.group("fill") or ("0" if m.group("zero") else " ")
    prec = m.group("prec")
    return int(m.group("width") or 0), -1 if prec is None else int(prec), m.group("align") or "<", fill


def formattable(node, t, spec: str | None):
    """Checks str()/format() of t with `spec` compiles to CPython's text."""
    if t == T.STR:
        if spec and str_spec(spec) is None:
            raise TypingError(f"the format spec '{spec}' of a str is not supported in compiled code", node.loc,
                              "supported: [[fill]<|>|^][0][width][.precision][s]")
        return
    if not isinstance(t, T.Scalar) or t.kind == "c" or t.dtype in ("float32",):
        raise TypingError(f"str() of {t} is not supported in compiled code", node.loc,
                          "compiled code formats ints, bools, float64 and strs")
    if not spec:
        return
    m = SPEC.match(spec)
    if not m:
        raise TypingError(f"the format spec '{spec}' is not supported in compiled code", node.loc,
                          "supported: [<|>][+|-| ][0][width][.precision](f|F|e|E|g|G|d)")
    if m.group("align") and m.group("zero"):  # CPython pads with '0' after an explicit alignment: '000-5'
        raise TypingError(f"the format spec '{spec}' is not supported in compiled code", node.loc,
                          "write the width with 0 and no alignment, e.g. '05d'")
    kind = m.group("type")
    if t.kind == "b" and kind != "":
        raise TypingError("format specs on bools are not supported in compiled code", node.loc)
    if kind == "d" and t.kind == "f":
        raise TypingError("Unknown format code 'd' for object of type 'float'", node.loc)
    if kind == "" and t.kind == "f" and (m.group("align") or m.group("sign")):
        raise TypingError(f"the format spec '{spec}' is not supported in compiled code", node.loc,
                          "name the presentation type, e.g. '+.3f' or '<10g'")
    if kind == "" and m.group("prec") is not None:
        raise TypingError(f"the format spec '{spec}' is not supported in compiled code", node.loc,
                          "name the presentation type, e.g. '.3f'")
