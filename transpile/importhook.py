"""Prebuilt artifacts at run time: the import hook and the dispatcher's lookup.

`transpile build --inplace` leaves a `__transpile__/` folder beside each
source file: one sub-folder per specialization (module.so + module.cpp) and
a `manifest.json` listing them.  Two things use it:

* `lookup(jit_function, arg_types)`, called by `JitFunction._load_or_build`
  before the cache, finds the most specific valid artifact that accepts the
  call (inplace, or one that `transpile build` put in the cache for a wider
  array layout or the other kind of scalar), so the first call compiles
  nothing.  Validity never depends on the C++ compiler: an
  inplace entry is keyed by the bridge ABI, the platform, the function's
  source text (and first line), its options and its dependencies, so it loads
  on a machine without a compiler.
* `install_import_hook()` binds the functions of modules that have such a
  manifest right after they are imported (the first call goes straight to the
  native code).  It never breaks an import.
* `no_compiler(...)`: with no usable C++ compiler and nothing prebuilt, the
  function runs as plain Python with one NoCompilerWarning (an error under
  fullgraph=True), in scripts, under the hook and `transpile run` alike.

Importing this module hands `lookup` and `no_compiler` to the dispatcher
(dispatcher.use_prebuilt); whoever makes a JitFunction imports it first, so
it stays light: no libcst, no Jinja2, no subprocess.
"""
from __future__ import annotations

import importlib.machinery
import inspect
import os
import sys
import warnings

from . import dispatcher
from .build.cache import file_digest
from .diagnostics import NoCompilerError
from .hashing import sha256
from .jsontext import loads as json_loads

DIRNAME = "__transpile__"
MANIFEST = "manifest.json"
FORMAT = 1


class NoCompilerWarning(RuntimeWarning):
    """A @jit function runs as plain Python: no C++ compiler and no prebuilt artifact."""


def platform_tag() -> str:
    import sysconfig

    return sysconfig.get_platform()


def text_hash(fn) -> str:
    """Identity of a function's source text and position, stable across Python
    versions (unlike bytecode), for artifacts that ship with the source."""
    lines, first = inspect.getsourcelines(fn)
    h = sha256(f"{first}\n".encode())
    h.update("".join(lines).encode())
    h.update(repr(getattr(fn, "__defaults__", None)).encode())
    return h.hexdigest()


# ---- manifests -------------------------------------------------------------------

_MANIFESTS: dict = {}  # manifest path -> (mtime_ns, data)


def manifest_path(source_file: str) -> str:
    return os.path.join(os.path.dirname(os.path.abspath(source_file)), DIRNAME, MANIFEST)


def read_manifest(path: str) -> dict | None:
    try:
        mtime = os.stat(path).st_mtime_ns
    except OSError:
        _MANIFESTS.pop(path, None)
        return None
    cached = _MANIFESTS.get(path)
    if cached and cached[0] == mtime:
        return cached[1]
    try:
        with open(path) as f:
            data = json_loads(f.read())
        if data.get("format") != FORMAT or not isinstance(data.get("entries"), list):
            data = None
    except (OSError, ValueError):
        data = None
    _MANIFESTS[path] = (mtime, data)
    return data


def _source_file(py_func) -> str | None:
    code = getattr(py_func, "__code__", None)
    name = code.co_filename if code else None
    if not name or name.startswith("<") or not os.path.exists(name):
        return None
    return name


def manifest_entries(py_func) -> list[dict]:
    """Entries of this platform for the function (not yet validated)."""
    src = _source_file(py_func)
    if src is None:
        return []
    data = read_manifest(manifest_path(src))
    if not data:
        return []
    base = os.path.basename(src)
    return [e for e in data["entries"] if e.get("file") == base and e.get("qualname") == py_func.__qualname__
            and e.get("platform") == platform_tag()]


# ---- validity --------------------------------------------------------------------

def distance(built, wanted) -> int | None:
    """How much wider type `built` is than `wanted` (0: equal), or None when code
    built for it cannot run on arguments of type `wanted`.  An any-layout array
    accepts a C or F one and a read-only array a writable one (each 1)."""
    from .hir import types as T

    if built == wanted:
        return 0
    if type(built) is T.Array and type(wanted) is T.Array:
        if built.dtype != wanted.dtype or built.ndim != wanted.ndim or built.layout not in ("A", wanted.layout) \
                or (wanted.readonly and not built.readonly):
            return None
        return (built.layout != wanted.layout) + (built.readonly != wanted.readonly)
    if isinstance(built, T.Tuple) and isinstance(wanted, T.Tuple) and len(built.items) == len(wanted.items):
        parts = [distance(b, w) for b, w in zip(built.items, wanted.items)]
        return None if None in parts else sum(parts)
    return None


def accepts(built, wanted) -> bool:
    return distance(built, wanted) is not None


def signature_distance(built: list, also: list, arg_types: tuple) -> int | None:
    """How specific a build for `built` (and the scalar variants `also`, serialized,
    that `transpile build` found to translate to the same code) is for a call:
    None when it cannot serve it, else the smaller the closer."""
    from .hir import types as T

    best = None
    for extra, types in enumerate([list(built)] + [[T.deserialize(t) for t in v] for v in also or ()]):
        if len(types) != len(arg_types):
            continue
        parts = [distance(b, w) for b, w in zip(types, arg_types)]
        if None not in parts:
            d = sum(parts) + (extra > 0)
            best = d if best is None else min(best, d)
    return best


def _options_match(entry_options: str, options) -> bool:
    """Prebuilt code is accepted at any jit_level (`transpile build --jit-level`);
    every other option must match."""
    return any(entry_options == options.replace(jit_level=level).key() for level in ("O0", "O1"))


def _deps_valid(deps: dict, py_func) -> bool:
    from .dispatcher import _resolve
    from .hashing import value_digest as _value_hash

    home = py_func.__module__
    for module, qualname, digest in deps.get("jit", []):
        if "<locals>" in qualname:
            continue  # defined inside a function whose own source is checked
        target = _resolve(module or home, qualname)
        fn = getattr(target, "py_func", target)  # a @jit function or a plain helper compiled in
        try:
            if fn is None or not hasattr(fn, "__code__") or text_hash(fn) != digest:
                return False
        except (OSError, TypeError):
            return False
    for module, name, digest in deps.get("globals", []):
        mod = sys.modules.get(module or home)
        if mod is None or name not in vars(mod) or _value_hash(vars(mod)[name]) != digest:
            return False
    return True


def entry_problem(entry: dict, jf, manifest_dir: str) -> str | None:
    """Why a manifest entry cannot serve this function, or None."""
    from . import _runtime

    if entry.get("abi") != _runtime.ABI_VERSION:
        return f"built for bridge ABI {entry.get('abi')}, this transpile has {_runtime.ABI_VERSION}"
    try:
        if entry.get("source") != text_hash(jf.py_func):
            return "the function's source changed since it was built"
    except (OSError, TypeError):
        return "the function's source cannot be read"
    if not _options_match(entry.get("options"), jf.options):
        return "built with other options"
    if entry.get("asserts", True) == bool(sys.flags.optimize):
        return "built with asserts " + ("on, and python -O strips them" if sys.flags.optimize else "stripped (python -O)")
    lib = os.path.join(manifest_dir, entry["dir"], "module.so")
    try:
        if os.stat(lib).st_size != entry.get("library_size") or file_digest(lib) != entry.get("library_sha256"):
            return "the library is damaged"
    except OSError:
        return "the library is missing"
    if not _deps_valid(entry.get("deps", {}), jf.py_func):
        return "a function or constant it depends on changed"
    return None


def _as_spec(meta: dict, arg_types: tuple, explicit: bool = True) -> dict:
    """The dispatcher's specialization record, registered for `arg_types`;
    explicit: built on request (ahead of time, signatures=), so find_loaded may
    widen it for later calls."""
    from .hir import types as T

    spec = dict(meta, explicit=explicit)
    spec["arg_desc"] = [x for t in arg_types for x in T.to_descriptor(t)]
    return spec


def _relocate(entry: dict, py_func, manifest_dir: str) -> dict:
    """The entry as the dispatcher's record, with paths and module names of this
    process: JIT Fallback regions name their source relative to the manifest's
    folder, and the module the function was built in may run as __main__."""
    source_dir = os.path.dirname(manifest_dir)
    regions = []
    for r in entry.get("regions") or []:
        r = dict(r, filename=os.path.normpath(os.path.join(source_dir, r["filename"])))
        if r.get("module") == entry.get("module"):
            r["module"] = py_func.__module__
        regions.append(r)
    return dict(entry, dir=os.path.join(manifest_dir, entry["dir"]), regions=regions)


def find_inplace(jf, arg_types: tuple) -> tuple[int, dict] | None:
    """The closest valid `__transpile__/` entry that accepts these types: (distance, record)."""
    from .hir import types as T

    entries = manifest_entries(jf.py_func)
    if not entries:
        return None
    mdir = os.path.dirname(manifest_path(_source_file(jf.py_func)))
    ranked = []
    for n, entry in enumerate(entries):
        try:
            d = signature_distance(T.from_descriptor(tuple(entry["arg_desc"])), entry.get("also_accepts"), arg_types)
        except (KeyError, ValueError, TypeError, IndexError):
            continue
        if d is not None:
            ranked.append((d, n, entry))
    for d, _, entry in sorted(ranked, key=lambda r: r[:2]):
        if entry_problem(entry, jf, mdir) is None:
            return d, _as_spec(_relocate(entry, jf.py_func, mdir), arg_types)
    return None


def _variants(arg_types: tuple) -> list[tuple]:
    """The argument types a cache entry that serves these could have been built
    for: arrays as they are or of any layout, Python and NumPy scalars swapped."""
    import itertools

    from .hir import types as T

    def any_layout(t):
        if type(t) is T.Array:
            return t.with_layout("A")
        if isinstance(t, T.Tuple):
            return T.Tuple(tuple(any_layout(i) for i in t.items))
        return t

    def choices(t):
        if type(t) is T.Scalar and t.dtype in ("bool", "int64", "float64", "complex128"):
            return [t, T.Scalar(t.dtype, not t.weak)]
        return list(dict.fromkeys([t, any_layout(t)]))

    options = [choices(t) for t in arg_types]
    if sum(len(o) > 1 for o in options) > 4:  # many arguments: as they are, and of any layout
        return list(dict.fromkeys([arg_types, tuple(any_layout(t) for t in arg_types)]))
    return list(dict.fromkeys(itertools.product(*options)))


def find_in_cache(jf, arg_types: tuple) -> tuple[int, dict] | None:
    """The closest entry of the cache that serves these types: the exact one, or
    one `transpile build` put there for a wider layout, for the other kind of
    scalar where that translates to the same code, or at the other jit_level."""
    from .build import cache
    from .dispatcher import _entry_valid as entry_valid  # dependencies unchanged, result type readable
    from .hir import types as T

    meta = cache.load(jf._key(arg_types))  # the exact entry first: nothing serves better (a warm start's path)
    if meta is not None and entry_valid(meta):
        return 0, _as_spec(meta, arg_types, bool(meta.get("aot")))
    from .build import tiers

    if tiers.quick_cached(jf.options, lambda tier: jf._key(arg_types, tier), entry_valid):
        return None  # the exact quick build, which tiers.fetch runs
    import copy

    best = None
    for level in (jf.options.jit_level, "O1" if jf.options.jit_level == "O0" else "O0"):
        probe = copy.copy(jf)
        probe.options = jf.options.replace(jit_level=level)
        for types in _variants(arg_types):
            if types == arg_types and level == jf.options.jit_level:
                continue  # looked up above
            meta = cache.load(probe._key(types))
            if meta is None or not meta.get("aot"):
                continue
            d = signature_distance(types, meta.get("also_accepts"), arg_types)
            if d is not None and (best is None or d < best[0]) and entry_valid(meta):
                best = (d + (level != jf.options.jit_level), _as_spec(meta, arg_types, bool(meta.get("aot"))))
    return best


def find_loaded(jf, arg_types: tuple) -> tuple[int, dict] | None:
    """The closest specialization this function already holds that was asked for
    (signatures=, f.compile, a prebuilt artifact) and accepts these types.  Those
    compiled on demand for other calls are not widened: a call with a C array
    gets its own, faster, specialization when a compiler is there."""
    best = None
    for spec in list(jf._specializations):
        if not spec.get("explicit"):
            continue
        d = signature_distance(spec["types"], spec.get("also_accepts"), arg_types)
        if d is not None and (best is None or d < best[0]):
            best = (d, _as_spec(spec, arg_types))
    return best


def lookup(jf, arg_types: tuple) -> dict | None:
    """Called by the dispatcher before its cache: the most specific specialization
    that serves these types among those the function holds, `__transpile__/`
    and the cache, or None to go on as usual.  With nothing found and no C++
    compiler, raises NoCompilerError (the dispatcher then calls no_compiler)."""
    found = []
    for finder in (find_loaded, find_inplace, find_in_cache):
        if finder is find_in_cache and not (jf.options.cache and _cache_enabled()):
            continue
        try:
            hit = finder(jf, arg_types)
        except Exception:  # noqa: BLE001 - a broken artifact must never break a call
            hit = None
        if hit is not None:
            found.append(hit)
            if hit[0] == 0:
                break
    if found:
        return min(found, key=lambda h: h[0])[1]
    from .build.toolchain import NO_COMPILER_HINT, find_compiler

    if find_compiler(required=False) is None:
        sig = ", ".join(t.spell() for t in arg_types)
        raise NoCompilerError(f"{jf.py_func.__qualname__}({sig}): no C++ compiler found and no prebuilt artifact",
                              hint=NO_COMPILER_HINT)
    return None


_WARNED: set = set()


def no_compiler(jf, arg_types: tuple, exc: NoCompilerError) -> None:
    """The one policy for a missing or unusable C++ compiler when nothing
    prebuilt serves a call, in scripts, under the import hook and `transpile
    run` alike: the caller runs the function as plain Python, after one
    NoCompilerWarning per function (at its def line); under fullgraph=True
    the error is raised."""
    if jf.options.fullgraph:
        raise exc
    fn = jf.py_func
    jf._python_mode[arg_types] = exc.message  # later calls with these types go straight to Python
    if fn not in _WARNED:
        _WARNED.add(fn)
        what = exc.message if exc.message.startswith(f"{fn.__qualname__}(") else f"{fn.__qualname__}: {exc.message}"
        hint = f"; {exc.hint}" if exc.hint else ""
        warnings.warn_explicit(f"{what}: it runs as plain Python{hint}", NoCompilerWarning,
                               fn.__code__.co_filename, fn.__code__.co_firstlineno)


def _cache_enabled() -> bool:
    from .options import cache_enabled

    return cache_enabled()


# ---- the import hook --------------------------------------------------------------

def jit_functions(module) -> list:
    """The @jit functions defined (not just imported) in a module."""
    from . import _runtime

    out = []
    for obj in list(vars(module).values()):
        if isinstance(obj, _runtime.Dispatcher):
            fn = getattr(obj, "py_func", None)
            if fn is not None and fn.__module__ == module.__name__:
                out.append(obj)
    return out


def bind_module(module) -> int:
    """Loads every valid prebuilt artifact of the module's @jit functions into
    their dispatchers; returns how many were bound.  Never raises."""
    bound = 0
    try:
        from .hir import types as T

        for disp in jit_functions(module):
            impl = disp._ensure.__self__  # the JitFunction behind the C dispatcher
            for entry in manifest_entries(impl.py_func):
                try:
                    types = tuple(T.from_descriptor(tuple(entry["arg_desc"])))
                    if types not in impl.signatures and find_inplace(impl, types) is not None:
                        impl._ensure(types)
                        bound += 1
                except Exception:  # noqa: BLE001 - never break an import
                    continue
    except Exception:  # noqa: BLE001
        pass
    return bound


class _Finder:  # a meta path finder is anything with find_spec: importlib.abc costs every warm start ~1 ms
    """Finds modules as the rest of sys.meta_path does, and makes the loader of
    a source module that has a transpile manifest bind it after executing."""

    def find_spec(self, fullname, path=None, target=None):
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            try:
                spec = finder.find_spec(fullname, path, target)
            except Exception:  # noqa: BLE001 - let the normal machinery report it
                return None
            if spec is None:
                continue
            try:
                _wrap(spec)
            except Exception:  # noqa: BLE001
                pass
            return spec
        return None


def _wrap(spec) -> None:
    loader = spec.loader
    origin = spec.origin
    if not isinstance(loader, importlib.machinery.SourceFileLoader) or not origin:
        return
    data = read_manifest(manifest_path(origin))
    base = os.path.basename(origin)
    if not data or not any(e.get("file") == base for e in data["entries"]):
        return
    original = loader.exec_module

    def exec_module(module):
        original(module)
        bind_module(module)

    loader.exec_module = exec_module


_FINDER = _Finder()


def install_import_hook() -> None:
    """Later imports bind @jit functions to artifacts built by `transpile build
    --inplace`, so their first call compiles nothing."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def uninstall_import_hook() -> None:
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)


def run(argv: list[str], module: bool = False) -> None:
    """`transpile run script.py args` / `transpile run -m pkg.mod args`."""
    import runpy

    install_import_hook()
    target = argv[0]
    sys.argv = list(argv)
    if module:
        sys.path.insert(0, os.getcwd())
        runpy.run_module(target, run_name="__main__", alter_sys=True)
    else:
        sys.path.insert(0, os.path.dirname(os.path.abspath(target)))
        runpy.run_path(target, run_name="__main__")


dispatcher.use_prebuilt(lookup, no_compiler)
