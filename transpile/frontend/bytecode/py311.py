"""CPython 3.11's instruction set, normalized for the structure recovery
(structure.py), which sees one spelling per operation whatever the version:

* jumps: JUMP (unconditional, either direction), JUMP_IF (pops; `when` is
  True/False/None/"not None"), JUMP_OR_POP (`and`/`or` in a value: keeps the
  value when it jumps), FOR_ITER (target: the first instruction after the loop);
* CALL n (PRECALL dropped; KW_NAMES folded into the call's `kw`), LOAD_GLOBAL
  with `null` when it pushes NULL first, LOAD_METHOD as LOAD_ATTR;
* BINARY_OP with the operator's text ("+", "+=", ...), COMPARE_OP with its text.

Every instruction keeps its line (from the line table) and offset."""
from __future__ import annotations

import dis
from dataclasses import dataclass

SKIP = {"RESUME", "PRECALL", "NOP", "CACHE", "MAKE_CELL", "COPY_FREE_VARS", "EXTENDED_ARG"}
BINARY_OPS = [text for _, text in dis._nb_ops]


@dataclass
class Ins:
    offset: int
    op: str
    arg: object = None  # the operand, decoded (a name, a constant, a count, an operator's text)
    target: int | None = None  # jumps: offset of the target
    line: int | None = None
    when: object = None  # JUMP_IF / JUMP_OR_POP: the value (True/False/None/"not None") that jumps
    null: bool = False  # LOAD_GLOBAL that pushes NULL first
    kw: tuple = ()  # CALL: keyword argument names


def instructions(code) -> list:
    out: list = []
    kw_names: tuple = ()
    for ins in dis.get_instructions(code):
        op, line = ins.opname, ins.positions.lineno if ins.positions else ins.starts_line
        if op in SKIP:
            continue
        new = Ins(ins.offset, op, ins.argval, line=line)
        if op == "KW_NAMES":
            kw_names = code.co_consts[ins.arg]
            continue
        if op == "CALL":
            new.arg, new.kw, kw_names = ins.arg, kw_names, ()
        elif op == "LOAD_GLOBAL":
            new.null = bool(ins.arg & 1)
        elif op == "LOAD_METHOD":
            new.op, new.null = "LOAD_ATTR", True
        elif op == "BINARY_OP":
            new.arg = BINARY_OPS[ins.arg]
        elif op in ("JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT"):
            new.op, new.target = "JUMP", ins.argval
        elif op.startswith("POP_JUMP_"):
            cond = op.rsplit("_IF_", 1)[1]
            new.op, new.target = "JUMP_IF", ins.argval
            new.when = {"TRUE": True, "FALSE": False, "NONE": None, "NOT_NONE": "not None"}[cond]
        elif op in ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP"):
            new.op, new.target, new.when = "JUMP_OR_POP", ins.argval, op == "JUMP_IF_TRUE_OR_POP"
        elif op == "FOR_ITER":
            new.target = ins.argval
        out.append(new)
    return out
