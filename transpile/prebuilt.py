"""Writing ahead-of-time artifacts for `transpile build` (transpile/aot.py):
cache entries marked `aot`, and `__transpile__/` folders with a manifest that
transpile/importhook.py reads.  Translation runs under one lock (the front end
is not shared across threads); compiler processes run in parallel."""
from __future__ import annotations

import copy
import fcntl
import inspect
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

from . import importhook

# ---- building one specialization ----------------------------------------------------

_TRANSLATE = threading.Lock()  # libcst front end and the Program are not shared across threads


def _translate(impl, types, options, sym):
    from .pipeline import translate

    with _TRANSLATE:
        return translate(impl.py_func, types, options, sym)


def _compile(src: Path, lib: Path, options, portable: bool) -> None:
    """The JIT's compile, without -march=native for artifacts that ship (--inplace)."""
    from .build import toolchain

    toolchain.compile_shared(str(src), str(lib), options, portable=portable, progress=False)  # aot's own progress


# Python scalars and the NumPy scalars of the same dtype: a build for one may serve the other.
_WEAK_DTYPES = ("bool", "int64", "float64", "complex128")
_MAX_SCALAR_VARIANTS = 3  # 2**3 - 1 extra translations at most


def _behaviour(tr) -> tuple:
    """What decides a build's behaviour: its C++ without comments (which spell the
    argument types), its result type, and its JIT Fallback regions."""
    from .hir import types as T

    code = "\n".join(line for line in tr.cpp.splitlines() if not line.lstrip().startswith("//"))
    return code, T.serialize(tr.return_type), json.dumps(tr.regions, sort_keys=True, default=str)


def scalar_variants(task, options, sym: str, tr) -> list[list]:
    """Argument types (serialized) that differ from the built ones only in Python
    against NumPy scalars and translate to the same code: the library serves them
    with the values, types and exceptions CPython gives, because each translation
    does.  Where the code differs (np.float64(1) / 0 is inf, 1.0 / 0 raises;
    w * 2 is a float or an np.float64) the variant is not listed."""
    from .diagnostics import TranspileError
    from .hir import types as T

    flips = [i for i, t in enumerate(task.types) if type(t) is T.Scalar and t.dtype in _WEAK_DTYPES]
    if not flips or len(flips) > _MAX_SCALAR_VARIANTS:
        return []
    base = _behaviour(tr)
    out = []
    for mask in range(1, 1 << len(flips)):
        types = list(task.types)
        for bit, i in enumerate(flips):
            if mask >> bit & 1:
                types[i] = T.Scalar(types[i].dtype, not types[i].weak)
        try:
            other = _translate(task.impl, tuple(types), options, sym)
        except (TranspileError, NotImplementedError, ValueError, TypeError):
            continue  # that variant does not compile: the call falls to the usual path
        if _behaviour(other) == base:
            out.append([T.serialize(t) for t in types])
    return out


def _count_compile() -> None:
    from .build import cache

    with _TRANSLATE:
        cache.COMPILE_COUNT += 1


def build_cached(task, options, force: bool) -> str:
    from .build import cache
    from .cxx.names import symbol
    from .dispatcher import _dependencies, _deps_valid
    from .hir import types as T

    probe = copy.copy(task.impl)
    probe.options = options
    key = probe._key(task.types)
    meta = cache.load(key)
    if not force and meta is not None and _deps_valid(meta):
        return "up to date"
    fn = task.impl.py_func
    sym = f"tr_entry_{symbol(fn.__qualname__)}_{key[:12]}"
    tr = _translate(task.impl, task.types, options, sym)
    also = scalar_variants(task, options, sym, tr)
    with cache.locked(key):
        staging = cache.staging_dir(key)
        try:
            (staging / cache.SOURCE).write_text(tr.cpp)
            _count_compile()
            _compile(staging / cache.SOURCE, staging / cache.LIBRARY, options, portable=False)
            cache.commit(key, staging, {
                "function": f"{fn.__module__}.{fn.__qualname__}", "source_file": inspect.getsourcefile(fn),
                "qualname": fn.__qualname__, "symbol": sym, "arg_types": [str(t) for t in task.types],
                "return_type": str(tr.return_type), "arg_desc": [x for t in task.types for x in T.to_descriptor(t)],
                "arg_types_ser": [T.serialize(t) for t in task.types], "also_accepts": also,
                "result_desc": list(T.to_descriptor(tr.return_type)), "options": options.key(),
                "deps": _dependencies(tr.program, fn), "aot": True, **_fallback_meta(tr),
            })
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    return "built"


def _fallback_meta(tr, relative_to: Path | None = None) -> dict:
    """JIT Fallback regions (Python callbacks built at load) and their report, as
    the dispatcher stores them; region files relative to the source for --inplace."""
    if not hasattr(tr, "regions"):
        return {}
    from .fallback_rt import with_sources

    regions = with_sources(tr.regions)  # sources travel with the artifact
    if relative_to is not None:
        for r in regions:
            r["filename"] = os.path.relpath(r["filename"], relative_to)
    return {"regions": regions, "fallbacks": list(tr.fallbacks)}


def _inplace_deps(program, fn) -> dict:
    from .hashing import value_digest as _value_hash

    home = fn.__module__
    jit = [["" if m == home else m, q, importhook.text_hash(f)] for (m, q), f in program.jit_deps.items()
           if f is not fn]
    consts = [["" if m == home else m, n, _value_hash(v)] for (m, n), v in program.global_deps.items()]
    return {"jit": sorted(jit), "globals": sorted(consts)}


def build_inplace(task, options, force: bool, old: dict) -> tuple[str, dict]:
    """Builds into __transpile__/ beside the source; returns (status, manifest entry)."""
    from . import _runtime
    from .build.cache import make_key
    from .cxx.names import symbol
    from .hir import types as T

    fn = task.impl.py_func
    src_file = Path(fn.__code__.co_filename)
    mdir = src_file.parent / importhook.DIRNAME
    arg_desc = [x for t in task.types for x in T.to_descriptor(t)]
    key = make_key([_runtime.ABI_VERSION, importhook.platform_tag(), src_file.name, fn.__qualname__,
                    importhook.text_hash(fn), arg_desc, options.key()])
    name = f"{src_file.stem}.{symbol(fn.__qualname__)}.{key[:16]}"
    prev = old.get(name)
    if not force and prev is not None and importhook.entry_problem(prev, task.impl, str(mdir)) is None:
        return "up to date", prev
    sym = f"tr_entry_{symbol(fn.__qualname__)}_{key[:12]}"
    tr = _translate(task.impl, task.types, options, sym)
    also = scalar_variants(task, options, sym, tr)
    mdir.mkdir(exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=mdir))
    try:
        (staging / "module.cpp").write_text(tr.cpp)
        _count_compile()
        _compile(staging / "module.cpp", staging / "module.so", options, portable=True)
        final = mdir / name
        if final.exists():
            shutil.rmtree(final)
        os.rename(staging, final)
        os.chmod(final, 0o755)  # mkdtemp made it private; these ship with the package
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    lib = final / "module.so"
    return "built", {
        "file": src_file.name, "qualname": fn.__qualname__, "module": fn.__module__, "line": task.line,
        "dir": name, "symbol": sym, "platform": importhook.platform_tag(), "abi": _runtime.ABI_VERSION,
        "asserts": not sys.flags.optimize,  # python -O strips them from what is built
        "source": importhook.text_hash(fn), "options": options.key(), "jit_level": options.jit_level,
        "arg_types": [t.spell() for t in task.types], "arg_desc": arg_desc,
        "return_type": tr.return_type.spell(), "result_desc": list(T.to_descriptor(tr.return_type)),
        "also_accepts": also,
        "deps": _inplace_deps(tr.program, fn), "library_size": lib.stat().st_size,
        **_fallback_meta(tr, relative_to=src_file.parent),
        "library_sha256": importhook.file_digest(str(lib)), "created": time.time(),
    }


# ---- the manifest -----------------------------------------------------------------

def update_manifest(mdir: Path, files: set[str], entries: list[dict]) -> Path:
    """Replaces this platform's entries of `files`; removes folders nobody lists."""
    mdir.mkdir(exist_ok=True)
    path = mdir / importhook.MANIFEST
    with open(mdir / ".lock", "a+") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        data = importhook.read_manifest(str(path)) or {"format": importhook.FORMAT, "entries": []}
        here = importhook.platform_tag()
        kept = [e for e in data["entries"] if not (e.get("file") in files and e.get("platform") == here)]
        data = {"format": importhook.FORMAT, "entries": kept + sorted(entries, key=lambda e: e["dir"])}
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True))
        os.replace(tmp, path)
        listed = {e["dir"] for e in data["entries"]}
        for d in mdir.iterdir():
            if d.is_dir() and d.name not in listed and not d.name.startswith("."):
                shutil.rmtree(d, ignore_errors=True)
    return path


def old_entries(path: Path) -> dict:
    data = importhook.read_manifest(str(path.parent / importhook.DIRNAME / importhook.MANIFEST))
    return {e["dir"]: e for e in (data or {}).get("entries", []) if e.get("file") == path.name}
