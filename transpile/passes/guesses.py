"""Values whose type compiled code would have to guess.

A statement that runs as Python gives a Python object whose type is known
only when it runs (unless a `# @jit.typing` comment names it).  Compiled
code converting such an object to a C++ type would guess: the "unknown is
float64 where it meets arithmetic" rule turns an int into a float and
raises TypeError for an array, and a type left over from a typing pass in
which the statement still compiled may be any type at all.  Each such place
is a per-path conflict (passes/paths.py): the variable is held as a Python
object, or the statement converting runs as Python, so the value keeps
CPython's own type."""
from __future__ import annotations

from ..diagnostics import PathTypeConflict
from ..hir import nodes as h
from ..hir import types as T
from . import fallback
from .path_rules import Hold, RunAsPython, statement_of


def choice_parts(node) -> list:
    """The expressions whose value an `and`/`or`/conditional expression may be."""
    if isinstance(node, h.BoolOp):
        return [p for v in node.values for p in choice_parts(v)]
    if isinstance(node, h.IfExp):
        return choice_parts(node.body) + choice_parts(node.orelse)
    return [node]


def guessed_variables(tf, defs) -> list:
    """Variables whose every assignment runs as Python with no declared
    type, yet whose C++ type is not a Python object: the type was left by a
    typing pass in which one of those statements still compiled (`v if c
    else np.uint8(1)` made v a uint8 array before the statement fell back)."""
    return sorted(name for name, found in defs.items()
                  if tf.var_types.get(name) not in (None, T.ANY) and found
                  and all(d in tf.fallbacks and tf.fallbacks[d].declared_for(name) is None for d in found))


def guessed_stores(tf, def_types) -> list:
    """Compiled assignments of a Python object to a typed variable (`x0 = v`
    with x0 an int8 parameter and v from Python): the conversion guesses."""
    return [d for d, t in def_types.items()
            if t == T.ANY and isinstance(d, h.Name) and tf.var_types.get(d.id) not in (None, T.ANY)]


def _unknown(name: str, loc) -> PathTypeConflict:
    return PathTypeConflict(f"'{name}' holds a value of unknown type from a statement that runs as Python", loc)


def check(typer, reach, parent, not_compilable) -> None:
    """Raises Hold, RunAsPython or PathTypeConflict at the first guess
    (not_compilable: the checker's, for an expression)."""
    tf = typer.tf
    for node, t in tf.coerce.items():  # float() of a value fallback code made
        if t != T.FLOAT:
            continue
        for part in choice_parts(node):  # `v`, or `v if c else w` whose value is v or w
            if part in reach.uses and fallback.holdable(typer, part.id):
                raise Hold(part.id, _unknown(part.id, part.loc))
        if isinstance(node, (h.BoolOp, h.IfExp)) or not isinstance(node, h.Name):
            # also a helper's result that Python made (`g + lap(g)`, lap's return runs as Python)
            raise not_compilable(node, None, {T.ANY}, "the operation it meets")
    for name in guessed_variables(tf, reach.defs):
        if fallback.holdable(typer, name):  # the error points at its first assignment
            first = min(reach.defs[name], key=lambda d: (d.loc.line, d.loc.col))
            raise Hold(name, _unknown(name, first.loc))
    for target in guessed_stores(tf, typer.def_types):
        conflict = PathTypeConflict(f"'{target.id}' is {tf.var_types[target.id]} in compiled code, and this assigns "
                                    "it a value of unknown type from a statement that runs as Python", target.loc)
        stmt = statement_of(parent, target)
        if stmt is not None and fallback.may_run_as_python(typer, stmt):
            raise RunAsPython(stmt, conflict)
        if fallback.holdable(typer, target.id):
            raise Hold(target.id, conflict)
        raise conflict
