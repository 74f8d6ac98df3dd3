"""numba.jit / numba.njit / numba.jitclass spelled on transpile.jit and
transpile.jit_class: Numba's options mapped (options.py), eager signatures
compiled at decoration."""
from __future__ import annotations

import inspect

from ..classes import jit_class
from ..decorators import jit as _jit
from ..eager import compile_all
from .types import NumbaType, Signature, none, parse
from ..numba_options import map_options, warn_once

_SCALAR_PYTHON = {"bool", "int64", "float64", "complex128"}  # dtypes Python's own numbers arrive as


def jit(signature_or_function=None, locals=None, cache=None, pipeline_class=None, boundscheck=None,  # noqa: A002
        **options):
    """numba.jit: nopython unless nopython=False / forceobj=True."""
    return _decorate(signature_or_function, dict(options, cache=cache, boundscheck=boundscheck, locals=locals),
                     default_nopython=True)


def njit(*args, **options):
    """numba.njit: jit(nopython=True)."""
    if options.get("nopython") is False or options.get("forceobj"):
        raise ValueError("njit: nopython=False / forceobj=True contradict njit; use jit")
    return jit(*args, **dict(options, nopython=True))


def _decorate(target, numba_options: dict, default_nopython: bool):
    numba_options = {k: v for k, v in numba_options.items() if v is not None}
    opts = map_options(numba_options, default_nopython)
    if callable(target) and not isinstance(target, (str, Signature, NumbaType)):
        return _wrap(target, opts, ())
    if target is None:
        sigs = ()
    elif isinstance(target, (list, tuple)) and not all(isinstance(t, NumbaType) for t in target):
        sigs = tuple(parse(s) for s in target)
    else:
        sigs = (parse(target),)
    return lambda fn: _wrap(fn, opts, sigs)


def _wrap(fn, opts: dict, sigs: tuple):
    if not inspect.isfunction(fn):
        raise TypeError(f"jit can only decorate Python functions, not {type(fn).__name__}")
    if opts.get("jit_level") != "O1" and "prange" in _source(fn):
        warn_once(("prange", fn.__qualname__),
                  f"{fn.__qualname__}: prange loops run on threads here although parallel=True is not given "
                  "(Numba would run them in order); transpile checks that iterations are independent, and "
                  "only the order of floating-point reductions can differ")
    dispatcher = _jit(fn, **opts)
    if len(sigs) > 1:  # built at once (eager.py); each is then checked, and its error raised, in turn
        compile_all(dispatcher, [argument_types(sig) for sig in sigs])
    for sig in sigs:
        compile_signature(dispatcher, sig)
    return dispatcher


def argument_types(sig: Signature) -> list:
    """The argument types a declared signature compiles (Python numbers for
    Numba's int64/float64/bool/complex128 scalars: see compile_signature)."""
    from ..hir import types as T

    out = []
    for t in T.parse_signature(sig.arg_text()):
        if isinstance(t, T.Scalar) and t.dtype in _SCALAR_PYTHON:
            t = T.Scalar(t.dtype, weak=True)
        out.append(t)
    return out


def compile_signature(dispatcher, sig: Signature) -> None:
    """Compiles a declared signature now.  Python's int/float/bool/complex
    arrive as int64/float64/bool/complex128: those scalars are compiled for
    Python numbers, which is how such signatures are called."""
    from ..hir import types as T

    arg_types = argument_types(sig)
    dispatcher.compile(arg_types)
    declared = sig.return_type
    if declared is None or declared is none:
        return
    spec = next(s for s in dispatcher._specializations if s["types"] == tuple(arg_types))
    got, wanted = T.deserialize(spec["result_type_ser"]), T.parse_type(declared.text)
    if isinstance(got, T.MaybeWeak):
        got = got.inner
    if isinstance(got, (T.Scalar, T.Array)) and type(got) is type(wanted):
        same = got.dtype == wanted.dtype and getattr(got, "ndim", 0) == getattr(wanted, "ndim", 0)
    else:
        same = got == wanted
    if not same:
        warn_once(("return", dispatcher.__qualname__, repr(sig)),
                  f"{dispatcher.__qualname__}: signature {sig!r}: the function returns {got}, not the declared {declared!r}; "
                  "results keep the type CPython gives them (Numba would convert them)")


def _source(fn) -> str:
    try:
        return inspect.getsource(fn)
    except (OSError, TypeError):
        return ""


def jitclass(cls_or_spec=None, spec=None):
    """numba.experimental.jitclass: @jitclass(spec) or @jitclass.  The spec
    is checked for its form and not used: field types come from __init__, as
    the values CPython stores (README "Coming from Numba")."""
    if isinstance(cls_or_spec, type):
        _check_spec(spec)
        return jit_class(cls_or_spec)
    _check_spec(cls_or_spec if spec is None else spec)
    return lambda cls: jit_class(cls)


def _check_spec(spec) -> None:
    if spec is None:
        return
    items = spec.items() if isinstance(spec, dict) else spec
    try:
        for name, _ in items:
            if not isinstance(name, str):
                raise TypeError
    except (TypeError, ValueError):
        raise TypeError(f"jitclass spec must be a list of (name, type) pairs or a dict, not {spec!r}") from None
