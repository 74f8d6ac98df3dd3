"""Numba's type names (numba.types, and the names of numba's top level such
as float64 and f8), enough to spell signatures: `float64(float64[:], int64)`,
`"f8[:, ::1](f8, i8)"`, `UniTuple(float64, 2)`, `void(...)`.  Each type knows
its transpile spelling (hir.types.parse_type's text)."""
from __future__ import annotations

import numpy as np


class NumbaType:
    """A scalar, array, tuple or none type as Numba spells it."""

    def __init__(self, name: str, text: str, dtype=None):
        self.name = name
        self.text = text  # transpile's spelling, e.g. "float64[:, ::1]"
        self.dtype = dtype  # np.dtype of a scalar or an array's element

    def __repr__(self) -> str:
        return self.name

    def __eq__(self, other) -> bool:
        return isinstance(other, NumbaType) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __getitem__(self, dims) -> "NumbaType":
        """float64[:], float64[:, ::1] (C order), float64[::1, :] (Fortran order)."""
        if self.dtype is None or self.text.endswith("]"):
            raise TypeError(f"{self.name} cannot be indexed to make an array type")
        dims = dims if isinstance(dims, tuple) else (dims,)
        spelled = []
        for d in dims:
            if not isinstance(d, slice) or d.start is not None or d.stop is not None or d.step not in (None, 1):
                raise TypeError(f"array types are spelled with ':' and '::1', not {d!r}")
            spelled.append("::1" if d.step == 1 else ":")
        if "::1" in spelled[1:-1] or (spelled.count("::1") > 1):
            raise TypeError(f"{self.name}[{', '.join(spelled)}]: '::1' may only mark the first or last axis")
        inner = ", ".join(spelled)
        return NumbaType(f"{self.name}[{inner}]", f"{self.text}[{inner}]", self.dtype)

    def __call__(self, *args) -> "Signature":
        """float64(float64, int64): a signature with this return type."""
        return Signature(self, tuple(_as_type(a) for a in args))

    @property
    def is_array(self) -> bool:
        return self.text.endswith("]") and not self.text.startswith("tuple[")

    @property
    def ndim(self) -> int:
        return self.text[self.text.index("[") + 1:-1].count(",") + 1 if self.is_array else 0


class Signature:
    """return_type(arg_types...): the return type is None when not given."""

    def __init__(self, return_type, args: tuple):
        self.return_type = return_type
        self.args = args

    def __repr__(self) -> str:
        return f"{self.return_type!r}({', '.join(map(repr, self.args))})"

    def arg_text(self) -> str:
        return ", ".join(a.text for a in self.args)


def _scalar(name: str, dtype: str) -> NumbaType:
    return NumbaType(name, np.dtype(dtype).name, np.dtype(dtype))


_SCALARS = {
    "boolean": "bool", "bool_": "bool", "b1": "bool",
    "int8": "int8", "i1": "int8", "int16": "int16", "i2": "int16", "int32": "int32", "i4": "int32",
    "int64": "int64", "i8": "int64", "intp": "int64", "intc": "int32", "int_": "int64",
    "uint8": "uint8", "u1": "uint8", "byte": "uint8", "uint16": "uint16", "u2": "uint16", "uint32": "uint32",
    "u4": "uint32", "uint64": "uint64", "u8": "uint64", "uintp": "uint64", "uintc": "uint32",
    "float32": "float32", "f4": "float32", "float64": "float64", "f8": "float64", "double": "float64",
    "complex64": "complex64", "c8": "complex64", "complex128": "complex128", "c16": "complex128",
}
for _name, _dt in _SCALARS.items():
    globals()[_name] = _scalar(_name, _dt)
none = NumbaType("none", "None")
void = none
unicode_type = NumbaType("unicode_type", "str")
string = unicode_type


def UniTuple(dtype, count: int) -> NumbaType:  # noqa: N802 - Numba's name
    return Tuple((dtype,) * count)


def Tuple(types) -> NumbaType:  # noqa: N802 - Numba's name
    types = tuple(_as_type(t) for t in types)
    return NumbaType(f"Tuple({', '.join(map(repr, types))})", f"tuple[{', '.join(t.text for t in types)}]")


def Array(dtype, ndim: int, layout: str = "A", readonly: bool = False) -> NumbaType:  # noqa: N802
    dtype = _as_type(dtype)
    if layout not in ("A", "C", "F"):
        raise ValueError(f"Array layout must be 'A', 'C' or 'F', not {layout!r}")
    dims = [":"] * ndim
    if layout == "C":
        dims[-1] = "::1"
    elif layout == "F" and ndim > 1:
        dims[0] = "::1"
    return dtype[tuple(slice(None, None, 1) if d == "::1" else slice(None) for d in dims)]


def _as_type(value) -> NumbaType:
    if isinstance(value, NumbaType):
        return value
    try:
        return _scalar(np.dtype(value).name, np.dtype(value).name)
    except TypeError:
        raise TypeError(f"{value!r} is not a type") from None


_NAMESPACE = {k: v for k, v in globals().items() if isinstance(v, NumbaType)}
_NAMESPACE.update(UniTuple=UniTuple, Tuple=Tuple, Array=Array, types=None)


def parse(sig) -> Signature:
    """A signature from Numba's text ("float64(float64[:], i8)", "(f8, f8)"),
    a Signature, or a tuple of argument types."""
    if isinstance(sig, Signature):
        return sig
    if isinstance(sig, tuple):
        return Signature(None, tuple(_as_type(a) for a in sig))
    if not isinstance(sig, str):
        raise TypeError(f"a signature is a string like 'float64(float64, int64)' or float64(float64, int64), "
                        f"not {sig!r}")
    import types as _pytypes

    namespace = dict(_NAMESPACE, types=_pytypes.SimpleNamespace(**_NAMESPACE))
    try:
        # Numba reads signature strings the same way: an expression over its type names
        value = eval(sig, {"__builtins__": {}}, namespace)  # noqa: S307 - names are types only
    except Exception as exc:  # noqa: BLE001 - any error in the text is the user's
        raise TypeError(f"invalid signature {sig!r}: {exc}") from None
    if isinstance(value, NumbaType):  # "(f8, f8)" parses as a parenthesised type only with one argument
        value = Signature(None, (value,))
    elif isinstance(value, tuple):
        value = Signature(None, tuple(_as_type(a) for a in value))
    if not isinstance(value, Signature):
        raise TypeError(f"invalid signature {sig!r}")
    return value
