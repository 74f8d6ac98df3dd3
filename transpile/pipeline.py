"""The compile pipeline for one specialization, stage by stage:
source -> HIR -> typed program -> C++ render model -> C++ text."""
from __future__ import annotations

from dataclasses import dataclass

from .diagnostics import FunctionNotCompilable, TranspileError
from . import timing
from .frontend import function_hir
from .frontend.capture import check_free_variables, mode_of, traced
from .hir import types as T
from .passes.infer import Program
from .passes.typed import TypedFunction


@dataclass
class Translation:
    cpp: str
    entry: TypedFunction
    program: Program
    symbol: str
    regions: list  # fallback regions (JSON-able), built into Python callables at load
    fallbacks: list  # the report: one record per statement that runs as Python
    return_type: T.Type  # what the entry returns (a constructor: the new instance)
    layouts: list  # @jit_class layouts (T.Instance) the module's code uses
    module: object = None  # the cxx.model.CxxModule `cpp` was rendered from (standalone.py renders it again)


def translate(pyfunc, arg_types: tuple, options, symbol: str, construct=None) -> Translation:
    """construct: a @jit_class's ClassInfo when pyfunc is its __init__ and the
    entry makes a new instance from arg_types (the arguments after self)."""
    from .cxx.lower import lower_program
    from .cxx.render import render
    from .passes import classes

    mode = mode_of(options)
    program = Program(options, lambda fn: _parsed(fn, mode))
    record = traced(pyfunc, mode, tuple(arg_types))
    if record is not None:  # the trace's own function, typed from its text (not a dependency to re-check)
        program.synthetic[record] = _parsed(record, "ast")
        pyfunc = record
    else:
        check_free_variables(pyfunc)
    if construct is not None:
        layout = classes.discover_layout(program, construct, tuple(arg_types))
        with timing.phase("type"):
            entry = program.specialize(pyfunc, (layout,) + tuple(arg_types))
        return_type = layout
    else:
        with timing.phase("type"):  # parsing too, callee by callee: timed as "parse" (_parsed)
            entry = _specialize(program, pyfunc, tuple(arg_types), record is not None)
        return_type = T.MaybeWeak(entry.return_type) if entry.weak_returns else entry.return_type
        items = entry.path_types.weak_items if entry.path_types else ()
        if items:  # tuple items that are Python numbers on some paths (passes/paths.py)
            return_type = T.Tuple(tuple(T.MaybeWeak(t) if i in items else t
                                        for i, t in enumerate(entry.return_type.items)))
    if T.functions_in(return_type):  # the object is not known to compiled code: CPython returns it
        raise FunctionNotCompilable(f"{pyfunc.__qualname__}() returns a function to Python", entry.hir.loc,
                                    "functions returned to compiled callers compile; this call runs in CPython")
    if not T.mentions_instance(return_type):
        try:
            T.to_descriptor(return_type)  # early, for values that cannot cross into Python (a dtype)
        except TypeError:
            raise FunctionNotCompilable(f"{pyfunc.__qualname__}() returns {return_type}, which compiled code "
                                        "cannot hand to Python", entry.hir.loc,
                                        "this call runs in CPython; return what it is made of instead") from None
    with timing.phase("render"):  # lowering and the C++ text
        module, regions, report, layouts = lower_program(program, entry, options, symbol,
                                                         construct=return_type if construct is not None else None)
        cpp = render(module)
    return Translation(cpp, entry, program, symbol, regions, report, return_type, layouts, module)


def _specialize(program, pyfunc, arg_types: tuple, is_trace: bool):
    """A trace that does not type (an operation outside the compiled subset)
    runs the function in CPython, as a function that does not compile does."""
    try:
        return program.specialize(pyfunc, arg_types)
    except TranspileError as exc:
        if not is_trace or isinstance(exc, FunctionNotCompilable):
            raise
        raise FunctionNotCompilable(f"the trace of {pyfunc.__qualname__} does not compile: {exc.message}", exc.loc,
                                    "the whole function runs in CPython") from None


def _parsed(fn, mode):
    with timing.phase("parse"):
        return function_hir(fn, mode)
