"""The type lattice of compiled values.

Scalars carry a NumPy dtype name and whether they are "weak" (a Python
int/float/bool/complex, which NEP 50 lets adapt to the other operand) or a
NumPy scalar.  Arrays carry dtype, ndim, layout and writability.  Types are
immutable and hashable: they key specializations and cache entries.
"""
from __future__ import annotations

import numpy as np

DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float32", "float64", "complex64", "complex128")


def value_type(cls):
    """A frozen value class: what @dataclass(frozen=True) makes (__init__ over
    the annotated fields, ==, hash, no assignment) without generating code
    with exec, which cost ~8 ms of every warm start for these ~20 classes."""
    names = tuple(cls.__dict__.get("__annotations__", {}))
    defaults = {n: cls.__dict__[n] for n in names if n in cls.__dict__}

    def __init__(self, *args, **kwargs):
        if len(args) > len(names):
            raise TypeError(f"{cls.__name__}() takes {len(names)} arguments but {len(args)} were given")
        given = dict(zip(names, args), **kwargs)
        for name in names:
            if name in given:
                object.__setattr__(self, name, given[name])
            elif name in defaults:
                object.__setattr__(self, name, defaults[name])
            else:
                raise TypeError(f"{cls.__name__}() missing argument '{name}'")

    def values(self):
        return tuple(getattr(self, n) for n in names)

    def __eq__(self, other):
        return other.__class__ is self.__class__ and values(self) == values(other)

    def __hash__(self):
        return hash((cls.__name__,) + values(self))

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot assign to field '{name}' of a {cls.__name__} (types are immutable)")

    cls.__init__ = __init__
    cls.__setattr__ = __setattr__
    cls.__delattr__ = __setattr__
    if "__eq__" not in cls.__dict__:
        cls.__eq__ = __eq__
    if cls.__dict__.get("__hash__") is None:
        cls.__hash__ = __hash__
    return cls


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


def serialize(t: Type):
    """A JSON-able form of a type (cache metadata); deserialize() inverts it."""
    if isinstance(t, Scalar):
        return ["scalar", t.dtype, t.weak]
    if isinstance(t, DeviceArray):
        return ["device_array", t.dtype, t.ndim, t.readonly]
    if isinstance(t, Array):
        return ["array", t.dtype, t.ndim, t.layout, t.readonly]
    if isinstance(t, Tuple):
        return ["tuple"] + [serialize(i) for i in t.items]
    if isinstance(t, List):
        return ["list", t.frozen, None if t.elem is None else serialize(t.elem)]
    if isinstance(t, Instance):
        return ["instance", t.cls.module, t.cls.qualname, [[n, serialize(f)] for n, f in t.fields], t.cls.identity]
    if t == STR:
        return ["str"]
    if isinstance(t, Dict):
        return ["dict", serialize(t.key), serialize(t.value)]
    if isinstance(t, Set):
        return ["set", serialize(t.elt)]
    if t == UNKNOWN:
        return ["unknown"]
    if isinstance(t, Optional):
        return ["optional", serialize(t.inner)]
    if isinstance(t, MaybeWeak):
        return ["maybe_weak", serialize(t.inner)]
    if t == NONE:
        return ["none"]
    if t == ANY:
        return ["any"]
    raise TypeError(f"cannot serialize {t}")


def deserialize(data) -> Type:
    kind = data[0]
    if kind == "scalar":
        return Scalar(data[1], data[2])
    if kind == "array":
        return Array(data[1], data[2], data[3], data[4])
    if kind == "device_array":
        return DeviceArray(data[1], data[2], "A", data[3])
    if kind == "tuple":
        return Tuple(tuple(deserialize(i) for i in data[1:]))
    if kind == "list":
        return List(None if data[2] is None else deserialize(data[2]), data[1])
    if kind == "instance":
        from ..classes import class_info_named

        info = class_info_named(data[1], data[2], data[4])
        return Instance(info, tuple((n, deserialize(f)) for n, f in data[3]))
    if kind == "str":
        return STR
    if kind == "dict":
        return Dict(deserialize(data[1]), deserialize(data[2]))
    if kind == "set":
        return Set(deserialize(data[1]))
    if kind == "unknown":
        return UNKNOWN
    if kind == "optional":
        return Optional(deserialize(data[1]))
    if kind == "maybe_weak":
        return MaybeWeak(deserialize(data[1]))
    return NONE if kind == "none" else ANY


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


# ---- descriptors shared with the bridge (runtime_cpp/.../bridge/runtime.c)

K_NONE, K_PYBOOL, K_PYINT, K_PYFLOAT, K_PYCOMPLEX, K_NPSCALAR, K_ARRAY, K_TUPLE, K_OBJECT = range(9)
K_LIST = 9  # then 0 (1: a tuple of any length, results only) and the element's tree
K_INSTANCE = 10  # followed by the layout's number in this process (transpile.classes registers layouts)
K_DICT, K_SET, K_STR = 11, 12, 13  # dicts and sets cross as K_OBJECT results (built through the host table)
K_MAYBE_WEAK = 15  # results only: a flag slot (uint8: a Python number), then the NumPy scalar's slot
K_OPTIONAL = 14  # results only: a flag slot (uint8), then the value's tree (its slots filled when the flag is set)
K_DEVICE_ARRAY = 16  # typenum, ndim, readonly: an object with __cuda_array_interface__ (arguments only)
LAYOUTS = ("C", "F", "A")
_WEAK_KIND = {K_PYBOOL: BOOL, K_PYINT: INT, K_PYFLOAT: FLOAT, K_PYCOMPLEX: COMPLEX}


def _typenum(dtype: str) -> int:
    return np.dtype(dtype).num


_DTYPE_OF_NUM = {np.dtype(d).num: d for d in DTYPES}


def from_descriptor(desc: tuple) -> list[Type]:
    """The argument types described by a bridge descriptor (one per tree)."""
    pos = 0

    def tree() -> Type:
        nonlocal pos
        kind = desc[pos]
        pos += 1
        if kind == K_NONE:
            return NONE
        if kind == K_OBJECT:
            return ANY
        if kind == K_STR:
            return STR
        if kind in _WEAK_KIND:
            return _WEAK_KIND[kind]
        if kind == K_NPSCALAR:
            num = desc[pos]
            pos += 1
            return Scalar(_DTYPE_OF_NUM[num])
        if kind == K_ARRAY:
            num, ndim, layout, readonly = desc[pos:pos + 4]
            pos += 4
            return Array(_DTYPE_OF_NUM[num], ndim, LAYOUTS[layout], bool(readonly))
        if kind == K_DEVICE_ARRAY:
            num, ndim, readonly = desc[pos:pos + 3]
            pos += 3
            return DeviceArray(_DTYPE_OF_NUM[num], ndim, "A", bool(readonly))
        if kind == K_TUPLE:
            n = desc[pos]
            pos += 1
            return Tuple(tuple(tree() for _ in range(n)))
        if kind == K_LIST:
            frozen = bool(desc[pos])
            pos += 1
            return List(tree(), frozen)
        if kind == K_OPTIONAL:
            return Optional(tree())
        if kind == K_MAYBE_WEAK:
            return MaybeWeak(tree())
        if kind == K_INSTANCE:
            from ..classes import layout_type

            pos += 1
            return layout_type(desc[pos - 1])
        raise ValueError(f"bad descriptor {desc!r}")

    out = []
    while pos < len(desc):
        out.append(tree())
    return out


def to_descriptor(t: Type) -> tuple:
    if t == NONE:
        return (K_NONE,)
    if t == ANY or isinstance(t, (Dict, Set)):
        return (K_OBJECT,)
    if t == STR:
        return (K_STR,)
    if isinstance(t, Scalar):
        if t.weak:
            return ({"bool": K_PYBOOL, "int64": K_PYINT, "float64": K_PYFLOAT, "complex128": K_PYCOMPLEX}[t.dtype],)
        return (K_NPSCALAR, _typenum(t.dtype))
    if isinstance(t, DeviceArray):
        return (K_DEVICE_ARRAY, _typenum(t.dtype), t.ndim, int(t.readonly))
    if isinstance(t, Array):
        layout = t.layout if t.layout in LAYOUTS else "A"
        return (K_ARRAY, _typenum(t.dtype), t.ndim, LAYOUTS.index(layout), int(t.readonly))
    if isinstance(t, Tuple):
        out = (K_TUPLE, len(t.items))
        for item in t.items:
            out += to_descriptor(item)
        return out
    if isinstance(t, List):
        return (K_LIST, int(t.frozen)) + to_descriptor(INT if t.elem is None else t.elem)
    if isinstance(t, Optional):
        return (K_OPTIONAL,) + to_descriptor(t.inner)
    if isinstance(t, MaybeWeak):
        return (K_MAYBE_WEAK,) + to_descriptor(t.inner)
    if isinstance(t, Instance):
        from ..classes import layout_id

        return (K_INSTANCE, layout_id(t))
    raise TypeError(f"values of type {t} cannot cross into Python")


def leaves(t: Type) -> list[Type]:
    """Scalar and array leaves of a type, in slot order."""
    if isinstance(t, Tuple):
        return [leaf for item in t.items for leaf in leaves(item)]
    if t == NONE:
        return []
    return [t]


def parse_signature(text: str) -> list[Type]:
    """Types from text like "float64[:, :], int64, float" (signatures=, --signature)."""
    out = []
    for part in _split_top(text):
        out.append(parse_type(part))
    return out


def _split_top(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


_ALIASES = {"int": INT, "float": FLOAT, "bool": BOOL, "complex": COMPLEX, "None": NONE, "object": ANY, "str": STR}


def parse_type(text: str) -> Type:
    text = text.strip()
    if text in _ALIASES:
        return _ALIASES[text]
    for suffix, readonly in ((" (cuda device)", False), (" (cuda device, readonly)", True)):
        if text.endswith(suffix):  # as DeviceArray.spell() writes it
            base = parse_type(text[:-len(suffix)])
            return DeviceArray(base.dtype, base.ndim, "A", readonly)
    if text.startswith("list[") and text.endswith("]"):
        return List(parse_type(text[5:-1]))
    if text.startswith("tuple[") and text.endswith(", ...]"):
        return List(parse_type(text[6:-6]), True)
    if text.startswith("tuple[") and text.endswith("]"):
        return Tuple(tuple(parse_type(p) for p in _split_top(text[6:-1])))
    if "[" in text and text.endswith("]"):
        dtype, dims = text[:-1].split("[", 1)
        dims = [d.strip() for d in dims.split(",")]
        layout = "C" if dims[-1] == "::1" else ("F" if dims[0] == "::1" and len(dims) > 1 else "A")
        if len(dims) == 1 and dims[0] == ":":
            layout = "A"
        return Array(_dtype_name(dtype.strip()), len(dims), layout)
    return Scalar(_dtype_name(text))


def _dtype_name(text: str) -> str:
    try:
        name = np.dtype(text).name
    except TypeError:
        raise ValueError(f"unknown type {text!r}") from None
    if name not in DTYPES:
        raise ValueError(f"dtype {name} is not supported; supported: {', '.join(DTYPES)}")
    return name
