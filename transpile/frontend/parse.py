"""Parsing with libcst: the syntax tree plus the position of every node."""
from __future__ import annotations

import warnings

with warnings.catch_warnings():
    # libcst's metadata package imports a deprecated mypy_extensions name;
    # users running with -W error must not see our dependency's warning.
    warnings.simplefilter("ignore", DeprecationWarning)
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

from ..diagnostics import UnsupportedSyntaxError
from .source import FunctionSource


def parse_function(src: FunctionSource):
    """Returns (libcst FunctionDef, positions mapping node -> CodeRange)."""
    try:
        module = cst.parse_module(src.text)
    except cst.ParserSyntaxError as exc:
        raise UnsupportedSyntaxError(f"cannot parse: {exc.message}", src.loc(exc.raw_line, exc.raw_column)) from None
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    for stmt in wrapper.module.body:
        if isinstance(stmt, cst.FunctionDef):
            return stmt, positions
    raise UnsupportedSyntaxError("expected a function definition", src.loc(1, 0))
