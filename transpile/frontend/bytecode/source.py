"""capture_mode="bytecode": a function's source text recovered from its code
object (CPython 3.11 and 3.12), for functions whose source cannot be read
(`python -c`, `exec`, the REPL) or when asked for.

The recovered text is compiled again and accepted only when CPython gives the
same instructions (verify.py); it then goes through the same libcst frontend
as source text, so both modes build the same HIR, and statements outside the
compiled subset run as Python (JIT Fallback) from that verified text.  Code
whose structure is not recovered runs as Python as a whole, with the reason."""
from __future__ import annotations

import linecache
import sys

from ...diagnostics import FunctionNotCompilable, SourceLoc
from ..source import FunctionSource
from . import layout, recover, verify
from .structure import NotRecovered

_CACHE: dict = {}  # (code, its file): equal code objects naming other files are equal keys otherwise


def function_source(fn) -> FunctionSource:
    code = getattr(fn, "__code__", None)
    if code is None:
        raise FunctionNotCompilable(f"{fn!r} has no code object", None, "the whole function runs in CPython")
    src = _CACHE.get((code, code.co_filename))
    if src is None:
        src = _CACHE[(code, code.co_filename)] = _recover(code, fn.__name__)
    return src


def _recover(code, name: str) -> FunctionSource:
    where = SourceLoc(code.co_filename, code.co_firstlineno, 0)
    hint = "the whole function runs in CPython; define it in a file to use capture_mode='ast'"
    if not recover.supported():
        raise FunctionNotCompilable(f"capture_mode='bytecode' supports CPython 3.11 and 3.12, not "
                                    f"{sys.version_info.major}.{sys.version_info.minor}", where, hint)
    try:
        tree = recover.function_def(code, name if name.isidentifier() else "lambda_")
        text, first = layout.function_text(tree)
    except NotRecovered as exc:
        loc = SourceLoc(code.co_filename, exc.line or code.co_firstlineno, 0)
        raise FunctionNotCompilable(f"{code.co_qualname}: {exc} is not recovered from bytecode", loc, hint) \
            from None
    except (IndexError, KeyError, AttributeError, TypeError, ValueError) as exc:  # a shape no rule expects
        raise FunctionNotCompilable(f"{code.co_qualname}: its bytecode is not recovered ({type(exc).__name__}: "
                                    f"{exc})", where, hint) from None
    problem = verify.same(code, text, first)
    if problem is not None:
        raise FunctionNotCompilable(f"{code.co_qualname}: the recovered source does not compile to the same "
                                    f"bytecode ({problem[:200]})", where, hint)
    lines = tuple(line + "\n" for line in text.splitlines())
    every = ("\n",) * (first - 1) + lines
    # Statements that run as Python (JIT Fallback) are read back through linecache by this name
    # (fallback_rt.py), and their tracebacks show the recovered lines.
    name = f"{code.co_filename} ({code.co_qualname}, recovered from bytecode)"
    linecache.cache[name] = (len(text), None, list(every), name)
    return FunctionSource(name, first, 0, text, lines, every)
