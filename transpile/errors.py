"""Public error classes (re-exported from transpile.diagnostics)."""
from .diagnostics import (  # noqa: F401
    AnnotationError,
    BackendUnavailableError,
    CompileError,
    FunctionNotCompilable,
    TranspileFallbackWarning,
    MultipleErrors,
    TranspileError,
    TypingError,
    UnsupportedSyntaxError,
)
