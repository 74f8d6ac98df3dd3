"""Python source -> hir.Function."""
from __future__ import annotations

_HIR_CACHE: dict = {}
_GIVEN: dict = {}  # functions whose HIR was derived from another's (register_hir)


def register_hir(pyfunc, hir) -> None:
    """Makes `hir` the HIR of pyfunc in every capture mode: a function the
    compiler derived (passes/plain_methods.py) rather than one with source."""
    _GIVEN[pyfunc] = hir


def function_hir(pyfunc, capture_mode: str = "auto"):
    """The HIR of a Python function (parsed once per process and mode):
    capture_mode "ast", "bytecode" or "auto" (frontend/capture.py)."""
    hir = _GIVEN.get(pyfunc) or _HIR_CACHE.get((pyfunc, capture_mode))
    if hir is None:
        from .capture import function_source
        from .parse import parse_function
        from .to_hir import to_hir

        src = function_source(pyfunc, capture_mode)
        node, positions = parse_function(src)
        hir = to_hir(node, positions, src, pyfunc.__qualname__)
        _HIR_CACHE[(pyfunc, capture_mode)] = hir
    return hir
