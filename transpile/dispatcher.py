"""The Python side of a @jit function.

Calls go straight to transpile._runtime.Dispatcher (C), which matches the
arguments against the loaded specializations.  Only a call it cannot match
comes here: the arguments are typed, the cache is consulted with a key
computed before any parsing (so a warm start imports neither libcst nor
Jinja2), and on a miss the specialization is translated, compiled, stored
and loaded.
"""
from __future__ import annotations

import inspect
import os
import sys
import warnings
from _thread import RLock  # threading.RLock itself: a warm start does not import threading (~0.7 ms)

from . import _runtime, function_args, globals_rt
from . import timing
from .build import cache
from .build.loader import entry_address, init_regions
from .diagnostics import (FunctionNotCompilable, GeneratedCodeError, InternalError, NoCompilerError,
                          TranspileFallbackWarning, TypingError, UnsupportedArgumentError)
from .frontend.capture import captured_text, key_part, remember_call
from .frontend.source import source_hash
from .hashing import value_digest as _value_hash
from .hir import types as T
from .hir.jit_classes import layout_key, resolve as _resolve
from .options import Options, cache_enabled

_TRANSLATING = RLock()  # one translation at a time; their C++ compiles run in parallel

SUPPORTED = ("bool, int, float, complex, str, NumPy scalars, NumPy arrays of bool/int8-64/uint8-64/float32/float64/"
             "complex64/complex128 (any shape and strides), tuples and lists of these, None, @jit_class instances "
             "and functions (@jit, plain, lambdas, builtins); with backend='cuda' also "
             "device arrays (__cuda_array_interface__: CuPy, PyTorch CUDA tensors)")


# `transpile build` artifacts and the policy when no C++ compiler is found live
# in importhook.py, a layer above: it hands them over when imported, and every
# maker of a JitFunction (decorators, classes, pickling) imports it first.
_PREBUILT = None  # (lookup(jf, arg_types) -> spec or None, no_compiler(jf, arg_types, exc))


def use_prebuilt(lookup, no_compiler) -> None:
    global _PREBUILT
    _PREBUILT = (lookup, no_compiler)


def __getattr__(name):
    if name == "COMPILE_COUNT":  # counted in build/cache.py: build/layouts.py compiles too
        return cache.COMPILE_COUNT
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class JitFunction:
    def __init__(self, py_func, options: Options, construct=None):
        if _PREBUILT is None:
            raise RuntimeError("import transpile.importhook before making a JitFunction: it hands the dispatcher "
                               "the lookup of prebuilt artifacts")
        self.py_func = py_func
        self.options = options
        self.construct = construct  # a @jit_class's ClassInfo: py_func is its __init__, calls construct
        self._lock = RLock()
        self._specializations: list[dict] = []
        self._source_hash = None
        self._python_mode: dict = {}  # argument types -> why the whole function runs in CPython
        # argument types -> the C++ compiler's failure: not retried in this process (a failure marker in
        # the disk cache would also outlive transient causes: a killed compiler, a full disk)
        self._build_failures: dict = {}
        self._warned: set = set()
        self._shipped: dict = {}  # argument types -> a compiled artifact that came in a pickle
        self._signature = inspect.signature(py_func)
        if construct is not None:  # the constructor's arguments are __init__'s after self
            self._signature = self._signature.replace(parameters=list(self._signature.parameters.values())[1:])
        params = list(self._signature.parameters.values())
        # *args is bound into a tuple and compiled; **kwargs runs the function in CPython
        self._variadic = any(p.kind == p.VAR_KEYWORD for p in params)
        self._star_args = any(p.kind == p.VAR_POSITIONAL for p in params)
        self._keyword_only = any(p.kind == p.KEYWORD_ONLY for p in params)
        fixed = [p for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        defaults = []  # the C dispatcher fills the trailing parameters (keyword-only ones last) from these
        for p in reversed(fixed):
            if p.default is inspect.Parameter.empty:
                break
            defaults.insert(0, p.default)
        positional = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
        self.dispatcher = _runtime.Dispatcher(self)
        self.dispatcher.set_params(len(fixed), tuple(defaults) or None, inspect.getsourcefile(py_func) or "<unknown>",
                                   positional)

    # ---- public ---------------------------------------------------------------

    def __repr__(self) -> str:
        if self.construct is not None:
            return f"<transpile.jit_class constructor of {self.construct.module}.{self.construct.qualname}>"
        return f"<transpile.jit {self.py_func.__module__}.{self.py_func.__qualname__}>"

    def __dir__(self) -> list[str]:
        """The public attributes dir(f) shows beside the dispatcher's own (runtime.c dispatcher_dir)."""
        return ["compile", "fallbacks", "inspect_cxx", "options", "py_func", "signatures", "tiers"]

    @property
    def signatures(self) -> list[tuple]:
        """Argument types of each loaded specialization."""
        return [s["types"] for s in self._specializations]

    @property
    def tiers(self) -> dict:
        """The build each specialization runs: "quick" until its optimized build
        is swapped in (build/tiers.py), else "optimized"; None if ahead of time."""
        return {s["types"]: s.get("tier") for s in self._specializations}

    def inspect_cxx(self, signature=None, backend=None) -> str:
        """The generated C++ of a specialization (the first, or the one whose
        argument types are given as text or types).  backend="cuda"/"ascend"/
        "cpu" shows the code that backend would build (translated only: no
        toolkit needed, nothing compiled)."""
        if backend is not None and backend != self.options.backend:
            return self._translate_for(signature, backend)
        spec = self._find(signature)
        with open(os.path.join(spec["dir"], cache.SOURCE)) as f:
            return f.read()

    def _translate_for(self, signature, backend: str) -> str:
        from .options import make_options

        make_options(backend=backend, check_toolkit=False)  # a ValueError names the valid backends
        if signature is not None:
            types = tuple(T.parse_signature(signature)) if isinstance(signature, str) else tuple(signature)
        elif self._specializations:
            types = self._specializations[0]["types"]
        else:
            raise ValueError(f"{self.py_func.__name__} has no compiled specialization yet: pass signature=")
        return translate(self, types, self.options.replace(backend=backend)).cpp

    def fallbacks(self, signature=None) -> list[dict]:
        """The statements of a specialization that run as Python (JIT
        Fallback): file, line, source and reason for each."""
        return list(self._find(signature).get("fallbacks", []))

    @property
    def jit_function(self):
        """This object (the dispatcher reaches it through its attributes)."""
        return self

    def artifacts(self) -> list:
        """The compiled specializations as (argument types, artifact) to ship
        in a pickle (transpile/pickling.py); those of @jit_class instances,
        whose layouts are numbered per process, are compiled by the receiver."""
        from .build import artifacts

        out = []
        for s in list(self._specializations):
            if any(T.mentions_instance(t) or T.functions_in(t) for t in s["types"]) or "dir" not in s:
                continue
            if "artifact" not in s:
                s["artifact"] = artifacts.pack(s["dir"])
            if s["artifact"] is not None:
                out.append(([T.serialize(t) for t in s["types"]], s["artifact"]))
        return out

    def install_artifacts(self, shipped) -> None:
        """Loads the specializations of a pickle built for this platform (an
        artifact for another one is left: its types compile here if called)."""
        from .build import artifacts

        for types_ser, artifact in shipped:
            types = tuple(T.deserialize(t) for t in types_ser)
            if artifact.get("platform") != artifacts.platform_tag() or types in self.signatures:
                continue
            self._shipped[types] = artifact
            try:
                self._ensure(types)
            except artifacts.Rejected as exc:
                warnings.warn(f"{self.py_func.__qualname__}{tuple(str(t) for t in types)}: a compiled artifact "
                              f"received in a pickle was not used ({exc}); it compiles here", RuntimeWarning)

    def compile(self, signature) -> None:
        """Compiles (or loads) the specialization for these argument types."""
        types = T.parse_signature(signature) if isinstance(signature, str) else list(signature)
        self._ensure(tuple(types))["explicit"] = True  # asked for: may serve wider calls (importhook.find_loaded)

    # ---- slow path (called by the C dispatcher) ------------------------------------

    def _slow_call(self, args: tuple, kwargs):
        call = (args, kwargs or {})  # as the caller wrote it: what a whole-function fallback runs
        params = list(self._signature.parameters)
        if kwargs or len(args) != len(params) or self._keyword_only or self._variadic or self._star_args:
            try:
                bound = self._signature.bind(*args, **(kwargs or {}))
            except TypeError:
                return function_args.call_that_does_not_bind(self.py_func, call)
            bound.apply_defaults()
            args = tuple(bound.arguments.values())
        if self._variadic:
            return self._run_in_python(call, self._variadic_reason())
        if inspect.isgeneratorfunction(self.py_func) or inspect.iscoroutinefunction(self.py_func) \
                or inspect.isasyncgenfunction(self.py_func):
            return self._run_in_python(call, "generators and coroutines run in CPython")
        if args and self.construct is None and function_args.is_plain_object(args[0]):
            from . import plain_methods

            return plain_methods.call(self, args, call)  # a method of an ordinary class
        # The function runs in CPython after the `except` blocks below, not inside them, so that an
        # exception of its own is not chained to transpile's ("During handling of the above exception").
        types, python_reason = [], None
        for name, value in zip(params, args):
            try:
                described = function_args.describe(value)
            except TypeError as exc:
                python_reason = f"{self.py_func.__name__}(): argument '{name}': {exc}; supported: {SUPPORTED}"
                if self.options.fullgraph:
                    raise UnsupportedArgumentError(python_reason) from None
            if python_reason is not None:
                return self._run_in_python(call, python_reason)
            if self.options.backend != "cuda" and isinstance(described[0], T.DeviceArray):
                message = (f"{self.py_func.__name__}(): argument '{name}' is a CUDA device array "
                           f"(__cuda_array_interface__), which backend='{self.options.backend}' cannot use: "
                           "decorate with @jit(backend='cuda') or pass a NumPy array")
                if self.options.fullgraph:
                    raise UnsupportedArgumentError(message) from None
                return self._run_in_python(call, message)
            types.extend(described)
        types = tuple(types)
        failure = self._build_failures.get(types)
        if failure is not None and self.options.fullgraph:
            raise failure.with_traceback(None)
        if types in self._python_mode:
            return self.py_func(*call[0], **call[1])
        try:
            before = cache.COMPILE_COUNT
            if self.options.capture_mode == "trace":  # the trace is made from this call's values
                remember_call(self.py_func, args, types)
            spec = self._ensure(types)
        except NoCompilerError as exc:  # no usable C++ compiler, nothing prebuilt: importhook's one policy
            _PREBUILT[1](self, types, exc)  # a NoCompilerWarning, or the error under fullgraph
            python_reason = ""  # warned
        except (FunctionNotCompilable, TypingError) as exc:  # a TypingError here is about the whole function
            if self.options.fullgraph or (isinstance(exc, TypingError) and self.construct is not None):
                raise  # (a @jit_class whose layout cannot be made: an error about the class)
            self._python_mode[types] = python_reason = str(exc)
        except GeneratedCodeError as exc:
            self._build_failures[types] = exc
            if self.options.fullgraph:
                raise
            what = "transpile's translation" if isinstance(exc, InternalError) else "the C++ transpile generated"
            python_reason = f"{what} for ({', '.join(map(str, types))}) failed to compile\n{exc}"
            self._python_mode[types] = python_reason
        if python_reason == "":
            return self.py_func(*call[0], **call[1])
        if python_reason is not None:
            return self._run_in_python(call, python_reason)
        if cache.COMPILE_COUNT != before and spec.get("fallbacks"):
            from .fallback_rt import report_text

            warnings.warn(TranspileFallbackWarning(report_text(self.py_func, spec["fallbacks"])), stacklevel=2)
        return self.dispatcher.call_compiled(tuple(args))

    def _run_in_python(self, call: tuple, reason: str):
        """Whole-function fallback: the function runs in CPython on the call's
        own (args, kwargs) (warned once per reason)."""
        if reason not in self._warned:
            self._warned.add(reason)
            warnings.warn(TranspileFallbackWarning(
                f"{self.py_func.__qualname__} runs in CPython (whole-function JIT Fallback): {reason}"), stacklevel=3)
        return self.py_func(*call[0], **call[1])

    def _variadic_reason(self) -> str:
        """Why a function with *args/**kwargs runs in CPython: the frontend's
        error at the parameter (raised under fullgraph)."""
        if "*" not in self._python_mode:
            from .frontend import function_hir

            try:
                function_hir(self.py_func)
                self._python_mode["*"] = FunctionNotCompilable("**kwargs parameters are not compiled")
            except FunctionNotCompilable as exc:
                self._python_mode["*"] = exc
        if self.options.fullgraph:
            raise self._python_mode["*"].with_traceback(None)
        return str(self._python_mode["*"])

    def _find(self, signature):
        if not self._specializations:
            if signature is None:
                raise ValueError(f"{self.py_func.__name__} has no compiled specialization yet: call it or "
                                 "pass signature=")
        if signature is not None:
            types = tuple(T.parse_signature(signature)) if isinstance(signature, str) else tuple(signature)
            self._ensure(types)
            for s in self._specializations:
                if s["types"] == types:
                    return s
        return self._specializations[0]

    def _ensure(self, arg_types: tuple) -> dict:
        with self._lock:
            held = self._held(arg_types)
        if held is not None:
            return held
        with timing.build(f"{self.py_func.__qualname__}({', '.join(map(str, arg_types))})"):
            # outside the lock: the signatures of one function compile at once (eager.py)
            spec = self._load_or_build(arg_types)
            with self._lock:
                held = self._held(arg_types)
                if held is not None:  # registered by another thread meanwhile
                    return held
                with timing.phase("load"):
                    self._register(arg_types, spec)
        if spec.get("tier_next") is not None:  # a quick build (tiers.fetch): its optimized build, in the background
            from .build import tiers

            tiers.follow(self, spec)
        return spec

    def _held(self, arg_types: tuple) -> dict | None:
        for s in self._specializations:
            if s["types"] == arg_types:
                if globals_rt.arm(self.dispatcher, s, _value_hash):  # a guard failed: still the same globals?
                    return s
                self._specializations.remove(s)  # a global was rebound: respecialize
                self.dispatcher.remove_overload(s["address"])
                break
        return None

    def _register(self, arg_types: tuple, spec: dict) -> None:
        spec["types"] = arg_types
        library = os.path.join(spec["dir"], cache.LIBRARY)
        address = entry_address(library, spec["symbol"])
        if spec.get("regions"):
            from .fallback_rt import build_regions

            spec["region_callables"] = build_regions(spec["regions"], self.py_func)
            init_regions(library, spec["region_callables"])
        else:  # @jit_class instances, dicts/sets returned to Python: the host table
            init_regions(library, ())  # (a no-op for modules that do not export tr_module_init)
        for layout in spec.get("layouts", ()):  # instances fallback code may receive
            layout_key(T.deserialize(layout))
        # descriptors name layouts by their number in this process: made afresh
        arg_desc = tuple(x for t in arg_types for x in T.to_descriptor(t))
        result = spec.get("result_type_ser")
        result_desc = T.to_descriptor(T.deserialize(result)) if result else tuple(spec["result_desc"])
        self.dispatcher.add_overload(arg_desc, tuple(result_desc), address, bool(spec.get("releases_gil")))
        spec["address"] = address
        globals_rt.arm(self.dispatcher, spec, _value_hash)
        self._specializations.append(spec)

    def _key(self, arg_types: tuple, tier: str | None = None) -> str:
        from .build.toolchain import OPTIMIZED, device_identity, find_compiler, flags, native_cpu
        from .numpy_loops import complex_multiply_fma
        from .resources import fingerprint
        import numpy

        if self._source_hash is None:
            self._source_hash = source_hash(self.py_func)
        compiler = find_compiler(required=False)
        build_flags = flags(self.options, tier or OPTIMIZED)  # a quick build has its own entry
        return cache.make_key([
            _runtime.ABI_VERSION, fingerprint(), self.py_func.__module__, self.py_func.__qualname__,
            self._source_hash, key_part(self.py_func, self.options),  # the text compiled: a file's or recovered
            [T.cache_text(t) for t in arg_types], [T.serialize(t) for t in arg_types],
            [source_hash(f.fn) for t in arg_types for f in T.functions_in(t)],  # compiled in with this code
            self.construct.identity if self.construct is not None else None,
            self.options.key(), compiler.identity if compiler else None,
            build_flags, native_cpu() if "-march=native" in build_flags else None,
            device_identity(self.options),
            sys.implementation.cache_tag, numpy.__version__, complex_multiply_fma(),
            "asserts stripped (python -O)" if sys.flags.optimize else "asserts",
        ])

    def _load_or_build(self, arg_types: tuple) -> dict:
        artifact = self._shipped.pop(arg_types, None)
        if artifact is not None:  # verified, then written into this user's cache
            from .build import artifacts

            return artifacts.install(artifact)
        prebuilt = _PREBUILT[0](self, arg_types)  # built by `transpile build` (importhook.py)
        if prebuilt is not None:
            return prebuilt
        from .build import tiers  # not on a warm start's path: the prebuilt lookup found its entry

        use_cache = self.options.cache and cache_enabled()
        root = None if use_cache else cache.private_root()
        return tiers.fetch(self.options, lambda tier: globals_rt.variant_key(
            self._key(arg_types, tier), lambda k: cache.load(k, root), _value_hash, cache.make_key),
            lambda key, tier, staging: self._build(key, arg_types, staging, tier), _entry_valid, root)

    def _build(self, key: str, arg_types: tuple, staging, tier: str) -> dict:
        """Translates and compiles into the staging folder; returns the metadata."""
        with timing.phase("import"):  # the compiler's modules (libcst, the passes): loaded by the first build
            from .build.toolchain import compile_shared
            from .cxx.names import symbol
            from .cxx.nogil import releases_gil
            from .fallback_rt import with_sources
            from .frontend import parse, to_hir  # noqa: F401
            from .pipeline import translate

            from .build import template_cache

            template_cache.install()  # templates compiled by an earlier process

        sym = f"tr_entry_{symbol(self.py_func.__qualname__)}_{key[:12]}"
        with _TRANSLATING:  # the passes' per-process tables are not for two threads at once (eager.py)
            cache.COMPILE_COUNT += 1  # under the lock too: builds of several threads each count
            try:
                tr = translate(self.py_func, arg_types, self.options, sym, construct=self.construct)
            except Exception as exc:  # noqa: BLE001 - an exception escaping a pass is transpile's bug
                if getattr(exc, "_transpile_user_error", False):
                    raise  # about the user's code (fullgraph's errors, a malformed annotation)
                raise InternalError.of(exc) from exc
        regions = with_sources(tr.regions)  # the entry runs wherever the project moves
        src = staging / cache.SOURCE
        src.write_text(tr.cpp)
        compile_shared(str(src), str(staging / cache.LIBRARY), self.options, tier=tier)
        return {
            "function": f"{self.py_func.__module__}.{self.py_func.__qualname__}",
            "qualname": self.py_func.__qualname__,  # with source_file: `transpile show file.py:f`
            "source_file": inspect.getsourcefile(self.py_func),
            "symbol": sym,
            "arg_types": [str(t) for t in arg_types],
            "return_type": str(tr.return_type),
            "arg_desc": _flat_descriptor(arg_types),
            "arg_types_ser": [T.serialize(t) for t in arg_types],
            "result_desc": _flat_descriptor([tr.return_type]),
            "result_type_ser": T.serialize(tr.return_type),
            "layouts": [T.serialize(t) for t in tr.layouts],
            "uses_objects": bool(tr.layouts),
            "options": self.options.key(),
            "deps": _dependencies(tr.program, self.py_func),
            "regions": regions,
            "fallbacks": tr.fallbacks,
            "releases_gil": releases_gil(tr, arg_types, self.options),
            "tier": tier,
            "capture": captured_text(self.py_func, tr.entry.pyfunc, self.options),  # read by `transpile show`
        }


def translate(impl: JitFunction, types: tuple, options=None):
    """The Translation (C++ text, typed program) of one specialization, its
    entry named as the cache entry names it (`transpile show`, f.inspect_cpp)."""
    from .cxx.names import symbol
    from .pipeline import translate as run

    options = options or impl.options
    key = impl._key(types) if options == impl.options else "0" * 12
    return run(impl.py_func, types, options, f"tr_entry_{symbol(impl.py_func.__qualname__)}_{key[:12]}")


def _flat_descriptor(types):
    """Descriptors for the cache's metadata (read by `transpile show` and the
    import hook); None where a @jit_class layout's number would be needed,
    which only the running process knows."""
    if any(T.mentions_instance(t) or T.functions_in(t) for t in types):
        return None
    return [x for t in types for x in T.to_descriptor(t)]


def _dependencies(program, root_func) -> dict:
    jit = []
    for (module, qualname), fn in program.jit_deps.items():
        if fn is root_func:
            continue
        jit.append([module, qualname, source_hash(fn)])
    consts = [[module, name, _value_hash(value)] for (module, name), value in program.global_deps.items()]
    return {"jit": sorted(jit), "globals": sorted(consts), "live": globals_rt.records(program, _value_hash)}


def _entry_valid(meta: dict) -> bool:
    """A sound entry is used while its dependencies are unchanged and its
    result type reads back (an entry of another version is rebuilt)."""
    try:
        if meta.get("result_type_ser") is not None:
            T.deserialize(meta["result_type_ser"])
        else:
            T.from_descriptor(tuple(meta["result_desc"]))
    except (ValueError, TypeError, KeyError, IndexError, LookupError):
        return False
    return _deps_valid(meta)


def _deps_valid(meta: dict) -> bool:
    """An entry stays valid while the @jit functions and globals it froze are unchanged."""
    deps = meta.get("deps", {})
    for module, qualname, digest in deps.get("jit", []):
        if "<locals>" in qualname:
            continue  # defined inside a function whose own source is in the key
        target = _resolve(module, qualname)
        fn = getattr(target, "py_func", target)  # a @jit function or a plain helper
        if fn is None or not hasattr(fn, "__code__") or source_hash(fn) != digest:
            return False
    for module, name, digest in deps.get("globals", []):
        mod = sys.modules.get(module)
        if mod is None or name not in vars(mod) or _value_hash(vars(mod)[name]) != digest:
            return False
    return globals_rt.valid(deps, _value_hash)
