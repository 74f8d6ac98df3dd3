"""Frozen value classes without `dataclasses`.

@dataclass(frozen=True) writes each class's methods as source text and
compiles it with exec: ~1.5 ms per class, and `import dataclasses` itself ~1
ms.  The classes every process makes (the type lattice, @jit's Options,
SourceLoc) and those of every build (the HIR's ~45 node classes) are made
with value_type instead: the same behaviour (__init__ over the annotated
fields with their defaults, ==, hash, repr, no assignment) from closures.
"""
from __future__ import annotations


def value_type(cls=None, *, eq: bool = True, hidden: tuple = ()):
    """A frozen value class: what @dataclass(frozen=True, eq=eq) makes
    (__init__ over the annotated fields, a base class's first, with their
    defaults; == and hash over the fields, or identity with eq=False; repr
    without the `hidden` fields; no assignment) without generating code with
    exec.  Usable bare (@value_type) or with options (@value_type(eq=False))."""
    if cls is None:
        return lambda c: value_type(c, eq=eq, hidden=hidden)
    inherited = next((b.__value_fields__ for b in cls.__mro__[1:] if "__value_fields__" in b.__dict__), ())
    own = tuple(n for n in cls.__dict__.get("__annotations__", {}) if n not in inherited)
    names = inherited + own
    known = frozenset(names)
    defaults = {n: getattr(cls, n) for n in names if hasattr(cls, n)}
    shown = tuple(n for n in names if n not in hidden)

    def __init__(self, *args, **kwargs):
        if len(args) == len(names) and not kwargs:  # all given in order: the commonest call
            for name, value in zip(names, args):
                object.__setattr__(self, name, value)
            return
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
        if not known.issuperset(given):
            unknown = next(n for n in given if n not in known)
            raise TypeError(f"{cls.__name__}() got an unexpected keyword argument '{unknown}'")

    def values(self):
        return tuple(getattr(self, n) for n in names)

    def __eq__(self, other):
        return other.__class__ is self.__class__ and values(self) == values(other)

    def __hash__(self):
        return hash((cls.__name__,) + values(self))

    def __repr__(self):
        return f"{cls.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in shown)})"

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot assign to field '{name}' of a {cls.__name__} (its values are immutable)")

    cls.__init__ = __init__
    cls.__setattr__ = __setattr__
    cls.__delattr__ = __setattr__
    cls.__value_fields__ = names
    if eq and "__eq__" not in cls.__dict__:
        cls.__eq__ = __eq__
    if eq and cls.__dict__.get("__hash__") is None:
        cls.__hash__ = __hash__
    # a repr of the class or of a base (the types' spelling) stays, unless a base's is one made here
    if "__repr__" not in cls.__dict__ and (cls.__repr__ is object.__repr__ or getattr(cls.__repr__, "made", False)):
        __repr__.made = True
        cls.__repr__ = __repr__
    return cls


def fields(obj) -> tuple:
    """The field names of a value_type class or instance, in order (what
    dataclasses.fields gives, as names)."""
    return obj.__value_fields__


def as_dict(obj) -> dict:
    """The fields of a value_type instance, by name, in declaration order."""
    return {n: getattr(obj, n) for n in obj.__value_fields__}


def replace(obj, **changes):
    """A copy of a value_type instance with some fields changed (what
    dataclasses.replace does)."""
    return type(obj)(**dict(as_dict(obj), **changes))
