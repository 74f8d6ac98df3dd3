"""The render model: everything the Jinja2 templates print, decided here
and in the lowering, so templates make no decisions."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..library.base import CExpr  # noqa: F401  (made by library entries too: defined below them)


@dataclass
class Line:
    indent: int
    text: str


@dataclass
class CxxFunction:
    name: str
    return_type: str
    params: list  # "type name"
    locals: list  # "type name;"
    body: list  # Line
    comment: str
    inline: bool = False  # a hint to the C++ compiler (FunctionLowerer.lower says when)
    clones: bool = False  # compiled once per x86-64 vector width (cxx/vector_clones.py)
    clone_args: list = field(default_factory=list)  # the parameters, passed on to the clones (std::move)


@dataclass
class CxxEntry:
    symbol: str
    function: str
    unpack: list  # C++ statements
    call_args: list
    stores: list  # C++ statements writing results


@dataclass
class CxxConstant:
    decl: str  # full C++ definition


@dataclass
class CxxModule:
    title: str
    defines: list
    includes: list
    constants: list = field(default_factory=list)
    functions: list = field(default_factory=list)
    entries: list = field(default_factory=list)
    footer: list = field(default_factory=list)  # lines after the entries (e.g. the fallback module init)
    kernels: list = field(default_factory=list)  # prange loop bodies (C++ struct definitions)
    types: list = field(default_factory=list)  # @jit_class layouts (C++ struct definitions), before all functions
