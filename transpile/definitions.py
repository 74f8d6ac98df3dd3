"""A file's definitions without its top-level code, for `transpile annotate`.

Running a module to find its @jit functions runs whatever else it does (a
script prints, computes, compiles, or calls sys.exit).  load() executes only
the statements that define names: imports, function and class definitions,
and assignments whose value calls nothing but imported modules' functions
and builtins (N = 3, A = np.linspace(0, 1, 5)); calls of the file's own
functions, loops, `if __name__ == "__main__":` blocks and every other
statement are skipped.  The functions keep their file and line numbers, so
their source is read and translated as usual."""
from __future__ import annotations

import ast
import builtins
import importlib
import sys
import types
from pathlib import Path

_DEFINES = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _imported_names(tree: ast.Module) -> set[str]:
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def _only_library_calls(value: ast.AST, modules: set[str]) -> bool:
    """Every call in the expression is of a builtin or of an imported name's attribute."""
    for node in ast.walk(value):
        if not isinstance(node, ast.Call):
            continue
        root = node.func
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name):
            return False
        if root.id not in modules and not (root is node.func and hasattr(builtins, root.id)):
            return False
    return True


def _defines(node: ast.stmt, modules: set[str]) -> bool:
    if isinstance(node, _DEFINES):
        return True
    if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
        return _only_library_calls(node.value, modules)
    if isinstance(node, ast.Try):  # try: import fast except ImportError: fast = None
        body = node.body + [s for h in node.handlers for s in h.body] + node.orelse + node.finalbody
        return all(isinstance(s, ast.Pass) or _defines(s, modules) for s in body)
    return False


def load(path: Path, name: str, root: Path) -> types.ModuleType:
    """The module `name` (of file `path`, importable from `root`) holding only
    its definitions.  A module of that name already imported from this file
    is returned as it is."""
    from .decorators import deferred

    known = sys.modules.get(name)
    if known is not None:
        if Path(getattr(known, "__file__", "") or "").resolve() == path.resolve():
            return known
        raise ImportError(f"another module named {name!r} is already imported from {known.__file__}")
    tree = ast.parse(path.read_text(), str(path))
    modules = _imported_names(tree)
    tree.body = [node for node in tree.body if _defines(node, modules)]
    module = types.ModuleType(name)
    module.__file__ = str(path)
    module.__package__ = name if path.name == "__init__.py" else name.rpartition(".")[0]
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    if module.__package__:
        importlib.import_module(module.__package__)  # relative imports need the package
    sys.modules[name] = module  # jit dependencies are resolved through sys.modules
    try:
        with deferred():
            exec(compile(tree, str(path), "exec"), module.__dict__)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module
