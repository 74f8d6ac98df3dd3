"""Function values (issue 13): the type of a function passed, stored or
returned as a value, and its number in the bridge's descriptors.

A function value is typed by its identity, like a C++ template argument: a
callee taking one is specialized for that function and calls it directly
(inlinable), so nothing about it exists at run time except the object itself
(kept for the statements that run as Python).  A plain function without
defaults or keyword defaults is keyed by its code and globals instead of
the object: every evaluation of one `lambda` expression makes a new object
that behaves the same, and must not compile again.  So is a closure (keyed
apart from closure-free functions): compiled code never compiles one (its
calls run as Python, on the object passed), so its cells do not matter.

The bridge numbers keys when a descriptor first names them; the dispatcher
layer installs the function that registers one (transpile.function_args), so
no module below it imports the bridge."""
from __future__ import annotations

import types

from .lattice import Optional, Tuple, Type

_NUMBERS: dict = {}  # key -> number in the bridge
_register = None  # (fn, code or None, globals or None) -> number: set by transpile.function_args


def key_of(fn) -> tuple:
    """What decides a function value's type: its code and globals where that
    decides its behaviour, else the object itself."""
    if isinstance(fn, types.FunctionType) and not fn.__defaults__ and not fn.__kwdefaults__:
        return ("closure" if fn.__closure__ else "code", id(fn.__code__), id(fn.__globals__))
    return ("object", id(fn))


class Function(Type):
    """A function as a value.  `fn` is the object compiled code was
    specialized for (a @jit dispatcher, a plain function, a lambda, a library
    callable); two values of one key are the same type.  The type holds `fn`,
    so the ids in its key stay unique while it exists."""

    __slots__ = ("fn", "key")

    def __init__(self, fn):
        object.__setattr__(self, "fn", fn)
        object.__setattr__(self, "key", key_of(fn))

    def __setattr__(self, name, value):
        raise AttributeError("types are immutable")

    def __eq__(self, other) -> bool:
        return isinstance(other, Function) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    @property
    def qualname(self) -> str:
        fn = getattr(self.fn, "py_func", self.fn)
        module = getattr(fn, "__module__", None) or ""
        name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or type(fn).__name__
        return f"{module}.{name}" if module and module != "builtins" else name

    def spell(self) -> str:
        return f"function[{self.qualname}]"


def install(register) -> None:
    """Called once by the dispatcher layer: register(fn, code, globals) gives a
    key its number in the bridge."""
    global _register
    _register = register


def number(t: Function) -> int:
    """The bridge's number for t's key, registering it on first use."""
    n = _NUMBERS.get(t.key)
    if n is None:
        fn = t.fn
        code_keyed = t.key[0] != "object"
        n = _register(fn, fn.__code__ if code_keyed else None, fn.__globals__ if code_keyed else None,
                      t.key[0] == "closure")
        _NUMBERS[t.key] = n
    return n


def functions_in(t: Type) -> list:
    """The function values inside a type (arguments: tuples of them)."""
    if isinstance(t, Function):
        return [t]
    if isinstance(t, Tuple):
        return [f for item in t.items for f in functions_in(item)]
    if isinstance(t, Optional):
        return functions_in(t.inner)
    return []
