"""The support tables: which Python callables compile, how they type and
how they are spelled in C++.  One module per family; this module only finds
entries."""
from __future__ import annotations

from .base import Entry
from .registry import apply_wrappers, entries, entry_for, method_entry, register, register_method  # noqa: F401

_LOADED = False


def _load() -> None:
    global _LOADED
    if not _LOADED:
        _LOADED = True
        from . import builtins_lib, math_lib  # noqa: F401  (they register themselves)
        from . import numpy_ufuncs, numpy_creation, numpy_reductions, numpy_linalg  # noqa: F401
        from . import numpy_shape, numpy_join, numpy_sorting, numpy_stats, numpy_iter  # noqa: F401
        from . import lists  # noqa: F401  (wraps len/sum/min/max/sorted/list/tuple/np.array... for lists)
        from . import dicts  # noqa: F401  (strs, dicts, sets, itertools; wraps len)
        from . import print_lib, random_lib  # noqa: F401

        apply_wrappers([lists.__name__, dicts.__name__])
        from . import python_calls

        python_calls.register_all()  # last: the functions no table above compiles


def lookup_callable(obj) -> Entry | None:
    _load()
    return entry_for(obj)


def lookup_method(receiver_type, name: str) -> Entry | None:
    _load()
    from ..hir import types as T

    if isinstance(receiver_type, (T.Array, T.Scalar)):
        return method_entry(name)
    return None


def lookup_iteration(kind: str):
    """The rule of a library iterator type (T.LibIter): its loop element, its subscripts."""
    _load()
    from .numpy_iter import RULES

    return RULES[kind]


def all_entries() -> list[Entry]:
    _load()
    return entries()
