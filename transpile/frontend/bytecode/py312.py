"""CPython 3.12's instruction set, normalized to the spelling py311.py
documents, so structure.py sees the same shapes as on 3.11:

* no PRECALL; FOR_ITER's target is past END_FOR (dropped);
* `POP_JUMP_IF_X L; JUMP_BACKWARD B; L:` (3.12 jumps forward only) is one
  backward JUMP_IF to B on the opposite condition, as 3.11 spells it;
* `COPY 1; POP_JUMP_IF_X L; POP_TOP` (`and`/`or` keeping a value) is JUMP_OR_POP;
* BINARY_SLICE / STORE_SLICE are BUILD_SLICE 2 plus the subscript;
  RETURN_CONST is LOAD_CONST plus RETURN_VALUE; LOAD_FAST_CHECK is LOAD_FAST;
  CALL_INTRINSIC_1 of unary plus is UNARY_POSITIVE;
* a generator expression's StopIteration handler at the end is dropped.
Comprehensions inlined into the function (PEP 709: LOAD_FAST_AND_CLEAR) are
left as they are: structure.py does not recover them."""
from __future__ import annotations

import dis

from .py311 import BINARY_OPS, Ins

SKIP = {"RESUME", "NOP", "CACHE", "MAKE_CELL", "COPY_FREE_VARS", "EXTENDED_ARG", "END_FOR"}
_INVERT = {True: False, False: True, None: "not None", "not None": None}


def _raw(code, targets: set) -> list:
    out: list = []
    kw_names: tuple = ()
    for ins in dis.get_instructions(code):
        op, line = ins.opname, ins.positions.lineno if ins.positions else ins.starts_line
        if op == "END_FOR" and ins.offset in targets:  # reached other than by FOR_ITER: kept, so not recovered
            out.append(Ins(ins.offset, op, line=line))
            continue
        if op in SKIP:
            continue
        new = Ins(ins.offset, op, ins.argval, line=line)
        if op == "KW_NAMES":
            kw_names = code.co_consts[ins.arg]
            continue
        if op == "CALL":
            new.arg, new.kw, kw_names = ins.arg, kw_names, ()
        elif op in ("LOAD_GLOBAL", "LOAD_ATTR"):
            new.null = bool(ins.arg & 1)
        elif op == "LOAD_FAST_CHECK":
            new.op = "LOAD_FAST"
        elif op == "BINARY_OP":
            new.arg = BINARY_OPS[ins.arg]
        elif op in ("JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP"):
            new.op, new.target = "JUMP", ins.argval
        elif op.startswith("POP_JUMP_IF_"):
            cond = op[len("POP_JUMP_IF_"):]
            new.op, new.target = "JUMP_IF", ins.argval
            new.when = {"TRUE": True, "FALSE": False, "NONE": None, "NOT_NONE": "not None"}[cond]
        elif op == "FOR_ITER":
            new.target = ins.argval + 2  # past END_FOR
        elif op in ("BINARY_SLICE", "STORE_SLICE"):
            out.append(Ins(ins.offset, "BUILD_SLICE", 2, line=line))
            new = Ins(ins.offset + 1, "BINARY_SUBSCR" if op == "BINARY_SLICE" else "STORE_SUBSCR", line=line)
        elif op == "RETURN_CONST":
            out.append(Ins(ins.offset, "LOAD_CONST", ins.argval, line=line))
            new = Ins(ins.offset + 1, "RETURN_VALUE", line=line)
        elif op == "CALL_INTRINSIC_1" and ins.argrepr == "INTRINSIC_UNARY_POSITIVE":
            new.op = "UNARY_POSITIVE"
        out.append(new)
    return out


def instructions(code) -> list:
    """The folds below drop instructions; each applies only where no jump
    lands on a dropped one, so the normalized code means what the code does
    (verify.py compares normalized code: a lossy fold would let a wrong
    recovery pass)."""
    targets = {x.argval for x in dis.get_instructions(code) if x.opcode in dis.hasjrel + dis.hasjabs
               and x.opname != "FOR_ITER"}
    ins = _raw(code, targets)
    if len(ins) >= 2 and ins[-2].op == "CALL_INTRINSIC_1" and ins[-1].op == "RERAISE":
        ins = ins[:-2]  # a generator's StopIteration -> RuntimeError handler
    out: list = []
    k = 0
    while k < len(ins):
        x = ins[k]
        nxt = ins[k + 1] if k + 1 < len(ins) else None
        after = ins[k + 2] if k + 2 < len(ins) else None
        if x.op == "JUMP_IF" and nxt is not None and nxt.op == "JUMP" and nxt.target < nxt.offset \
                and after is not None and x.target == after.offset and nxt.offset not in targets:
            out.append(Ins(x.offset, "JUMP_IF", nxt.target, target=nxt.target, line=x.line, when=_INVERT[x.when]))
            k += 2
            continue
        if x.op == "COPY" and x.arg == 1 and nxt is not None and nxt.op == "JUMP_IF" and nxt.when in (True, False) \
                and after is not None and after.op == "POP_TOP" and not {nxt.offset, after.offset} & targets:
            out.append(Ins(x.offset, "JUMP_OR_POP", nxt.target, target=nxt.target, line=x.line, when=nxt.when))
            k += 3
            continue
        out.append(x)
        k += 1
    return out
