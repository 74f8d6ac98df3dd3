"""Shrinks a reproducer written by the fuzzer (python -m tests.fuzz.reduce FILE.py [LEVEL]).

Deletes statements (a compound statement with its whole body, or just its
header with the body kept) and return items one at a time, keeping each
deletion after which the compiled function still departs from CPython in
the same way (same class; for exceptions the same pair of exception types).
Prints the smallest program found. Each try is one compile (~1 s).
"""
from __future__ import annotations

import ast
import importlib.util
import math
import os
import sys
import tempfile

import numpy as np

from transpile import jit

from .compare import COMPILE, EXCEPTION, compare
from .worker import is_compile_error, rejected_by_gxx, run

HEADER = "import heapq\nimport math\n\nimport numpy as np\n\n"


def signature_of(source: str, name: str, args: tuple, globals_init: dict, level: str, workdir: str, tag: str):
    """How jit(fn) departs from fn on args: (class, detail) or None (also None if it does not run)."""
    module_name = f"fz_reduce_{tag}"
    path = os.path.join(workdir, module_name + ".py")
    with open(path, "w") as f:
        f.write(HEADER + "".join(f"{g} = {v!r}\n" for g, v in globals_init.items()) + "\n" + source)
    try:
        spec = importlib.util.spec_from_file_location(module_name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    except Exception:  # noqa: BLE001 - a deletion that broke the program
        return None
    fn = getattr(module, name)
    expected, _ = run(fn, args, module, globals_init)
    got, messages = run(jit(fn, jit_level=level), args, module, globals_init)
    if rejected_by_gxx(messages):
        return COMPILE, "g++"
    found = compare(got, expected, False, is_compile_error)
    if found is None:
        return None
    if found[0] == EXCEPTION:
        return EXCEPTION, (expected[0], type(expected[1]).__name__ if expected[0] == "raise" else None,
                           type(got[1]).__name__ if got[0] == "raise" else None)
    return found[0], None


def _candidates(source: str):
    """Smaller versions of the function: one statement less, a header unwrapped, a return item less."""
    tree = ast.parse(source)
    lines = source.splitlines()
    for node in ast.walk(tree.body[0]):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            for stmt in block:
                start, end = stmt.lineno - 1, stmt.end_lineno
                indent = lines[start][: len(lines[start]) - len(lines[start].lstrip())]
                keep = lines[:start] + ([indent + "pass"] if len(block) == 1 else []) + lines[end:]
                yield "\n".join(keep) + "\n"
                if isinstance(stmt, (ast.If, ast.For, ast.While)):
                    inner = lines[stmt.body[0].lineno - 1: stmt.body[-1].end_lineno]
                    depth = len(inner[0]) - len(inner[0].lstrip()) - len(indent)
                    yield "\n".join(lines[:start] + [ln[depth:] for ln in inner] + lines[end:]) + "\n"
                if isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Tuple) and len(stmt.value.elts) > 1:
                    for i in range(len(stmt.value.elts)):
                        items = [ast.unparse(e) for j, e in enumerate(stmt.value.elts) if j != i]
                        text = indent + "return " + ", ".join(items) + ("," if len(items) == 1 else "")
                        yield "\n".join(lines[:start] + [text] + lines[end:]) + "\n"


def reduce(source: str, name: str, args: tuple, globals_init: dict, level: str = "O0") -> str:
    with tempfile.TemporaryDirectory(prefix="transpile-reduce-") as workdir:
        sys.path.insert(0, workdir)
        tries = 0
        target = signature_of(source, name, args, globals_init, level, workdir, "0")
        if target is None:
            raise ValueError("the program does not reproduce a difference")
        progress = True
        while progress:
            progress = False
            for candidate in _candidates(source):
                tries += 1
                if signature_of(candidate, name, args, globals_init, level, workdir, str(tries)) == target:
                    source, progress = candidate, True
                    break
        sys.path.remove(workdir)
    return source


def _read_reproducer(path: str):
    text = open(path).read()
    tree = ast.parse(text)
    func = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
    globals_init = {t.id: ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
                    for t in n.targets if isinstance(t, ast.Name)}
    main = next(n for n in tree.body if isinstance(n, ast.If))
    args_text = ast.unparse(main.body[0].value)
    args = eval(args_text, {"np": np, "math": math, "float": float})  # noqa: S307 - the fuzzer's own output
    return ast.get_source_segment(text, func) + "\n", func.name, args, globals_init


def main(argv) -> None:
    source, name, args, globals_init = _read_reproducer(argv[0])
    level = argv[1] if len(argv) > 1 else "O0"
    print(f"# args = {args!r}")
    print(reduce(source, name, args, globals_init, level))


if __name__ == "__main__":
    main(sys.argv[1:])
