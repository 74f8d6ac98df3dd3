"""Python builtins in compiled code: range, len, abs, min, max, int, float,
bool, complex, round, sum, enumerate, zip."""
from __future__ import annotations

import builtins

from .base import CExpr
from ..hir import nodes as h
from ..hir import types as T
from ..hir import promote
from .registry import register, register_method
from .base import NOT_CONST, Entry, Handoff, refuse_keywords
from ..parallel import prange
from .python_calls import call_in_python

H_BUILTINS = "transpile_rt/builtins/builtins.hpp"
H_ITER = "transpile_rt/builtins/iter.hpp"


def _scalar_args(site, n_min, n_max):
    site.check_arity(n_min, n_max)
    for t in site.args:
        if not isinstance(t, T.Scalar):
            raise site.error(f"{site.name}() needs scalar arguments here, not {t}")


# range / enumerate / zip only make sense as for-loop iterables; the for
# lowering reads their arguments directly.
def _range(site):
    site.check_arity(1, 3)
    for t in site.args:
        if not (isinstance(t, T.Scalar) and t.kind in "iub"):
            raise site.error(f"'{t}' object cannot be interpreted as an integer")
    return T.Range(), None


def _enumerate(site):
    site.check_arity(1, 2, ("start",))
    inner = site.args[0]
    start = site.arg_type(1, "start")
    if start is not None and not (isinstance(start, T.Scalar) and start.kind in "iu"):
        raise site.error("enumerate() start must be an integer")
    return T.Enumerate(inner), None


def _zip(site):
    site.check_arity(1, 8)
    return T.Zip(tuple(site.args)), None


def _iter_only(ls):
    raise TypeError("range/enumerate/zip values can only be iterated by a for loop")


def range_parts(args: list) -> tuple:
    """(start, stop, step) of range(*args), given the arguments' C++ (cxx/lower_loops.py too)."""
    if len(args) == 1:
        return "0", args[0], "1"
    return (args[0], args[1], "1") if len(args) == 2 else tuple(args)


def _reversed(site):
    site.check_arity(1, 1)
    node = site.arg_nodes[0]
    if not isinstance(site.args[0], T.Range) or not isinstance(node, h.Call):
        raise site.error(f"reversed() of {site.args[0]} is not supported in compiled code")
    return T.LibIter("reversed_range", (), T.INT), tuple(node.args)  # range(...)'s arguments, lowered here


def _reversed_lower(ls):
    return CExpr(f"tr::ReversedRange({_range_args(ls, ls.site_info)})")


def _range_call(site):
    """("range", the arguments of range(...)) when argument 0 is a range call:
    len/sum/min/max of it are computed in closed form (transpile_rt/array.hpp)."""
    node = site.arg_nodes[0] if site.arg_nodes else None
    if isinstance(site.args[0], T.Range) and isinstance(node, h.Call):
        return "range", tuple(node.args)
    raise site.error(f"{site.name}() of a range stored in a variable is not supported in compiled code",
                     "call it on range(...) itself")


def _range_args(ls, nodes) -> str:
    """C++ of the tr::RangeArgs of range(*nodes) (evaluated left to right)."""
    start, stop, step = range_parts([f"int64_t({ls.lower.expr(a).code})" for a in nodes])
    return f"tr::RangeArgs{{{start}, {stop}, {step}}}"


def _is_range_reduction(ls) -> bool:
    return isinstance(ls.site_info, tuple) and len(ls.site_info) == 2 and ls.site_info[0] == "range"


def _len(site):
    site.check_arity(1, 1)
    t = site.args[0]
    if isinstance(t, (T.Array, T.RecordArray)):
        if t.ndim == 0:
            raise site.error("len() of unsized object")
        return T.INT, None
    if isinstance(t, T.Record):  # the number of fields
        return T.INT, len(t.rec.fields)
    if isinstance(t, T.Tuple):
        return T.INT, len(t.items)
    if isinstance(t, T.Range):
        return T.INT, _range_call(site)
    raise site.error(f"object of type '{t}' has no len()")


def _len_lower(ls):
    if _is_range_reduction(ls):
        return CExpr(f"tr::range_length({_range_args(ls, ls.site_info[1])})")
    if ls.site_info is not None:
        return CExpr(str(ls.site_info))
    return CExpr(f"{ls.lower.ev(ls.args[0])}.shape[0]")


def _abs(site):
    site.check_arity(1, 1)
    t = site.args[0]
    if isinstance(t, T.Array):
        import numpy as np

        ops = promote.ufunc_call(np.absolute, [t])
        return ops.result, ops
    if not isinstance(t, T.Scalar):
        raise site.error(f"bad operand type for abs(): '{t}'")
    if t.weak and t.dtype == "bool":
        return T.INT, None
    if t.kind == "c":
        return T.Scalar("float64", t.weak) if t.dtype == "complex128" else T.Scalar("float32"), None
    return t, None


def _abs_lower(ls):
    if ls.site_info is not None:
        return ls.lower.lazy(f"tr::unary<tr::uf::absolute, {ls.lower.elem(ls.site_info.compute)}>({ls.args[0].code})",
                             "transpile_rt/numpy/ufunc.hpp")
    t = ls.arg_types[0]
    arg = ls.args[0].code
    if t.dtype == "bool":  # abs(np.True_) is np.True_ (C++'s abs of a bool is an int: str() said 1)
        return CExpr(f"bool({arg})")
    if t.kind != "c":  # py_abs returns its argument's C++ type: a literal 1 is C++ int, not int64
        arg = ls.lower.as_ct(ls.args[0], t, ls.result.dtype, exact=True)
    return CExpr(f"tr::builtins::py_abs({arg})")


def _minmax(which):
    def infer(site):
        refuse_keywords(site, which)
        if len(site.args) == 1:
            t = site.args[0]
            if isinstance(t, T.Generator):
                if t.elt.kind == "c":
                    raise site.error("'<' not supported between instances of 'complex' and 'complex'")
                return t.elt, "generator"
            if isinstance(t, T.Array) and t.ndim == 1:
                return t.scalar, "array"
            if isinstance(t, T.Tuple) and t.homogeneous is not None and isinstance(t.homogeneous, T.Scalar):
                return t.homogeneous, "tuple"
            if isinstance(t, T.Range):
                return T.INT, _range_call(site)
            raise site.error(f"{which}() of {t} is not supported", "pass two or more numbers, or a 1-d array")
        if len(site.args) >= 2 and all(t == T.STR for t in site.args):  # by code points, the first of equals
            return T.STR, "scalars"
        _scalar_args(site, 2, 16)
        result = site.args[0]
        for t in site.args[1:]:
            result = promote.scalar_join(result, t)
        # NumPy orders its complex scalars (scalar.hpp); Python's complex numbers have no order.
        if result.kind == "c" and not (not result.weak and all(t == result for t in site.args)):
            raise site.error(f"'<' not supported between instances of 'complex' and 'complex'")
        return result, "scalars"

    def lower(ls):
        lw = ls.lower
        if _is_range_reduction(ls):
            return CExpr(f"tr::range_extreme({_range_args(ls, ls.site_info[1])}, {str(which == 'max').lower()})")
        if ls.site_info == "array":
            return CExpr(f"tr::builtins::iter_{which}({lw.ev(ls.args[0])})")
        if ls.site_info == "tuple":
            return CExpr(f"tr::builtins::tuple_{which}({ls.args[0].code})")
        ct = lw.ctype(ls.result)
        code = f"{ct}({ls.args[0].code})"
        for a in ls.args[1:]:
            code = f"tr::builtins::py_{which}({code}, {ct}({a.code}))"
        return CExpr(code)

    return infer, lower


def _zero_d(t) -> bool:
    """A 0-d array (an np.nditer element): int()/float() take its value, as NumPy allows."""
    return isinstance(t, T.Array) and t.ndim == 0


def _kind(t) -> str:
    return t.scalar.kind if _zero_d(t) else t.kind


def _value_code(ls) -> str:
    """The argument's value: a 0-d array's element, or the scalar itself."""
    if _zero_d(ls.arg_types[0]):
        ls.lower.module.include("transpile_rt/numpy/item.hpp")
        return f"tr::np::item({ls.lower.ev(ls.args[0])})"
    return ls.args[0].code


# int(s) / float(s) of a str: Python's own parsers (underscores, Unicode digits and whitespace, 'inf', their
# ValueError's text), called from compiled code
PARSED = {"int": call_in_python("builtins", "int"), "float": call_in_python("builtins", "float")}


def _int(site):
    site.check_arity(0, 1)
    if site.args and site.args[0] == T.STR:
        return T.INT, Handoff(PARSED["int"], ())
    if site.args and not isinstance(site.args[0], T.Scalar) and not _zero_d(site.args[0]):
        raise site.error(f"int() argument must be a number, not '{site.args[0]}'")
    if site.args and _kind(site.args[0]) == "c":
        raise site.error("int() argument must be a string, a bytes-like object or a real number, not 'complex'")
    return T.INT, None


def _int_lower(ls):
    if not ls.args:
        return CExpr("int64_t(0)")
    if _kind(ls.arg_types[0]) == "f":
        return CExpr(f"tr::builtins::to_int(double({_value_code(ls)}))")
    if getattr(ls.arg_types[0], "dtype", None) == "uint64":  # 2**63 and up: no int64 holds CPython's int
        return CExpr(f"tr::builtins::to_int(uint64_t({_value_code(ls)}))")
    return CExpr(f"int64_t({_value_code(ls)})")


def _conv(result, name):
    def infer(site):
        site.check_arity(0, 2 if name == "complex" else 1)
        if name in PARSED and site.args and site.args[0] == T.STR:
            return result, Handoff(PARSED[name], ())
        for t in site.args:
            if not isinstance(t, T.Scalar) and not (_zero_d(t) and len(site.args) == 1 and name != "bool"):
                raise site.error(f"{name}() argument must be a number, not '{t}'")
            if _kind(t) == "c" and name != "complex" and name != "bool":
                raise site.error(f"{name}() argument must be a real number, not 'complex'")
        return result, None

    def lower(ls):
        ct = ls.lower.ctype(result)
        if not ls.args:
            return CExpr(f"{ct}()")
        if name == "complex" and len(ls.args) == 2:
            return CExpr(f"tr::complex128(double({ls.args[0].code}), double({ls.args[1].code}))")
        return CExpr(f"tr::cast<{ct}>({_value_code(ls)})")

    return infer, lower


def _round(site):
    site.check_arity(1, 2, ("ndigits",))
    t = site.args[0]
    nd = site.arg_type(1, "ndigits")
    if not isinstance(t, T.Scalar) or t.kind == "c" or (t.kind == "b" and not t.weak):
        numpy_bool = isinstance(t, T.Scalar) and t.kind == "b"
        raise site.error(f"type {'numpy.bool' if numpy_bool else t} doesn't define __round__ method")
    if nd is not None and nd != T.NONE:
        if not (isinstance(nd, T.Scalar) and nd.kind in "iu"):
            raise site.error("round() ndigits must be an integer")
        if not t.weak:  # a NumPy scalar's __round__ is np.round, by its own algorithm
            return t, "numpy_nd"
        return (T.INT, "int_nd") if t.kind in "iub" else (t, "float_nd")
    if t.kind in "iub":
        return T.INT, "int"
    return T.INT, "float"


def _round_lower(ls):
    x = ls.args[0].code
    kind = ls.site_info
    if kind == "int":
        return CExpr(f"int64_t({x})")
    if kind == "float":
        return CExpr(f"tr::builtins::round_half_even(double({x}))")
    nd = ls.args[1].code if len(ls.args) > 1 else ls.kwargs["ndigits"].code
    if kind == "numpy_nd":
        return CExpr(f"tr::builtins::np_round_ndigits({x}, int64_t({nd}))")
    if kind == "int_nd":
        return CExpr(f"{ls.lower.ctype(ls.result)}(tr::builtins::round_ndigits(int64_t({x}), int64_t({nd})))")
    return CExpr(f"{ls.lower.ctype(ls.result)}(tr::builtins::round_ndigits(double({x}), int64_t({nd})))")


def _divmod(site):
    site.check_arity(2, 2)
    a, b = site.args
    if not all(isinstance(t, T.Scalar) and t.weak and t.kind in "biuf" for t in (a, b)):
        raise site.error(f"divmod() of {a} and {b} runs as Python: compiled code takes Python ints and floats")
    elem = promote.binary("//", a, b).result
    return T.Tuple((elem, elem)), None


def _divmod_lower(ls):
    ct = ls.lower.ctype(ls.result.items[0])
    return CExpr(f"tr::py::divmod<{ct}>({ct}({ls.args[0].code}), {ct}({ls.args[1].code}))")


def _sum(site):
    site.check_arity(1, 2, ("start",))
    t = site.args[0]
    start = site.arg_type(1, "start") or T.INT
    if isinstance(t, T.Generator):
        try:
            return promote.binary("+", start, t.elt).result, "generator"
        except promote.PromotionError as exc:
            raise site.error(str(exc)) from None
    if isinstance(t, T.Array) and t.ndim >= 1:
        elem = t.scalar if t.ndim == 1 else T.Array(t.dtype, t.ndim - 1, "A")
        try:
            result = promote.binary("+", start, elem).result
        except promote.PromotionError as exc:
            raise site.error(str(exc)) from None
        if isinstance(result, T.Array):
            raise site.error("sum() over the rows of a 2-d array is not supported", "use np.sum(a, axis=0)")
        return result, "array"
    if isinstance(t, T.Tuple) and t.homogeneous is not None and isinstance(t.homogeneous, T.Scalar):
        return promote.binary("+", start, t.homogeneous).result, "tuple"
    if isinstance(t, T.Range) and start == T.INT:  # a float start would add the ints one by one, rounding
        return T.INT, _range_call(site)
    raise site.error(f"sum() of {t} is not supported", "pass a 1-d array or a tuple of numbers")


def _sum_lower(ls):
    lw = ls.lower
    start = ls.args[1].code if len(ls.args) > 1 else (ls.kwargs["start"].code if "start" in ls.kwargs else "0")
    ct = lw.ctype(ls.result)
    if _is_range_reduction(ls):
        return CExpr(f"tr::range_sum({_range_args(ls, ls.site_info[1])}, int64_t({start}))")
    if ls.site_info == "tuple":
        return CExpr(f"tr::builtins::tuple_sum<{ct}>({ls.args[0].code}, {ct}({start}))")
    return CExpr(f"tr::builtins::iter_sum<{ct}>({lw.ev(ls.args[0])}, {ct}({start}))")


def _any_all(which):
    def infer(site):
        site.check_arity(1, 1)
        t = site.args[0]
        if isinstance(t, T.Generator):
            return T.BOOL, "generator"
        if isinstance(t, T.Array) and t.ndim == 1:
            return T.BOOL, "array"
        raise site.error(f"{which}() of {t} is not supported", "pass a generator expression or a 1-d array")

    def lower(ls):
        return CExpr(f"bool(tr::np::{which}({ls.lower.ev(ls.args[0])}))")

    return infer, lower


def _python_class(t):
    """The Python class of every value of type t (None when it is not one class)."""
    import numpy as np

    if isinstance(t, T.Instance):
        return t.cls.cls
    if isinstance(t, T.Scalar):
        return {"bool": bool, "int64": int, "float64": float, "complex128": complex}[t.dtype] if t.weak \
            else np.dtype(t.dtype).type
    if isinstance(t, T.Array):
        return np.ndarray
    if isinstance(t, T.Tuple):
        return tuple
    return type(None) if t == T.NONE else None


def _isinstance(site):
    """isinstance(x, C): decided while compiling, since x's type is known."""
    site.check_arity(2, 2)
    classes = site.const_arg(1, None)
    cls = _python_class(site.args[0])
    if classes is NOT_CONST or cls is None:
        raise site.error(f"isinstance() of {site.args[0]} against a class not known while compiling")
    try:
        return T.BOOL, bool(issubclass(cls, classes))
    except TypeError as exc:
        raise site.error(f"isinstance(): {exc}") from None


def _isinstance_lower(ls):
    return CExpr(f"((void)({ls.args[0].code}), {'true' if ls.site_info else 'false'})")


def _entry(name, infer, lower, *headers):
    return Entry(name, infer, lower, tuple(headers) or (H_BUILTINS,))


register(builtins.range, _entry("range", _range, _iter_only))
register(builtins.reversed, _entry("reversed", _reversed, _reversed_lower))
register(prange, _entry("prange", _range, _iter_only))  # transpile.prange: a parallel range
register(builtins.enumerate, _entry("enumerate", _enumerate, _iter_only))
register(builtins.zip, _entry("zip", _zip, _iter_only))
register(builtins.len, _entry("len", _len, _len_lower))
register(builtins.isinstance, _entry("isinstance", _isinstance, _isinstance_lower))
register(builtins.abs, _entry("abs", _abs, _abs_lower, H_BUILTINS, "transpile_rt/numpy/ufunc.hpp"))
register(builtins.min, _entry("min", *_minmax("min"), H_BUILTINS, H_ITER))
register(builtins.max, _entry("max", *_minmax("max"), H_BUILTINS, H_ITER))
register(builtins.int, _entry("int", _int, _int_lower))
register(builtins.float, _entry("float", *_conv(T.FLOAT, "float")))
register(builtins.bool, _entry("bool", *_conv(T.BOOL, "bool")))
register(builtins.complex, _entry("complex", *_conv(T.COMPLEX, "complex")))
register(builtins.round, _entry("round", _round, _round_lower))
register(builtins.divmod, _entry("divmod", _divmod, _divmod_lower, "transpile_rt/ops/python.hpp"))
register(builtins.sum, _entry("sum", _sum, _sum_lower, H_ITER))
register(builtins.any, _entry("any", *_any_all("any"), "transpile_rt/numpy/reduce.hpp"))
register(builtins.all, _entry("all", *_any_all("all"), "transpile_rt/numpy/reduce.hpp"))



def _python_int(t) -> bool:
    """A Python int or bool (not a NumPy integer)."""
    return isinstance(t, T.Scalar) and t.weak and t.kind in "ib"


def _bit_length(site):
    """int.bit_length() of a Python int (NumPy's ints have no such method)."""
    site.check_arity(1, 1)
    t = site.args[0]
    if not _python_int(t):
        raise site.error(f"'{t}' has no method 'bit_length' in compiled code")
    return T.INT, None


def _bit_length_lower(ls):  # |x| as an unsigned value: INT64_MIN's 64 bits too
    return CExpr("([](int64_t tr_v) { uint64_t tr_m = tr_v < 0 ? uint64_t(0) - uint64_t(tr_v) : uint64_t(tr_v); "
                 f"return int64_t(tr_m ? 64 - __builtin_clzll(tr_m) : 0); }}(int64_t({ls.args[0].code})))")


def _pow(site):
    """pow(a, b, m) of Python ints (the two-argument form is `a ** b`: written so, it compiles)."""
    site.check_arity(3, 3)
    if not all(_python_int(t) for t in site.args):
        raise site.error(f"pow() of {', '.join(map(str, site.args))} is not supported in compiled code",
                         "compiled code takes pow(a, b, m) of ints; write a ** b for other powers")
    return T.INT, None


register_method("bit_length", _entry("bit_length", _bit_length, _bit_length_lower))
register(builtins.pow, _entry("pow", _pow, lambda ls: CExpr(
    "tr::py::pow_mod(" + ", ".join(f"int64_t({a.code})" for a in ls.args) + ")"), "transpile_rt/ops/python.hpp"))

_ = NOT_CONST
