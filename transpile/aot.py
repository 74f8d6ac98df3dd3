"""Ahead-of-time builds: `transpile build PATH...`.

Finds the @jit functions of files, packages and directories by importing
them; takes the signatures to build from `@jit(signatures=[...])`, from
parameter annotations (read from the source text, never evaluated) and from
`# transpile: export f(float64[:], int64)` comments; builds them with up to
`jobs` compiler processes at once.  prebuilt.py writes the artifacts:
cache entries (keyed as the decorator keys them, marked `aot`) or, with
`inplace`, `__transpile__/` folders beside each source with a manifest that
the import hook reads (importhook.py).
"""
from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import os
import re
import sys
import textwrap
import time
import traceback
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from . import diagnostics, importhook
from . import prebuilt
from .diagnostics import TranspileError

# A function that cannot be compiled at all runs in CPython (issue 3's whole-function JIT Fallback).
NOT_COMPILABLE = getattr(diagnostics, "FunctionNotCompilable", ())

EXPORT = re.compile(r"^\s*#\s*transpile:\s*export\s+([A-Za-z_][\w.]*)\s*\((.*)\)\s*$")
# Never searched (build outputs, environments) unless they are packages themselves.
SKIP_DIRS = {"__pycache__", importhook.DIRNAME, "build", "dist", "node_modules", "site-packages", "venv"}


@dataclass
class Task:
    impl: object  # the JitFunction
    types: tuple
    origin: str  # "annotations", "signatures=", "export comment"
    file: str
    line: int

    @property
    def name(self) -> str:
        sig = ", ".join(t.spell() for t in self.types)
        return f"{self.impl.py_func.__module__}.{self.impl.py_func.__qualname__}({sig})"


@dataclass
class Report:
    built: list = field(default_factory=list)  # task names
    up_to_date: list = field(default_factory=list)
    errors: list = field(default_factory=list)  # "file:line: ..." messages
    skipped: list = field(default_factory=list)  # (where, function, why): no signature, or runs in CPython
    manifests: list = field(default_factory=list)  # paths written (inplace)

    @property
    def ok(self) -> bool:
        return not self.errors


# ---- finding modules and functions ------------------------------------------------

def python_files(paths: list[str], errors: list) -> list[Path]:
    """Source files named by the arguments: files, directories (recursively; only
    files that mention transpile) and importable module or package names."""
    out = []
    for arg in paths:
        p = Path(arg)
        if p.is_file():
            out.append(p.resolve())
        elif p.is_dir():
            for dirpath, dirnames, filenames in os.walk(p):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and (
                    d not in SKIP_DIRS or (d not in ("__pycache__", importhook.DIRNAME)
                                           and Path(dirpath, d, "__init__.py").is_file())))
                for name in sorted(filenames):
                    f = Path(dirpath, name)
                    if name.endswith(".py") and "transpile" in f.read_text(errors="replace"):
                        out.append(f.resolve())
        elif re.fullmatch(r"[A-Za-z_][\w.]*", arg):
            cwd_on_path()
            try:
                spec = importlib.util.find_spec(arg)
            except (ImportError, ValueError) as exc:
                spec, why = None, str(exc)
            else:
                why = "no such file, directory or module"
            if spec is None or not spec.origin or not spec.origin.endswith(".py"):
                errors.append(f"{arg}: error: {why}")
                continue
            origin = Path(spec.origin)
            out.extend(python_files([str(origin.parent)] if origin.name == "__init__.py" else [str(origin)], errors))
        else:
            errors.append(f"{arg}: error: no such file, directory or module")
    return list(dict.fromkeys(out))


def module_name(path: Path) -> tuple[str, Path]:
    """The dotted name a file is imported under, and the sys.path entry for it."""
    parts = [] if path.name == "__init__.py" else [path.stem]
    d = path.parent
    while (d / "__init__.py").is_file():
        parts.insert(0, d.name)
        d = d.parent
    return ".".join(parts), d


def cwd_on_path() -> None:
    """Module names are looked up from the current folder first, as `python -m`
    does (the `transpile` executable's own folder is sys.path[0] instead)."""
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.insert(0, cwd)


def import_module(name: str):
    """A module by its dotted name, from the current folder as `python -m` finds it
    (signatures=[...] not compiled at decoration: the tools build or translate)."""
    from .decorators import deferred

    cwd_on_path()
    with deferred():
        return importlib.import_module(name)


def import_file(path: Path):
    name, root = module_name(path)
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    module = sys.modules.get(name)
    if module is not None and os.path.realpath(getattr(module, "__file__", "") or "") != os.path.realpath(path):
        raise ImportError(f"another module named {name!r} is already imported from {module.__file__}")
    from .decorators import deferred

    with deferred():
        return importlib.import_module(name)


def _import_error(path: Path, exc: BaseException) -> str:
    line = getattr(exc, "lineno", None) if isinstance(exc, SyntaxError) else None
    if line is None:
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if os.path.realpath(f.filename) ==
                  os.path.realpath(path)]
        line = frames[-1].lineno if frames else 1
    return f"{path}:{line}: error: cannot import: {type(exc).__name__}: {exc}"


# ---- signatures -------------------------------------------------------------------

def _annotation_text(node) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return ast.unparse(node)


def _normalize(text: str) -> str:
    return re.sub(r"\b(?:np|numpy|transpile\.types|types)\.", "", text).replace("'", "").replace('"', "")


def annotation_signature(py_func):
    """(types, None) from the parameter annotations, (None, why) when they give none.
    The annotations are read from the source, so `float64[:, :]` needs no import."""
    from .hir import types as T

    try:
        src = textwrap.dedent(inspect.getsource(py_func))
        tree = ast.parse(src)
    except (OSError, TypeError, SyntaxError) as exc:
        return None, f"cannot read its source ({exc})"
    fn = next((n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if fn is None:
        return None, "cannot find its definition"
    args = fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs
    if not args:
        return (), None
    notes = [a.arg for a in args if a.annotation is None]
    if len(notes) == len(args):
        return None, "no signature: annotate its parameters, or use @jit(signatures=[...]) or an export comment"
    if notes:
        return None, f"parameter(s) {', '.join(notes)} have no annotation"
    types = []
    for a in args:
        text = _normalize(_annotation_text(a.annotation))
        try:
            types.append(T.parse_type(text))
        except ValueError as exc:
            return None, f"annotation of {a.arg!r} ({text}) is not a transpile type: {exc}"
    return tuple(types), None


def export_comments(path: Path) -> list[tuple[int, str, str]]:
    """(line, function name, signature text) of each `# transpile: export` comment."""
    out = []
    for i, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        m = EXPORT.match(line)
        if m:
            out.append((i, m.group(1), m.group(2)))
    return out


def tasks_for_module(module, path: Path, report: Report) -> list[Task]:
    from .hir import types as T

    tasks, unsigned = [], {}
    funcs = {d.py_func.__qualname__: d._ensure.__self__ for d in importhook.jit_functions(module)}
    for qualname, impl in funcs.items():
        fn = impl.py_func
        line = fn.__code__.co_firstlineno
        for text in impl.options.signatures:
            tasks.append(Task(impl, tuple(T.parse_signature(text)), "signatures=", str(path), line))
        types, why = annotation_signature(fn)
        if types is not None:
            tasks.append(Task(impl, types, "annotations", str(path), line))
        elif not impl.options.signatures:
            unsigned[qualname] = (f"{path}:{line}", f"{module.__name__}.{qualname}", why)
    for line, name, text in export_comments(path):
        impl = funcs.get(name)
        if impl is None:
            report.errors.append(f"{path}:{line}: error: export comment names {name!r}, which is not a @jit "
                                 f"function of this module (found: {', '.join(funcs) or 'none'})")
            continue
        try:
            tasks.append(Task(impl, tuple(T.parse_signature(text)), "export comment", str(path), line))
        except ValueError as exc:
            report.errors.append(f"{path}:{line}: error: export comment: cannot read signature {text!r}: {exc}")
    signed = {t.impl.py_func.__qualname__ for t in tasks}
    report.skipped.extend(v for q, v in unsigned.items() if q not in signed)
    unique = {}
    for t in tasks:
        unique.setdefault((id(t.impl), t.types), t)
    return list(unique.values())


def _where(message: str) -> tuple:
    m = re.match(r"(.*?):(\d+):", message)
    return (m.group(1), int(m.group(2))) if m else (message, 0)


def _error_text(task: Task, exc: BaseException) -> str:
    head = f"{task.file}:{task.line}: error: {task.name} (from {task.origin}) failed to build"
    if isinstance(exc, TranspileError):
        return f"{head}:\n{textwrap.indent(str(exc), '    ')}"
    if isinstance(exc, (NotImplementedError, ValueError)):
        return f"{head}: {exc}"
    return f"{head}: internal error {type(exc).__name__}: {exc}\n" + textwrap.indent(
        "".join(traceback.format_exception(exc)[-3:]), "    ")


# ---- the build -----------------------------------------------------------------------

class _Progress:
    def __init__(self, total: int, quiet: bool):
        self.total, self.done, self.quiet, self.bar = total, 0, quiet, None
        if not quiet and sys.stderr.isatty():
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=total, unit="fn", desc="transpile build", file=sys.stderr)
            except ImportError:
                pass

    def step(self, status: str, name: str, seconds: float) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.set_postfix_str(name[-40:])
            self.bar.update(1)
        elif not self.quiet:
            width = len(str(self.total))
            print(f"[{self.done:>{width}}/{self.total}] {status:<10} {name}  ({seconds:.2f} s)", file=sys.stderr,
                  flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def build(paths: list[str], *, jobs: int | None = None, inplace: bool = False, jit_level: str | None = None,
          backend: str | None = None, force: bool = False, quiet: bool = False) -> Report:
    """Builds every signature of every @jit function found under `paths`."""
    from .build.backends import check_toolkit
    from .options import make_options

    report = Report()
    overrides = {k: v for k, v in (("jit_level", jit_level), ("backend", backend)) if v is not None}
    if overrides:
        make_options(**overrides, check_toolkit=check_toolkit)  # the decorator's validation and messages
    files = python_files(paths, report.errors)
    tasks, imported = [], []
    for path in files:
        try:
            module = import_file(path)
        except BaseException as exc:  # noqa: BLE001 - SystemExit from a script is an error too
            report.errors.append(_import_error(path, exc))
            continue
        imported.append(path)
        tasks.extend(tasks_for_module(module, path, report))

    old = {p: prebuilt.old_entries(p) for p in imported} if inplace else {}
    entries: dict[Path, list] = {}
    progress = _Progress(len(tasks), quiet)

    def work(task: Task):
        start = time.perf_counter()
        options = task.impl.options.replace(**overrides)
        if inplace:
            status, entry = prebuilt.build_inplace(task, options, force, old.get(Path(task.file), {}))
            return status, entry, time.perf_counter() - start
        return prebuilt.build_cached(task, options, force), None, time.perf_counter() - start

    with ThreadPoolExecutor(max_workers=max(1, jobs or os.cpu_count() or 1)) as pool:
        futures = {pool.submit(work, t): t for t in tasks}
        for fut in as_completed(futures):
            task = futures[fut]
            try:
                status, entry, seconds = fut.result()
            except NOT_COMPILABLE as exc:
                report.skipped.append((f"{task.file}:{task.line}", task.name,
                                       f"runs in CPython (whole-function JIT Fallback): {exc.message}"))
                progress.step("CPython", task.name, 0.0)
                continue
            except BaseException as exc:  # noqa: BLE001 - one function's failure is reported, the rest builds
                report.errors.append(_error_text(task, exc))
                progress.step("FAILED", task.name, 0.0)
                continue
            (report.built if status == "built" else report.up_to_date).append(task.name)
            if entry is not None:
                entries.setdefault(Path(task.file), []).append(entry)
            progress.step(status, task.name, seconds)
    progress.close()

    report.errors.sort(key=_where)
    if inplace:
        by_dir: dict[Path, set] = {}
        for p in imported:
            by_dir.setdefault(p.parent, set()).add(p.name)
        for d, names in by_dir.items():
            new = [e for p, es in entries.items() if p.parent == d for e in es]
            if new or (d / importhook.DIRNAME).is_dir():
                report.manifests.append(str(prebuilt.update_manifest(d / importhook.DIRNAME, names, new)))
    return report
