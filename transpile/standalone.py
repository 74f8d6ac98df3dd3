"""Standalone extension modules: `transpile build --standalone PATH`.

For the functions of a module with known signatures (export comments,
annotations, signatures=[...]: the same ones aot.py builds), one C++ file
that is a pybind11 extension module by itself: the generated code of every
signature (each in a namespace of its own), transpile's C++ runtime headers
inlined, and the glue of runtime_cpp/transpile_rt/standalone/pybind.hpp in
place of transpile's bridge.  The file carries cppimport's header, so
`cppimport.imp("mod")` builds it too; `transpile build --standalone` builds
it at once, beside the source (the extension then shadows the .py, as
Pythran's output does) or in --output-dir.  The result needs NumPy and
nothing of transpile.

Only code that never calls back into Python goes in: a function with JIT
Fallback regions, @jit_class objects, or values that cross as Python objects
(lists, strs, dicts) needs the bridge, and is refused with the line why.
"""
from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
import sysconfig
from dataclasses import dataclass, field, replace
from pathlib import Path

from . import aot
from .diagnostics import TranspileError

GLUE_HEADER = "transpile_rt/standalone/pybind.hpp"
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
FOOTERS = ("TR_RECURSION_LIMIT_DEFINITION", "TR_INTERRUPT_DEFINITION")  # defined once for all the code


class StandaloneError(Exception):
    """A module that cannot be made standalone; the message names the file and line."""


@dataclass
class Result:
    modules: list = field(default_factory=list)  # (module name, source .cpp, built extension or None)
    errors: list = field(default_factory=list)
    skipped: list = field(default_factory=list)  # (where, function, why)

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass
class _Export:
    name: str
    params: list
    overloads: list = field(default_factory=list)  # dicts: entry, args, result, signature


def build(paths: list[str], *, output_dir: str | None = None, jit_level: str | None = None,
          compile: bool = True) -> Result:
    """One standalone module per Python file named (files, dotted module names,
    or the files of a package that have signatures)."""
    result = Result()
    files = aot.python_files([_source_of(p) for p in paths], result.errors)
    for path in files:
        report = aot.Report()
        try:
            module = _import_source(path)
        except BaseException as exc:  # noqa: BLE001 - SystemExit from a script is an error too
            result.errors.append(aot._import_error(path, exc))
            continue
        tasks = aot.tasks_for_module(module, path, report)
        result.errors.extend(report.errors)
        result.skipped.extend(report.skipped)
        if not tasks:
            if any(str(path) == os.path.realpath(p) or p == module.__name__ for p in paths):
                result.errors.append(f"{path}:1: error: no function with a signature to export (use "
                                     f"`# transpile: export f(float64[:], int)` comments or annotations)")
            continue
        try:
            name = module.__name__.rpartition(".")[2]
            out = Path(output_dir) if output_dir else path.parent
            out.mkdir(parents=True, exist_ok=True)
            cpp = out / f"{name}.cpp"
            text, flags, openmp = emit(name, path, tasks, jit_level)
            cpp.write_text(text)
            lib = None
            if compile:
                lib = out / f"{name}{sysconfig.get_config_var('EXT_SUFFIX')}"
                compile_module(cpp, lib, flags, openmp)
            importable = name if output_dir else module.__name__  # beside the source it shadows the .py
            result.modules.append((importable, str(cpp), None if lib is None else str(lib)))
        except (StandaloneError, TranspileError, NotImplementedError, ValueError) as exc:
            result.errors.append(str(exc))
    return result


def _source_of(arg: str) -> str:
    """A module name whose extension an earlier build put beside its .py: that .py."""
    import importlib.util

    if os.path.exists(arg) or not re.fullmatch(r"[A-Za-z_][\w.]*", arg):
        return arg
    aot.cwd_on_path()
    try:
        spec = importlib.util.find_spec(arg)
    except (ImportError, ValueError):
        return arg
    if spec is None or not spec.origin or spec.origin.endswith(".py"):
        return arg
    source = Path(spec.origin).with_name(arg.rpartition(".")[2] + ".py")
    return str(source) if source.is_file() else arg


def _import_source(path: Path):
    """The module of the .py file itself: an extension built beside it by an
    earlier --standalone build would shadow it under its own name."""
    import importlib
    import importlib.util

    from .decorators import deferred

    name, root = aot.module_name(path)
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    module = sys.modules.get(name)
    if module is not None and os.path.realpath(getattr(module, "__file__", "") or "") == os.path.realpath(path):
        return module
    if "." in name:
        importlib.import_module(name.rpartition(".")[0])
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        with deferred():
            spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


# ---- translating ---------------------------------------------------------------------

def _refusal(task, tr) -> str | None:
    """Why this specialization needs transpile's bridge, naming the line, or None."""
    from .cxx.nogil import HOST_MARKER, touches_no_python

    where = f"{task.file}:{task.line}: error: {task.name} cannot go in a standalone module"
    if tr.fallbacks:
        f = tr.fallbacks[0]
        return (f"{where}: {f['file']}:{f['line']}: `{f['source']}` runs as Python (JIT Fallback: {f['reason']}), "
                f"which needs transpile's bridge")
    if tr.regions:
        r = tr.regions[0]
        what = "reads a global variable or function value that Python may rebind" if r.get("live") else \
            "runs as Python (JIT Fallback)"
        return f"{where}: {r['filename']}:{r['statements'][0][0]}: the code {what}, which needs transpile's bridge"
    if tr.layouts:
        return f"{where}: it uses @jit_class objects, which live in transpile's bridge"
    if "TR_NUMPY_LOOPS(" in tr.cpp:
        return (f"{where}: it calls NumPy's own loops for transcendental ufuncs (np.exp, np.tanh, ...: their "
                f"bits are NumPy's), which transpile's bridge looks up when it loads the module")
    if HOST_MARKER in tr.cpp:
        return (f"{where}: its code uses Python objects through transpile's bridge (print, lists, strs, dicts or "
                f"sets)")
    if not touches_no_python(tr, task.types, task.impl.options) or not all(_crosses(t) for t in task.types) \
            or not _crosses(tr.return_type):
        return (f"{where}: its arguments and result must be scalars, arrays, tuples or None (it takes "
                f"({', '.join(t.spell() for t in task.types)}) and returns {tr.return_type})")
    return None


def _crosses(t) -> bool:
    """Types the glue converts (descriptor kinds pybind.hpp knows)."""
    from .hir import types as T

    if isinstance(t, T.DeviceArray):
        return False
    if isinstance(t, (T.Scalar, T.Array)) or t == T.NONE:
        return True
    if isinstance(t, T.Tuple):
        return all(_crosses(i) for i in t.items)
    if isinstance(t, (T.Optional, T.MaybeWeak)):
        return _crosses(t.inner)
    return False


def _params(task) -> list[str]:
    sig = inspect.signature(task.impl.py_func)
    if any(p.kind != inspect.Parameter.POSITIONAL_OR_KEYWORD for p in sig.parameters.values()):
        raise StandaloneError(f"{task.file}:{task.line}: error: {task.name}: only parameters that may be passed "
                              f"by position or keyword can be exported (no *args, **kwargs, / or *)")
    names = list(sig.parameters)
    if len(names) != len(task.types):
        raise StandaloneError(f"{task.file}:{task.line}: error: {task.name}: the signature gives {len(task.types)} "
                              f"types for {len(names)} parameters")
    return names


def emit(name: str, path: Path, tasks: list, jit_level: str | None = None) -> tuple[str, list, bool]:
    """The module's C++ (runtime inlined), its compiler flags and whether it needs OpenMP."""
    from .build import toolchain
    from .cxx.names import symbol
    from .cxx.render import render_template
    from .hir import types as T
    from .pipeline import translate
    from .prebuilt import scalar_variants

    modules, exports, setup = [], {}, None
    footers, first = set(), None
    for k, task in enumerate(tasks):
        options = task.impl.options if jit_level is None else task.impl.options.replace(jit_level=jit_level)
        if options.backend != "cpu":
            raise StandaloneError(f"{task.file}:{task.line}: error: {task.name}: standalone modules run on the CPU "
                                  f"(the function asks for backend={options.backend!r})")
        sym = f"tr_entry_{symbol(task.impl.py_func.__qualname__)}_{k}"
        try:
            tr = translate(task.impl.py_func, task.types, options, sym)
        except TranspileError as exc:
            raise StandaloneError(f"{task.file}:{task.line}: error: {task.name} does not compile:\n{exc}") from None
        why = _refusal(task, tr)
        if why:
            raise StandaloneError(why)
        mod = tr.module
        flags = [f for f in toolchain.flags(options) if f not in ("-shared", "-fPIC", "-march=native")]
        flags = [f for i, f in enumerate(flags) if f != "-I" and (i == 0 or flags[i - 1] != "-I")]
        flags.append("-DNDEBUG")  # as Python's own extension builds: pybind11's GIL checks cost ~10% of a call
        if setup is None:
            setup, first = (mod.defines, flags), task.name
        elif (mod.defines, flags) != setup:
            raise StandaloneError(f"{task.file}:{task.line}: error: {task.name} is compiled with other options "
                                  f"({' '.join(mod.defines + flags)}) than {first} ({' '.join(setup[0] + setup[1])}):"
                                  f" one standalone module takes one set of boundscheck, jit_level and fastmath "
                                  f"options")
        footers.update(line for line in mod.footer if line in FOOTERS)
        qualname = task.impl.py_func.__qualname__
        export = exports.setdefault(qualname, _Export(qualname, _params(task)))
        result = list(T.to_descriptor(tr.return_type))
        accepted = [list(task.types)] + [[T.deserialize(s) for s in v]
                                         for v in scalar_variants(task, options, sym, tr)]
        for types in accepted:  # NumPy or Python scalars where both translate to the same code
            signature = f"{qualname}({', '.join(t.spell() for t in types)}) -> {tr.return_type}"
            export.overloads.append({"entry": f"tr_export_{k}::{sym}", "signature": signature, "result": result,
                                     "signature_literal": json.dumps(signature, ensure_ascii=False),
                                     "args": [x for t in types for x in T.to_descriptor(t)]})
        modules.append(replace(mod, footer=[]))
    defines, flags = setup
    includes = list(dict.fromkeys(inc for m in modules for inc in m.includes))
    openmp = toolchain.PARALLEL_EXPR_DEFINE in defines or any(f'#include "{inc}"' == toolchain.PARALLEL_HEADER
                                                              for inc in includes)
    text = render_template("standalone.cpp.j2", name=name, source=path.name, modules=modules, defines=defines,
                           includes=includes + [GLUE_HEADER], footers=sorted(footers),
                           exports=list(exports.values()), flags_literal=json.dumps(flags),
                           file_literal=json.dumps(str(path), ensure_ascii=False),
                           recursion="TR_RECURSION_LIMIT_DEFINITION" in footers, openmp=openmp)
    return _inline_runtime(text, flags), flags, openmp


# ---- the runtime inlined -----------------------------------------------------------------

def _system_includes() -> list[str]:
    import pybind11

    return ["-isystem", pybind11.get_include(), "-isystem", sysconfig.get_paths()["include"]]


def _reached_headers(text: str, flags: list) -> set[Path]:
    """The runtime headers the preprocessor opens for this text (conditional
    includes it skips stay as they are)."""
    from .build.toolchain import find_compiler
    from .resources import runtime_dir

    cmd = [find_compiler().path, *flags, "-I", str(runtime_dir()), *_system_includes(), "-MM", "-x", "c++", "-"]
    proc = subprocess.run(cmd, input=text, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise StandaloneError(f"error: the C++ preprocessor failed on the standalone module:\n{proc.stderr[:2000]}")
    root = runtime_dir().resolve()
    words = proc.stdout.replace("\\\n", " ").split()
    return {Path(w).resolve() for w in words if Path(w).resolve().is_relative_to(root)}


def _inline_runtime(text: str, flags: list) -> str:
    """`#include "transpile_rt/..."` replaced by the header's text, each header
    once, where the preprocessor first reaches it."""
    from .resources import runtime_dir

    reached, done = _reached_headers(text, flags), set()
    rt = runtime_dir().resolve()

    def expand(src: str, here: Path) -> list[str]:
        out = []
        for line in src.splitlines(keepends=True):
            m = INCLUDE.match(line)
            if m:
                target = next((p for p in ((here / m.group(1)).resolve(), (rt / m.group(1)).resolve())
                               if p in reached), None)
                if target is not None:
                    if target not in done:
                        done.add(target)
                        rel = target.relative_to(rt)
                        out.append(f"// ---- {rel} (transpile's C++ runtime, inlined) ----\n")
                        out.extend(expand(target.read_text(), target.parent))
                        out.append(f"// ---- end of {rel} ----\n")
                    continue
            if line.strip() == "#pragma once":  # headers are inlined once each
                continue
            out.append(line)
        return out

    return "".join(expand(text, rt))


# ---- building ------------------------------------------------------------------------------

def compile_module(cpp: Path, lib: Path, flags: list, openmp: bool) -> None:
    """The extension module, built as cppimport would (no transpile include path:
    the file stands alone)."""
    from .build.toolchain import find_compiler

    cmd = [find_compiler().path, *flags, "-shared", "-fPIC", *_system_includes(), str(cpp), "-o", str(lib)]
    if openmp:
        cmd.append("-fopenmp")
    if sys.platform == "darwin":
        cmd[1:1] = ["-undefined", "dynamic_lookup"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        excerpt = "\n".join(proc.stderr.strip().splitlines()[:20])
        raise StandaloneError(f"{cpp}:1: error: the C++ compiler failed on the standalone module:\n{excerpt}")
