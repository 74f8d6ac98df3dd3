"""Python source -> hir.Function."""
from __future__ import annotations

_HIR_CACHE: dict = {}


def function_hir(pyfunc, capture_mode: str = "auto"):
    """The HIR of a Python function (parsed once per process and mode):
    capture_mode "ast", "bytecode" or "auto" (frontend/capture.py)."""
    hir = _HIR_CACHE.get((pyfunc, capture_mode))
    if hir is None:
        from .capture import function_source
        from .parse import parse_function
        from .to_hir import to_hir

        src = function_source(pyfunc, capture_mode)
        node, positions = parse_function(src)
        hir = to_hir(node, positions, src, pyfunc.__qualname__)
        _HIR_CACHE[(pyfunc, capture_mode)] = hir
    return hir
