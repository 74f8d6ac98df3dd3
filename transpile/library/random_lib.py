"""The random draws numeric code makes (np.random.* of the global
RandomState, random.*).

Compiled: the draws of the global RandomState in _COMPILED
(np.random.random()/random_sample()/rand(), uniform, randint, normal,
standard_normal/randn) with scalar parameters, one value or an integer
size=/dims shape, from NumPy's own state through the bridge
(transpile_rt/numpy/random.hpp), so seeded sequences are NumPy's and Python
draws interleave with compiled ones.  Every other form (dtype=, array
parameters, random.*) is a TypingError here, and so are all draws where the
bridge cannot reach NumPy's state or NumPy ships no libnpyrandom.a.
Python's random module: random(), uniform() of floats, randint() and
randrange() of ints are drawn from random._inst's own Mersenne Twister state
with CPython's algorithms (python_random.hpp, bridge/pyrandom.c: the state's
layout and the module's functions are checked, and checked again when the
module changes); its other functions, and NumPy's other draws, are calls in
Python (library/python_calls.py); those neither lists run as Python.

Run as Python, the type of what `x = np.random.random()` produces is still
known (draw_type), so the code around the draw compiles as if it carried
`# @jit.typing: () -> float`.

Only forms whose result type never depends on the values are listed:
NumPy's legacy functions give a Python float/int for scalar arguments
whatever their types; Python's random module computes with its arguments,
so only Python numbers are accepted there (random.uniform(np.float32(1), 2)
is an np.float32)."""
from __future__ import annotations

import os
import random
from dataclasses import replace
from functools import partial

import numpy as np

from .. import _runtime
from ..hir import types as T
from .python_calls import entry_for_function
from .base import CExpr, Entry
from .registry import register

H_RANDOM = "transpile_rt/numpy/random.hpp"

# callable -> (most positional arguments, result type, whether NumPy scalars may be passed)
_DRAWS = {
    np.random.random: (0, T.FLOAT, True), np.random.random_sample: (0, T.FLOAT, True),
    np.random.rand: (0, T.FLOAT, True), np.random.randn: (0, T.FLOAT, True),
    np.random.uniform: (2, T.FLOAT, True), np.random.normal: (2, T.FLOAT, True),
    np.random.standard_normal: (0, T.FLOAT, True), np.random.exponential: (1, T.FLOAT, True),
    np.random.randint: (2, T.INT, True),
    random.random: (0, T.FLOAT, False), random.uniform: (2, T.FLOAT, False), random.gauss: (2, T.FLOAT, False),
    random.normalvariate: (2, T.FLOAT, False), random.randint: (2, T.INT, False),
}
_KEEP = list(_DRAWS)  # bound methods of the global generators: kept alive so their ids stay theirs
_BY_ID = {id(fn): spec for fn, spec in _DRAWS.items()}


def draw_type(callee, arg_types: list, has_keywords: bool) -> T.Type | None:
    """The type a call of a listed draw returns, or None (not listed, keywords
    such as size=, arrays, or argument types the result would depend on)."""
    spec = _BY_ID.get(id(callee))
    if spec is None or has_keywords:
        return None
    most, result, numpy_scalars = spec
    if len(arg_types) > most:
        return None
    for t in arg_types:
        if not isinstance(t, T.Scalar) or t.kind == "c" or not (t.weak or numpy_scalars):
            return None
        if result == T.INT and t.kind not in "biu":
            return None
    if callee is np.random.randint and not arg_types:
        return None
    return result


def link_inputs() -> tuple[str, str] | None:
    """NumPy's include directory and its libnpyrandom.a, which modules that
    draw are compiled and linked with; None when this NumPy ships no library."""
    lib = os.path.join(os.path.dirname(np.__file__), "random", "lib", "libnpyrandom.a")
    include = np.get_include()
    if not (os.path.isfile(lib) and os.path.isfile(os.path.join(include, "numpy", "random", "bitgen.h"))):
        return None
    return include, lib


# callable -> (C++ function, scalar parameters with their defaults, whether it needs the cached Gaussian,
# where an array's shape comes from: a size= parameter after the others, or the positional dims of rand/randn)
_COMPILED = {
    np.random.random: ("random_sample", (), False, "size"),
    np.random.random_sample: ("random_sample", (), False, "size"),
    np.random.rand: ("random_sample", (), False, "dims"),
    np.random.uniform: ("uniform", (("low", 0.0), ("high", 1.0)), False, "size"),
    np.random.randint: ("randint", (("low", None), ("high", None)), False, "size"),
    np.random.normal: ("normal", (("loc", 0.0), ("scale", 1.0)), True, "size"),
    np.random.standard_normal: ("standard_normal", (), True, "size"),
    np.random.randn: ("standard_normal", (), True, "dims"),
}


def _available(site, gaussian: bool) -> None:
    legacy, gauss = _runtime.random_support()
    if not legacy or link_inputs() is None:
        raise site.error("np.random draws run as Python here: NumPy's random state or libnpyrandom.a is not "
                         "reachable from compiled code")
    if gaussian and not gauss:
        raise site.error("np.random normal draws run as Python here: the RandomState's cached Gaussian "
                         "is not reachable from compiled code")


def _bind(site, params, shape_from: str) -> tuple[list, list]:
    """Each scalar parameter's source, ("arg", i), ("kw", name) or ("const", default), and the
    sources of the shape's dimensions (empty: one value), ("arg", i) or (source, item of a tuple)."""
    name = site.name or "draw"
    if shape_from == "dims":  # rand(d0, d1, ...), randn(...)
        if site.kwargs:
            raise site.error(f"{name}() takes no keyword arguments")
        return [], [_dim(site, ("arg", i), site.args[i]) for i in range(len(site.args))]
    names = [p for p, _ in params] + ["size"]
    if len(site.args) > len(names):
        raise site.error(f"{name}() takes at most {len(names)} positional arguments")
    for kw in site.kwargs:
        if kw not in names or kw in names[:len(site.args)]:
            raise site.error(f"{name}({kw}=...) runs as Python: compiled draws take {', '.join(names)}")
    sources = []
    for i, (param, default) in enumerate([*params, ("size", None)]):
        sources.append(("arg", i) if i < len(site.args) else ("kw", param) if param in site.kwargs
                       else ("const", default))
    size, dims = sources.pop(), []
    if size[0] != "const":
        t = _type(site, size)
        if isinstance(t, T.Tuple):
            dims = [_dim(site, (size, k), item) for k, item in enumerate(t.items)]
        elif t != T.NONE:
            dims = [_dim(site, size, t)]
    return sources, dims


def _type(site, src):
    return site.args[src[1]] if src[0] == "arg" else site.kwargs[src[1]]


def _dim(site, src, t):
    if not (isinstance(t, T.Scalar) and _scalar_ok(t, True) and t.kind != "b"):
        raise site.error(f"{site.name}() with a size of {t} runs as Python: compiled draws take integer sizes")
    return src


def _scalar_ok(t, integer: bool) -> bool:
    if not isinstance(t, T.Scalar) or t.kind == "c":
        return False
    if integer:  # uint64 values beyond int64 and floats (NumPy truncates them) run as Python
        return t.kind in "bi" or (t.kind == "u" and t.np_dtype.itemsize < 8)
    return True


def _draw_infer(spec, site):
    fn, params, gaussian, shape_from = spec
    bound, dims = _bind(site, params, shape_from)
    if fn == "randint":
        if not bound or bound[0][0] == "const":
            raise site.error("randint() needs at least one argument")
        if bound[1][0] == "const":  # randint(high): the one argument is the exclusive bound
            fn, bound = "randint_high", bound[:1]
    integer = fn.startswith("randint")
    for src in bound:
        if src[0] != "const" and not _scalar_ok(_type(site, src), integer):
            raise site.error(f"{site.name}() of {_type(site, src)} runs as Python: compiled draws take Python or "
                             f"NumPy {'integers' if integer else 'real numbers'}")
    if len(dims) > 32:
        raise site.error(f"{site.name}(): more than 32 dimensions")
    _available(site, gaussian)
    dtype = "int64" if integer else "float64"
    result = T.Array(dtype, len(dims), "C") if dims else (T.INT if integer else T.FLOAT)
    return result, (fn, bound, dims)


def _draw_lower(ls):
    fn, bound, dims = ls.site_info
    ls.lower.module.needs_host = True  # the module receives the bridge's host table (tr_module_init)
    ctype = "int64_t" if fn.startswith("randint") else "double"

    def code(src):
        if isinstance(src[0], tuple):  # an item of a size tuple, evaluated once
            if src[0] not in tuples:
                tuples[src[0]] = ls.lower.hoist(code(src[0]))
            return f"std::get<{src[1]}>({tuples[src[0]]})"
        return ls.args[src[1]].code if src[0] == "arg" else ls.kwargs[src[1]].code

    tuples = {}
    args = [(repr(float(where)) if ctype == "double" else str(int(where))) if kind == "const"
            else f"{ctype}({code((kind, where))})" for kind, where in bound]
    call = f"tr::random::{fn}({', '.join(args)})"
    if dims:
        shape = ", ".join(f"int64_t({code(d)})" for d in dims)
        call = f"tr::random::{fn}_n<{len(dims)}>({''.join(a + ', ' for a in args)}{{{shape}}})"
    # Inline, where Python evaluates it: a draw has effects (the sequence's
    # order), so cxx/order.py evaluates the operands before it that may raise
    # or are array expressions first, in Python's order (hoisted before its
    # statement it would run before a[i]'s IndexError, or before a compiled
    # helper's own draws).
    return CExpr(call)


for _fn, _spec in _COMPILED.items():
    register(_fn, Entry(f"numpy.random.{_fn.__name__}", partial(_draw_infer, _spec), _draw_lower, (H_RANDOM,),
                        needs_python=True))


# ---- Python's random module ---------------------------------------------------------------------
# random(), uniform() of Python floats, randint() and randrange() of ints: drawn by the bridge from
# random._inst's own state (python_random.hpp, bridge/pyrandom.c); other argument types, and the other
# functions, are calls of the module's function in Python (python_calls.py).

H_PYRANDOM = "transpile_rt/python_random.hpp"
_PY_DRAWS = {random.random: ("random", 0, 0, T.FLOAT), random.uniform: ("uniform", 2, 2, T.FLOAT),
             random.randint: ("randint", 2, 2, T.INT), random.randrange: ("randrange", 1, 2, T.INT)}


def _native_args(name, site) -> bool:
    if site.kwargs:
        return False
    if name == "uniform":
        return all(t == T.FLOAT for t in site.args)
    return all(isinstance(t, T.Scalar) and (t.kind == "b" or t.kind == "i") for t in site.args)


def _python_draw(spec):
    name, low, high, result = spec
    in_python = entry_for_function("random", name)

    def infer(site):
        if low <= len(site.args) <= high and _native_args(name, site):
            return result, ("native", name)
        t, info = in_python.infer(site)
        return t, ("python", info)

    def lower(ls):
        kind, info = ls.site_info
        if kind == "python":
            return in_python.lower(replace(ls, site_info=info))
        ls.lower.module.needs_host = True
        args = ", ".join(f"int64_t({a.code})" if name != "uniform" else f"double({a.code})" for a in ls.args)
        return CExpr(f"tr::pyrandom::{name}({args})")

    return Entry(f"random.{name}", infer, lower, (H_PYRANDOM,), needs_python=True)


for _fn, _spec in _PY_DRAWS.items():
    register(_fn, _python_draw(_spec))
