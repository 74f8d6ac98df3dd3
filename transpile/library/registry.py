"""The table of library entries: each family module registers its callables
and array methods here when imported, and wrappers (lists.py, dicts.py)
read the entry they wrap.  library/__init__.py loads the families and
answers the typer's and the lowerer's lookups."""
from __future__ import annotations

from .base import Entry

_BY_ID: dict[int, Entry] = {}
_KEEP = []  # keeps keyed objects alive so ids stay unique
_METHODS: dict[str, Entry] = {}
_WRAPPERS: list = []  # (declaring module, callable, make): see wrap()


def register(obj, entry: Entry) -> None:
    _BY_ID[id(obj)] = entry
    _KEEP.append(obj)


def register_method(name: str, entry: Entry) -> None:
    _METHODS[name] = entry


def wrap(obj, make) -> None:
    """Declares that the calling table extends obj's entry: make(entry or None)
    gives the new entry.  Wrappers run once every table is loaded
    (library/__init__.py), in the order of the tables, so a table never needs
    the ones it wraps imported first."""
    _WRAPPERS.append((make.__module__, obj, make))


def apply_wrappers(modules: list[str]) -> None:
    for module in modules:
        for owner, obj, make in _WRAPPERS:
            if owner == module:
                register(obj, make(entry_for(obj)))
    _WRAPPERS[:] = [w for w in _WRAPPERS if w[0] not in modules]


def entry_for(obj) -> Entry | None:
    """The entry registered for obj so far (the families imported until now)."""
    try:
        return _BY_ID.get(id(obj))
    except TypeError:
        return None


def method_entry(name: str) -> Entry | None:
    return _METHODS.get(name)


def entries() -> list[Entry]:
    return list(_BY_ID.values()) + list(_METHODS.values())
