"""Builtins that are an operator under another name, rewritten into that
operator before typing, so that everything known of the operator holds for
them (the type of a power follows the signs of its operands,
passes/powers.py): CPython's pow(a, b) calls the same power slot as a ** b.
pow(a, b, m) stays a call (library/builtins_lib.py)."""
from __future__ import annotations

import builtins

from ..hir import nodes as h
from ..values import replace
from .assigned import assigned_names
from .hir_walk import rebuilt


def spelled_as_operators(fn: h.Function, module_globals: dict) -> h.Function:
    """fn with its calls of the builtin pow with two operands written `**`."""
    if module_globals.get("pow", builtins.pow) is not builtins.pow:
        return fn
    if "pow" in assigned_names(fn.body, {p.name for p in fn.params}, fn):
        return fn

    def power(node):
        if isinstance(node, h.Lambda):  # its parameters may rename pow: left to the call entry
            return node
        operands = _base_and_exponent(node)
        if operands is None:
            return None
        return h.BinOp(node.loc, "**", *(rebuilt(x, power) for x in operands))

    body = tuple(rebuilt(s, power) for s in fn.body)
    return fn if all(a is b for a, b in zip(body, fn.body)) else replace(fn, body=body)


def _base_and_exponent(node):
    """(base, exponent) of `pow(base, exp)` or `pow(base=..., exp=...)`
    (`mod=None` allowed); None for anything else."""
    if not (isinstance(node, h.Call) and isinstance(node.func, h.Name) and node.func.id == "pow"):
        return None
    if any(isinstance(a, h.Starred) for a in node.args):
        return None
    given = dict(zip(("base", "exp", "mod"), node.args))
    for k in node.keywords:
        if k.name in given or k.name not in ("base", "exp", "mod"):
            return None  # CPython's TypeError: the call entry reports it
        given[k.name] = k.value
    mod = given.pop("mod", None)
    if mod is not None and not (isinstance(mod, h.Const) and mod.value is None):
        return None
    if set(given) != {"base", "exp"}:
        return None
    return given["base"], given["exp"]
