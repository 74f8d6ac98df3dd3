"""The names one statement's own source loads and stores, and the
return/break/continue/yield/nonlocal that leave it, found with the standard
`ast` module (passes/fallback.py analyses statements that run as Python
with it; fallback_rt.py finds the exits of a region's statements, so it
stays light enough to load with a cached entry)."""
from __future__ import annotations

import ast


class Names(ast.NodeVisitor):
    """Loads and stores of one statement; stores inside nested scopes
    (lambdas, comprehensions, inner functions) are not the function's."""

    def __init__(self):
        self.loads: set = set()
        self.stores: set = set()
        self.escapes: list = []  # (kind, node) of return/break/continue/yield/nonlocal leaving the region
        self.depth_scope = 0
        self.depth_loop = 0

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load):
            self.loads.add(node.id)
        elif self.depth_scope == 0:
            self.stores.add(node.id)
            if isinstance(node.ctx, ast.Del):
                self.loads.add(node.id)

    def _scope(self, node, name=None):
        if name and self.depth_scope == 0:
            self.stores.add(name)
        self.depth_scope += 1
        self.generic_visit(node)
        self.depth_scope -= 1

    def visit_FunctionDef(self, node):
        for d in node.decorator_list:
            self.visit(d)
        self._scope(node, node.name)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self._scope(node, node.name)

    def visit_Lambda(self, node):
        self._scope(node)

    def visit_ListComp(self, node):
        self._scope(node)

    visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_ListComp

    def visit_alias(self, node):
        if self.depth_scope == 0:
            self.stores.add((node.asname or node.name).split(".")[0])

    def visit_ExceptHandler(self, node):
        if node.name and self.depth_scope == 0:
            self.stores.add(node.name)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        if isinstance(node.target, ast.Name):
            self.loads.add(node.target.id)
        self.generic_visit(node)

    def _loop(self, node):
        """A break/continue in the body is the loop's own; in its `else`
        clause it belongs to the loop around this one."""
        for name, value in ast.iter_fields(node):
            inside = name == "body"
            self.depth_loop += inside
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    self.visit(child)
            self.depth_loop -= inside

    visit_For = visit_While = visit_AsyncFor = _loop

    def visit_Return(self, node):
        if self.depth_scope == 0:
            self.escapes.append(("return", node))
        self.generic_visit(node)

    def visit_Break(self, node):
        if self.depth_scope == 0 and self.depth_loop == 0:
            self.escapes.append(("continue" if isinstance(node, ast.Continue) else "break", node))

    visit_Continue = visit_Break

    def visit_Yield(self, node):
        if self.depth_scope == 0:
            self.escapes.append(("yield", node))
        self.generic_visit(node)

    visit_YieldFrom = visit_Await = visit_Yield

    def visit_Global(self, node):
        pass  # the region's function declares the user's function's globals (fallback_rt.py)

    def visit_Nonlocal(self, node):
        self.escapes.append(("nonlocal", node))


def escaping(body: list) -> list:
    """(kind, ast node) of each return, break, continue, yield or nonlocal
    in the statements `body` that leaves them (not one inside a nested scope,
    nor a break/continue of a loop that is itself in `body`)."""
    names = Names()
    for node in body:
        names.visit(node)
    return names.escapes
