"""@jit: validates options and wraps the function; nothing compiles here."""
from __future__ import annotations

import functools
import inspect

from .options import make_options


def jit(function=None, *, capture_mode="ast", jit_level="O0", dynamic=False, fullgraph=False, backend="cpu",
        cache=True, boundscheck=True, signatures=None, **options):
    """Compile a numeric Python function to C++ on its first call with new argument types.

    Usable bare (``@jit``), with options (``@jit(jit_level="O1")``) or as a call
    (``jit(function=f)``), mirroring ``mindspore.jit``: capture_mode ("ast"),
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
    opts = make_options(capture_mode=capture_mode, jit_level=jit_level, dynamic=dynamic, fullgraph=fullgraph,
                        backend=backend, cache=cache, boundscheck=boundscheck, signatures=signatures,
                        **options)

    def wrap(func):
        if not inspect.isfunction(func):
            raise TypeError(f"@jit can only decorate Python functions, not {type(func).__name__}")
        from .dispatcher import JitFunction

        impl = JitFunction(func, opts)
        dispatcher = impl.dispatcher
        functools.update_wrapper(dispatcher, func)
        return dispatcher

    if fn is None:
        return wrap
    return wrap(fn)
