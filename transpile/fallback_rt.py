"""The Python side of JIT Fallback: turning the regions recorded in a cache
entry into callables the compiled code calls.

A region is compiled from the user's own statements, placed at their own
line numbers in their own file, inside a function named like the user's, and
bound to the module's live globals: a traceback from fallback code points at
the user's line, and globals are read at each call.  A region marked "live"
runs no statement: it returns the live globals a compiled function reads
(passes/live_globals.py).  Values it assigns are converted here to the types
compiled code expects, with errors that name the line."""
from __future__ import annotations

import ast
import dis
import linecache
import sys
import types

import numpy as np

from .hir import types as T
from .passes.ast_names import escaping
from .passes.exits import CODES


def _resolve_function(spec: dict, root_func):
    if spec["qualname"] == root_func.__qualname__ and spec["module"] == root_func.__module__:
        return root_func
    obj = sys.modules.get(spec["module"])
    for part in spec["qualname"].split("."):
        obj = getattr(obj, part, None)
    return getattr(obj, "py_func", obj) or root_func


def statement_text(filename: str, loc) -> str:
    """The source of one statement (its first line padded to its column), as
    stored in a cache entry so the entry runs wherever the project moves."""
    line, col, end_line, end_col = loc
    chunk = list(linecache.getlines(filename)[line - 1:end_line])
    if not chunk:
        raise IndexError(f"{filename}:{line}: the source of a JIT Fallback statement is not readable")
    chunk[-1] = chunk[-1][:end_col] if end_col else chunk[-1]
    chunk[0] = " " * col + chunk[0][col:]
    return "".join(c if c.endswith("\n") else c + "\n" for c in chunk)


def with_sources(regions: list) -> list:
    """Regions with each statement's source text (read once, at build time)."""
    return [dict(r, sources=[statement_text(r["filename"], loc) for loc in r["statements"]]) for r in regions]


def _statement_asts(text: str, loc) -> list:
    import textwrap

    line, col = loc[0], loc[1]
    tree = ast.parse(textwrap.dedent(text))
    for node in ast.walk(tree):
        if hasattr(node, "col_offset"):
            node.col_offset += col
            if getattr(node, "end_col_offset", None) is not None:
                node.end_col_offset += col
    ast.increment_lineno(tree, line - 1)
    return tree.body


def _converter(type_text: str, declared_text: str, where: str, declared_by: str = "@jit.typing"):
    """A function checking a value against the type a # @jit.typing comment or
    an objmode block (declared_by) gives it, or None (other values are
    converted by the bridge, which names the line too)."""
    declared = declared_text != "None"
    if type_text == "object" or not declared:
        return None
    t = T.parse_type(type_text)
    if t == T.STR:
        def to_str(value):
            if not isinstance(value, str):
                raise TypeError(f"{where}: {declared_by} declares str but the statement produced "
                                f"{type(value).__name__} {value!r}")
            return value

        return to_str
    if isinstance(t, T.Array):
        dtype, ndim = np.dtype(t.dtype), t.ndim

        def to_array(value):
            if not isinstance(value, np.ndarray) or value.dtype != dtype or value.ndim != ndim:
                got = (f"{value.dtype}[{', '.join([':'] * value.ndim)}]" if isinstance(value, np.ndarray)
                       else type(value).__name__)
                raise TypeError(f"{where}: {declared_by} declares {t} but the statement produced {got}")
            return value

        return to_array
    kind = np.dtype(t.dtype).kind
    target = (bool if t.dtype == "bool" else int if kind in "iu" else float if kind == "f" else complex) \
        if t.weak else np.dtype(t.dtype).type
    accepted = {"b": (bool, np.bool_), "i": (int, np.integer), "u": (int, np.integer),
                "f": (int, float, np.integer, np.floating), "c": (int, float, complex, np.number)}[kind]

    def to_scalar(value):
        ok = isinstance(value, accepted) and not (kind != "b" and isinstance(value, (bool, np.bool_)))
        if declared and not ok:
            raise TypeError(f"{where}: {declared_by} declares {t} but the statement produced "
                            f"{type(value).__name__} {value!r}")
        try:
            return target(value if ok else float(value))
        except (TypeError, ValueError):
            raise TypeError(f"{where}: a value of type '{type(value).__name__}' produced by fallback code cannot be "
                            f"converted to {t}; name its type with a '# @jit.typing: () -> T' comment") from None

    return to_scalar


def make_region(spec: dict, root_func):
    func = _resolve_function(spec, root_func)
    filename = spec["filename"]
    body = []
    # entries written before sources were stored read the file (where it still is)
    sources = spec.get("sources") or [statement_text(filename, loc) for loc in spec["statements"]]
    live = spec.get("live", False)  # reads live globals: its one statement is the def line (where errors point)
    for loc, text in zip([] if live else spec["statements"], sources):
        for stmt in _statement_asts(text, loc):
            if spec.get("test") and isinstance(stmt, ast.Expr):  # an if's test: its truth, as `if` takes it
                stmt = ast.Assign(targets=[ast.Name("__tr_test", ast.Store())],
                                  value=ast.UnaryOp(ast.Not(), ast.UnaryOp(ast.Not(), stmt.value)),
                                  lineno=stmt.lineno, col_offset=stmt.col_offset)
            elif isinstance(stmt, ast.Return) and stmt.lineno in spec["returns"]:
                stmt = ast.Assign(targets=[ast.Name("__tr_return", ast.Store())],
                                  value=stmt.value or ast.Constant(None), lineno=stmt.lineno,
                                  col_offset=stmt.col_offset)
            body.append(stmt)
    first = spec["statements"][0][0]
    converters = []
    results = []
    unbound = spec.get("unbound", [])
    for name, type_text, declared in spec["outs"]:
        conv = _converter(type_text, declared, f"{filename.rsplit('/', 1)[-1]}:{first}",
                          spec.get("declared_by", "@jit.typing"))
        # a live global's callback returns the values of its expressions (`ARR`, `gp.v`)
        value = ast.parse(name, mode="eval").body if live else ast.Name(name, ast.Load())
        if name.startswith("__tr_bound_"):  # whether a variable that was unassigned is assigned now
            value = ast.Compare(ast.Constant(name[len("__tr_bound_"):]), [ast.In()],
                                [ast.Call(ast.Name("__tr_locals", ast.Load()), [], [])])
        elif name in unbound:  # still unassigned: compiled code gets its old value back, and the flag
            value = ast.Call(ast.Attribute(ast.Call(ast.Name("__tr_locals", ast.Load()), [], []), "get", ast.Load()),
                             [ast.Constant(name), ast.Name(f"__tr_in_{name}", ast.Load())], [])
        if conv is not None:
            converters.append(conv)
            value = ast.Call(ast.Name(f"__tr_conv{len(converters) - 1}", ast.Load()), [value], [])
        results.append(value)
    exits = spec.get("exits", [])
    if exits:
        body = _carry_exits(body, exits, spec["outs"])
    body.append(ast.Return(ast.Tuple(results, ast.Load())))
    # a variable compiled code may not have assigned: deleted first, so reading it raises
    # CPython's UnboundLocalError, and only if the statement reads it
    checks = [ast.If(ast.UnaryOp(ast.Not(), ast.Name(f"__tr_bound_{n}", ast.Load())),
                     [ast.Delete([ast.Name(n, ast.Del())])], []) for n in unbound]
    kept = [n for n, _, _ in spec["outs"] if not n.startswith("__tr_")] if "return" in exits else unbound
    checks[:0] = [ast.Assign([ast.Name(f"__tr_in_{n}", ast.Store())], ast.Name(n, ast.Load())) for n in kept]
    declared = _stored_globals(func.__code__) if func.__qualname__ == spec["qualname"] else []
    if declared:  # the user's `global` statements hold for the region's copy of the statements too
        checks.insert(0, ast.Global(declared))
    inner = _function(spec["name"], list(spec["ins"]) + [f"__tr_bound_{n}" for n in unbound], checks + body)
    outer = _function("__tr_make_region", [f"__tr_conv{i}" for i in range(len(converters))] + ["__tr_locals"],
                      [inner, ast.Return(ast.Name(spec["name"], ast.Load()))])
    module = ast.Module(body=[outer], type_ignores=[])
    for node in ast.walk(module):
        if isinstance(node, (ast.stmt, ast.expr, ast.arg)) and getattr(node, "lineno", None) is None:
            node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = first, 0, first, 0
        elif isinstance(node, (ast.stmt, ast.expr, ast.arg)) and getattr(node, "end_lineno", None) is None:
            node.end_lineno, node.end_col_offset = node.lineno, node.col_offset
    code = compile(module, filename, "exec")
    make_code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    make = types.FunctionType(make_code, func.__globals__)
    return make(*converters, locals)


def _carry_exits(body: list, exits: list, outs: list) -> list:
    """The region's statements reporting how they end (passes/exits.py):
    `__tr_exit` is 1 after a `break` of the compiled loop around them, 2
    after a `continue` (both leave the statements through a loop of one
    iteration wrapped around them, so `finally` clauses run as in CPython),
    3 after a `return`, which leaves the region at once with the value in
    `__tr_return` and the variables' values as they came in (the function
    ends: they are not used, and converting new ones could raise)."""

    def on_return(node) -> ast.Return:
        values = [ast.Constant(CODES["return"]) if n == "__tr_exit" else
                  ast.Name(n if n.startswith("__tr_") else f"__tr_in_{n}", ast.Load()) for n, _, _ in outs]
        return ast.copy_location(ast.Return(ast.Tuple(values, ast.Load())), node)

    found = {id(node): kind for kind, node in escaping(body)}

    def code(kind, node) -> ast.Assign:
        return ast.copy_location(ast.Assign([ast.Name("__tr_exit", ast.Store())], ast.Constant(CODES[kind])), node)

    class Exits(ast.NodeTransformer):
        def visit_Break(self, node):
            kind = found.get(id(node))
            return [code(kind, node), ast.copy_location(ast.Break(), node)] if kind else node

        visit_Continue = visit_Break

        def visit_Return(self, node):
            if id(node) not in found:
                return node
            value = ast.Assign([ast.Name("__tr_return", ast.Store())], node.value or ast.Constant(None))
            return [ast.copy_location(value, node), code("return", node), on_return(node)]

    carried = []
    for stmt in body:
        stmt = Exits().visit(stmt)
        carried += stmt if isinstance(stmt, list) else [stmt]
    start = [ast.Assign([ast.Name("__tr_exit", ast.Store())], ast.Constant(0))]
    if any(n == "__tr_return" for n, _, _ in outs):  # a Python object: None until a return sets it
        start.append(ast.Assign([ast.Name("__tr_return", ast.Store())], ast.Constant(None)))
    if "break" in exits or "continue" in exits:
        return start + [ast.While(ast.Constant(True), carried + [ast.Break()], [])]
    return start + carried


def _stored_globals(code) -> list:
    """The module variables a function assigns or deletes (its `global` names)."""
    return sorted({i.argval for i in dis.get_instructions(code) if i.opname in ("STORE_GLOBAL", "DELETE_GLOBAL")})


def _function(name: str, params, body) -> ast.FunctionDef:
    extra = {"type_params": []} if "type_params" in ast.FunctionDef._fields else {}
    return ast.FunctionDef(name=name, args=_args(params), body=body, decorator_list=[], returns=None, **extra)


def _args(names) -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[ast.arg(n) for n in names], vararg=None, kwonlyargs=[],
                         kw_defaults=[], kwarg=None, defaults=[])


def build_regions(specs: list, root_func) -> tuple:
    """The region table handed to the compiled module: (callable, "file.py:LINE") each."""
    return tuple((make_region(spec, root_func), f"{spec['filename'].rsplit('/', 1)[-1]}:{spec['statements'][0][0]}")
                 for spec in specs)


def report_text(function, records: list) -> str:
    lines = [f"{function.__qualname__} runs {len(records)} statement(s) as Python (JIT Fallback):"]
    for r in records:
        lines.append(f"  {r['file']}:{r['line']}: {r['source']}    <- {r['reason']}")
    lines.append("  (fullgraph=True turns these into errors; `# @jit.typing: () -> T` names a value's type)")
    return "\n".join(lines)
