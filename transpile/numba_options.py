"""Numba's @jit options mapped onto transpile's (README "Coming from Numba").

| Numba | here |
| --- | --- |
| nopython=True (njit, and jit's default since Numba 0.59) | fullgraph=True |
| nopython=False, forceobj=True | fullgraph=False (what cannot compile runs as Python) |
| parallel=True | jit_level="O1" (array expressions on threads); prange loops are parallel at every level |
| fastmath=True / a set of LLVM flags | fastmath: GCC's -ffast-math / the matching -f flags |
| boundscheck | boundscheck (not given: checks stay on, as CPython raises IndexError) |
| cache | cache (not given: transpile's disk cache, which is always safe) |
| nogil | accepted: code that touches no Python object runs without the GIL anyway (cxx/nogil.py) |
| error_model, inline, locals, debug | accepted with a NumbaCompatWarning saying what is not honoured |
"""
from __future__ import annotations

import warnings

from .options import caller_level



class NumbaCompatWarning(UserWarning):
    """A Numba option that transpile accepts but cannot honour as Numba does."""


_WARNED: set = set()


def warn_once(key, message: str) -> None:
    if key not in _WARNED:
        _WARNED.add(key)
        warnings.warn(NumbaCompatWarning(message), stacklevel=caller_level())


# Options with no effect on results here: what each one means is said in the warning.
_IGNORED = {
    "error_model": ("numpy", "error_model='numpy' is not honoured: compiled code raises CPython's errors "
                             "(ZeroDivisionError for Python numbers)"),
    "inline": ("always", "inline='always' is not honoured: the C++ compiler decides what to inline"),
    "debug": (True, "debug=True is not honoured: see f.inspect_cxx() and `transpile annotate`"),
    "locals": (None, "locals= is not honoured: local types are inferred (CPython's types)"),
}
# nogil: every specialization whose code touches no Python object runs without the GIL
# (cxx/nogil.py), which is what nogil=True asks; code that prints or falls back keeps it.
_SILENT = {"nogil", "looplift", "no_cpython_wrapper", "no_cfunc_wrapper", "_nrt", "no_rewrites", "target_backend",
           "pipeline_class", "_dbg_extend_lifetimes", "_dbg_optnone", "forceinline"}


# The names that are Numba's alone (cache, boundscheck and fastmath are transpile's options too):
# transpile.jit maps them as numba_compat's jit does.
NUMBA_OPTIONS = frozenset({"nopython", "forceobj", "parallel", "target", *_IGNORED, *_SILENT})


def map_options(numba: dict, default_nopython: bool = True) -> dict:
    """transpile.jit keyword arguments for Numba's options."""
    numba = dict(numba)
    out = {}
    nopython = numba.pop("nopython", default_nopython)
    if numba.pop("forceobj", False):
        nopython = False
    out["fullgraph"] = bool(nopython)
    if numba.pop("parallel", False):
        out["jit_level"] = "O1"
    fastmath = numba.pop("fastmath", False)
    if fastmath:
        out["fastmath"] = fastmath
    for name in ("boundscheck", "cache"):
        value = numba.pop(name, None)
        if value is not None:
            out[name] = bool(value)
    for name, (bad, message) in _IGNORED.items():
        if name not in numba:
            continue
        value = numba.pop(name)
        if (bad is None and value) or value == bad:
            warn_once((name, repr(value)), message)
    target = numba.pop("target", "cpu")
    if target not in ("cpu", "parallel"):
        raise NotImplementedError(f"target={target!r} is not supported by transpile.numba_compat; use "
                                  "transpile.jit(backend='cuda') with prange loops for GPUs")
    if target == "parallel":
        out["jit_level"] = "O1"
    for name in list(numba):
        if name in _SILENT:
            numba.pop(name)
    if numba:
        raise TypeError(f"unknown Numba option(s): {', '.join(sorted(numba))}")
    return out
