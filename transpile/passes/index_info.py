"""What the typer records for each subscript (TypedFunction.subscripts), made
by indexing.py for arrays and tuples and by lists.py and dicts.py for theirs."""
from __future__ import annotations

from dataclasses import dataclass

from ..hir import types as T


@dataclass(frozen=True)
class IndexInfo:
    kind: str  # "element", "view", "mask", "tuple_item", "tuple_slice"
    result: T.Type
    parts: tuple = ()  # per index: "int", "slice", "newaxis", "all"
    readonly_write: bool = False
    const_index: object = None
