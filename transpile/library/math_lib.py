"""The math module: CPython semantics on scalars (ValueError "math domain
error", OverflowError "math range error", floor/ceil return int)."""
from __future__ import annotations

import math

from .base import CExpr
from ..hir import types as T
from .registry import register
from .base import Entry

HEADER = ("transpile_rt/math/math.hpp",)

FLOAT_FUNCS = {
    1: ("sqrt", "exp", "expm1", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos", "atan", "sinh",
        "cosh", "tanh", "asinh", "acosh", "atanh", "fabs", "degrees", "radians", "gamma", "lgamma", "erf", "erfc"),
    2: ("atan2", "pow", "hypot", "copysign", "fmod"),
}
INT_FUNCS = {"floor": 1, "ceil": 1, "trunc": 1}
BOOL_FUNCS = ("isnan", "isinf", "isfinite")


def _real_args(site, n_min, n_max):
    site.check_arity(n_min, n_max)
    for t in site.args:
        if not isinstance(t, T.Scalar) or t.kind == "c":
            raise site.error(f"math.{site.name}() needs real numbers, not {t}",
                             "use numpy functions (np.sqrt, ...) for arrays")


def _make(name, nargs, result):
    def infer(site):
        low, high = (1, 2) if name == "log" else (nargs, nargs)
        _real_args(site, low, high)
        t = site.args[0]
        if name == "trunc" and not t.weak and t.dtype != "float64":  # np.float64 is a float; the others lack it
            raise site.error(f"type numpy.{'bool' if t.kind == 'b' else t.dtype} doesn't define __trunc__ method")
        return result, None

    def lower(ls):
        if name in INT_FUNCS and ls.arg_types[0].kind in "iub":  # exact for ints: no trip through float64
            return CExpr(f"int64_t({ls.args[0].code})")
        if name == "sqrt" and ls.never_negative[:1] == (True,):  # no ValueError possible: no check
            return CExpr(f"tr::math::sqrt_unchecked(double({ls.args[0].code}))")
        cast = "int64_t" if name in ("factorial", "gcd") else "double"
        args = ", ".join(f"{cast}({a.code})" for a in ls.args)
        return CExpr(f"tr::math::{name}({args})")

    return Entry(name, infer, lower, HEADER)


for n, names in FLOAT_FUNCS.items():
    for fname in names:
        register(getattr(math, fname), _make(fname, n, T.FLOAT))
register(math.log, _make("log", 1, T.FLOAT))
for fname, n in INT_FUNCS.items():
    register(getattr(math, fname), _make(fname, n, T.INT))
for fname in BOOL_FUNCS:
    register(getattr(math, fname), _make(fname, 1, T.BOOL))


def _int_func(name, nargs):
    def infer(site):
        site.check_arity(nargs, nargs)
        for t in site.args:
            if not (isinstance(t, T.Scalar) and t.kind in "iub"):
                raise site.error(f"math.{name}() only accepts integers")
            if t.kind == "b" and not t.weak:  # np.bool_ has no __index__, unlike bool
                raise site.error("'numpy.bool' object cannot be interpreted as an integer")
        return T.INT, None

    return Entry(name, infer, _make(name, nargs, T.INT).lower, HEADER)


def _isclose_infer(site):
    site.check_arity(2, 2, ("rel_tol", "abs_tol"))  # the tolerances are keyword-only, as in CPython
    for t in list(site.args) + list(site.kwargs.values()):
        if not isinstance(t, T.Scalar) or t.kind == "c":
            raise site.error(f"math.isclose() needs real numbers, not {t}")
    return T.BOOL, None


def _isclose_lower(ls):
    rel = ls.kwargs["rel_tol"].code if "rel_tol" in ls.kwargs else "1e-09"
    tol = ls.kwargs["abs_tol"].code if "abs_tol" in ls.kwargs else "0.0"
    a, b = (f"double({x.code})" for x in ls.args)
    return CExpr(f"tr::math::isclose({a}, {b}, double({rel}), double({tol}))")


register(math.isclose, Entry("isclose", _isclose_infer, _isclose_lower, HEADER))
register(math.factorial, _int_func("factorial", 1))
register(math.gcd, _int_func("gcd", 2))
