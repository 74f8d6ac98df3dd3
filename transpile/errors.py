"""Public error classes (re-exported from transpile.diagnostics)."""
from .diagnostics import (  # noqa: F401
    AnnotationError,
    CompileError,
    FunctionNotCompilable,
    TranspileFallbackWarning,
    MultipleErrors,
    TranspileError,
    TypingError,
    UnsupportedSyntaxError,
)
