"""The options of @jit, validated once, frozen, and part of every cache key.

They mirror mindspore.jit: capture_mode, jit_level, dynamic, fullgraph and
backend (MindSpore's mode=, jit_config=, backend names and backend options
are read too), plus the compiler's own: cache, boundscheck and fastmath.
"""
from __future__ import annotations

import os
import warnings

from . import values
from .values import as_dict, value_type

CAPTURE_MODES = ("ast", "bytecode", "trace")
JIT_LEVELS = ("O0", "O1")
BACKENDS = ("cpu", "cuda", "ascend")

# Accepted values whose implementation has not landed yet.
NOT_YET: dict = {}


@value_type
class Options:
    capture_mode: str = "ast"
    # capture_mode left unset: a function whose source cannot be read (python -c, exec, the REPL, a
    # lambda) is captured from its bytecode; capture_mode="ast" given explicitly makes that an error.
    # Not in the key: the code object is, and it compiles to the same program either way.
    source_fallback: bool = True
    jit_level: str = "O0"
    dynamic: bool = False
    fullgraph: bool = False
    backend: str = "cpu"
    cache: bool = True
    boundscheck: bool = True
    fastmath: tuple = ()  # names of FASTMATH_FLAGS the C++ compiler may use ("fast": all of them)
    signatures: tuple = ()  # what `transpile build` compiles ahead of time; not part of the key

    def arguments(self) -> dict:
        """These options as @jit's keyword arguments (signatures left out)."""
        d = as_dict(self)
        del d["signatures"]
        if d.pop("source_fallback"):
            d["capture_mode"] = None
        return d

    def replace(self, **changes) -> "Options":
        """These options with some changed (not validated again)."""
        return values.replace(self, **changes)

    def key(self) -> str:
        """What of the options changes generated code or its build."""
        d = as_dict(self)
        del d["cache"], d["signatures"], d["source_fallback"]
        return repr(sorted(d.items()))


# fastmath: Numba's names (LLVM's fast-math flags) -> GCC's options.  Each is a
# permission, off by default because each changes results against CPython.
# "afn" (approximate functions) has no GCC option: not using a permission is
# always correct.
FASTMATH_FLAGS = {
    # -ffast-math spelled out: given to the link, -ffast-math (or -funsafe-math-optimizations) links
    # crtfastmath.o, which sets flush-to-zero for the whole process when the library loads (NumPy's
    # and every other module's denormals would become 0)
    "fast": ("-fno-math-errno", "-fno-signed-zeros", "-fno-trapping-math", "-fassociative-math",
             "-freciprocal-math", "-ffinite-math-only", "-fno-rounding-math", "-fno-signaling-nans",
             "-fcx-limited-range", "-ffp-contract=fast"),
    "contract": ("-ffp-contract=fast",),
    "reassoc": ("-fassociative-math", "-fno-signed-zeros", "-fno-trapping-math"),
    "nsz": ("-fno-signed-zeros",),
    "arcp": ("-freciprocal-math",),
    "nnan": ("-ffinite-math-only",),
    "ninf": ("-ffinite-math-only",),
    "afn": (),
}


def _fastmath(value) -> tuple:
    if value is True:
        return ("fast",)
    if value is False or value is None:
        return ()
    names = [value] if isinstance(value, str) else value
    try:
        names = tuple(sorted(set(names)))
    except TypeError:
        names = None
    if names is None or any(n not in FASTMATH_FLAGS for n in names):
        listed = ", ".join(repr(n) for n in FASTMATH_FLAGS)
        raise ValueError(f"jit: fastmath must be True, False or a set of {listed}; got {value!r}")
    return names


def fastmath_flags(options) -> tuple:
    """The C++ compiler's floating-point options: strict (-ffp-contract=off, so
    a * b + c rounds twice as in CPython) unless fastmath allows otherwise."""
    chosen = [f for n in options.fastmath for f in FASTMATH_FLAGS[n]]
    if "-ffp-contract=fast" not in chosen:
        chosen.insert(0, "-ffp-contract=off")
    return tuple(dict.fromkeys(chosen))


def _choose(name: str, value, allowed: tuple) -> None:
    if value not in allowed:
        listed = ", ".join(repr(v) for v in allowed)
        raise ValueError(f"jit: {name}={value!r} is not valid; choose one of {listed}")
    reason = NOT_YET.get((name, value))
    if reason:
        raise NotImplementedError(f"jit: {reason}")


def _flag(name: str, value) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"jit: {name} must be True or False, not {value!r}")
    return value


class OptionWarning(UserWarning):
    """An option given to @jit that is accepted but not used (MindSpore's
    jit_config, input_signature, backend options; unknown options)."""


_WARNED: set = set()


def _warn_once(key, message: str) -> None:
    if key not in _WARNED:
        _WARNED.add(key)
        warnings.warn(OptionWarning(f"jit: {message}"), stacklevel=caller_level())


def caller_level() -> int:
    """stacklevel of the first frame outside transpile: the user's decorator line."""
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    frame, level = sys._getframe(2), 2
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(here + os.sep):
        frame, level = frame.f_back, level + 1
    return level


# MindSpore's spellings (README "Coming from MindSpore").  Its backends:
# ms_backend runs kernel by kernel on the host here (cpu); GE sinks the whole
# graph into an Ascend device, whose counterpart here is backend='ascend'.
MINDSPORE_BACKENDS = {"ms_backend": "cpu", "GE": "ascend", "": "cpu"}
MINDSPORE_MODES = {"PSJit": "ast", "PIJit": "bytecode"}
VALID = "capture_mode, jit_level, dynamic, fullgraph, backend, cache, boundscheck, fastmath, signatures"


def _mindspore(capture_mode, jit_level, backend, mode, jit_config, input_signature, hash_args, extra):
    """capture_mode, jit_level and backend after MindSpore's spellings."""
    if mode is not None:
        if mode not in MINDSPORE_MODES:
            raise ValueError(f"jit: mode={mode!r} is not valid; choose one of 'PSJit', 'PIJit' (or use capture_mode)")
        if capture_mode not in (None, "ast", MINDSPORE_MODES[mode]):
            raise ValueError(f"jit: mode={mode!r} contradicts capture_mode={capture_mode!r}")
        capture_mode = MINDSPORE_MODES[mode]
    if isinstance(backend, str) and backend in MINDSPORE_BACKENDS:
        if backend:
            _warn_once(("backend", backend), f"backend={backend!r} is MindSpore's name; backend="
                                             f"{MINDSPORE_BACKENDS[backend]!r} is used, the nearest here")
        backend = MINDSPORE_BACKENDS[backend]
    if jit_config is not None:
        config = dict(getattr(jit_config, "jit_config_dict", None) or jit_config)  # a JitConfig or a dict
        level = config.pop("jit_level", None)
        if level and jit_level == "O0":
            jit_level = level
        if config:
            _warn_once(("jit_config", tuple(sorted(config))),
                       f"jit_config entries {', '.join(sorted(config))} are ignored (only jit_level is used)")
    for name, value in (("input_signature", input_signature), ("hash_args", hash_args)):
        if value is not None:
            _warn_once((name,), f"{name}= is ignored: compiled code is specialized on the types of each call's "
                                "arguments and shapes are always dynamic")
    if extra:
        _warn_once(("extra", tuple(sorted(extra))),
                   f"option(s) {', '.join(sorted(extra))} are ignored (MindSpore's backend options have no "
                   f"meaning here); transpile's options are {VALID}")
    return capture_mode, jit_level, backend


def make_options(capture_mode=None, jit_level="O0", dynamic=False, fullgraph=False, backend="cpu",
                 cache=True, boundscheck=True, signatures=None, fastmath=False, check_toolkit=None,
                 mode=None, jit_config=None, input_signature=None, hash_args=None, **extra) -> Options:
    """Validated options.  backend="cuda"/"ascend" need their toolkit (nvcc / CANN):
    callers that will build pass check_toolkit (build.backends.check_toolkit, which
    raises a BackendUnavailableError naming what is missing); code inspection needs
    no toolkit and passes none (options sit below build: the check is handed in).
    MindSpore's mode=, jit_config=, backend names and backend options are read as
    _mindspore says; unknown options are an OptionWarning."""
    source_fallback = capture_mode is None
    capture_mode, jit_level, backend = _mindspore(capture_mode, jit_level, backend, mode, jit_config,
                                                  input_signature, hash_args, extra)
    capture_mode = capture_mode or "ast"
    _choose("capture_mode", capture_mode, CAPTURE_MODES)
    _choose("jit_level", jit_level, JIT_LEVELS)
    _choose("backend", backend, BACKENDS)
    fast = _fastmath(fastmath)
    if fast and backend != "cpu":
        raise NotImplementedError(f"jit: fastmath is implemented for backend='cpu' only, not {backend!r}")
    if backend != "cpu" and check_toolkit:
        check_toolkit(backend)
    return Options(capture_mode=capture_mode, source_fallback=source_fallback, jit_level=jit_level, dynamic=_flag("dynamic", dynamic),
                   fullgraph=_flag("fullgraph", fullgraph), backend=backend, cache=_flag("cache", cache),
                   boundscheck=_flag("boundscheck", boundscheck), fastmath=fast,
                   signatures=_signatures(signatures))


def _signatures(value) -> tuple:
    """signatures=["float64[:], int64", ...]: argument types for `transpile build`."""
    if value is None:
        return ()
    if isinstance(value, str) or not all(isinstance(s, str) for s in value):
        raise ValueError(f"jit: signatures must be a list of strings like \"float64[:], int64\", not {value!r}")
    from .hir.types import parse_signature

    for text in value:
        try:
            parse_signature(text)
        except ValueError as exc:
            raise ValueError(f"jit: signatures: {text!r}: {exc}") from None
    return tuple(value)


def cache_enabled() -> bool:
    """TRANSPILE_CACHE=0 turns the disk cache off; MindSpore's
    MS_COMPILER_CACHE_ENABLE is read when TRANSPILE_CACHE is not set."""
    value = os.environ.get("TRANSPILE_CACHE", os.environ.get("MS_COMPILER_CACHE_ENABLE", "1"))
    return value.strip().lower() not in ("0", "false", "no", "off")
