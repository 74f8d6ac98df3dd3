"""@jit: validates options and wraps the function; only signatures=[...]
compiles here (the rest on the first call with new argument types)."""
from __future__ import annotations

import contextlib
import functools
import inspect

from .options import make_options


def jit(function=None, *, capture_mode=None, jit_level="O0", dynamic=False, fullgraph=False, backend="cpu",
        cache=True, boundscheck=True, signatures=None, **options):
    """Compile a numeric Python function to C++ on its first call with new argument types.

    Usable bare (``@jit``), with options (``@jit(jit_level="O1")``) or as a call
    (``jit(function=f)``), mirroring ``mindspore.jit``: capture_mode ("ast": from the source file;
    "bytecode": from the code object; unset: the source file where it can be
    read, else the bytecode),
    jit_level ("O0": every check, fast compile; "O1": fused array expressions,
    -O3 and native vectorization), dynamic (accepted; shapes are always
    dynamic), fullgraph, backend ("cpu", "cuda", "ascend"; MindSpore's "GE" and
    "ms_backend" are mapped with a warning), plus cache (use the on-disk cache),
    boundscheck (IndexError on out-of-range indices), fastmath (allow GCC's
    fast-math transformations: True or Numba's flag names), and signatures
    (argument types `transpile build` compiles ahead of time, e.g.
    ``["float64[:], int64"]``).  MindSpore's mode="PSJit"/"PIJit", jit_config,
    input_signature and backend options are read as options.make_options says.
    """
    fn = function
    if options:  # Numba's spellings (nopython=True, parallel=True, ...) mean here what they mean there
        from .numba_options import NUMBA_OPTIONS, map_options  # (not on a warm start's path)

        numba = {name: options.pop(name) for name in list(options) if name in NUMBA_OPTIONS}
        mapped = map_options(numba, default_nopython=False) if numba else {}
        fullgraph = fullgraph or mapped.get("fullgraph", False)
        jit_level = mapped.get("jit_level", jit_level)
    opts = make_options(capture_mode=capture_mode, jit_level=jit_level, dynamic=dynamic, fullgraph=fullgraph,
                        backend=backend, cache=cache, boundscheck=boundscheck, signatures=signatures,
                        check_toolkit=_check_toolkit, **options)

    def wrap(func):
        if not inspect.isfunction(func):
            raise TypeError(f"@jit can only decorate Python functions, not {type(func).__name__}")
        from . import importhook  # noqa: F401  (hands the dispatcher its lookup of prebuilt artifacts)
        from .dispatcher import JitFunction

        if opts.capture_mode == "trace":  # a closure's free variables become hidden arguments
            from .frontend.trace import ClosureCall, closure_shim

            shim = closure_shim(func)
            if shim is not None:
                return ClosureCall(func, wrap(shim))
        impl = JitFunction(func, opts)
        dispatcher = impl.dispatcher
        functools.update_wrapper(dispatcher, func)
        if opts.signatures and not _DEFERRED:
            _compile_signatures(impl)
        return dispatcher

    if fn is None:
        return wrap
    return wrap(fn)


def _check_toolkit(backend: str) -> None:
    """build.backends.check_toolkit, imported only for a device backend (make_options asks only then)."""
    from .build.backends import check_toolkit

    check_toolkit(backend)


_DEFERRED: list = []  # non-empty while `transpile build`/`show`/`annotate` import modules


@contextlib.contextmanager
def deferred():
    """signatures=[...] are not compiled at decoration while this holds: the
    tools that import modules to read them build (or only translate) themselves."""
    _DEFERRED.append(True)
    try:
        yield
    finally:
        _DEFERRED.pop()


def _compile_signatures(impl) -> None:
    """Compiles (or loads) each of signatures=[...] when the function is
    decorated, as Numba does.  What would make the first call run as Python
    (no usable compiler, a function that cannot be compiled, a bug in the
    generated C++) is left to that call, which warns or raises; errors about
    the code itself are raised here under fullgraph=True."""
    from .diagnostics import FunctionNotCompilable, GeneratedCodeError, NoCompilerError, TranspileError
    from .eager import compile_all
    from .hir import types as T

    signatures = [tuple(T.parse_signature(text)) for text in impl.options.signatures]
    for exc in compile_all(impl, signatures):  # several compile at once
        if exc is None or isinstance(exc, (NoCompilerError, FunctionNotCompilable, GeneratedCodeError)):
            continue  # the first call runs it as Python, warned (an import never fails for want of a compiler)
        if not isinstance(exc, TranspileError):
            raise exc
        if impl.options.fullgraph:
            raise exc.with_traceback(None) from None
