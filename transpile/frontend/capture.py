"""Which text a function's HIR is built from, by capture mode:

* "ast": the function's source file (an error when it cannot be read);
* "bytecode": the text recovered from its code object (frontend/bytecode);
* "trace": a straight-line record of one call (frontend/trace.py), made
  from the arguments the dispatcher hands remember_call;
* "auto" (the default): the source where it can be read and is a `def`,
  else the recovered text -- `python -c`, `exec`, the REPL and lambdas.
"""
from __future__ import annotations

import threading

from ..diagnostics import FunctionNotCompilable, TranspileError
from .source import FunctionSource, get_source

_CALL = threading.local()  # trace mode: the arguments of the call being compiled


def mode_of(options) -> str:
    """The frontend mode of a set of @jit options."""
    if options.capture_mode == "ast" and getattr(options, "source_fallback", False):
        return "auto"
    return options.capture_mode


def function_source(pyfunc, mode: str) -> FunctionSource:
    from .bytecode.source import function_source as recovered

    if mode == "bytecode":
        return recovered(pyfunc)
    if mode == "auto":
        if getattr(pyfunc, "__name__", "") == "<lambda>":  # its source line is not a def
            return recovered(pyfunc)
        try:
            return get_source(pyfunc)
        except TranspileError:
            return recovered(pyfunc)
    return get_source(pyfunc)


def effective_mode(pyfunc, mode: str) -> str:
    """The mode `mode` resolves to for this function (part of the cache key:
    the same code object may be compiled from its file or from its bytecode)."""
    if mode != "auto":
        return mode
    if getattr(pyfunc, "__name__", "") == "<lambda>":
        return "bytecode"
    import inspect

    try:
        inspect.getsourcelines(pyfunc)
    except (OSError, TypeError):
        return "bytecode"
    return "ast"


def remember_call(pyfunc, args: tuple, arg_types: tuple) -> None:
    """The dispatcher's slow path, before it compiles a trace-mode function."""
    _CALL.call = (pyfunc, args, tuple(arg_types))


def traced(pyfunc, mode: str, arg_types: tuple):
    """For trace mode, the function holding the record of the remembered call
    (its HIR from its own text); for the other modes None.  Only a call of
    this function with these argument types is traced: a compile without one
    (f.compile(signature), inspection) cannot trace."""
    if mode != "trace":
        return None
    call = getattr(_CALL, "call", None)
    _CALL.call = None
    if call is None or call[0] is not pyfunc or call[2] != tuple(arg_types):
        raise FunctionNotCompilable("capture_mode='trace' compiles on a call, from the values passed",
                                    None, "call the function (ahead-of-time builds need capture_mode='ast')")
    from .trace import traced_function

    return traced_function(pyfunc, call[1])
