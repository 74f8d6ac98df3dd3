"""The boundary data type of type inference: a function specialized on argument types, with its side tables."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..hir import nodes as h
from ..hir import types as T


@dataclass
class TypedFunction:
    """A function specialized on argument types, with its side tables."""

    hir: h.Function
    pyfunc: object
    arg_types: tuple
    cxx_name: str
    var_types: dict = field(default_factory=dict)
    types: dict = field(default_factory=dict)  # expr node -> Type
    ops: dict = field(default_factory=dict)  # BinOp/UnaryOp/AugAssign/Compare node -> OpTypes
    calls: dict = field(default_factory=dict)  # Call node -> (kind, target, info)
    unpacked: dict = field(default_factory=dict)  # Call with `*t` into a library call -> the Call it is, items apart
    subscripts: dict = field(default_factory=dict)  # Subscript node -> indexing.IndexInfo
    consts: dict = field(default_factory=dict)  # Name/Attribute node -> frozen global value
    loops: dict = field(default_factory=dict)  # For node -> element info
    fallbacks: dict = field(default_factory=dict)  # statement -> fallback.FallbackInfo (runs as Python)
    coerce: dict = field(default_factory=dict)  # expr node -> type an Any value is converted to
    parallel: dict = field(default_factory=dict)  # prange For node -> passes.parallel.ParallelLoop
    return_type: T.Type | None = None
    params: tuple = ()
    weak_returns: bool = False  # returns a Python number on some paths, a NumPy scalar on others (passes/returns.py)
    path_types: object = None  # passes/path_rules.PathTypes: values whose C++ type differs by path, and how
