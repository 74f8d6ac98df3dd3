"""The two forms in which a type leaves the compiler: the descriptor the bridge
matches arguments and boxes results by (runtime_cpp/.../bridge/runtime.c),
and the JSON of cache metadata.  Both name @jit_class layouts, which
hir/jit_classes.py holds as values registered by transpile.classes."""
from __future__ import annotations

import numpy as np

from .. import _runtime
from . import functions, jit_classes, records
from .lattice import (ANY, BOOL, COMPLEX, DTYPES, FLOAT, INT, NONE, STR, UNKNOWN, Array, DeviceArray, Dict,
                      Instance, List, MaybeWeak, Optional, Scalar, Set, Tuple, Type)


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
    if isinstance(t, (records.RecordArray, records.Record)):
        return records.serialize(t)
    if isinstance(t, functions.Function):  # for reading only: a function value is this process's object
        return ["function", t.qualname]
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
        info = jit_classes.info_named(data[1], data[2], data[4])
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
    if kind in ("records", "record"):
        return records.deserialize(data)
    if kind == "function":
        raise LookupError(f"the function value {data[1]} is an object of the process that compiled it")
    return NONE if kind == "none" else ANY



# ---- descriptors shared with the bridge (runtime_cpp/.../bridge/runtime.c)

K_NONE, K_PYBOOL, K_PYINT, K_PYFLOAT, K_PYCOMPLEX, K_NPSCALAR, K_ARRAY, K_TUPLE, K_OBJECT = range(9)
K_LIST = 9  # then 0 (1: a tuple of any length, results only) and the element's tree
K_INSTANCE = 10  # followed by the layout's number in this process (hir/jit_classes.py)
K_DICT, K_SET, K_STR = 11, 12, 13  # dicts and sets cross as K_OBJECT results (built through the host table)
K_MAYBE_WEAK = 15  # results only: a flag slot (uint8: a Python number), then the NumPy scalar's slot
K_OPTIONAL = 14  # results only: a flag slot (uint8), then the value's tree (its slots filled when the flag is set)
K_DEVICE_ARRAY = 16  # typenum, ndim, readonly: an object with __cuda_array_interface__ (arguments only)
K_RECORD = 18  # a single record (np.void, np.record), followed by its record number (below)
RECORD_BASE = 1024  # K_ARRAY and K_RECORD name structured dtypes by RECORD_BASE + the bridge's table index
K_FUNCTION = 17  # followed by the function key's number in this process (hir/functions.py; arguments only)
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
            if num >= RECORD_BASE:
                dtype, recarray, aligned = _runtime.record_info(num)
                return records.RecordArray(records.record_dtype(dtype), ndim, LAYOUTS[layout], bool(readonly),
                                           bool(recarray), bool(aligned))
            return Array(_DTYPE_OF_NUM[num], ndim, LAYOUTS[layout], bool(readonly))
        if kind == K_DEVICE_ARRAY:
            num, ndim, readonly = desc[pos:pos + 3]
            pos += 3
            return DeviceArray(_DTYPE_OF_NUM[num], ndim, "A", bool(readonly))
        if kind == K_RECORD:
            dtype, _, aligned = _runtime.record_info(desc[pos])
            pos += 1
            return records.Record(records.record_dtype(dtype), False, bool(aligned))
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
            pos += 1
            return jit_classes.layout_type(desc[pos - 1])
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
    if isinstance(t, records.RecordArray):
        num = _runtime.register_record(t.rec.np_dtype, t.recarray, t.aligned)
        return (K_ARRAY, num, t.ndim, LAYOUTS.index(t.layout if t.layout in LAYOUTS else "A"), int(t.readonly))
    if isinstance(t, records.Record):
        return (K_RECORD, _runtime.register_record(t.rec.np_dtype, t.rec.record, t.aligned))
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
        return (K_INSTANCE, jit_classes.layout_number(t))
    if isinstance(t, functions.Function):
        return (K_FUNCTION, functions.number(t))
    raise TypeError(f"values of type {t} cannot cross into Python")

