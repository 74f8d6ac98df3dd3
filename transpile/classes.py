"""@jit_class: plain Python classes whose instances compiled code makes,
reads and mutates in place, and which Python uses like any other object.

The decorated class is rebuilt on `_runtime.JitObject`: an instance is a
counted C++ struct (one struct per field layout, runtime_cpp/.../object.hpp)
shown to Python by one JitObject, so it crosses the boundary by reference.
Methods, __call__, properties, static methods and operator methods become
@jit dispatchers; fields become `_runtime.Field` descriptors over compiled
getters and setters; construction from Python goes through a compiled
constructor (`__jit_construct__`).  A layout is registered with the bridge
(a number per process) the first time a type descriptor names it, which
loads (or compiles) its accessor module.
"""
from __future__ import annotations

import inspect
import types
import warnings
from _thread import RLock  # threading.RLock itself, without importing threading

from . import _runtime
from .build.backends import check_toolkit
from .diagnostics import FULLGRAPH_NOTE, TranspileFallbackWarning
from .hashing import sha256
from .hir import jit_classes, types as T
from .hir.jit_classes import accepted_variants, info_of, layout_key
from .options import make_options

# Magic methods that compile; any other (__repr__, __len__, ...) stays Python.
OPERATOR_DUNDERS = frozenset(
    "__add__ __sub__ __mul__ __truediv__ __floordiv__ __mod__ __pow__ __matmul__ __eq__ __ne__ __lt__ __le__ "
    "__gt__ __ge__".split())
COMPILED_DUNDERS = OPERATOR_DUNDERS | {"__call__", "__init__"}
_MANAGED = {"__dict__", "__weakref__", "__slots__", "__module__", "__qualname__", "__doc__", "__classcell__",
            "__firstlineno__", "__static_attributes__", "__annotations__"}

_LOCK = RLock()


def _empty_init(self):
    """__init__ of a @jit_class that defines none: no fields."""


class ClassInfo:
    """What the compiler knows of one @jit_class."""

    def __init__(self, cls, members: dict, options, slots):
        self.cls = cls
        self.name = cls.__name__
        self.module = cls.__module__
        self.qualname = cls.__qualname__
        self.members = members  # name -> (kind, value): this class's own methods and attributes
        self.options = options
        self.slots = slots
        self.layouts: dict = {}  # __init__ argument types -> T.Instance
        self.init = _empty_init  # set once the class is registered (it is looked up along the MRO)
        digest = sha256(repr(sorted((k, repr(v)) for k, (kind, v) in members.items()
                                            if kind == "attribute")).encode()).hexdigest()[:12]
        bases = ",".join(i.identity for i in self.bases())
        self.identity = f"{self.module}.{self.qualname}@{digest}({bases})"

    def bases(self):
        return [info_of(b) for b in self.cls.__mro__[1:] if info_of(b) is not None]

    def lookup(self, name: str, after=None):
        """(kind, value, defining ClassInfo) of a class member along the MRO
        (only classes after `after`, for super()); (None, None, None) if none."""
        chain = [info_of(k) for k in self.cls.__mro__ if info_of(k) is not None]
        if after is not None:
            chain = chain[chain.index(after) + 1:]
        for info in chain:
            if name in info.members:
                kind, value = info.members[name]
                return kind, value, info
        return None, None, None

    def check_slots(self, fields: dict, loc) -> None:
        if self.slots is None:
            return
        missing = [f for f in fields if f not in self.slots]
        if missing:
            from .diagnostics import TypingError

            raise TypingError(f"{self.name}.__init__ assigns {', '.join(repr(m) for m in missing)}, which "
                              f"__slots__ does not list", loc,
                              "add them to __slots__ or remove __slots__ (a @jit_class lays out its fields itself)")


# ---- the decorator -------------------------------------------------------------


def jit_class(cls=None, **options):
    """Compile a class: methods, __call__, properties and operators run as
    compiled code, field types are inferred from __init__, and instances are
    shared by reference between Python and @jit functions.  Options are those
    of @jit (jit_level, fullgraph, boundscheck, cache, ...)."""
    if cls is None:
        return lambda c: jit_class(c, **options)
    if not isinstance(cls, type):
        raise TypeError(f"Decorator jit_class can only be used for class type, but got {cls!r}.")
    if isinstance(cls, JitClassMeta):
        return cls  # a subclass of a @jit_class already is one
    if type(cls) is not type:
        raise TypeError(f"{_where(cls.__dict__)}@jit_class {cls.__qualname__}: its metaclass {type(cls).__qualname__} cannot be "
                        "compiled; only classes made by `class` with the default metaclass can")
    cell = types.CellType()
    ns = {k: _with_class_cell(v, cell) for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
    bases = tuple(_JIT_VERSION.get(b, b) for b in cls.__bases__ if b is not object) or (_runtime.JitObject,)
    new = JitClassMeta._build(cls.__name__, bases, ns, make_options(check_toolkit=check_toolkit, **options),
                             cls.__qualname__)
    cell.cell_contents = new
    _JIT_VERSION[cls] = new
    return new


# An undecorated class -> its @jit_class version, so that a subclass of it can be decorated too.
_JIT_VERSION: dict = {}


def _with_class_cell(value, cell):
    """A copy of a method whose zero-argument super() names the class through
    a `__class__` cell, the cell pointing at the rebuilt class (the original
    class and its functions are left as they were)."""
    if isinstance(value, staticmethod):
        return staticmethod(_with_class_cell(value.__func__, cell))
    if isinstance(value, property):
        return property(*(_with_class_cell(f, cell) for f in (value.fget, value.fset, value.fdel)), value.__doc__)
    code = getattr(value, "__code__", None)
    if not inspect.isfunction(value) or "__class__" not in code.co_freevars:
        return value
    closure = tuple(cell if name == "__class__" else c for name, c in zip(code.co_freevars, value.__closure__))
    copy = types.FunctionType(code, value.__globals__, value.__name__, value.__defaults__, closure)
    copy.__kwdefaults__ = value.__kwdefaults__
    copy.__qualname__ = value.__qualname__
    copy.__dict__.update(value.__dict__)
    return copy


class JitClassMeta(type):
    """Metaclass of every @jit_class, so that subclasses are compiled too."""

    def __new__(mcs, name, bases, ns, **kw):
        parent = next((info_of(b) for b in bases if info_of(b) is not None), None)
        options = parent.options if parent is not None else make_options()
        return mcs._build(name, bases, dict(ns), options, ns.get("__qualname__", name))

    @classmethod
    def _build(mcs, name, bases, ns, options, qualname):
        from .decorators import jit

        for b in bases:
            if b is not _runtime.JitObject and info_of(b) is None:
                what = "builtin type" if b.__module__ == "builtins" else "class"
                raise TypeError(f"{_where(ns)}@jit_class {qualname}: base {what} {b.__qualname__} cannot be compiled; a "
                                "@jit_class may only derive from object or from other @jit_classes")
        slots = ns.pop("__slots__", None)
        if isinstance(slots, str):
            slots = (slots,)
        members, fallback = {}, []
        for key, value in list(ns.items()):
            if key in _MANAGED:
                continue
            if isinstance(value, staticmethod):
                fn = value.__func__
                if inspect.isfunction(fn):
                    ns[key] = staticmethod(_compiled(jit, fn, options))
                    members[key] = ("static", ns[key].__func__)
            elif isinstance(value, property):
                fget = _compiled(jit, value.fget, options) if inspect.isfunction(value.fget) else value.fget
                fset = _compiled(jit, value.fset, options) if inspect.isfunction(value.fset) else value.fset
                ns[key] = property(fget, fset, value.fdel, value.__doc__)
                members[key] = ("property", fget)
            elif isinstance(value, classmethod):
                fallback.append(key)
            elif inspect.isfunction(value):
                if key.startswith("__") and key.endswith("__") and key not in COMPILED_DUNDERS:
                    fallback.append(key)
                    continue
                if key == "__init__":
                    members[key] = ("method", value)
                    del ns[key]  # construction runs through __jit_construct__
                    continue
                ns[key] = _compiled(jit, value, options)
                members[key] = ("method", ns[key])
            elif not (key.startswith("__") and key.endswith("__")):
                members[key] = ("attribute", value)
        if fallback:
            listed = ", ".join(fallback)
            message = (f"@jit_class {qualname}: {listed} run(s) in CPython (JIT Fallback): only methods, "
                       "__init__, __call__, properties, static methods and arithmetic/comparison operators compile")
            if options.fullgraph:
                from .diagnostics import UnsupportedSyntaxError

                raise UnsupportedSyntaxError(message + FULLGRAPH_NOTE, None)
            warnings.warn(TranspileFallbackWarning(message), stacklevel=3)
        if "__call__" not in ns and not any("__call__" in vars(k) for b in bases for k in b.__mro__):
            ns["__call__"] = _no_call  # MindSpore's jit_class raises ValueError here, not TypeError
        ns["__slots__"] = ()
        ns["__qualname__"] = qualname
        if bases == (_runtime.JitObject,):
            ns.setdefault("__repr__", _repr)
        ns["__reduce__"] = _reduce
        cls = type.__new__(mcs, name, bases, ns)
        info = ClassInfo(cls, members, options, None if slots is None else tuple(slots))
        jit_classes.add_info(cls, info)
        for kind, value in members.values():  # super() in a method starts after the class defining it
            fn = getattr(value, "py_func", value)
            if kind != "attribute" and inspect.isfunction(fn):
                fn.__jit_owner__ = info
        info.init = info.lookup("__init__")[1] or _empty_init
        cls.__jit_construct__ = _constructor(info)
        return cls


def _no_call(self, *args, **kwargs):
    raise ValueError(f"MsClassObject: '{type(self).__name__}' has no __call__ function, please check the code.")


def _where(ns) -> str:
    """'file.py:LINE: ' of a class body, from its first method (for errors at decoration)."""
    for value in ns.values():
        code = getattr(getattr(value, "__func__", value), "__code__", None)
        if code is not None:
            return f"{code.co_filename}:{code.co_firstlineno}: "
    return ""


def _compiled(jit, fn, options):
    return jit(fn, **options.arguments())


def _constructor(info: ClassInfo):
    from . import importhook  # noqa: F401  (hands the dispatcher its lookup of prebuilt artifacts)
    from .dispatcher import JitFunction

    impl = JitFunction(info.init, info.options, construct=info)
    return impl.dispatcher


# ---- layouts -------------------------------------------------------------------

_ACCESSORS: dict = {}  # class -> {"get": {field: Dispatcher}, "set": {...}}


def layout_id(t: T.Instance) -> int:
    """The bridge's number for layout t, registering it (and loading its
    accessors) on first use in this process."""
    key = layout_key(t)
    number = jit_classes.known_number(key)
    if number is not None:
        return number
    with _LOCK:
        if jit_classes.known_number(key) is not None:
            return jit_classes.known_number(key)
        for _, ft in t.fields:  # nested layouts first: accessors name their numbers
            _register_nested(ft)
        number = _runtime.register_layout(t.cls.cls, key)
        jit_classes.record_number(key, number, t)
        try:
            _install_accessors(t, number)
        except BaseException:
            jit_classes.forget_number(key)
            raise
        return number


def _register_nested(t: T.Type) -> None:
    if isinstance(t, T.Instance):
        layout_id(t)
    elif isinstance(t, T.Tuple):
        for item in t.items:
            _register_nested(item)


def layout_id_for_key(key: str) -> int:
    """Called by the bridge when fallback code receives an instance of a
    layout this process has not registered yet."""
    return layout_id(jit_classes.layout_by_key(key))


def _install_accessors(t: T.Instance, number: int) -> None:
    from .build.layouts import accessor_module

    info = t.cls
    module = accessor_module(t)
    table = _ACCESSORS.setdefault(info.cls, {"get": {}, "set": {}, "new": {}})
    for name, ft in t.fields:
        getter = table["get"].get(name)
        if getter is None:
            getter = _runtime.Dispatcher(_FieldAccess(info, name, "get"))
            setter = _runtime.Dispatcher(_FieldAccess(info, name, "set"))
            table["get"][name], table["set"][name] = getter, setter
            shadowed = info.members.get(name)
            extra = (shadowed[1],) if shadowed and shadowed[0] == "attribute" else ()
            type.__setattr__(info.cls, name, _runtime.Field(name, getter, setter, *extra))
        inst = T.to_descriptor(t)
        if isinstance(ft, T.Scalar):
            index = [n for n, _ in t.fields].index(name)
            info.cls.__dict__[name].add_direct(number, module.address("offsets") + 8 * index,
                                               T.to_descriptor(ft)[0], ft.np_dtype.num)
        table["get"][name].add_overload(inst, T.to_descriptor(ft), module.address(("get", name)))
        for variant in accepted_variants(ft):
            table["set"][name].add_overload(inst + T.to_descriptor(variant), T.to_descriptor(T.NONE),
                                            module.address(("set", name, T.cache_text(variant))))
    new = _runtime.Dispatcher(_FieldAccess(info, None, "new"))
    new.add_overload((), T.to_descriptor(t), module.address(("new",)))
    table["new"][number] = new


class _FieldAccess:
    """Slow path of a field's getter or setter (a value of another type)."""

    def __init__(self, info, name, kind):
        self.info, self.name, self.kind = info, name, kind

    def __repr__(self) -> str:
        return f"<{self.kind} {self.info.name}.{self.name}>"

    def _slow_call(self, args, kwargs):
        obj = args[0]
        layout = jit_classes.layout_type(obj.__jit_layout__)
        ft = layout.field(self.name)
        if ft is None:
            raise AttributeError(f"'{self.info.name}' object has no attribute '{self.name}'")
        value = args[1]
        converted = _convert_for_field(value, ft)
        if converted is None:
            try:
                got = T.from_descriptor(_runtime.describe(value))[0]
            except (TypeError, LookupError):
                got = type(value).__name__
            raise TypeError(f"{self.info.name}.{self.name} holds {ft}; cannot assign a value of type {got}")
        return _ACCESSORS[self.info.cls]["set"][self.name](obj, converted)


def _convert_for_field(value, ft):
    import numpy as np

    if isinstance(ft, T.Scalar) and isinstance(value, (bool, int, float, complex, np.generic)) \
            and not isinstance(value, np.ndarray):
        src = np.asarray(value).dtype
        if not np.can_cast(src, ft.dtype, "same_kind"):
            return None
        if ft.weak:
            return {"bool": bool, "int64": int, "float64": float, "complex128": complex}[ft.dtype](value)
        return np.dtype(ft.dtype).type(value)
    return None


# ---- Python behaviour of instances ------------------------------------------------------


def _repr(self) -> str:
    t = jit_classes.layout_type_or_none(self.__jit_layout__)
    if t is None:
        return object.__repr__(self)
    inner = ", ".join(f"{name}={getattr(self, name)!r}" for name, _ in t.fields)
    return f"{type(self).__name__}({inner})"


def _reduce(self):
    t = jit_classes.layout_type(self.__jit_layout__)
    return _rebuild, (type(self), T.serialize(t), tuple(getattr(self, name) for name, _ in t.fields))


def _rebuild(cls, layout, values):
    t = T.deserialize(layout)
    number = layout_id(t)
    obj = _ACCESSORS[cls]["new"][number]()
    for (name, _), value in zip(t.fields, values):
        setattr(obj, name, value)
    return obj


jit_classes.install(layout_id)
