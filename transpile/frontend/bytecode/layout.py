"""A recovered `def` (Python `ast`) -> source text whose statements sit on the
lines the line table gives them, so SourceLocs, `show`/`annotate` and
fallback regions name the user's line numbers."""
from __future__ import annotations

import ast

_INDENT = "    "


class _Writer:
    def __init__(self, first_line: int):
        self.first = first_line
        self.lines: list = []  # text line i is file line first + i

    def put(self, want: int | None, depth: int, text: str) -> None:
        line = self.first + len(self.lines)
        while want is not None and line < want:  # blank lines up to the statement's own line
            self.lines.append("")
            line += 1
        self.lines.append(_INDENT * depth + text)


class _ExactConstants(ast.NodeTransformer):
    """Complex constants whose text would not give them back: -2j folds to
    complex(-0.0, -2.0), which the display (-0-2j) would not."""

    def visit_Constant(self, node):
        value = node.value
        if isinstance(value, complex) and eval(ast.unparse(node)) != value or \
                isinstance(value, (complex, float)) and repr(eval(ast.unparse(node))) != repr(value):
            return ast.UnaryOp(ast.USub(), ast.Constant(-value))
        return node


def _simple(node) -> bool:
    return not isinstance(node, (ast.If, ast.While, ast.For, ast.FunctionDef))


def _block(w: _Writer, body: list, depth: int) -> None:
    for node in body:
        _stmt(w, node, depth)


def _stmt(w: _Writer, node, depth: int, keyword: str = "if") -> None:
    want = getattr(node, "lineno", None)
    if isinstance(node, ast.If):
        w.put(want, depth, f"{keyword} {ast.unparse(node.test)}:")
        _block(w, node.body, depth + 1)
        if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            _stmt(w, node.orelse[0], depth, "elif")
        elif node.orelse:
            _else(w, node.orelse, depth)
    elif isinstance(node, ast.While):
        w.put(want, depth, f"while {ast.unparse(node.test)}:")
        _block(w, node.body, depth + 1)
        _else(w, node.orelse, depth)
    elif isinstance(node, ast.FunctionDef):
        w.put(want, depth, f"def {node.name}({ast.unparse(node.args)}):")
        _block(w, node.body, depth + 1)
    elif isinstance(node, ast.For):
        w.put(want, depth, f"for {ast.unparse(node.target)} in {ast.unparse(node.iter)}:")
        _block(w, node.body, depth + 1)
        _else(w, node.orelse, depth)
    else:
        w.put(want, depth, ast.unparse(ast.fix_missing_locations(node)))


def _else(w: _Writer, body: list, depth: int) -> None:
    if body:
        w.put(None, depth, "else:")
        _block(w, body, depth + 1)


def function_text(fn: ast.FunctionDef) -> tuple[str, int]:
    """(text, file line of its first line).  A body that is one simple
    statement on the def's own line (a lambda) stays on that line."""
    fn = _ExactConstants().visit(fn)
    header = f"def {fn.name}({ast.unparse(fn.args)}):"
    w = _Writer(fn.lineno)
    body = fn.body
    if len(body) == 1 and _simple(body[0]) and getattr(body[0], "lineno", None) in (None, fn.lineno):
        w.put(None, 0, f"{header} {ast.unparse(ast.fix_missing_locations(body[0]))}")
    else:
        w.put(None, 0, header)
        _block(w, body, 1)
    return "\n".join(w.lines) + "\n", fn.lineno
