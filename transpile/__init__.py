"""transpile: a Python -> C++ compiler for numeric Python.

    from transpile import jit

    @jit
    def f(a, b, c):
        return a * b + c

Importing transpile is cheap: libcst, Jinja2 and the compiler are touched
only when something has to be compiled.
"""
from . import timing as _timing  # first: TRANSPILE_TIMING=1 reports this import's time
from .decorators import jit
from . import pickling as _pickling  # noqa: F401 - @jit functions pickle (process pools, clusters)
from .diagnostics import (
    AnnotationError,
    CompileError,
    TranspileError,
    TranspileFallbackWarning,
    TypingError,
    UnsupportedSyntaxError,
)

__version__ = "0.1.0"
__all__ = ["jit", "jit_class", "prange", "njit", "vectorize", "guvectorize", "vmap", "AnnotationError", "TranspileFallbackWarning", "CompileError", "TranspileError", "TypingError", "UnsupportedSyntaxError", "cache", "types",
           "errors", "install_import_hook", "__version__"]
_timing.imported()


def compile_count() -> int:
    """How many specializations this process has translated and compiled (not
    loaded from the cache or received in a pickle)."""
    from . import dispatcher

    return dispatcher.COMPILE_COUNT


def __getattr__(name):
    # Imported on first use: a script that calls one cached @jit function needs none of these
    # (each module costs a warm start ~0.2-0.5 ms)
    if name == "jit_class":  # transpile/classes.py
        from .classes import jit_class

        return jit_class
    if name == "prange":  # transpile/parallel.py
        from .parallel import prange

        return prange
    if name in ("install_import_hook", "uninstall_import_hook"):  # transpile/importhook.py
        from . import importhook

        return getattr(importhook, name)
    if name in ("njit", "vectorize", "guvectorize"):  # the Numba drop-in (transpile/numba_compat)
        from . import numba_compat

        return getattr(numba_compat, name)
    if name == "vmap":  # MindSpore's / JAX's vmap (transpile/vmapping.py)
        from .vmapping import vmap

        return vmap
    if name in ("cache", "types", "errors"):
        import importlib

        module = importlib.import_module(f".{name}" if name != "types" else ".hir.types", __name__)
        globals()[name] = module
        return module
    raise AttributeError(f"module 'transpile' has no attribute {name!r}")
