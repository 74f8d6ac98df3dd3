"""Which text a function's HIR is built from, by capture mode:

* "ast": the function's source file (an error when it cannot be read);
* "bytecode": the text recovered from its code object (frontend/bytecode);
* "trace": a straight-line record of one call (frontend/trace.py), made
  from the arguments the dispatcher hands remember_call;
* "auto" (the default): the source where it can be read and is a `def`,
  else the recovered text -- `python -c`, `exec`, the REPL and lambdas.
"""
from __future__ import annotations

from _thread import _local as thread_local  # threading.local itself, without importing threading

from ..diagnostics import FunctionNotCompilable
from .source import FunctionSource, get_source, source_readable

_CALL = thread_local()  # trace mode: the arguments of the call being compiled


def mode_of(options) -> str:
    """The frontend mode of a set of @jit options."""
    if options.capture_mode == "ast" and getattr(options, "source_fallback", False):
        return "auto"
    return options.capture_mode


def function_source(pyfunc, mode: str) -> FunctionSource:
    from .bytecode.source import function_source as recovered

    if resolved_mode(pyfunc, mode) == "bytecode":
        return recovered(pyfunc)
    return get_source(pyfunc)


# (code object, its file) -> "ast" | "bytecode": the "auto" decision, made once.  Equal code
# objects compare equal whatever file they name (an exec'd copy of a file's function).
_RESOLVED: dict = {}


def resolved_mode(pyfunc, mode: str) -> str:
    """The mode `mode` resolves to for this function.  The "auto" decision is
    made once per code object and shared by function_source and key_part, so
    a cache entry's key names the text its code was compiled from."""
    if mode != "auto":
        return mode
    code = getattr(pyfunc, "__code__", None)
    memo = (code, getattr(code, "co_filename", None))
    decided = _RESOLVED.get(memo)
    if decided is None:
        decided = "bytecode" if getattr(pyfunc, "__name__", "") == "<lambda>" else "ast"  # a lambda's line is no def
        if decided == "ast" and not source_readable(pyfunc):
            decided = "bytecode"
        if code is not None:
            _RESOLVED[memo] = decided
    return decided


def key_part(pyfunc, options) -> list:
    """What the cache key needs beyond the code object's hash: the text the
    code comes from (its file or the recovered text) and, for recovered text,
    the file the code object names -- the hash leaves it out, and the compiled
    code's error notes and fallback regions read from it."""
    mode = resolved_mode(pyfunc, mode_of(options))
    code = getattr(pyfunc, "__code__", None)
    return [mode, code.co_filename if mode == "bytecode" and code is not None else None]


def captured_text(pyfunc, compiled_fn, options) -> dict:
    """What a cache entry keeps of the text its code was compiled from, for
    `transpile show` / `annotate` without a call: the mode and, for a trace
    (compiled_fn: the record's function) or recovered bytecode, that text."""
    import linecache

    mode = resolved_mode(pyfunc, mode_of(options))
    if mode == "trace":
        return {"mode": mode, "text": "".join(linecache.getlines(compiled_fn.__code__.co_filename))}
    if mode == "bytecode":
        from .bytecode.source import function_source as recovered

        src = recovered(pyfunc)
        return {"mode": mode, "text": src.text, "first_line": src.first_line}
    return {"mode": mode}


def check_free_variables(pyfunc) -> None:
    """A jitted function that is a closure reads its free variables from cells
    its compiled code cannot see: the frontend would read them as globals (a
    NameError, or silently a global of the same name), so it runs in CPython."""
    code = getattr(pyfunc, "__code__", None)
    # super()'s cell, and transpile's own (plain_methods' stub runs the method through __tr_run; its
    # compiled form is the method's rewritten body, which reads no cell)
    free = [name for name in getattr(code, "co_freevars", ()) if name != "__class__" and not name.startswith("__tr_")]
    if free:
        from ..diagnostics import SourceLoc

        raise FunctionNotCompilable(
            f"{pyfunc.__qualname__} is a closure over {', '.join(repr(n) for n in free)}: compiled code reads no "
            "closure cells", SourceLoc(code.co_filename, code.co_firstlineno, 0),
            "the whole function runs in CPython; pass the values as arguments, or define it at module level")


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
