"""Public error classes (re-exported from transpile.diagnostics)."""
from .diagnostics import (  # noqa: F401
    CompileError,
    MultipleErrors,
    TranspileError,
    TypingError,
    UnsupportedSyntaxError,
)
