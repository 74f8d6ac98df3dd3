"""Loading compiled modules: one dlopen per library, entry addresses by name."""
from __future__ import annotations

from .. import _runtime

_HANDLES: dict[str, int] = {}


def handle(library_path: str) -> int:
    h = _HANDLES.get(library_path)
    if h is None:
        h = _runtime.load_library(library_path)
        _HANDLES[library_path] = h
        _set_recursion_limit(h)
        _set_interrupt_flag(h)
    return h


def _set_interrupt_flag(h: int) -> None:
    """A module whose loops poll for Ctrl-C reads the bridge's flag (interrupt.hpp)."""
    try:
        address = _runtime.symbol(h, "tr_interrupt")
    except ImportError:
        return  # no loop that polls
    import ctypes

    ctypes.c_void_p.from_address(address).value = _runtime.interrupt_flag()


def _set_recursion_limit(h: int) -> None:
    """A module with recursive functions counts their depth against Python's
    recursion limit as it is when the module is loaded (recursion.hpp)."""
    try:
        address = _runtime.symbol(h, "tr_recursion_limit")
    except ImportError:
        return  # no recursion in this module
    import ctypes
    import sys

    ctypes.c_int.from_address(address).value = sys.getrecursionlimit()


def entry_address(library_path: str, symbol: str) -> int:
    return _runtime.symbol(handle(library_path), symbol)


def init_regions(library_path: str, regions: tuple) -> None:
    """Hands a module with fallback regions the bridge's services and its
    region callables (the caller keeps `regions` alive)."""
    _runtime.init_module(handle(library_path), regions)
