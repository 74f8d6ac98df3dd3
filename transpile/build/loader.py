"""Loading compiled modules: one dlopen per library, entry addresses by name."""
from __future__ import annotations

from .. import _runtime

_HANDLES: dict[str, int] = {}


def entry_address(library_path: str, symbol: str) -> int:
    handle = _HANDLES.get(library_path)
    if handle is None:
        handle = _runtime.load_library(library_path)
        _HANDLES[library_path] = handle
    return _runtime.symbol(handle, symbol)
