"""How control leaves a statement that runs as Python other than by
falling through: a `break` or `continue` of the compiled loop around it, or
a `return` of the function. The region reports which one ended it
(fallback_rt.py) and compiled code carries it out (cxx/lower_regions.py),
so such a statement no longer makes the whole function run in CPython.
`yield` and `nonlocal` still do."""
from __future__ import annotations

import ast

from ..diagnostics import TypingError
from ..hir import types as T

EXITS = ("break", "continue", "return")
CODES = {"break": 1, "continue": 2, "return": 3}  # the region's __tr_exit (0: it fell through)


def leaves_with_value(node) -> bool:
    """Whether a `return` node may give something other than None."""
    return node.value is not None and not (isinstance(node.value, ast.Constant) and node.value.value is None)


def note_exits(typer, s, info, escapes) -> None:
    """Records the exits of fallback statement s (escapes: (kind, ast node)
    from fallback.analyse). An exit may come before any of its assignments,
    so none is certain (the names keep their old values, and reaching
    definitions see them on the exit's path too). A returned value is a
    Python object: then every return boxes its own value (the function's
    result is `object`), as for a `return` that runs as Python itself."""
    info.exits = frozenset(kind for kind, _ in escapes)
    info.definite = set()
    info.return_value = any(kind == "return" and leaves_with_value(node) for kind, node in escapes)
    if "return" not in info.exits:
        return
    old = typer.tf.return_type
    try:
        new = typer.join_return(s, old, T.ANY if info.return_value else T.NONE)
    except TypingError:  # None beside compiled results that cannot be Optional
        new = T.ANY
    if new != old:
        typer.tf.return_type = new
        typer.changed = True
