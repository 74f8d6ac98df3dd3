"""The one-way architecture (docs/architecture.md, "Layers"): the import-linter
contract in .importlinter holds, and no two modules of transpile import each
other, directly or through others, counting imports inside functions, which
import-linter does not tell apart from module-level ones."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "transpile"


def _modules(package: Path) -> dict[str, Path]:
    mods = {}
    for f in package.rglob("*.py"):
        parts = f.relative_to(package.parent).with_suffix("").parts
        mods[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = f
    return mods


def import_graph(package: Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports anywhere in its body.
    `from . import x` names module x when x is one, else the package."""
    mods = _modules(package)
    graph = {m: set() for m in mods}
    for name, path in mods.items():
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = here[:len(here) - node.level + 1]
                    base = ".".join(up + ([node.module] if node.module else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
            else:
                continue
            for t in targets:
                while t not in mods and "." in t:
                    t = t.rsplit(".", 1)[0]
                if t in mods and t != name:
                    graph[name].add(t)
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative: the components with more than one module."""
    index, low, on, stack, out = {}, {}, set(), [], []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, edges = work[-1]
            for w in edges:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def test_the_cycle_finder_finds_cycles_through_function_level_imports(tmp_path):
    pkg = tmp_path / "pk"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "low.py").write_text("def f():\n    from .sub import high\n")
    (pkg / "sub" / "high.py").write_text("from .. import low\n")
    (pkg / "leaf.py").write_text("from . import low\n")
    graph = import_graph(pkg)
    assert graph["pk.low"] == {"pk.sub.high"} and graph["pk.leaf"] == {"pk.low"}
    assert strongly_connected(graph) == [["pk.low", "pk.sub.high"]]


def test_no_import_cycles_in_transpile():
    cycles = strongly_connected(import_graph(PACKAGE))
    assert not cycles, "modules that import each other (function-level imports included):\n" + "\n".join(
        " <-> ".join(c) for c in cycles)


def test_the_layer_contract_holds():
    """import-linter (the `test` extra) reads the contract from .importlinter;
    it runs in a child process so that it finds this checkout's package."""
    code = ("import sys; from importlinter.cli import lint_imports; "
            f"sys.exit(lint_imports(config_filename={str(ROOT / '.importlinter')!r}, no_cache=True, no_logo=True))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stdout + out.stderr
