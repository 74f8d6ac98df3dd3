"""What a library entry is: how a Python callable types and how it is
spelled in C++.  Entries live in one table per family (builtins, math,
numpy, array methods); the typer and the lowerer find them by the Python
object being called (or the method name)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..diagnostics import TypingError
from ..hir import nodes as h
from ..hir.types import Type

NOT_CONST = object()


@dataclass(frozen=True)
class CExpr:
    """A lowered expression (C++ text); lazy ones are unevaluated array
    expressions.  Entries' lowering rules return them, and so does cxx/."""

    code: str
    lazy: bool = False


class NotYetKnown(Exception):
    """Raised by an entry's typing rule when an argument's type is not settled
    yet (an empty dict before its stores are typed): the typer tries again on
    its next pass."""


@dataclass
class CallSite:
    """One call as the typer sees it."""

    node: h.Call
    args: list  # argument types (receiver first for methods)
    kwargs: dict  # keyword -> type
    arg_nodes: list
    kw_nodes: dict
    const: Callable  # node -> compile-time value or NOT_CONST
    name: str = ""
    taken_apart: bool = False  # the result is unpacked or indexed by a constant, never kept whole

    def error(self, message: str, hint: str | None = None) -> TypingError:
        return TypingError(message, self.node.loc, hint)

    def const_arg(self, index: int, keyword: str, default=NOT_CONST):
        """Compile-time value of a positional-or-keyword argument."""
        node = self.arg_node(index, keyword)
        if node is None:
            return default
        return self.const(node)

    def arg_node(self, index: int, keyword: str):
        if index is not None and index < len(self.arg_nodes):
            return self.arg_nodes[index]
        return self.kw_nodes.get(keyword)

    def arg_type(self, index: int, keyword: str):
        if index is not None and index < len(self.args):
            return self.args[index]
        return self.kwargs.get(keyword)

    def check_arity(self, low: int, high: int, keywords: tuple = ()):
        n = len(self.args)
        if not low <= n <= high:
            expected = str(low) if low == high else f"{low} to {high}"
            raise self.error(f"{self.name}() takes {expected} positional arguments but {n} were given")
        for kw in self.kwargs:
            if kw not in keywords:
                allowed = ", ".join(keywords) or "none"
                raise self.error(f"{self.name}() got an unsupported keyword argument '{kw}' (supported: {allowed})")


@dataclass
class LowerSite:
    """One call as the lowerer sees it: arguments already lowered to C++."""

    site_info: object  # what the entry's typer returned next to the type
    result: Type
    args: list  # CExpr, receiver first for methods
    kwargs: dict  # keyword -> CExpr
    arg_types: list
    kw_types: dict
    lower: object  # the function lowerer: ctype(), eval(), literal(), jit_level
    never_negative: tuple = ()  # per positional argument: proven never < 0 (passes/signs.py)



@dataclass(frozen=True)
class Handoff:
    """What an entry's typing rule may return beside the type to have another
    entry lower the call: one that calls into Python, say, for arguments of
    one kind only (int() of a str), so that only those calls are known to need
    the interpreter (Entry.needs_python)."""

    entry: object
    info: object = None

@dataclass(frozen=True)
class Entry:
    name: str
    infer: Callable  # CallSite -> (Type, info)
    lower: Callable  # LowerSite -> CExpr
    headers: tuple = field(default=())
    takes_none: bool = False  # None-or-a-value arguments are passed as they are (not unwrapped)
    needs_python: bool = False  # calls into the interpreter (print): never on a prange thread
    writes_arguments: bool = False  # writes into an array argument (a.sort(), a.fill(), np.copyto): cxx/order.py


def refuse_keywords(site, which):
    """min()/max() keywords without key= (default=): not compiled, rather than ignored."""
    if site.kwargs:
        raise site.error(f"{which}() with {', '.join(k + '=' for k in site.kwargs)} and no key= is not supported "
                         "in compiled code", "test for an empty sequence before the call")
