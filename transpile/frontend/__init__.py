"""Python source -> hir.Function."""
from __future__ import annotations

_HIR_CACHE: dict = {}


def function_hir(pyfunc):
    """The HIR of a Python function (parsed once per process)."""
    hir = _HIR_CACHE.get(pyfunc)
    if hir is None:
        from .parse import parse_function
        from .source import get_source
        from .to_hir import to_hir

        src = get_source(pyfunc)
        node, positions = parse_function(src)
        hir = to_hir(node, positions, src, pyfunc.__qualname__)
        _HIR_CACHE[pyfunc] = hir
    return hir
