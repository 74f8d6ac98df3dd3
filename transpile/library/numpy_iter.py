"""NumPy's iteration objects: np.ndindex, np.ndenumerate, np.nditer and
ndarray.flat.  Each call types as a T.LibIter that only a for loop (or, for
a.flat, an integer subscript) consumes; the C++ cursors live in
numpy/iteration.hpp.  A loop over one is spelled

    for (bool ok = it.begin(); ok; ok = it.next()) { <target> = <element>; ... }

with the element given here (`IterRule.element`).  nditer elements are 0-d
array views of the current elements (writable with op_flags readwrite or
writeonly), as NumPy gives them; its order is NumPy's order='K'."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .base import CExpr
from ..hir import nodes as h
from ..hir import types as T
from .registry import register
from .base import NOT_CONST, Entry

H_ITER = "transpile_rt/numpy/iteration.hpp"


@dataclass(frozen=True)
class IterRule:
    element: Callable  # (lowerer, cursor name, LibIter) -> element code, or nested lists of codes for tuples
    getitem: Callable | None = None  # (LibIter, index types) -> element type, or an error message (str)
    get_code: Callable | None = None  # (lowerer, iterator code, index codes) -> element code
    set_code: Callable | None = None  # (lowerer, iterator code, index codes, value code, LibIter) -> statement
    settable: Callable | None = None  # (LibIter, value type) -> None, or an error message


RULES: dict[str, IterRule] = {}


def rule(kind: str) -> IterRule:
    return RULES[kind]


# ---- np.ndindex -----------------------------------------------------------------------------

def _ndindex_infer(site):
    if site.kwargs:
        raise site.error("np.ndindex() takes no keyword arguments")
    args = site.args
    if len(args) == 1 and isinstance(args[0], T.Tuple):
        items = args[0].items
    else:
        items = args
    if not all(isinstance(t, T.Scalar) and t.kind in "iu" for t in items):
        raise site.error("np.ndindex() needs ints or one tuple of ints in compiled code")
    n = len(items)
    return T.LibIter("ndindex", (), T.Tuple((T.INT,) * n)), ("tuple" if len(args) == 1 and
                                                               isinstance(args[0], T.Tuple) else "ints", n)


def _ndindex_lower(ls):
    kind, n = ls.site_info
    if kind == "tuple":
        tup = ls.lower.hoist(ls.args[0].code, ls.arg_types[0])
        dims = [f"int64_t(std::get<{k}>({tup}))" for k in range(n)]
    else:
        dims = [f"int64_t({a.code})" for a in ls.args]
    return CExpr(f"tr::np::NdIndex<{n}>(tr::np::Dims<{n}>{{{{{', '.join(dims)}}}}})")


register(np.ndindex, Entry("numpy.ndindex", _ndindex_infer, _ndindex_lower, (H_ITER,)))
RULES["ndindex"] = IterRule(lambda lw, p, it: [f"{p}.idx[{k}]" for k in range(len(it.elem.items))])


# ---- np.ndenumerate and a.flat ---------------------------------------------------------------

def _need_array(site, what) -> T.Array:
    site.check_arity(1, 1)
    a = site.args[0]
    if not isinstance(a, T.Array):
        raise site.error(f"{what}() needs an array in compiled code, not {a}")
    return a


def _ndenumerate_infer(site):
    a = _need_array(site, "np.ndenumerate")
    return T.LibIter("ndenumerate", (a,), T.Tuple((T.Tuple((T.INT,) * a.ndim), a.scalar))), None


def _walk_lower(ls):
    return CExpr(f"tr::np::flat({ls.lower.ev(ls.args[0])})")


register(np.ndenumerate, Entry("numpy.ndenumerate", _ndenumerate_infer, _walk_lower, (H_ITER,)))
RULES["ndenumerate"] = IterRule(lambda lw, p, it: [[f"{p}.idx[{k}]" for k in range(it.args[0].ndim)], f"{p}.cur()"])


def flat_type(a: T.Array) -> T.LibIter:
    """a.flat (library/attributes.py)."""
    return T.LibIter("flat", (a,), a.scalar)


def flat_code(lw, x, a: T.Array) -> CExpr:
    return lw.with_header(CExpr(f"tr::np::flat({lw.ev(x)})"), H_ITER)


def _flat_getitem(it, index_types):
    if len(index_types) == 1 and isinstance(index_types[0], T.Scalar) and index_types[0].kind in "iu":
        return it.elem
    return "a.flat[...] takes one integer index in compiled code (slices and arrays of indices make copies)"


def _flat_settable(it, value):
    """A store NumPy makes without an error whatever the value: the same dtype, or a Python
    number of a kind the array holds exactly (NEP 50 would refuse an int too big for int8)."""
    a = it.args[0]
    if a.readonly:  # NumPy's ValueError, from the statement run as Python
        return "a.flat[i] = v into a read-only array is not compiled"
    if not isinstance(value, T.Scalar):
        return f"a.flat[i] = {value} is not supported in compiled code"
    kinds = {"b": "b", "i": "bi", "u": "b", "f": "bif", "c": "bifc"}[a.scalar.kind]
    fits = value.kind != "i" or a.scalar.kind in "fc" or a.dtype == "int64"  # a Python int fits int64 slots
    if value.dtype == a.dtype or (value.weak and value.kind in kinds and fits):
        return None
    return f"storing {value} into a {a.dtype} array through a.flat is not compiled (NumPy may refuse or round it)"


RULES["reversed_range"] = IterRule(lambda lw, p, it: f"{p}.value")  # builtins_lib.py: reversed(range(...))
RULES["flat"] = IterRule(
    lambda lw, p, it: f"{p}.cur()", _flat_getitem,
    lambda lw, obj, idx: f"{obj}.at(int64_t({idx[0]}))",
    lambda lw, obj, idx, value, it: f"{obj}.at(int64_t({idx[0]})) = tr::cast<{lw.elem(it.args[0].dtype)}>({value});",
    _flat_settable)


# ---- np.nditer --------------------------------------------------------------------------------

def _literal(node):
    """A literal of strs, lists and tuples (op_flags=[['readwrite']]), or NOT_CONST."""
    if isinstance(node, h.Const) and isinstance(node.value, str):
        return node.value
    if isinstance(node, (h.ListExpr, h.TupleExpr)):
        items = [_literal(e) for e in node.elts]
        return NOT_CONST if any(i is NOT_CONST for i in items) else items
    return NOT_CONST


_READ_FLAGS = {"readonly"}
_WRITE_FLAGS = {"readwrite", "writeonly"}


def _writable_operands(site, n: int) -> list[bool]:
    node = site.arg_node(None, "op_flags")
    if node is None:
        return [False] * n
    flags = _literal(node)
    if flags is NOT_CONST or not isinstance(flags, list):
        raise site.error("np.nditer(op_flags=...) must be a literal list of flags in compiled code")
    per_op = flags if flags and all(isinstance(f, list) for f in flags) else [flags] * n
    if len(per_op) != n:
        raise site.error("op_flags must be a tuple/list matching the number of ops")
    out = []
    for op in per_op:
        if not all(isinstance(f, str) for f in op) or not set(op) <= _READ_FLAGS | _WRITE_FLAGS:
            raise site.error(f"np.nditer() op_flags {op} are not supported in compiled code "
                             "(readonly, readwrite, writeonly)")
        out.append(bool(set(op) & _WRITE_FLAGS))
    return out


def _nditer_infer(site):
    site.check_arity(1, 1, ("op_flags", "order"))
    ops = site.args[0]
    items = ops.items if isinstance(ops, T.Tuple) else (ops,)
    if not items or not all(isinstance(t, T.Array) for t in items):
        raise site.error(f"np.nditer() needs an array or a tuple of arrays in compiled code, not {ops}")
    order = site.const_arg(None, "order", "K")
    if order not in ("K", "C"):
        raise site.error("np.nditer(order=...) must be 'K' or 'C' in compiled code")
    writable = _writable_operands(site, len(items))
    for t, w in zip(items, writable):
        if w and t.readonly:
            raise site.error("operand array with iterator write operand is not writeable")
    elems = tuple(T.Array(t.dtype, 0, "C", not w) for t, w in zip(items, writable))
    elem = T.Tuple(elems) if isinstance(ops, T.Tuple) else elems[0]
    ndim = max(t.ndim for t in items)
    return T.LibIter("nditer", tuple(items), elem), (ndim, order == "K", tuple(writable))


def _nditer_lower(ls):
    lw = ls.lower
    ndim, order_k, writable = ls.site_info
    ops = ls.arg_types[0]
    if isinstance(ops, T.Tuple):
        tup = lw.hoist(ls.args[0].code, ops)
        arrays = [f"std::get<{k}>({tup})" for k in range(len(ops.items))]
    else:
        arrays = [lw.ev(ls.args[0])]
    mask = sum(1 << k for k, w in enumerate(writable) if w)
    return CExpr(f"tr::np::nditer<{ndim}>({str(order_k).lower()}, {mask}, {', '.join(arrays)})")


def _nditer_element(lw, p, it):
    codes = [f"{p}.template elem<{k}, {lw.elem(t.dtype)}>()" for k, t in enumerate(it.args)]
    return codes if isinstance(it.elem, T.Tuple) else codes[0]


register(np.nditer, Entry("numpy.nditer", _nditer_infer, _nditer_lower, (H_ITER,)))
RULES["nditer"] = IterRule(_nditer_element)
