"""Loading compiled modules: one dlopen per library, entry addresses by name."""
from __future__ import annotations

from .. import _runtime

_HANDLES: dict[str, int] = {}


def handle(library_path: str) -> int:
    h = _HANDLES.get(library_path)
    if h is None:
        h = _runtime.load_library(library_path)
        _HANDLES[library_path] = h
    return h


def entry_address(library_path: str, symbol: str) -> int:
    return _runtime.symbol(handle(library_path), symbol)


def init_regions(library_path: str, regions: tuple) -> None:
    """Hands a module with fallback regions the bridge's services and its
    region callables (the caller keeps `regions` alive)."""
    _runtime.init_module(handle(library_path), regions)
