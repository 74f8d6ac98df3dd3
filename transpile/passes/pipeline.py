"""The compile pipeline for one specialization, stage by stage:
source -> HIR -> typed program -> C++ render model -> C++ text."""
from __future__ import annotations

from dataclasses import dataclass

from ..frontend import function_hir
from ..hir import types as T
from .infer import Program, TypedFunction


@dataclass
class Translation:
    cpp: str
    entry: TypedFunction
    program: Program
    symbol: str
    regions: list  # fallback regions (JSON-able), built into Python callables at load
    fallbacks: list  # the report: one record per statement that runs as Python


def translate(pyfunc, arg_types: tuple, options, symbol: str) -> Translation:
    from ..cxx.lower import lower_program
    from ..cxx.render import render

    program = Program(options, function_hir)
    entry = program.specialize(pyfunc, tuple(arg_types))
    T.to_descriptor(entry.return_type)  # raises early for values that cannot cross into Python
    module, regions, report = lower_program(program, entry, options, symbol)
    return Translation(render(module), entry, program, symbol, regions, report)
