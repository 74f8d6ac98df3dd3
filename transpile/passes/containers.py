"""What lists, dicts and sets share while typing: the element type that holds
two values, kept exactly as CPython keeps them (no int -> float widening:
a compiled container holds one element type)."""
from __future__ import annotations

import numpy as np

from ..diagnostics import TypingError
from ..hir import types as T


def exact_join(node, a, b, mixed, promote_ok=False, what="the container"):
    """The element type holding a and b (None or T.UNKNOWN: not known yet);
    mixed(a, b) is the error for two types no element type holds.
    promote_ok: Python ints and floats meet as float (where NumPy converts);
    "array": any two numbers meet as NumPy's array coercion has them meet (a
    list display handed to np.array: Python numbers count as their default
    dtypes there, not as weak scalars)."""
    if a is None or a == T.UNKNOWN:
        return b
    if b is None or b == T.UNKNOWN or a == b:
        return a

    def join(x, y):
        return exact_join(node, x, y, mixed, promote_ok, what)

    if isinstance(a, T.Array) and isinstance(b, T.Array) and a.dtype == b.dtype and a.ndim == b.ndim:
        return T.Array(a.dtype, a.ndim, "C" if a.layout == b.layout == "C" else "A", a.readonly or b.readonly)
    if isinstance(a, T.Tuple) and isinstance(b, T.Tuple) and len(a.items) == len(b.items):
        return T.Tuple(tuple(join(x, y) for x, y in zip(a.items, b.items)))
    if isinstance(a, T.List) and isinstance(b, T.List):
        if a.frozen != b.frozen:
            raise TypingError(f"{what} holds a list and a tuple", node.loc)
        rows = "array" if promote_ok == "array" else False  # np.array's nested rows meet as its elements do
        return T.List(exact_join(node, a.elem, b.elem, mixed, rows, what), a.frozen)
    if isinstance(a, T.Dict) and isinstance(b, T.Dict):
        return T.Dict(join(a.key, b.key), join(a.value, b.value))
    if isinstance(a, T.Set) and isinstance(b, T.Set):
        return T.Set(join(a.elt, b.elt))
    if promote_ok and a.__class__ is T.Scalar and b.__class__ is T.Scalar and {a, b} <= {T.INT, T.FLOAT}:
        return T.FLOAT
    if promote_ok == "array" and a.__class__ is T.Scalar and b.__class__ is T.Scalar:
        dtype = np.result_type(a.np_dtype, b.np_dtype).name  # a weak scalar's dtype is its default one
        return T.Scalar(dtype, a.weak and b.weak and dtype in ("int64", "float64", "complex128"))
    raise mixed(a, b)
