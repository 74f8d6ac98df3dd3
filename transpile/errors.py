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
from .build.backends import BackendUnavailableError  # noqa: F401,E402  (a backend's toolkit is missing)
