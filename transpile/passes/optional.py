"""None-or-a-value (T.Optional): typing rules.

A variable assigned None on one path and a value on another, or a function
returning None on some paths (a bare `return`, `return None`, or falling off
its end) and a value on others, gets T.Optional(inner).  Where a value is
needed (arithmetic, ordering comparisons, indexing, attributes, method
receivers, iteration, library calls) the Optional is *unwrapped with a
check*: the expression's node goes into `tf.coerce` with an `Unwrap` holding
the TypeError message CPython raises when the value is None — computed while
compiling by running the operation on None and a sample value, so the
wording is CPython's (or NumPy's) own.  `is None`, `is not None`,
`== None`, `!= None`, `== v`, truth tests and `not` read the flag; calls to
other compiled functions pass the Optional through (the callee specializes
on it).  No flow-sensitive narrowing: after `if x is None: x = 0` the value
is still Optional, and each use costs one predictable branch.
"""
from __future__ import annotations

import operator
import warnings
from dataclasses import dataclass

import numpy as np

from ..hir import types as T
from .assigned import assigned_names

BINARY = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "//": operator.floordiv,
          "%": operator.mod, "**": operator.pow, "<<": operator.lshift, ">>": operator.rshift, "&": operator.and_,
          "|": operator.or_, "^": operator.xor, "@": operator.matmul, "<": operator.lt, "<=": operator.le,
          ">": operator.gt, ">=": operator.ge}
INPLACE = {"+": operator.iadd, "-": operator.isub, "*": operator.imul, "/": operator.itruediv,
           "//": operator.ifloordiv, "%": operator.imod, "**": operator.ipow, "<<": operator.ilshift,
           ">>": operator.irshift, "&": operator.iand, "|": operator.ior, "^": operator.ixor,
           "@": operator.imatmul}
UNARY = {"-": operator.neg, "+": operator.pos, "~": operator.invert}


@dataclass(frozen=True)
class Unwrap:
    """tf.coerce entry: the value of an Optional, TypeError(message) when None."""

    message: str


def allowed(t) -> bool:
    """Types that may be None-or-a-value."""
    return isinstance(t, (T.Scalar, T.Array, T.Tuple, T.Str, T.List, T.Instance))


def join(typer, node, a, b, what):
    """join(a, b) where one side is None or Optional; None when not ours."""
    if a == T.NONE and (allowed(b) or isinstance(b, T.Optional)):
        return b if isinstance(b, T.Optional) else T.Optional(b)
    if b == T.NONE and (allowed(a) or isinstance(a, T.Optional)):
        return a if isinstance(a, T.Optional) else T.Optional(a)
    if isinstance(a, T.Optional) or isinstance(b, T.Optional):
        x = a.inner if isinstance(a, T.Optional) else a
        y = b.inner if isinstance(b, T.Optional) else b
        if not (allowed(x) and allowed(y)):
            return None
        return T.Optional(typer.join(node, x, y, what))
    return None


def sample(t):
    """A small Python value of type t (for asking CPython its error message)."""
    if t == T.NONE:
        return None
    if isinstance(t, T.Scalar):
        one = {"bool": True, "int64": 1, "float64": 1.0, "complex128": 1j}
        return one[t.dtype] if t.weak else np.dtype(t.dtype).type(1)
    if isinstance(t, T.Array):
        return np.ones((1,) * t.ndim, dtype=t.dtype)
    if t == T.STR:
        return "a"
    if isinstance(t, T.Tuple):
        return tuple(sample(i) for i in t.items)
    if isinstance(t, T.List):
        return [] if t.elem is None else [sample(t.elem)]
    if isinstance(t, T.Optional):
        return sample(t.inner)
    raise LookupError(t)


def _message(fn, fallback: str) -> str:
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            fn()
    except TypeError as exc:
        return str(exc)
    except Exception:  # noqa: BLE001 - any other outcome: our own wording
        return fallback
    return fallback


def binary_message(op: str, left, right, left_is_none: bool, inplace: bool = False) -> str:
    """CPython's TypeError for `None op right` (left_is_none) or `left op None`."""
    fn = (INPLACE if inplace else BINARY).get(op)
    other = right if left_is_none else left
    spelled = f"{op}=" if inplace else op
    generic = f"unsupported operand type(s) for {spelled}: 'NoneType' and '{other}'" if left_is_none else \
        f"unsupported operand type(s) for {spelled}: '{other}' and 'NoneType'"
    if fn is None:
        return generic
    try:
        x = sample(other)
    except LookupError:
        return generic
    return _message((lambda: fn(None, x)) if left_is_none else (lambda: fn(x, None)), generic)


def pending(typer, node, t) -> bool:
    """A local variable typed None so far, used where a value is needed: a
    later assignment may make it Optional, so its type is not known yet (the
    fixed point reports it if it stays None)."""
    from ..hir import nodes as h

    if t == T.NONE and isinstance(node, h.Name) and node.id in _assigned(typer):
        typer.unknown.append(node)
        return True
    return False


def _assigned(typer) -> set:
    """Names the body assigns (a parameter only passed None is not waiting for a value)."""
    names = getattr(typer, "_optional_assigned", None)
    if names is None:
        names = typer._optional_assigned = assigned_names(typer.fn.body, set(), typer.fn)
    return names


def unwrap(typer, node, t, message):
    """The value type of t where a value is needed; records the checked
    unwrap of node (message: str or a function giving one).  None: not known yet."""
    if pending(typer, node, t):
        return None
    coerce = typer.tf.coerce
    if isinstance(t, T.Optional):
        coerce[node] = Unwrap(message() if callable(message) else message)
        typer.tf.types[node] = t.inner  # what every reader of node sees (the lowering unwraps it)
        return t.inner
    return t  # (types only widen: an Optional never becomes a plain value in a later pass)


def binop(typer, node, op, a, b, left, right, inplace=False):
    """Operands of `left op right`: unwrapped, with CPython's messages."""
    if pending(typer, left, a) or pending(typer, right, b):
        return None, None
    if isinstance(a, T.Optional) or isinstance(b, T.Optional):
        ai = a.inner if isinstance(a, T.Optional) else a
        bi = b.inner if isinstance(b, T.Optional) else b
        a = unwrap(typer, left, a, lambda: binary_message(op, ai, bi, True, inplace))
        b = unwrap(typer, right, b, lambda: binary_message(op, ai, bi, False, inplace))
    return a, b


def unary(typer, node, op, a):
    fn = UNARY.get(op)
    return unwrap(typer, node.operand, a, lambda: _message(lambda: fn(None), f"bad operand type for unary {op}: "
                                                                            "'NoneType'"))


def subscript_base(typer, node, base, store=False):
    msg = "'NoneType' object does not support item assignment" if store else "'NoneType' object is not subscriptable"
    return unwrap(typer, node, base, msg)


def indices(typer, node, base) -> bool:
    """Unwraps indices that may be None; False while one is not known yet."""
    from ..hir import nodes as h

    kind = "list" if isinstance(base, T.List) else "tuple" if isinstance(base, T.Tuple) else None
    # NumPy reads a[None] as a new axis; compiled code cannot change the
    # result's type on a value, so it raises TypeError there instead.
    msg = f"{kind} indices must be integers or slices, not NoneType" if kind else \
        "an array index that may be None is None (NumPy would add an axis: not done in compiled code)"
    for idx in node.index:
        if isinstance(idx, h.Slice):
            continue  # a[None:n] is a[:n]: a slice bound may be None
        t = typer.tf.types.get(idx)
        if isinstance(t, T.Optional) and unwrap(typer, idx, t, msg) is None:
            return False
    return True


def attribute_base(typer, node, base, attr):
    return unwrap(typer, node, base, f"'NoneType' object has no attribute '{attr}'")


def iterable(typer, node, it):
    return unwrap(typer, node, it, "'NoneType' object is not iterable")


def call_args(typer, node, target, name, args, kwargs, arg_nodes, kw_nodes):
    """Arguments of a library call: Optional ones unwrapped, with the message
    CPython gives for the call with None there (the call is made while
    compiling on small sample values, for the functions of math, NumPy and
    the number builtins only)."""
    if not any(isinstance(t, T.Optional) for t in list(args) + list(kwargs.values())):
        return args, kwargs
    from ..library import lookup_callable

    entry = lookup_callable(target)
    if entry is not None and entry.takes_none:  # print(x) prints None itself
        return args, kwargs
    out_args = list(args)
    out_kwargs = dict(kwargs)
    slots = [(i, n, t) for i, (n, t) in enumerate(zip(arg_nodes, args))] + \
        [(k, kw_nodes[k], t) for k, t in kwargs.items() if k in kw_nodes]
    for key, n, t in slots:
        if not isinstance(t, T.Optional):
            continue
        message = lambda key=key: _call_message(target, name, args, kwargs, key)  # noqa: E731
        inner = unwrap(typer, n, t, message)
        if isinstance(key, int):
            out_args[key] = inner
        else:
            out_kwargs[key] = inner
    return out_args, out_kwargs


_SAFE_BUILTINS = {abs, float, int, complex, round, len, min, max, sum, divmod, pow}


def _call_message(target, name, args, kwargs, key) -> str:
    import builtins
    import math

    generic = f"{name}() argument must not be None, not 'NoneType'"
    module = getattr(target, "__module__", "") or ""
    if not (target in _SAFE_BUILTINS or module == "math" or getattr(target, "__self__", None) is math
            or module.startswith("numpy") or isinstance(target, np.ufunc)):
        return generic
    try:
        pos = [None if i == key else sample(t) for i, t in enumerate(args)]
        kw = {k: None if k == key else sample(t) for k, t in kwargs.items()}
    except LookupError:
        return generic
    _ = builtins
    return _message(lambda: target(*pos, **kw), generic)


def falls_through(stmts) -> bool:
    """Whether running stmts may reach their end (structurally)."""
    from ..hir import nodes as h

    for s in stmts:
        if isinstance(s, (h.Return, h.Raise)):
            return False
        if isinstance(s, h.If) and s.orelse and not falls_through(s.body) and not falls_through(s.orelse):
            return False
        if isinstance(s, h.While) and isinstance(s.test, h.Const) and s.test.value is True \
                and not _breaks(s.body):
            return False
    return True


def _breaks(stmts) -> bool:
    from ..hir import nodes as h

    for s in stmts:
        if isinstance(s, h.Break):
            return True
        if isinstance(s, h.Unsupported):
            return True  # may hold a break
        if isinstance(s, h.If) and (_breaks(s.body) or _breaks(s.orelse)):
            return True
        if isinstance(s, (h.For, h.While)) and _breaks(s.orelse):  # an inner loop's `else` leaves this loop
            return True
    return False


@dataclass(frozen=True)
class OptCompare:
    """tf.ops entry of `x == v` / `x != v` / `x == None` where x may be None:
    kind "none" (a None test) or "eq" (ops: the comparison of the values);
    side: which operand is the Optional (0 left, 1 right)."""

    kind: str
    side: int
    ops: object = None


def compare(typer, node, op, a, b, left, right):
    if op not in ("==", "!=", "is", "is not"):
        return None
    if not (isinstance(a, T.Optional) or isinstance(b, T.Optional)):
        return None
    side = 0 if isinstance(a, T.Optional) else 1
    other = b if side == 0 else a
    if other == T.NONE:
        return OptCompare("none", side)
    if op in ("is", "is not"):
        return None  # the usual error: 'is' compares with None only
    opt = a if side == 0 else b
    if isinstance(opt.inner, T.Scalar) and isinstance(other, T.Scalar):
        x, y = (opt.inner, other) if side == 0 else (other, opt.inner)
        return OptCompare("eq", side, typer.binop_types(node, op, x, y, right))
    raise typer.error(node, f"'{op}' between {a} and {b} is not supported in compiled code",
                      "test `x is None` first")
