"""NumPy ufuncs (np.sqrt, np.add, ...), np.where, np.clip and the complex
parts (np.real, np.imag, conjugate).  Result dtypes are asked of NumPy's own
promotion (hir/promote.py); functors live in numpy/ufunc.hpp."""
from __future__ import annotations

import numpy as np

from .base import CExpr
from ..hir import types as T
from ..hir import promote
from .registry import register, register_method
from .base import Entry
from .numpy_common import H_ITEM, H_UFUNC, WEAK_VALUE, WIDE_INT


# Ufuncs that are operators have functors in ops/operators.hpp.
OPERATOR_FUNCTORS = {
    "add": "tr::op::add", "subtract": "tr::op::sub", "multiply": "tr::op::mul", "divide": "tr::op::truediv",
    "true_divide": "tr::op::truediv", "floor_divide": "tr::op::floordiv", "remainder": "tr::op::mod",
    "less": "tr::op::lt", "less_equal": "tr::op::le", "greater": "tr::op::gt", "greater_equal": "tr::op::ge",
    "equal": "tr::op::eq", "not_equal": "tr::op::ne", "bitwise_and": "tr::op::bitand_",
    "bitwise_or": "tr::op::bitor_", "bitwise_xor": "tr::op::bitxor", "left_shift": "tr::op::lshift",
    "right_shift": "tr::op::rshift", "negative": "tr::op::neg", "positive": "tr::op::pos",
    "invert": "tr::op::invert", "bitwise_not": "tr::op::invert",
}
RUNTIME_UFUNCS = (
    "sqrt cbrt exp exp2 expm1 log log2 log10 log1p sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh "
    "arccosh arctanh floor ceil trunc rint absolute fabs sign square reciprocal isnan isinf isfinite signbit "
    "deg2rad rad2deg degrees radians conjugate logical_not arctan2 hypot power maximum minimum fmax fmin "
    "copysign fmod logaddexp logical_and logical_or logical_xor").split()


# NumPy has complex loops for these, the runtime (numpy/ufunc.hpp) not yet:
# complex operands make the statement run in CPython (JIT Fallback).
NO_COMPLEX_LOOP = frozenset(
    "exp2 expm1 log2 log10 log1p sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh rint"
    .split())


# Transcendental ufuncs: NumPy picks their loops per CPU (AVX-512 / SVML
# builds of exp, log, tanh, ...), whose bits differ from the C library's, so
# compiled code calls NumPy's own loop (numpy/numpy_loops.hpp).  The others
# are exactly rounded by IEEE (sqrt, arithmetic) or exact (floor, sign, ...).
NUMPY_LOOP_UFUNCS = frozenset(
    "cbrt exp exp2 expm1 log log2 log10 log1p sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh "
    "arctanh arctan2 hypot power logaddexp".split())


def numpy_loop_index(lw, ufunc, compute: str) -> int | None:
    """The module's index of NumPy's loop of `ufunc` on `compute` values, for
    a transcendental ufunc of floats or complex numbers on the CPU."""
    dt = np.dtype(compute)
    if ufunc.__name__ not in NUMPY_LOOP_UFUNCS or dt.kind not in "fc" or lw.module.options.backend != "cpu":
        return None
    if dt.char * ufunc.nin + "->" + dt.char * ufunc.nout not in ufunc.types:
        return None
    return lw.module.numpy_loop(ufunc.__name__, (dt.num,) * (ufunc.nin + ufunc.nout))


def numpy_loop_functor(lw, ufunc, compute: str) -> str | None:
    """The functor calling that loop on one element (None: no such loop)."""
    k = numpy_loop_index(lw, ufunc, compute)
    return None if k is None else f"tr::uf::numpy_loop<{k}>"


def functor_of(ufunc) -> str:
    name = ufunc.__name__
    return OPERATOR_FUNCTORS.get(name) or f"tr::uf::{name}"


def _ufunc_entry(ufunc):
    def infer(site):
        site.check_arity(ufunc.nin, ufunc.nin)
        for t in site.args:
            if not isinstance(t, (T.Scalar, T.Array)):
                raise site.error(f"np.{ufunc.__name__}() does not accept {t}")
        try:
            ops = promote.ufunc_call(ufunc, site.args)
        except promote.PromotionError as exc:
            raise site.error(str(exc)) from None
        if ufunc.__name__ in NO_COMPLEX_LOOP and ops.compute.startswith("complex"):
            raise site.error(f"np.{ufunc.__name__}() of complex values is not compiled yet")
        return ops.result, ops

    def lower(ls):
        lw = ls.lower
        ops = ls.site_info
        ct = lw.elem(ops.compute)
        if ufunc in promote.COMPARISON_UFUNCS and promote.mixed_sign_comparison(ops.compute, ls.arg_types):
            ct = WIDE_INT
        functor = numpy_loop_functor(lw, ufunc, ops.compute) or functor_of(ufunc)
        operands = list(zip(ls.args, ls.arg_types))
        if ufunc not in promote.COMPARISON_UFUNCS:  # NEP 50: a Python int must fit the dtype (OverflowError)
            operands = [lw.weak_int_operand(a, t, ops.compute) for a, t in operands]
        if isinstance(ls.result, T.Scalar):
            args = ", ".join(f"tr::cast<{ct}>({lw.zero_d(a, t)[0].code})" for a, t in operands)
            return CExpr(f"{lw.ctype(ls.result)}({functor}::apply({args}))")
        kind = "unary" if ufunc.nin == 1 else "binary"
        args = ", ".join(a.code for a, _ in operands)
        loop = numpy_loop_index(lw, ufunc, ops.compute) if ufunc.nin == 1 else None
        if loop is not None:  # the whole array in one call of NumPy's loop
            return CExpr(f"tr::np::numpy_loop_array<{loop}, {ct}>({args})")
        return lw.lazy(f"tr::{kind}<{functor}, {ct}>({args})")

    return Entry(f"numpy.{ufunc.__name__}", infer, lower, (H_UFUNC,))


for _name in RUNTIME_UFUNCS + list(OPERATOR_FUNCTORS):
    _uf = getattr(np, _name, None)
    if isinstance(_uf, np.ufunc):
        register(_uf, _ufunc_entry(_uf))
register(np.abs, _ufunc_entry(np.absolute))

_CONJ = _ufunc_entry(np.conjugate)


def _conj_method_infer(site):
    t = site.args[0]
    if isinstance(t, T.Scalar) and t.weak:  # (1+2j).conjugate() stays a Python complex
        site.check_arity(1, 1)
        return (T.INT if t.dtype == "bool" else t), None
    return _CONJ.infer(site)


def _conj_method_lower(ls):
    if ls.site_info is None:
        return CExpr(f"{ls.lower.ctype(ls.result)}(tr::uf::conjugate::apply({ls.args[0].code}))")
    return _CONJ.lower(ls)


register_method("conjugate", Entry("conjugate", _conj_method_infer, _conj_method_lower, (H_UFUNC,)))


def _part_fn(part):
    from .attributes import lookup

    def infer(site):
        site.check_arity(1, 1, ("val",))
        t = site.args[0]
        rule = lookup(t, part)
        if rule is None:
            raise site.error(f"np.{part}() needs a number or an array, not {t}")
        return rule.infer(t), rule  # np.real(2.0) is 2.0, a Python float, as in NumPy

    def lower(ls):
        t = ls.arg_types[0]
        return ls.site_info.lower(ls.lower, ls.args[0], t, ls.result)

    return Entry(f"numpy.{part}", infer, lower, (H_ITEM,))


register(np.real, _part_fn("real"))
register(np.imag, _part_fn("imag"))


register_method("conj", Entry("conj", _conj_method_infer, _conj_method_lower, (H_UFUNC,)))


H_NONZERO = "transpile_rt/numpy/nonzero.hpp"


def _nonzero_infer(site):
    site.check_arity(1, 1)
    a = site.args[0]
    if not isinstance(a, T.Array) or a.ndim == 0:
        raise site.error(f"{site.name}() of {a} runs as Python: compiled code takes arrays of 1 or more dimensions")
    return T.Tuple((T.Array("int64", 1, "C"),) * a.ndim), "nonzero"


def _nonzero_lower(ls):
    ls.lower.module.include(H_NONZERO)
    return CExpr(f"tr::np::nonzero({ls.lower.ev(ls.args[0])})")


def _where_infer(site):
    if len(site.args) == 1 and not site.kwargs:  # np.where(condition): np.nonzero(condition)
        return _nonzero_infer(site)
    site.check_arity(3, 3)
    c, x, y = site.args
    for t in site.args:
        if not isinstance(t, (T.Scalar, T.Array)):
            raise site.error(f"np.where() does not accept {t}")
    # Python scalars are weak (NEP 50): np.where(c, float32_array, 0) stays float32.
    rdtype = np.result_type(*(WEAK_VALUE[t.dtype] if isinstance(t, T.Scalar) and t.weak else np.dtype(t.dtype)
                              for t in (x, y))).name
    ndim = max(t.ndim if isinstance(t, T.Array) else 0 for t in site.args)
    return T.Array(rdtype, ndim, "C"), None


def _where_lower(ls):
    if ls.site_info == "nonzero":
        return _nonzero_lower(ls)
    lw = ls.lower
    ct = lw.elem(ls.result.dtype)
    c, x, y = (a.code for a in ls.args)
    return lw.lazy(f"tr::select<{ct}>({c}, {x}, {y})")


register(np.where, Entry("numpy.where", _where_infer, _where_lower, ()))
register(np.nonzero, Entry("numpy.nonzero", _nonzero_infer, _nonzero_lower, (H_NONZERO,)))
register_method("nonzero", Entry("nonzero", _nonzero_infer, _nonzero_lower, (H_NONZERO,)))


def _bound(site, index, names):
    """The type of np.clip's bound (positional, or a_min=/min=, a_max=/max=), None when not given
    (a.clip(min=0.2): NumPy's default bound is None)."""
    return next((t for t in (site.arg_type(index, name) for name in names) if t is not None), None)


def _clip_infer(site):
    site.check_arity(1, 3, ("a_min", "a_max", "min", "max"))
    a = site.args[0]
    lo, hi = _bound(site, 1, ("a_min", "min")) or T.NONE, _bound(site, 2, ("a_max", "max")) or T.NONE
    # A None bound: NumPy clips on the other side only, with np.maximum's / np.minimum's dtype rules.
    ufunc, operands = getattr(np._core.umath, "clip", np.clip), [a, lo, hi]  # np.clip's dtype rules: the clip ufunc's
    if lo == T.NONE and hi == T.NONE:
        raise site.error("clip() with no bound is not compiled")
    if lo == T.NONE:
        ufunc, operands = np.minimum, [a, hi]
    elif hi == T.NONE:
        ufunc, operands = np.maximum, [a, lo]
    try:
        ops = promote.ufunc_call(ufunc, operands)
    except promote.PromotionError as exc:
        raise site.error(str(exc)) from None
    return ops.result, (ops, lo == T.NONE, hi == T.NONE)


def _clip_lower(ls):
    lw = ls.lower
    ops, no_lo, no_hi = ls.site_info
    ct = lw.elem(ops.compute)
    a = ls.args[0].code

    def bound(index, names):
        if index < len(ls.args):
            return ls.args[index].code
        return next(ls.kwargs[n] for n in names if n in ls.kwargs).code

    if isinstance(ls.result, T.Scalar):
        code = f"tr::cast<{ct}>({a})"
        if not no_lo:
            code = f"tr::op::maximum::apply({code}, tr::cast<{ct}>({bound(1, ('a_min', 'min'))}))"
        if not no_hi:
            code = f"tr::op::minimum::apply({code}, tr::cast<{ct}>({bound(2, ('a_max', 'max'))}))"
        return CExpr(f"{lw.ctype(ls.result)}({code})")
    code = a
    if not no_lo:
        code = f"tr::binary<tr::op::maximum, {ct}>({code}, {bound(1, ('a_min', 'min'))})"
    if not no_hi:
        code = f"tr::binary<tr::op::minimum, {ct}>({code}, {bound(2, ('a_max', 'max'))})"
    return lw.lazy(code)


register(np.clip, Entry("numpy.clip", _clip_infer, _clip_lower, ()))
register_method("clip", Entry("clip", _clip_infer, _clip_lower, ()))
