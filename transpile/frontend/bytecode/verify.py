"""Soundness of the recovery: the recovered text is compiled again and must
give the same instructions (operations, operands, jump structure, nested code
objects) as the function's own code object.  Line numbers and the places of
NOPs may differ; nothing that changes what runs may.  This is sound only
because the version modules' normalization keeps meaning: two code objects
that normalize alike run alike (a fold that dropped an instruction some jump
lands on would break that, and py312.py does not fold there)."""
from __future__ import annotations

from .recover import version

_FLAGS = 0x04 | 0x08 | 0x20 | 0x80 | 0x100 | 0x200  # *args, **kwargs, generator/coroutine kinds


def recompiled(text: str, first_line: int, code):
    """The code object CPython makes of `text` (a def) in a scope giving it
    the same free variables."""
    free = code.co_freevars
    if free:
        header = f"def __transpile_outer__({', '.join(free)}):\n"
        body = "".join("    " + line + "\n" if line else "\n" for line in text.splitlines())
        source = "\n" * max(first_line - 2, 0) + header + body
    else:
        source = "\n" * max(first_line - 1, 0) + text
    imported = _imported_names(code)
    if imported:  # CPython 3.11 loads a method of an imported module as an attribute: the import matters
        source += "\nimport " + ", ".join(f"sys as {name}" for name in sorted(imported)) + "\n"
    module = compile(source, code.co_filename, "exec", dont_inherit=True)
    outer = _code_const(module)
    if free:
        outer = _code_const(outer)
    return outer


def _imported_names(code) -> set:
    """Globals the module imports, as the code shows them (`np.f()` called through an attribute load)."""
    names: set = set()
    ins = version.instructions(code)
    for x, nxt in zip(ins, ins[1:]):
        if x.op == "LOAD_GLOBAL" and x.null and nxt.op == "LOAD_ATTR" and not nxt.null:
            names.add(x.arg)
    for const in code.co_consts:
        if hasattr(const, "co_code"):
            names |= _imported_names(const)
    return names


def _code_const(code):
    for const in code.co_consts:
        if hasattr(const, "co_code"):
            return const
    raise ValueError("no function in the recovered text")


def _shape(code) -> list:
    ins = version.instructions(code)
    if ins and ins[0].op == "RETURN_GENERATOR":
        ins = ins[2:]
    index = {x.offset: k for k, x in enumerate(ins)}

    def at(offset):
        while offset not in index and offset <= ins[-1].offset:
            offset += 2
        return index.get(offset, len(ins))

    out = []
    for x in ins:
        arg = x.arg
        if hasattr(arg, "co_code"):
            arg = ("code", code_fingerprint(arg))
        elif x.target is not None:
            arg = None
        else:
            arg = (type(arg).__name__, repr(arg))
        out.append((x.op, arg, at(x.target) if x.target is not None else None, x.when, x.null, x.kw))
    return out


def code_fingerprint(code) -> tuple:
    return (code.co_argcount, code.co_posonlyargcount, code.co_kwonlyargcount, code.co_flags & _FLAGS,
            code.co_varnames[:code.co_argcount + code.co_kwonlyargcount], code.co_freevars, tuple(_shape(code)))


def same(original, text: str, first_line: int) -> str | None:
    """None when `text` compiles to `original`'s instructions; else the first
    difference, in words."""
    try:
        again = recompiled(text, first_line, original)
    except SyntaxError as exc:
        return f"the recovered text does not compile ({exc.msg})"
    a, b = code_fingerprint(original), code_fingerprint(again)
    if a[:6] != b[:6]:
        return "the recovered parameters differ"
    for k, (x, y) in enumerate(zip(a[6], b[6])):
        if x != y:
            return f"instruction {k}: {x[0]} {x[1]!r} recovered as {y[0]} {y[1]!r}"
    if len(a[6]) != len(b[6]):
        return "the recovered code has another length"
    return None
