"""Numba's names on transpile: code written for Numba runs after changing
only its import (README "Coming from Numba").

    from transpile.numba_compat import njit, prange, vectorize, guvectorize
    from transpile.numba_compat import jitclass, objmode, typed, types

Numba's options are mapped onto transpile's (transpile/numba_options.py); what
cannot be honoured is a NumbaCompatWarning or an error, never silently
ignored.  Results are CPython's (the undecorated function's), which is where
transpile and Numba can differ: a declared return type does not convert the
result, error_model='numpy' is not followed.
"""
from ..parallel import prange
from . import typed, types
from .decorators import jit, jitclass, njit
from .objmode import objmode
from .threads import (cfunc, config, get_num_threads, get_thread_id, literal_unroll, set_num_threads,
                      stencil)
from ..numba_options import NumbaCompatWarning
from .ufuncs import guvectorize, vectorize

__all__ = ["jit", "njit", "prange", "vectorize", "guvectorize", "jitclass", "objmode", "typed", "types",
           "NumbaCompatWarning", "config", "get_num_threads", "set_num_threads", "get_thread_id",
           "literal_unroll", "cfunc", "stencil"]


def __getattr__(name):
    """Numba's top-level type names (numba.float64, numba.f8, ...)."""
    value = getattr(types, name, None)
    if isinstance(value, types.NumbaType):
        return value
    raise AttributeError(f"module 'transpile.numba_compat' has no attribute {name!r}")
