"""try/except compiled, where compiled code catches exactly what CPython
catches and the handler sees what CPython's handler sees.

The frontend makes `try: body except E: handler` an If whose test is a
h.TryTest, so the analyses see two paths: the body run to its end, or the
handler run instead of it.  That is CPython's behaviour only under three
conditions, checked here once the body is typed; where one fails, the whole
statement runs as Python (JIT Fallback):

- The classes are ZeroDivisionError, IndexError, KeyError or LookupError:
  compiled code raises them exactly where CPython does.  The others can come
  from the documented limits of compiled code (an int beyond int64 is an
  OverflowError or a ValueError where CPython goes on) and would run a
  handler CPython does not run.
- The body runs no Python (no statement that falls back, no call into
  Python, no compiled helper that does): an exception raised in Python
  reaches compiled code as a pending Python exception, not one of these.
  It starts no prange loop, and the backend is the CPU's.
- The handler does not see the body half done: a variable the body assigns
  is not read by the handler until the handler assigns it, and, unless the
  handler leaves the function (return, raise), it assigns every such
  variable before going on.  Exempt are the variables a raise cannot leave
  half done: those only the body's last statement assigns (Python binds
  them after the value is made), and the body's own temporaries (named
  nowhere else; in a loop, first assigned before they are read).  The paths
  the analyses see are then the paths CPython takes.
"""
from __future__ import annotations

from ..diagnostics import UnsupportedSyntaxError
from ..hir import nodes as h
from ..hir import types as T
from .hir_walk import all_writes, expr_reads, nested_blocks, walk, walk_body
from .parallel import needs_interpreter, runs_python

# class -> the error codes of compiled code it catches (abi.h)
CATCHES = {ZeroDivisionError: ("TR_ERR_ZERODIV",), IndexError: ("TR_ERR_INDEX", "TR_ERR_AXIS"),
           KeyError: ("TR_ERR_KEY",), LookupError: ("TR_ERR_INDEX", "TR_ERR_AXIS", "TR_ERR_KEY")}


def s_Try(typer, s: h.If) -> None:
    """Types `try: s.body except ...: s.orelse`; raises UnsupportedSyntaxError where it cannot compile."""
    if typer.program.options.backend != "cpu":
        raise UnsupportedSyntaxError("try statements compile for backend='cpu' only", s.loc)
    caught(typer, s.test)
    typer.block(s.body)
    typer.block(s.orelse)
    body = protected(s)
    _body_runs_no_python(typer, s, body)
    for handler in _handlers(s.orelse):
        _handler_sees_whole_states(typer, s, body, handler)


def protected(s) -> tuple:
    """The statements the try protects (its else clause follows them in the If's body)."""
    return s.body if s.test.protected < 0 else s.body[:s.test.protected]


def caught(typer, test) -> T.Type:
    """Types a TryTest or TryHandler: the error codes its classes catch (tf.consts), or an error."""
    codes = []
    for node in test.classes:
        cls = typer.const(node)
        if cls not in CATCHES:
            raise UnsupportedSyntaxError(
                f"except {getattr(cls, '__name__', 'this class')} is not compiled", node.loc,
                "compiled handlers catch ZeroDivisionError, IndexError, KeyError and LookupError, which compiled "
                "code raises exactly where CPython does")
        codes += [c for c in CATCHES[cls] if c not in codes]
    typer.tf.types[test] = T.BOOL
    typer.tf.consts[test] = tuple(codes)
    return T.BOOL


def _handlers(block) -> list:
    """The handlers' bodies in a TryTest's else: a chain of Ifs on TryHandler tests, the last handler alone."""
    if len(block) == 1 and isinstance(block[0], h.If) and isinstance(block[0].test, h.TryHandler):
        return [block[0].body] + _handlers(block[0].orelse)
    return [block]


def _body_runs_no_python(typer, s, body) -> None:
    tf = typer.tf
    for n in walk_body(body):
        if isinstance(n, h.Unsupported) or n in tf.fallbacks or n in getattr(typer, "python_stmts", {}):
            raise UnsupportedSyntaxError("a try body with a statement that runs as Python is not compiled", s.loc)
        if n in tf.parallel:
            raise UnsupportedSyntaxError("a try body with a prange loop is not compiled", s.loc)
        call = tf.calls.get(n)
        if call is None:
            continue
        if needs_interpreter(call):
            raise UnsupportedSyntaxError(f"a try body calling {needs_interpreter(call)}(), which runs Python, is not "
                                         "compiled", s.loc)
        if call[0] == "jit" and runs_python(typer.program, typer.program.functions.get(call[1]), set(), unknown=True):
            raise UnsupportedSyntaxError("a try body calling a function that runs Python is not compiled", s.loc)


def _handler_sees_whole_states(typer, s, body, handler) -> None:
    last = set(all_writes(body[-1:])) - all_writes(body[:-1]) if not _nested(body[-1]) else set()
    body_vars = all_writes(body) - _temporaries(typer, s, body) - last
    assigned: set = set()
    for stmt in handler:
        seen = _reads(stmt) & (body_vars - assigned)
        if seen:
            raise UnsupportedSyntaxError(f"the except handler reads '{sorted(seen)[0]}', which the try body may "
                                         "have assigned before it raised: not compiled", s.loc)
        leaves = _leaves(stmt)
        if leaves == "loop" and not body_vars <= assigned:
            break
        if isinstance(stmt, h.Assign):
            assigned |= {t.id for t in stmt.targets if isinstance(t, h.Name)}
        if leaves == "function":
            return
    missing = body_vars - assigned
    if missing:
        raise UnsupportedSyntaxError(
            f"after the except handler, '{sorted(missing)[0]}' may hold what the try body assigned before it "
            "raised: not compiled", s.loc, "assign it in the handler too, or leave with return or raise")


def _reads(stmt) -> set:
    """Names a handler statement reads (its own targets' names excepted at the top: `x = 0`)."""
    if isinstance(stmt, h.Assign):
        out: list = []
        expr_reads(stmt.value, out)
        for t in stmt.targets:
            if not isinstance(t, h.Name):
                expr_reads(t, out)
        return {n.id for n in out}
    return {n.id for n in walk(stmt) if isinstance(n, h.Name)}


def _leaves(stmt) -> str | None:
    """How a statement may leave the handler: "function" (it always returns or raises), "loop" (a
    break or continue somewhere in it), else None."""
    if isinstance(stmt, (h.Return, h.Raise)):
        return "function"
    if any(isinstance(n, (h.Break, h.Continue)) for n in walk(stmt)):
        return "loop"
    return None


def _nested(stmt) -> bool:
    return any(True for _ in nested_blocks(stmt))


def _in_loop(body, target, loop=False) -> bool | None:
    """Whether statement `target` sits in a loop of body (None: not in body)."""
    for stmt in body:
        if stmt is target:
            return loop
        inner = loop or isinstance(stmt, (h.For, h.While))
        for block in nested_blocks(stmt):
            found = _in_loop(block, target, inner)
            if found is not None:
                return found
    return None


def _temporaries(typer, s, body) -> set:
    """Variables only the try body names (in a loop: each first assigned at the body's top level before
    any read): what the body left half done cannot be seen anywhere."""
    inside = {id(n) for n in walk_body(body)}
    outside = {n.id for n in walk_body(typer.fn.body) if isinstance(n, h.Name) and id(n) not in inside}
    outside |= {p.name for p in typer.fn.params}
    if not _in_loop(typer.fn.body, s):
        return all_writes(body) - outside
    first: dict = {}
    for stmt in body:
        reads = {n.id for n in walk(stmt) if isinstance(n, h.Name)} if not isinstance(stmt, h.Assign) else _reads(stmt)
        for name in reads:
            first.setdefault(name, "read")
        if isinstance(stmt, h.Assign):
            for t in stmt.targets:
                if isinstance(t, h.Name):
                    first.setdefault(t.id, "assigned")
    return {name for name, how in first.items() if how == "assigned" and name not in outside}
