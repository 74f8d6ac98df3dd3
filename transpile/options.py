"""The options of @jit, validated once, frozen, and part of every cache key.

They mirror mindspore.jit: capture_mode, jit_level, dynamic, fullgraph and
backend, plus the compiler's own: cache and boundscheck.
"""
from __future__ import annotations

import os
from dataclasses import asdict, dataclass

CAPTURE_MODES = ("ast", "bytecode", "trace")
JIT_LEVELS = ("O0", "O1")
BACKENDS = ("cpu", "cuda", "ascend")

# Accepted values whose implementation has not landed yet.
NOT_YET = {
    ("capture_mode", "bytecode"): "capture_mode='bytecode' is not implemented yet; use capture_mode='ast'",
    ("capture_mode", "trace"): "capture_mode='trace' is not implemented yet; use capture_mode='ast'",
}


@dataclass(frozen=True)
class Options:
    capture_mode: str = "ast"
    jit_level: str = "O0"
    dynamic: bool = False
    fullgraph: bool = False
    backend: str = "cpu"
    cache: bool = True
    boundscheck: bool = True
    fastmath: tuple = ()  # names of FASTMATH_FLAGS the C++ compiler may use ("fast": all of them)
    signatures: tuple = ()  # what `transpile build` compiles ahead of time; not part of the key

    def key(self) -> str:
        """What of the options changes generated code or its build."""
        d = asdict(self)
        del d["cache"], d["signatures"]
        return repr(sorted(d.items()))


# fastmath: Numba's names (LLVM's fast-math flags) -> GCC's options.  Each is a
# permission, off by default because each changes results against CPython.
# "afn" (approximate functions) has no GCC option: not using a permission is
# always correct.
FASTMATH_FLAGS = {
    "fast": ("-ffast-math", "-ffp-contract=fast"),
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


def make_options(capture_mode="ast", jit_level="O0", dynamic=False, fullgraph=False, backend="cpu",
                 cache=True, boundscheck=True, signatures=None, fastmath=False, check_toolkit=True,
                 **extra) -> Options:
    """Validated options.  backend="cuda"/"ascend" need their toolkit (nvcc / CANN): a
    BackendUnavailableError names what is missing unless check_toolkit=False (code
    inspection needs no toolkit)."""
    if extra:
        names = ", ".join(sorted(extra))
        raise ValueError(
            f"jit: unknown option(s) {names}; valid options are capture_mode, jit_level, dynamic, "
            "fullgraph, backend, cache, boundscheck, fastmath, signatures")
    _choose("capture_mode", capture_mode, CAPTURE_MODES)
    _choose("jit_level", jit_level, JIT_LEVELS)
    _choose("backend", backend, BACKENDS)
    fast = _fastmath(fastmath)
    if fast and backend != "cpu":
        raise NotImplementedError(f"jit: fastmath is implemented for backend='cpu' only, not {backend!r}")
    if backend != "cpu" and check_toolkit:
        from .build.backends import check_toolkit as check

        check(backend)
    return Options(capture_mode=capture_mode, jit_level=jit_level, dynamic=_flag("dynamic", dynamic),
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
    """TRANSPILE_CACHE=0 turns the disk cache off (like MS_COMPILER_CACHE_ENABLE)."""
    return os.environ.get("TRANSPILE_CACHE", "1").strip().lower() not in ("0", "false", "no", "off")
