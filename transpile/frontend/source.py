"""Getting a function's source text, dedented, with the offsets that map
positions in that text back to the user's file."""
from __future__ import annotations

import inspect

from ..diagnostics import SourceLoc, TranspileError
from ..hashing import sha256
from ..values import value_type


@value_type  # not a NamedTuple or a dataclass: making one costs every warm start ~0.5-1.5 ms
class FunctionSource:
    filename: str
    first_line: int  # file line of the text's first line
    indent: int  # columns removed from every line
    text: str  # dedented source: decorators and def included
    file_lines: tuple  # the function's original lines, for error displays
    file_lines_all: tuple = ()  # every line of the file (fallback regions are cut from it)

    def loc(self, line: int, col: int, end_line: int = 0, end_col: int = 0) -> SourceLoc:
        """Location in the file of (line, col) in `text` (1-based line, 0-based col)."""
        fline = self.first_line + line - 1
        idx = line - 1
        src = self.file_lines[idx] if 0 <= idx < len(self.file_lines) else ""
        return SourceLoc(self.filename, fline, col + self.indent,
                         self.first_line + end_line - 1 if end_line else 0,
                         end_col + self.indent if end_line else 0, src)


def get_source(fn) -> FunctionSource:
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError) as exc:
        raise TranspileError(
            f"cannot read the source of {getattr(fn, '__qualname__', fn)!r}: {exc}",
            hint="@jit compiles from source text: define the function in a file, not in an interactive "
                 "session without source, or build it ahead of time") from None
    filename = inspect.getsourcefile(fn) or inspect.getfile(fn)
    first_text = lines[0]
    indent = len(first_text) - len(first_text.lstrip())
    dedented = []
    for line in lines:
        if line[:indent].strip() == "":
            dedented.append(line[indent:])
        else:
            dedented.append(line.lstrip())
    import linecache

    all_lines = tuple(linecache.getlines(filename)) or tuple(lines)
    return FunctionSource(filename, first or 1, indent, "".join(dedented), tuple(lines), all_lines)


def source_readable(fn) -> bool:
    """Whether get_source can read fn's text, without reading it:
    inspect.getsourcelines fails only where inspect.findsource does, and
    findsource skips the tokenizing of the function's block (milliseconds,
    and a warm start asks this of every function it calls)."""
    try:
        inspect.findsource(inspect.unwrap(fn))
    except (OSError, TypeError):
        return False
    return True


def source_hash(fn) -> str:
    """Identity of a function's code, cheap enough for every warm start.

    The compiled code object (bytecode, names, constants, nested code, first
    line) changes whenever the source changes meaning or moves, and reading
    it costs microseconds where re-reading and tokenizing the source costs
    milliseconds.  Comment-only edits keep their cache entries."""
    h = sha256()
    code = getattr(fn, "__code__", None)
    if code is None:
        return sha256(repr(fn).encode()).hexdigest()
    _hash_code(code, h)
    h.update(repr(getattr(fn, "__defaults__", None)).encode())
    closure = getattr(fn, "__trace_closure__", None)  # a closure's shim (trace.py): the closure's code
    if closure is not None:
        h.update(source_hash(closure).encode())
    return h.hexdigest()


def _hash_code(code, h) -> None:
    h.update(f"{code.co_name}:{code.co_firstlineno}:{code.co_argcount}:{code.co_flags}".encode())
    h.update(code.co_code)
    h.update(repr((code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars)).encode())
    for const in code.co_consts:
        if hasattr(const, "co_code"):
            _hash_code(const, h)
        else:
            h.update(repr((type(const).__name__, const)).encode())
