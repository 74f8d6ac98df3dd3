"""Typing of str methods and subscripts (lowered by library/dicts.py and
cxx/lower_dicts.py onto transpile_rt/str*.hpp): which calls compile, with
what arguments, and their result types; the rest run as Python."""
from __future__ import annotations

from ..hir import nodes as h
from ..hir import types as T
from .index_info import IndexInfo

# name -> (fewest, most) positional arguments
METHODS = {"startswith": (1, 1), "endswith": (1, 1), "upper": (0, 0), "lower": (0, 0), "join": (1, 1),
           "ljust": (1, 2), "rjust": (1, 2), "center": (1, 2), "zfill": (1, 1),
           "find": (1, 1), "rfind": (1, 1), "index": (1, 1), "count": (1, 1), "replace": (2, 2), "split": (0, 1),
           "strip": (0, 1), "lstrip": (0, 1), "rstrip": (0, 1), "isspace": (0, 0), "isalpha": (0, 0),
           "isdigit": (0, 0), "isalnum": (0, 0), "isupper": (0, 0), "islower": (0, 0), "isdecimal": (0, 0),
           "isnumeric": (0, 0)}
# methods taking strs whose result is not a str
_RESULTS = {"find": T.INT, "rfind": T.INT, "index": T.INT, "count": T.INT, "split": T.List(T.STR)}
_OF_STRS = {*_RESULTS, "replace", "strip", "lstrip", "rstrip"}  # their arguments are strs
_JUSTIFY = ("ljust", "rjust", "center", "zfill")


def method_result(typer, node: h.Call, name: str, args: list):
    """The result type of s.name(*args), the arity already checked."""
    listed = ", ".join(map(str, args))
    if name in ("startswith", "endswith") or name.startswith("is"):
        if args and args[0] != T.STR:
            raise typer.error(node, f"{name}() argument must be a str in compiled code")
        return T.BOOL
    if name in _OF_STRS:
        if any(a != T.STR for a in args):
            raise typer.error(node, f"{name}() of {listed} is not supported in compiled code",
                              "its arguments are strs in compiled code")
        return _RESULTS.get(name, T.STR)
    if name in _JUSTIFY and not (T.holds_int64(args[0]) and (len(args) == 1 or args[1] == T.STR)):
        raise typer.error(node, f"{name}() of {listed} is not supported in compiled code",
                          "give an int width and a str fill character")
    if name == "join" and not (isinstance(args[0], T.List) and args[0].elem in (T.STR, None) or isinstance(
            args[0], T.Tuple) and all(i == T.STR for i in args[0].items)):
        raise typer.error(node, f"join() of {args[0]} is not supported in compiled code", "join a list or tuple of str")
    return T.STR


def subscript(typer, node: h.Subscript) -> IndexInfo | None:
    """s[i] (one code point) or s[a:b:c], the bounds ints or None (transpile_rt/str_index.hpp)."""
    if len(node.index) != 1:
        raise typer.error(node, "string indices must be integers or slices")
    idx = node.index[0]
    parts = [p for p in (idx.lower, idx.upper, idx.step) if p is not None] if isinstance(idx, h.Slice) else [idx]
    types = [typer.expr(p) for p in parts]
    if any(t is None for t in types):
        return None
    if not all(T.holds_int64(t) for t in types):
        raise typer.error(node, f"str indices of type {', '.join(map(str, types))} are not supported in compiled "
                          "code", "index a str with ints (CPython's TypeError for other types is raised by Python)")
    return IndexInfo("str_slice" if isinstance(idx, h.Slice) else "str_item", T.STR)
