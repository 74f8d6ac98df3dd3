"""The @jit_classes of this process as the type lattice sees them: each class's
compile-time record, and each field layout by key and by the bridge's number.

transpile.classes makes the records and registers layouts with the bridge
(which compiles their accessors); it fills these tables and installs the
function that registers a layout not seen yet.  Descriptors, cache JSON,
the typer and the lowering read them here, so no layer below the dispatcher
imports the module that makes classes."""
from __future__ import annotations

import sys

from .lattice import Array, Instance, cache_text

_INFOS: dict = {}  # class -> its compile-time record (transpile.classes.ClassInfo)
_BY_KEY: dict = {}  # layout key -> Instance (every layout compiled code may make)
_IDS: dict = {}  # layout key -> number in the bridge
_TYPES: dict = {}  # number -> Instance
_register = None  # Instance -> number: set by transpile.classes.install


def install(register) -> None:
    """Called once by transpile.classes: `register(t)` gives layout t its number
    in the bridge (loading its accessors) and records it with record_number."""
    global _register
    _register = register


def add_info(cls, info) -> None:
    _INFOS[cls] = info


def info_of(value):
    """The record of a @jit_class, or None for anything else."""
    try:
        return _INFOS.get(value)
    except TypeError:  # unhashable
        return None


def resolve(module: str, qualname: str):
    """The object a module's qualified name finds, seeing through @jit_class
    members (a @jit_class keeps its __init__ out of the class: constructors call it)."""
    obj = sys.modules.get(module)
    for part in qualname.split("."):
        if obj is None:
            return None
        info = info_of(obj)
        obj = info.members[part][1] if info is not None and part in info.members else getattr(obj, part, None)
    return obj


def info_named(module: str, qualname: str, identity: str):
    """The record of the class cache metadata names (deserialization)."""
    for info in reversed(list(_INFOS.values())):  # this process made it (it may be bound to another name)
        if info.identity == identity:
            return info
    __import__(module)
    info = info_of(resolve(module, qualname))
    if info is None:
        raise LookupError(f"{module}.{qualname} is not a @jit_class in this process")
    return info


def layout_key(t: Instance) -> str:
    key = cache_text(t)
    _BY_KEY.setdefault(key, t)
    return key


def layout_by_key(key: str) -> Instance:
    return _BY_KEY[key]


def known_number(key: str):
    return _IDS.get(key)


def record_number(key: str, number: int, t: Instance) -> None:
    _IDS[key] = number
    _TYPES[number] = t


def forget_number(key: str) -> None:
    _TYPES.pop(_IDS.pop(key), None)


def layout_number(t: Instance) -> int:
    """The bridge's number for layout t, registering it on first use."""
    number = _IDS.get(layout_key(t))
    return number if number is not None else _register(t)


def layout_type(number: int) -> Instance:
    return _TYPES[number]


def layout_type_or_none(number: int):
    return _TYPES.get(number)


def accepted_variants(ft):
    """The argument types a field setter has entries for: every array layout
    (and writability) a field of type ft can hold."""
    if isinstance(ft, Array):
        flags = (False, True) if ft.readonly else (False,)
        return [Array(ft.dtype, ft.ndim, layout, ro) for layout in ("C", "F", "A") for ro in flags
                if not (ft.ndim <= 1 and layout == "F")]
    return [ft]
