"""The type lattice of compiled values (read through hir/types.py, `T`).

Scalars carry a NumPy dtype name and whether they are "weak" (a Python
int/float/bool/complex, which NEP 50 lets adapt to the other operand) or a
NumPy scalar.  Arrays carry dtype, ndim, layout and writability.  Types are
immutable and hashable: they key specializations and cache entries.
"""
from __future__ import annotations

import numpy as np

from ..values import value_type

DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128")


class Type:
    """Base of all types."""

    def __str__(self) -> str:
        return self.spell()

    def __repr__(self) -> str:
        return self.spell()

    def spell(self) -> str:
        raise NotImplementedError


@value_type
class Scalar(Type):
    dtype: str
    weak: bool = False  # a Python scalar rather than a NumPy one

    def spell(self) -> str:
        if self.weak:
            return {"bool": "bool", "int64": "int", "float64": "float", "complex128": "complex"}[self.dtype]
        return self.dtype

    @property
    def np_dtype(self) -> np.dtype:
        return np.dtype(self.dtype)

    @property
    def kind(self) -> str:
        return self.np_dtype.kind


@value_type
class Array(Type):
    dtype: str
    ndim: int
    layout: str = "C"  # "C": innermost stride 1 (arguments: C-contiguous), "F", "A"
    readonly: bool = False

    def spell(self) -> str:
        dims = ", ".join([":"] * self.ndim)
        if self.ndim and self.layout == "C":
            dims = ", ".join([":"] * (self.ndim - 1) + ["::1"])
        flags = " (readonly)" if self.readonly else ""
        layout = " (F)" if self.layout == "F" else ""
        return f"{self.dtype}[{dims}]{layout}{flags}"

    @property
    def scalar(self) -> Scalar:
        return Scalar(self.dtype)

    def with_layout(self, layout: str) -> "Array":
        return Array(self.dtype, self.ndim, layout, self.readonly)


@value_type
class DeviceArray(Array):
    """An array in CUDA device memory, passed in through
    `__cuda_array_interface__` (CuPy, PyTorch, Numba device arrays) and used
    in place.  An Array to the typer (element types, shape), but host code
    cannot touch its elements: passes/device_arrays.py lets it into prange
    kernels and shape queries only.  Strides are whatever the producer has."""
    dtype: str
    ndim: int
    layout: str = "A"
    readonly: bool = False

    def spell(self) -> str:
        dims = ", ".join([":"] * self.ndim)
        flags = ", readonly" if self.readonly else ""
        return f"{self.dtype}[{dims}] (cuda device{flags})"

    def with_layout(self, layout: str) -> "DeviceArray":
        return self


@value_type
class Tuple(Type):
    items: tuple

    def spell(self) -> str:
        inner = ", ".join(t.spell() for t in self.items)
        return f"tuple[{inner}]" if self.items else "tuple[()]"

    @property
    def homogeneous(self) -> Type | None:
        if self.items and all(t == self.items[0] for t in self.items):
            return self.items[0]
        return None


@value_type
class List(Type):
    """A homogeneous Python list (tr::List: a shared, growable buffer).  elem
    None: an empty literal whose element type later appends decide.
    frozen: a tuple of any length (tuple(genexp)), returned as a tuple."""

    elem: Type | None
    frozen: bool = False

    def spell(self) -> str:
        inner = "?" if self.elem is None else self.elem.spell()
        return f"tuple[{inner}, ...]" if self.frozen else f"list[{inner}]"


def holds_int64(t: Type) -> bool:
    """An int or bool whatever its value fits an int64 (not a uint64): a
    width, an index, a code point (str methods, chr())."""
    return isinstance(t, Scalar) and t.kind in "iub" and t.dtype != "uint64"


def has_list(t: Type) -> bool:
    if isinstance(t, List):
        return True
    if isinstance(t, Tuple):
        return any(has_list(i) for i in t.items)
    return False


@value_type
class NoneType(Type):
    def spell(self) -> str:
        return "None"


NONE = NoneType()


@value_type
class Optional(Type):
    """None or a value of `inner` (a variable assigned None on one path and a
    value on another; a function returning None on some paths).  C++:
    tr::Optional<T> (passes/optional.py; runtime_cpp/transpile_rt/optional.hpp)."""

    inner: Type

    def spell(self) -> str:
        return f"Optional[{self.inner.spell()}]"


@value_type
class MaybeWeak(Type):
    """A function's result that CPython returns as a Python number on some
    paths and as the NumPy scalar `inner` on others (passes/returns.py):
    crosses into Python with a flag saying which."""

    inner: Scalar

    def spell(self) -> str:
        return f"{self.inner.spell()} (a Python number on some paths)"


@value_type
class AnyType(Type):
    """A value produced by fallback code whose type is not known: held as a
    Python object, converted to float64 where typed code meets it."""

    def spell(self) -> str:
        return "object"


ANY = AnyType()


@value_type
class Range(Type):
    """The value of range(...): only iterated, never stored."""

    def spell(self) -> str:
        return "range"


@value_type
class Enumerate(Type):
    inner: Type

    def spell(self) -> str:
        return f"enumerate[{self.inner.spell()}]"


@value_type
class Zip(Type):
    inners: tuple

    def spell(self) -> str:
        return f"zip[{', '.join(t.spell() for t in self.inners)}]"


@value_type
class Generator(Type):
    """A generator expression: consumed in place by sum/min/max/any/all."""

    elt: Type

    def spell(self) -> str:
        return f"generator[{self.elt.spell()}]"


@value_type
class DType(Type):
    """A dtype object used as a value (np.float32, a.dtype): compile-time only."""

    dtype: str

    def spell(self) -> str:
        return f"dtype[{self.dtype}]"


@value_type
class CompileTimeValue(Type):
    """A module, function or other Python object known while compiling."""

    value: object

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other) -> bool:
        return isinstance(other, CompileTimeValue) and other.value is self.value

    def spell(self) -> str:
        return f"<{getattr(self.value, '__name__', type(self.value).__name__)}>"


@value_type
class Str(Type):
    """A Python str (immutable, UTF-8 bytes in compiled code)."""

    def spell(self) -> str:
        return "str"


STR = Str()


@value_type
class Unknown(Type):
    """The key/value type of an empty `{}` / `set()` before later stores tell."""

    def spell(self) -> str:
        return "?"


UNKNOWN = Unknown()


@value_type
class Dict(Type):
    """A dict with scalar/tuple/str keys (insertion-ordered hash table in C++)."""

    key: Type
    value: Type

    def spell(self) -> str:
        return f"dict[{self.key.spell()}, {self.value.spell()}]"


@value_type
class Set(Type):
    elt: Type

    def spell(self) -> str:
        return f"set[{self.elt.spell()}]"


@value_type
class DictView(Type):
    """d.keys() / d.values() / d.items(): iterated, len(), `in`."""

    dict: Type
    kind: str

    def spell(self) -> str:
        return f"dict_{self.kind}[{self.dict.key.spell()}, {self.dict.value.spell()}]"


@value_type
class IterTools(Type):
    """itertools.product / combinations: only iterated (one loop over an odometer)."""

    kind: str  # "product" / "combinations"
    inners: tuple  # iterable types (product: each argument; combinations: the one iterable)
    repeat: int  # product: repeat=; combinations: r

    def spell(self) -> str:
        return f"{self.kind}[{', '.join(t.spell() for t in self.inners)}]"


@value_type
class LibIter(Type):
    """An iterator a library entry makes (np.ndindex, np.ndenumerate, np.nditer,
    a.flat): consumed by a for loop, or subscripted where the library says so.
    `kind` names its rule in the library (library/numpy_iter.py); `elem` is
    what each step of the loop binds."""

    kind: str
    args: tuple  # the types the rule needs (the iterated arrays)
    elem: Type

    def spell(self) -> str:
        return f"{self.kind}[{', '.join(t.spell() for t in self.args)}]"


@value_type
class Instance(Type):
    """An instance of a @jit_class with one field layout: the fields, in the
    order __init__ first assigns them, and their types.  `cls` is the class's
    compile-time record (transpile.classes.ClassInfo), compared by identity."""

    cls: object
    fields: tuple  # ((name, Type), ...)

    def __hash__(self) -> int:
        return hash((id(self.cls), self.fields))

    def __eq__(self, other) -> bool:
        return isinstance(other, Instance) and other.cls is self.cls and other.fields == self.fields

    def spell(self) -> str:
        inner = ", ".join(f"{n}: {t.spell()}" for n, t in self.fields)
        return f"{self.cls.name}{{{inner}}}"

    def field(self, name: str):
        for n, t in self.fields:
            if n == name:
                return t
        return None


def cache_text(t: Type) -> str:
    """The spelling of a type inside cache keys: instances carry their class's
    identity (module, qualname, class attributes), which their spelling omits."""
    if isinstance(t, Instance):
        inner = ", ".join(f"{n}: {cache_text(f)}" for n, f in t.fields)
        return f"{t.cls.identity}{{{inner}}}"
    if isinstance(t, Tuple):
        return f"tuple[{', '.join(cache_text(i) for i in t.items)}]"
    if isinstance(t, Optional):
        return f"Optional[{cache_text(t.inner)}]"
    return t.spell()


def mentions_instance(t: Type) -> bool:
    if isinstance(t, Tuple):
        return any(mentions_instance(i) for i in t.items)
    if isinstance(t, Optional):
        return mentions_instance(t.inner)
    return isinstance(t, Instance)


INT = Scalar("int64", weak=True)
FLOAT = Scalar("float64", weak=True)
BOOL = Scalar("bool", weak=True)
COMPLEX = Scalar("complex128", weak=True)


def is_scalar(t: Type) -> bool:
    return isinstance(t, Scalar)


def is_array(t: Type) -> bool:
    return isinstance(t, Array)


def is_int_like(t: Type) -> bool:
    return isinstance(t, Scalar) and t.kind in "iub"


def is_integer(t: Type) -> bool:
    return isinstance(t, Scalar) and t.kind in "iu"


def has_truth(t: Type) -> bool:
    """Whether compiled code tests the truth of a value of type t (tr::truthy):
    not an array's, which NumPy finds ambiguous."""
    if isinstance(t, Optional):
        return not isinstance(t.inner, Array)
    return isinstance(t, (Scalar, NoneType, Tuple, AnyType, List, Str, Dict, Set))


def leaves(t: Type) -> list[Type]:
    """Scalar and array leaves of a type, in slot order."""
    if isinstance(t, Tuple):
        return [leaf for item in t.items for leaf in leaves(item)]
    if t == NONE:
        return []
    return [t]
