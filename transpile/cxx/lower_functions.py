"""Lowering of function values (issue 13, hir/functions.py; runtime:
transpile_rt/function.hpp).  A mixin of FunctionLowerer, before the
expression lowering in its bases.

Calls through a function value are ordinary calls of the specialization the
typer chose (call_jit, or the library's lowering); the value itself is a
tr::Fn holding the Python object for statements that run as Python.  An
argument's object comes from the bridge; a module-level function named in
compiled code is read by name through a "live" region when Python code
needs it (only modules with fallback regions can need it); a lambda made in
compiled code is never handed to Python code (the typer sees to that)."""
from __future__ import annotations

from ..hir import nodes as h
from ..hir import types as T
from .model import CExpr

H_FUNCTION = "transpile_rt/function.hpp"


def _text(node):
    """`name` or `module.attr` as Python evaluates it in the function's module."""
    if isinstance(node, h.Name):
        return node.id
    if isinstance(node, h.Attribute):
        base = _text(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


class FunctionValueLowering:
    def x_Name(self, node: h.Name) -> CExpr:
        if node.id not in self.tf.var_types and isinstance(self.tf.types.get(node), T.Function):
            return self.function_value(node)  # a module-level function named as a value
        return super().x_Name(node)

    def x_Attribute(self, node: h.Attribute) -> CExpr:
        if isinstance(self.tf.types.get(node), T.Function):  # a module's function (np.cos) as a value
            return self.function_value(node)
        return super().x_Attribute(node)

    def x_Lambda(self, node: h.Lambda) -> CExpr:
        if isinstance(self.tf.types.get(node), T.Function):
            self.module.include(H_FUNCTION)
            return CExpr("tr::Fn{}")
        return super().x_Lambda(node)

    def function_value(self, node) -> CExpr:
        self.module.include(H_FUNCTION)
        text = _text(node)
        if text is None or not any(tf.fallbacks for tf in self.program.order):
            return CExpr("tr::Fn{}")  # no statement of this program runs as Python: nothing can read it
        regions = self.module.__dict__.setdefault("function_regions", {})
        key = (self.tf.pyfunc.__module__, text)
        index = regions.get(key)
        if index is None:
            index = regions[key] = len(self.module.regions)
            self.module.regions.append({
                "module": self.tf.pyfunc.__module__, "qualname": self.tf.pyfunc.__qualname__,
                "filename": self.fn.filename, "name": self.fn.name,
                "statements": [[node.loc.line, 0, node.loc.line, 0]], "returns": [], "ins": [],
                "outs": [[text, "object", "None"]], "live": True,
            })
        return CExpr(f"tr::Fn{{nullptr, {index}}}")


def function_header(module, tf) -> None:
    """Includes transpile_rt/function.hpp where a function holds, takes or returns a function value."""
    if any(T.functions_in(t) for t in (*tf.var_types.values(), *tf.arg_types, tf.return_type or T.NONE)):
        module.include(H_FUNCTION)
