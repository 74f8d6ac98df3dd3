"""Source locations, the error classes users see, and their formatting.

Every error that concerns the user's code reads like a compiler's:

    kernels.py:12:9: error: cannot add 'float64[:]' and 'str'
        y = a + "x"
            ^^^^^^^
    hint: ...
"""
from __future__ import annotations

from .values import value_type


# Appended to what would have fallen back to Python, once (a callee's error already has it).
FULLGRAPH_NOTE = " (fullgraph=True forbids falling back to Python)"


@value_type
class SourceLoc:
    """A position in the user's file: 1-based line, 0-based column."""

    filename: str
    line: int
    col: int
    end_line: int = 0
    end_col: int = 0
    source_line: str = ""

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}:{self.col + 1}"


class TranspileError(Exception):
    """Base class of transpile's errors about user code."""

    # The bridge raises these from a call with no traceback of transpile's own
    # frames (runtime.c trim_user_error; TRANSPILE_DEBUG=1 keeps them).
    _transpile_user_error = True

    def __init__(self, message: str, loc: SourceLoc | None = None, hint: str | None = None):
        self.message = message
        self.loc = loc
        self.hint = hint
        super().__init__(format_diagnostic(message, loc, hint))


class UnsupportedSyntaxError(TranspileError):
    """A construct outside the compiled subset."""


class TypingError(TranspileError, TypeError):
    """The compiler cannot give a value a type, or types do not fit."""


class CompileError(TranspileError):
    """The C++ compiler failed (or is missing)."""


class NoCompilerError(CompileError):
    """No usable C++ compiler (none found, or one that cannot build what
    transpile needs): with nothing prebuilt the function runs as Python with a
    NoCompilerWarning, or this is raised under fullgraph=True."""


class BackendUnavailableError(CompileError):
    """The toolkit a backend needs (nvcc, CANN) is not installed (build/backends.py)."""


class GeneratedCodeError(CompileError):
    """The C++ compiler rejected (or never finished) code transpile generated:
    a bug in transpile, remembered per specialization by the dispatcher."""


def report_hint(stage: str) -> str:
    """What to do about a bug in transpile (a module g++ rejected, an exception escaping a pass)."""
    return (f"this is a bug in transpile's {stage}, not in your code: please report it on transpile's issue "
            "tracker with the function's source and its C++ (`transpile show`)")


class InternalError(GeneratedCodeError):
    """An exception escaping transpile's own translation (a KeyError in a
    pass): a bug in transpile, remembered and reported like a rejected module."""

    @classmethod
    def of(cls, exc: Exception) -> "InternalError":
        return cls(f"internal error: {type(exc).__name__}: {exc}", hint=report_hint("translation"))


class UnsupportedArgumentError(TypeError):
    """An argument of a type that fullgraph=True cannot compile (a TypeError,
    reported at the user's call like TranspileError)."""

    _transpile_user_error = True


class AnnotationError(TranspileError, ValueError):
    """A malformed `# @jit.typing:` comment."""


class FunctionNotCompilable(TranspileError):
    """The function as a whole cannot be compiled (it runs in CPython)."""


class PathTypeConflict(FunctionNotCompilable):
    """A value has different types on different paths and a use would see the
    wrong one (passes/paths.py): the function runs in CPython, and so does a
    jit caller, which could not type its result."""


class TranspileFallbackWarning(UserWarning):
    """Some statements of a @jit function run as Python (JIT Fallback)."""


class MultipleErrors(UnsupportedSyntaxError):
    """Several errors of one function, reported together."""

    def __init__(self, errors: list[TranspileError]):
        self.errors = errors
        first = errors[0]
        Exception.__init__(self, "\n".join(str(e) for e in errors))
        self.message, self.loc, self.hint = first.message, first.loc, first.hint


def format_diagnostic(message: str, loc: SourceLoc | None, hint: str | None = None) -> str:
    if loc is None:
        text = f"error: {message}"
    else:
        text = f"{loc}: error: {message}"
        if loc.source_line:
            line = loc.source_line.rstrip("\n")
            stripped = line.lstrip()
            indent = len(line) - len(stripped)
            width = 1
            if loc.end_line == loc.line and loc.end_col > loc.col:
                width = loc.end_col - loc.col
            caret_col = max(loc.col - indent, 0)
            text += f"\n    {stripped}\n    {' ' * caret_col}{'^' * max(width, 1)}"
    if hint:
        text += f"\n  hint: {hint}"
    return text


def raise_collected(errors: list[TranspileError]) -> None:
    """Raises the errors of one function: the error itself when there is one."""
    if not errors:
        return
    if len(errors) == 1:
        raise errors[0]
    raise MultipleErrors(errors)
