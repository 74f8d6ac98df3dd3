"""JIT Fallback analysis: what a statement that runs as Python reads and
writes, how control may leave it (return/break/continue, which compiled
code then carries out; yield/nonlocal, which it cannot), and the
`# @jit.typing: () -> T` comment that names the type it produces.

Statements are analysed from their own source text with the standard `ast`
module (cheap, and exactly what CPython will run)."""
from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass, field

import numpy as np

from ..diagnostics import AnnotationError, SourceLoc, TypingError, UnsupportedSyntaxError
from ..hir import nodes as h
from ..hir import types as T
from ..library.base import NOT_CONST
from ..library.random_lib import draw_type
from ..values import fields
from .ast_names import Names

TYPING_RE = re.compile(r"#\s*@jit\.typing:(.*)$")
EXAMPLE = ("# @jit.typing: () -> float32   (or int64, bool, float64[:], float64[:, :], tensor_type[float32], "
           "tensor_type[float32, 2], {dtype_var})")


@dataclass
class FallbackInfo:
    stmt: h.Stmt
    reason: str
    construct: str
    reads: set = field(default_factory=set)
    writes: set = field(default_factory=set)
    definite: set = field(default_factory=set)  # written on every path through the statement
    declared: T.Type | None = None  # from # @jit.typing
    returns: bool = False
    # how control may leave the statement other than by falling through: "break"/"continue" of the
    # compiled loop around it, "return" (cxx/lower_regions.py carries them out); return_value: some
    # return gives a value other than None
    exits: frozenset = frozenset()
    return_value: bool = False
    quiet: bool = False  # a nested def whose calls compile: not reported as a fallback
    outputs: set | None = None  # the writes compiled code may read afterwards (None: all; mark_outputs)
    declared_names: dict = field(default_factory=dict)  # name -> type, from an objmode block's keywords

    def declared_for(self, name: str) -> T.Type | None:
        """The type the user gave a value the statement writes (objmode's keywords, # @jit.typing)."""
        return self.declared_names.get(name, self.declared)


def statement_text(fn: h.Function, loc: SourceLoc) -> str:
    """The statement's source, dedented, from the file's own lines."""
    lines = fn.file_lines
    first, last = loc.line, loc.end_line or loc.line
    chunk = list(lines[first - 1:last])
    if not chunk:
        return ""
    if len(chunk) == 1:
        chunk[0] = chunk[0][loc.col:loc.end_col] if loc.end_col else chunk[0][loc.col:]
    else:
        chunk[0] = chunk[0][loc.col:]
        chunk[-1] = chunk[-1][:loc.end_col] if loc.end_col else chunk[-1]
    chunk[0] = " " * loc.col + chunk[0]
    return textwrap.dedent("".join(line if line.endswith("\n") else line + "\n" for line in chunk))


def parse_statement(fn: h.Function, loc: SourceLoc) -> list:
    return ast.parse(statement_text(fn, loc)).body


def analyse(fn: h.Function, stmt: h.Stmt) -> Names:
    names = Names()
    body = parse_statement(fn, stmt.loc)
    names.top_return = len(body) == 1 and isinstance(body[0], ast.Return)
    # Names certainly assigned (top-level simple assignment): their old value is not needed.
    names.definite = set()
    for node in body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                names.definite |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and node.value is not None and isinstance(node.target, ast.Name):
            names.definite.add(node.target.id)
    for node in body:
        names.visit(node)
    names.stores -= fn.declared_globals  # module variables, not the function's locals
    names.definite -= fn.declared_globals
    if names.top_return:  # the statement itself: its value becomes the region's result
        names.escapes = [e for e in names.escapes if e[1] is not body[0]]
    return names


def written_names(fn: h.Function, stmt: h.Stmt) -> set:
    return analyse(fn, stmt).stores


# ---- # @jit.typing ----------------------------------------------------------

def typing_comment(fn: h.Function, loc: SourceLoc) -> tuple[str, SourceLoc] | None:
    """The text after `# @jit.typing:` on the statement's line or alone on the line above."""
    lines = fn.file_lines
    candidates = [loc.end_line or loc.line, loc.line]
    if loc.line >= 2 and lines[loc.line - 2].strip().startswith("#"):
        candidates.append(loc.line - 1)
    for number in candidates:
        if 1 <= number <= len(lines):
            m = TYPING_RE.search(lines[number - 1])
            if m:
                text = lines[number - 1]
                return m.group(1).strip(), SourceLoc(loc.filename, number, m.start(), number, len(text.rstrip()),
                                                     text)
    return None


_DTYPE_ALIASES = {"int": "int64", "float": "float64", "bool": "bool", "complex": "complex128"}


def parse_typing(text: str, where: SourceLoc, resolve, ndim_hint: int | None = None) -> T.Type:
    """`() -> T` as a type; `resolve(name)` gives the value of a {name}.
    tensor_type[dtype] (MindSpore's spelling) takes its number of dimensions
    from `ndim_hint` (what compiled code already holds in the variable), else
    1; tensor_type[dtype, n] says it."""
    m = re.fullmatch(r"\(\s*\)\s*->\s*(.+)", text)
    if not m:
        raise AnnotationError(f"malformed @jit.typing comment: {text!r}", where, f"write it as {EXAMPLE}")
    spec = m.group(1).strip()
    tensor = re.fullmatch(r"tensor_type\[\s*([^,\]]+?)\s*(?:,\s*(\d+)\s*)?\]", spec)
    if tensor:
        ndim = int(tensor.group(2)) if tensor.group(2) is not None else (ndim_hint or 1)
        if ndim > 32:
            raise AnnotationError(f"@jit.typing: {ndim} dimensions are more than NumPy's 32", where, EXAMPLE)
        return T.Array(_dtype(tensor.group(1), where, resolve), ndim, "A")
    array = re.fullmatch(r"(.+?)\[\s*(:(?:\s*,\s*:)*)\s*\]", spec)
    if array:
        return T.Array(_dtype(array.group(1), where, resolve), array.group(2).count(":"), "A")
    dtype = _dtype(spec, where, resolve)
    if spec in ("int", "float", "bool", "complex"):
        return T.Scalar(dtype, weak=True)
    return T.Scalar(dtype)


def declared_result(typer, s: h.Assign) -> T.Type | None:
    """The type a `# @jit.typing: () -> T` comment names for the value of an
    assignment that compiles but yields a Python object (a helper's result
    that compiled code cannot type), or None."""
    comment = typing_comment(typer.fn, s.loc)
    if comment is None:
        return None
    writes = {t.id for t in s.targets if isinstance(t, h.Name)}
    return parse_typing(comment[0], comment[1], typer.typing_name, ndim_hint(typer, writes, False))


def object_mode_types(typer, s: h.Stmt) -> dict | None:
    """name -> transpile type text of `with objmode(name=type, ...):` (Numba's
    block that runs as Python on purpose), asked of the callee itself
    (numba_compat/objmode.py: __transpile_object_mode__); None for any other
    statement."""
    call = getattr(s, "block_call", None)
    if not isinstance(s, h.Unsupported) or call is None:
        return None
    mapper = getattr(typer.const(call.func), "__transpile_object_mode__", None)
    if mapper is None:
        return None
    values = {}
    for kw in call.keywords:
        values[kw.name] = _type_value(typer, kw.value)
        if values[kw.name] is NOT_CONST:
            raise TypingError(f"objmode's type for '{kw.name}' must be a type or its name, known while compiling",
                              kw.value.loc)
    try:
        return mapper(values)
    except TypeError as exc:
        raise TypingError(str(exc), call.loc) from None


def _type_value(typer, node):
    """A type the source spells: a constant (a name, "float64", types.float64) or an array type made by
    slicing one (types.float64[:, ::1])."""
    if not isinstance(node, h.Subscript):
        return typer.const(node)
    base = typer.const(node.value)
    dims = []
    for item in node.index:
        bounds = [None if b is None else typer.const(b) for b in (item.lower, item.upper, item.step)] \
            if isinstance(item, h.Slice) else [NOT_CONST]
        if base is NOT_CONST or NOT_CONST in bounds:
            return NOT_CONST
        dims.append(slice(*bounds))
    try:
        return base[tuple(dims) if len(dims) > 1 else dims[0]]
    except Exception:  # noqa: BLE001 - not a type: the caller says what it needs
        return NOT_CONST


def object_mode_outputs(typer, s: h.Stmt, texts: dict, writes: set) -> dict:
    """The declared outputs of an objmode block as types; each must be assigned in it."""
    out = {}
    for name, text in texts.items():
        if name not in writes:
            raise TypingError(f"objmode declares '{name}', which the block does not assign", s.loc,
                              "declare only the variables the block assigns and the code after it uses")
        out[name] = T.parse_type(text)
        if not (isinstance(out[name], (T.Scalar, T.Array)) or out[name] == T.STR):
            raise TypingError(f"objmode output '{name}' of type {out[name]}: compiled code takes numbers, arrays "
                              "and strs back from an objmode block", s.loc)
    return out


def draw_result(typer, s: h.Stmt) -> T.Type | None:
    """The type of `x = np.random.random()` and the other random draws
    library/random_lib.py lists, for such a statement run as Python."""
    if not (isinstance(s, h.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], h.Name)
            and isinstance(s.value, h.Call)):
        return None
    callee = typer.const(s.value.func)
    arg_types = [typer.tf.types.get(a) for a in s.value.args]
    if callee is NOT_CONST or any(t is None for t in arg_types):
        return None
    return draw_type(callee, arg_types, bool(s.value.keywords))


def ndim_hint(typer, writes, returns: bool) -> int | None:
    """The number of dimensions of the array compiled code already holds where a
    statement's value goes (a variable it writes, or the function's result)."""
    for name in sorted(writes):
        t = typer.tf.var_types.get(name)
        if isinstance(t, T.Array):
            return t.ndim
    if returns and isinstance(typer.tf.return_type, T.Array):
        return typer.tf.return_type.ndim
    return None


def _dtype(text: str, where: SourceLoc, resolve) -> str:
    text = text.strip()
    if text.startswith("{") and text.endswith("}"):
        value = resolve(text[1:-1].strip())
        if value is None:
            raise AnnotationError(f"@jit.typing: {text} does not name a dtype known while compiling", where,
                                  f"{{name}} must be a module-level dtype such as DT = np.float32; {EXAMPLE}")
        try:
            name = np.dtype(value).name
        except TypeError:
            raise AnnotationError(f"@jit.typing: {text} is {value!r}, not a dtype", where, EXAMPLE) from None
    else:
        name = _DTYPE_ALIASES.get(text, text)
        try:
            name = np.dtype(name).name
        except TypeError:
            raise AnnotationError(f"@jit.typing: unknown type {text!r}", where, f"write it as {EXAMPLE}") from None
    if name not in T.DTYPES:
        raise AnnotationError(f"@jit.typing: dtype {name} is not supported", where, EXAMPLE)
    return name


# ---- containers shared with Python code ---------------------------------------
#
# A list, dict or set that a fallback statement can reach is one object for
# compiled code and Python: the variable holds the Python object (type Any)
# and every statement that names it runs as Python too, so a mutation made
# on either side is made on that one object (aliases included: `a = d` runs
# as Python and binds the same object).  A container first made by a
# fallback statement (`d = {}` filled only by `d.setdefault(k, []).append(i)`)
# needs no element type at all this way.  Parameters keep the rule of
# passes/lists.py (the whole function runs in CPython): their compiled type
# is fixed by the caller's arguments.

def holds_container(t) -> bool:
    """Whether a value of type t contains a compiled list, dict or set."""
    if isinstance(t, (T.Dict, T.Set)):
        return True
    if isinstance(t, T.List):  # a tuple of any length is immutable, its items may not be
        return not t.frozen or t.elem is None or holds_container(t.elem)
    if isinstance(t, T.Tuple):
        return any(holds_container(i) for i in t.items)
    if isinstance(t, T.Optional):
        return holds_container(t.inner)
    return False


def share_containers(typer, stmt, names) -> None:
    """Called for each fallback statement with the names it reads or writes:
    the local containers among them become Python objects (typing restarts
    with them held)."""
    if typer.fullgraph:
        return
    held = typer.held
    new = {n for n in names & typer.locals
           if n not in held and n not in typer.tf.params and holds_container(typer.tf.var_types.get(n))}
    if not new:
        return
    for name in sorted(new):
        held[name] = (f"'{name}' is a container that statements running as Python also use, so it is a Python "
                      "object and every statement that uses it runs as Python")
    _restart(typer)


def hold(typer, name: str, reason: str) -> None:
    """A local whose value compiled code cannot keep with CPython's type on
    every path (passes/paths.py): it becomes a Python object, and every
    statement naming it runs as Python, so each path keeps its own value
    and type (typing restarts with it held)."""
    typer.held[name] = f"'{name}' is a Python object ({reason}), so every statement that uses it runs as Python"
    for s, info in typer.tf.fallbacks.items():  # the first reason is the one worth reporting
        typer.own_reasons.setdefault(s, info.reason)
    _restart(typer)


def run_as_python(typer, stmt, reason: str) -> None:
    """A statement (or an `if`'s test) holding an expression whose type
    differs by path in a way compiled code cannot keep (passes/paths.py):
    it runs as Python, so the expression has CPython's own value and type
    (typing restarts)."""
    typer.python_stmts[stmt] = reason
    _restart(typer)


def may_run_as_python(typer, stmt) -> bool:
    return not typer.fullgraph and stmt not in typer.python_stmts and stmt not in typer.tf.fallbacks


def holdable(typer, name) -> bool:
    """A parameter too: it is boxed on entry with the argument's own type
    (numbers, arrays, tuples of them; an array stays the caller's object)."""
    tf = typer.tf
    if name in tf.params and not _boxable(tf.arg_types[tf.params.index(name)]):
        return False
    return not typer.fullgraph and name in typer.locals and name not in typer.held


def _boxable(t) -> bool:
    if isinstance(t, T.Tuple):
        return all(_boxable(i) for i in t.items)
    return isinstance(t, (T.Scalar, T.Array))


def mark_outputs(tf, reach) -> None:
    """A fallback statement's writes that no later read sees (compiled or
    Python) stay in Python: never converted to the variable's compiled type,
    which could raise where CPython does not (`x = arr` falling back where
    x is an int that is not read again)."""
    live = {}
    reads = list(reach.uses.items()) + [((name,), defs) for r in reach.fallback_reads.values()
                                        for name, defs in r.items()]
    for node, defs in reads:
        name = node[0] if isinstance(node, tuple) else node.id
        for d in defs:
            if d in tf.fallbacks:
                live.setdefault(d, set()).add(name)
    for s, info in tf.fallbacks.items():
        info.outputs = info.writes & live.get(s, set())


def _restart(typer) -> None:
    """Forgets what was inferred from the held variables' compiled types."""
    tf = typer.tf
    tf.var_types = {p: t for p, t in zip(tf.params, tf.arg_types)}
    if tf.return_type != T.NONE:  # None stays: a recursive call needs it while typing
        tf.return_type = None
    for name in typer.held:
        tf.var_types[name] = T.ANY
    typer.changed = True


def held_name(typer, stmt) -> str | None:
    """A held variable the statement's own code names (a while test, a for
    loop's header: not their bodies; an if's test is evaluated as Python on
    its own, python_test), or None."""
    held = typer.held
    if not held or isinstance(stmt, h.If):
        return None
    parts = [stmt.test] if isinstance(stmt, h.While) else [stmt.iter, stmt.target] \
        if isinstance(stmt, h.For) else [stmt]
    for part in parts:
        for name in _names(part):
            if name in held:
                return name
    return None


def python_test(typer, s) -> bool:
    """Whether an `if`'s test runs as Python on its own (its branches stay
    compiled): it names a held variable, or it does not compile. The test
    is then a fallback of its own (tf.fallbacks[s.test], its truth the
    region's result), so a `return` in a branch does not make the whole
    function run in CPython. One-line tests only (a region parses the
    test's own source text)."""
    held = next((n for n in _names(s.test) if n in typer.held), None)
    errors = [UnsupportedSyntaxError(typer.held[held], s.test.loc)] if held else []
    if s.test in typer.python_stmts:
        errors = [UnsupportedSyntaxError(typer.python_stmts[s.test], s.test.loc)]
    if not errors:
        try:
            typer.truth_test(s.test)
            return False
        except (UnsupportedSyntaxError, TypingError) as exc:
            errors = [exc]
    names = analyse(typer.fn, s.test)
    if typer.fullgraph or s.test.loc.end_line != s.test.loc.line or names.stores or names.escapes:
        raise errors[0]
    typer.fall_back(s.test, errors)
    return True


def _names(node):
    if isinstance(node, h.Name):
        yield node.id
    if isinstance(node, (list, tuple)):
        for item in node:
            yield from _names(item)
    elif isinstance(node, h.Node):
        for field_name in fields(node):
            if field_name not in ("loc", "body", "orelse") or not isinstance(node, h.Stmt):
                yield from _names(getattr(node, field_name))


def held_reason(typer, name: str, stmt) -> str:
    return typer.own_reasons.get(stmt) or typer.held[name]
