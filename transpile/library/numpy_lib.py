"""NumPy functions: ufuncs, array creation, reductions, linear algebra and
shape functions.  Types follow NumPy 2 (asked of NumPy itself where it can
answer); C++ spellings live in runtime_cpp/transpile_rt/numpy/."""
from __future__ import annotations

import numpy as np

from ..cxx.model import CExpr
from ..hir import types as T
from ..passes import promote
from . import register, register_method
from .base import NOT_CONST, Entry

H_UFUNC = "transpile_rt/numpy/ufunc.hpp"
H_CREATE = "transpile_rt/numpy/creation.hpp"
H_REDUCE = "transpile_rt/numpy/reduce.hpp"
H_LINALG = "transpile_rt/numpy/linalg.hpp"
H_SHAPE = "transpile_rt/numpy/shape.hpp"

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
    "exp2 expm1 log2 log10 log1p sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh rint "
    "maximum minimum fmax fmin".split())


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
        functor = functor_of(ufunc)
        operands = list(zip(ls.args, ls.arg_types))
        if ufunc not in promote.COMPARISON_UFUNCS:  # NEP 50: a Python int must fit the dtype (OverflowError)
            operands = [lw.weak_int_operand(a, t, ops.compute) for a, t in operands]
        if isinstance(ls.result, T.Scalar):
            args = ", ".join(f"tr::cast<{ct}>({lw.zero_d(a, t)[0].code})" for a, t in operands)
            return CExpr(f"{lw.ctype(ls.result)}({functor}::apply({args}))")
        kind = "unary" if ufunc.nin == 1 else "binary"
        args = ", ".join(a.code for a, _ in operands)
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


# ---- helpers ---------------------------------------------------------------

def dtype_arg(site, index, default=None) -> str | None:
    """The dtype= argument as a dtype name (must be known while compiling)."""
    node = site.arg_node(index, "dtype")
    if node is None:
        return default
    t = site.arg_type(index, "dtype")
    if isinstance(t, T.DType):
        return t.dtype
    value = site.const(node)
    if value is NOT_CONST or value is None:
        if value is None:
            return default
        raise site.error("dtype= must be known while compiling (np.float32, float, a.dtype, ...)")
    try:
        name = np.dtype(value).name
    except TypeError:
        raise site.error(f"data type {value!r} not understood") from None
    if name not in T.DTYPES:
        raise site.error(f"dtype {name} is not supported in compiled code")
    return name


def shape_arg(site, index, keyword="shape") -> int:
    """Number of dimensions of a shape argument (an int or a tuple of ints)."""
    t = site.arg_type(index, keyword)
    if isinstance(t, T.Scalar) and t.kind in "iu":
        return 1
    if isinstance(t, T.Tuple) and all(isinstance(i, T.Scalar) and i.kind in "iu" for i in t.items):
        return len(t.items)
    raise site.error(f"a shape must be an int or a tuple of ints, not {t}")


def shape_code(ls, index, keyword="shape") -> str:
    arg = ls.args[index] if index < len(ls.args) else ls.kwargs[keyword]
    t = ls.arg_types[index] if index < len(ls.arg_types) else ls.kw_types[keyword]
    if isinstance(t, T.Scalar):
        return f"{{int64_t({arg.code})}}"
    n = len(t.items)
    tmp = ls.lower.hoist(arg.code, t)
    return "{" + ", ".join(f"int64_t(std::get<{i}>({tmp}))" for i in range(n)) + "}"


def weak_fill_dtype(t: T.Type) -> str:
    if isinstance(t, T.Scalar):
        return np.result_type(promote.ufunc_operand(t) if not t.weak else {"bool": False, "int64": 0,
                                                                             "float64": 0.0,
                                                                             "complex128": 0j}[t.dtype]).name
    raise TypeError


# ---- creation -------------------------------------------------------------

def _creation(fill):
    def infer(site):
        site.check_arity(1, 2, ("shape", "dtype"))
        ndim = shape_arg(site, 0)
        return T.Array(dtype_arg(site, 1, "float64"), ndim, "C"), ndim

    def lower(ls):
        elem = ls.lower.elem(ls.result.dtype)
        return CExpr(f"tr::np::{fill}<{elem}, {ls.site_info}>({shape_code(ls, 0)})")

    return infer, lower


def _full_infer(site):
    site.check_arity(2, 3, ("shape", "fill_value", "dtype"))
    ndim = shape_arg(site, 0)
    fill = site.arg_type(1, "fill_value")
    if not isinstance(fill, T.Scalar):
        raise site.error("np.full() fill_value must be a scalar in compiled code")
    dtype = dtype_arg(site, 2, None) or weak_fill_dtype(fill)
    return T.Array(dtype, ndim, "C"), ndim


def _full_lower(ls):
    elem = ls.lower.elem(ls.result.dtype)
    fill = ls.args[1] if len(ls.args) > 1 else ls.kwargs["fill_value"]
    return CExpr(f"tr::np::full<{elem}, {ls.site_info}>({shape_code(ls, 0)}, tr::cast<{elem}>({fill.code}))")


def _like(fill):
    has_value = fill == "full"

    def infer(site):
        site.check_arity(2 if has_value else 1, 3 if has_value else 2, ("dtype",))
        a = site.args[0]
        if not isinstance(a, T.Array):
            raise site.error(f"np.{fill}_like() needs an array, not {a}")
        dtype = dtype_arg(site, 2 if has_value else 1, a.dtype)
        return T.Array(dtype, a.ndim, "C"), a.ndim

    def lower(ls):
        lw = ls.lower
        elem = lw.elem(ls.result.dtype)
        src = lw.hoist(lw.ev(ls.args[0]), ls.arg_types[0])
        if has_value:
            return CExpr(f"tr::np::full<{elem}, {ls.site_info}>({src}.shape, tr::cast<{elem}>({ls.args[1].code}))")
        return CExpr(f"tr::np::{fill}<{elem}, {ls.site_info}>({src}.shape)")

    return infer, lower


def _arange_infer(site):
    site.check_arity(1, 3, ("dtype",))
    for t in site.args:
        if not isinstance(t, T.Scalar) or t.kind == "c":
            raise site.error(f"np.arange() needs real scalar arguments, not {t}")
    default = "int64" if all(t.kind in "iub" for t in site.args) else "float64"
    strong = [t.dtype for t in site.args if not t.weak]
    if strong:
        # NumPy promotes the arguments together with its default integer:
        # arange(np.int32(5)) is int64, arange(np.float32(1)) float64.
        default = np.result_type("int64", *strong, *[0 if t.kind in "iub" else 0.0 for t in site.args
                                                    if t.weak]).name
    return T.Array(dtype_arg(site, 3, default), 1, "C"), None


def _arange_lower(ls):
    elem = ls.lower.elem(ls.result.dtype)
    a = [x.code for x in ls.args]
    if len(a) == 1:
        a = ["0", a[0], "1"]
    elif len(a) == 2:
        a = a + ["1"]
    # Bounds are computed in double for float results, as NumPy does.
    bound = "double" if ls.result.dtype.startswith("float") else elem
    if ls.result.dtype.startswith("complex"):  # real arguments, complex elements
        return CExpr(f"tr::np::arange<{elem}, double>({', '.join(f'double({x})' for x in a)})")
    return CExpr(f"tr::np::arange<{elem}>({', '.join(f'{bound}({x})' for x in a)})")


def _linspace_infer(site):
    site.check_arity(2, 3, ("num", "endpoint", "dtype"))
    return T.Array(dtype_arg(site, None, "float64"), 1, "C"), None


def _linspace_lower(ls):
    num = ls.args[2].code if len(ls.args) > 2 else (ls.kwargs["num"].code if "num" in ls.kwargs else "50")
    endpoint = ls.kwargs["endpoint"].code if "endpoint" in ls.kwargs else "true"
    elem = ls.lower.elem(ls.result.dtype)
    return CExpr(f"tr::np::linspace<{elem}>(double({ls.args[0].code}), double({ls.args[1].code}), "
                 f"int64_t({num}), bool({endpoint}))")


for _fill in ("zeros", "ones", "empty"):
    register(getattr(np, _fill), Entry(f"numpy.{_fill}", *_creation(_fill), (H_CREATE,)))
    register(getattr(np, _fill + "_like"), Entry(f"numpy.{_fill}_like", *_like(_fill), (H_CREATE,)))
register(np.full, Entry("numpy.full", _full_infer, _full_lower, (H_CREATE,)))
register(np.full_like, Entry("numpy.full_like", *_like("full"), (H_CREATE,)))
register(np.arange, Entry("numpy.arange", _arange_infer, _arange_lower, (H_CREATE,)))
register(np.linspace, Entry("numpy.linspace", _linspace_infer, _linspace_lower, (H_CREATE,)))


def _eye_infer(site):
    """np.eye(N, M=None, k=0, dtype=float) and np.identity(n, dtype=float)."""
    names = ("N", "M", "k") if site.name.endswith("eye") else ("n",)
    site.check_arity(0 if names[0] in site.kwargs else 1, len(names) + 1, names + ("dtype",))
    for i, kw in enumerate(names):
        t = site.arg_type(i, kw)
        if t is None or (kw == "M" and t == T.NONE):
            continue
        if not (isinstance(t, T.Scalar) and t.kind in "iu"):
            raise site.error(f"{site.name}() {kw} must be an int in compiled code, not {t}")
    return T.Array(dtype_arg(site, len(names), "float64"), 2, "C"), names


def _eye_lower(ls):
    elem = ls.lower.elem(ls.result.dtype)
    codes = []
    for i, kw in enumerate(ls.site_info):
        arg, t = (ls.args[i], ls.arg_types[i]) if i < len(ls.args) else (ls.kwargs.get(kw), ls.kw_types.get(kw))
        if arg is None or t == T.NONE:
            codes.append("0" if kw == "k" else "-1")  # M = -1: M = N
        else:
            codes.append(f"int64_t({arg.code})")
    return CExpr(f"tr::np::eye<{elem}>({', '.join(codes)})")


register(np.eye, Entry("numpy.eye", _eye_infer, _eye_lower, (H_CREATE,)))
register(np.identity, Entry("numpy.identity", _eye_infer, _eye_lower, (H_CREATE,)))


def _result_type_infer(site):
    """np.result_type(arrays, scalars, dtypes): a dtype known while compiling."""
    site.check_arity(1, 64)
    operands = []
    for i, t in enumerate(site.args):
        if isinstance(t, T.Array):
            operands.append(np.dtype(t.dtype))
        elif isinstance(t, T.Scalar):  # Python scalars are weak (NEP 50), as NumPy treats them
            operands.append({"bool": False, "int64": 0, "float64": 0.0, "complex128": 0j}[t.dtype] if t.weak
                            else np.dtype(t.dtype))
        elif isinstance(t, T.DType):
            operands.append(np.dtype(t.dtype))
        else:
            value = site.const(site.arg_nodes[i])
            try:
                operands.append(np.dtype(value))
            except TypeError:
                raise site.error(f"np.result_type() of {t} is not supported in compiled code") from None
    name = np.result_type(*operands).name
    if name not in T.DTYPES:
        raise site.error(f"dtype {name} is not supported in compiled code")
    return T.DType(name), None


register(np.result_type, Entry("numpy.result_type", _result_type_infer, lambda ls: CExpr("tr::none_t{}")))


# ---- reductions --------------------------------------------------------------

def _reduce_dtype(fn, dtype: str) -> str:
    return np.asarray(fn(np.ones(2, dtype=dtype))).dtype.name


REDUCTIONS = {
    "sum": np.sum, "prod": np.prod, "mean": np.mean, "min": np.min, "max": np.max, "amin": np.min,
    "amax": np.max, "argmin": np.argmin, "argmax": np.argmax, "var": np.var, "std": np.std,
}


def _ddof_code(ls) -> str:
    """ddof= or its NumPy 2 spelling correction=."""
    for kw in ("ddof", "correction"):
        if kw in ls.kwargs:
            return ls.kwargs[kw].code
    return "0"


def _reduction(name):
    fn = REDUCTIONS[name]
    cxx = {"amin": "min", "amax": "max"}.get(name, name)
    with_ddof = name in ("var", "std")

    def infer(site):
        keywords = ("a", "axis", "ddof", "correction", "keepdims") if with_ddof else ("a", "axis", "keepdims")
        site.check_arity(1, 2, keywords)
        if "ddof" in site.kwargs and "correction" in site.kwargs:
            raise site.error("ddof and correction can't be provided simultaneously.")
        result, info = infer_base(site)
        keep = site.const_arg(None, "keepdims", False)
        if keep is NOT_CONST or keep not in (True, False, None):
            raise site.error(f"np.{name}(keepdims=...) must be True or False, known while compiling")
        if not keep:
            return result, info
        # keepdims=True: the reduced axes stay, with length 1
        return T.Array(result.dtype, site.args[0].ndim, "C"), ("keep", info)

    def infer_base(site):
        a = site.args[0]
        if not isinstance(a, T.Array) or a.ndim == 0:
            raise site.error(f"np.{name}() needs an array, not {site.args[0]}")
        if a.dtype.startswith("complex") and name in ("min", "max", "amin", "amax", "argmin", "argmax"):
            raise site.error(f"np.{name}() of complex arrays is not supported")
        rdtype = _reduce_dtype(fn, a.dtype)
        axis_node = site.arg_node(1, "axis")
        axis = None if axis_node is None else site.const(axis_node)
        if axis is NOT_CONST:
            raise site.error(f"np.{name}(axis=...) needs an axis known while compiling (a literal int)")
        if axis is None or a.ndim <= 1:
            if axis is not None and not -1 <= axis <= 0:
                raise site.error(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
            return T.Scalar(rdtype), None
        if not isinstance(axis, int) or not -a.ndim <= axis < a.ndim:
            raise site.error(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
        return T.Array(rdtype, a.ndim - 1, "C"), axis % a.ndim

    def lower(ls):
        info = ls.site_info
        if isinstance(info, tuple) and info[0] == "keep":
            nd = ls.arg_types[0].ndim
            if info[1] is None:
                return CExpr(f"tr::np::keep_all<{nd}>({lower_base(ls, None).code})")
            return CExpr(f"tr::np::keep_axis({lower_base(ls, info[1]).code}, {info[1]})")
        return lower_base(ls, info)

    def lower_base(ls, info):
        lw = ls.lower
        x = ls.args[0]
        rt = lw.elem(ls.result.dtype)
        if info is None:
            if name in ("argmin", "argmax"):
                return CExpr(f"tr::np::{cxx}({x.code})")
            if with_ddof:
                ddof = _ddof_code(ls)
                return CExpr(f"tr::np::{cxx}<{rt}>({x.code}, int64_t({ddof}))")
            return CExpr(f"tr::np::{cxx}<{rt}>({x.code})")
        if name in ("argmin", "argmax"):
            return CExpr(f"tr::np::{cxx}_axis({lw.ev(x)}, {info})")
        if with_ddof:
            ddof = _ddof_code(ls)
            return CExpr(f"tr::np::{cxx}_axis<{rt}>({lw.ev(x)}, {info}, int64_t({ddof}))")
        return CExpr(f"tr::np::{cxx}_axis<{rt}>({lw.ev(x)}, {info})")

    return Entry(f"numpy.{name}", infer, lower, (H_REDUCE,))


for _name in REDUCTIONS:
    _entry = _reduction(_name)
    register(getattr(np, _name), _entry)
    if _name not in ("amin", "amax"):
        register_method(_name, _entry)


# ---- linear algebra ------------------------------------------------------------

def _product(kind):
    def infer(site):
        site.check_arity(2, 2)
        a, b = site.args
        if not (isinstance(a, T.Array) and isinstance(b, T.Array)) or not (1 <= a.ndim <= 2 and 1 <= b.ndim <= 2):
            raise site.error(f"np.{kind}() supports 1-d and 2-d arrays, not {a} and {b}")
        rdtype = np.result_type(np.dtype(a.dtype), np.dtype(b.dtype)).name
        ndim = a.ndim + b.ndim - 2
        return (T.Scalar(rdtype) if ndim == 0 else T.Array(rdtype, ndim, "C")), None

    def lower(ls):
        lw = ls.lower
        rt = lw.elem(ls.result.dtype)
        return CExpr(f"tr::np::{kind}<{rt}>({lw.ev(ls.args[0])}, {lw.ev(ls.args[1])})")

    return Entry(f"numpy.{kind}", infer, lower, (H_LINALG,))


register(np.dot, _product("dot"))
register_method("dot", _product("dot"))
register(np.matmul, _product("matmul"))


# ---- where / clip / copy -------------------------------------------------------

def _where_infer(site):
    site.check_arity(3, 3)
    c, x, y = site.args
    for t in site.args:
        if not isinstance(t, (T.Scalar, T.Array)):
            raise site.error(f"np.where() does not accept {t}")
    # Python scalars are weak (NEP 50): np.where(c, float32_array, 0) stays float32.
    weak = {"bool": False, "int64": 0, "float64": 0.0, "complex128": 0j}
    rdtype = np.result_type(*(weak[t.dtype] if isinstance(t, T.Scalar) and t.weak else np.dtype(t.dtype)
                              for t in (x, y))).name
    ndim = max(t.ndim if isinstance(t, T.Array) else 0 for t in site.args)
    return T.Array(rdtype, ndim, "C"), None


def _where_lower(ls):
    lw = ls.lower
    ct = lw.elem(ls.result.dtype)
    c, x, y = (a.code for a in ls.args)
    return lw.lazy(f"tr::select<{ct}>({c}, {x}, {y})")


register(np.where, Entry("numpy.where", _where_infer, _where_lower, ()))


def _clip_infer(site):
    site.check_arity(1, 3, ("a_min", "a_max"))
    a, lo, hi = site.args[0], site.arg_type(1, "a_min"), site.arg_type(2, "a_max")
    if lo is None or hi is None:
        raise site.error("clip() needs a_min and a_max")
    try:
        # np.clip is a Python function; its dtype rules are those of the clip ufunc.
        ops = promote.ufunc_call(getattr(np._core.umath, "clip", np.clip), [a, lo, hi])
    except promote.PromotionError as exc:
        raise site.error(str(exc)) from None
    return ops.result, ops


def _clip_lower(ls):
    lw = ls.lower
    ct = lw.elem(ls.site_info.compute)
    a = ls.args[0].code
    lo = (ls.args[1] if len(ls.args) > 1 else ls.kwargs["a_min"]).code
    hi = (ls.args[2] if len(ls.args) > 2 else ls.kwargs["a_max"]).code
    if isinstance(ls.result, T.Scalar):
        return CExpr(f"{lw.ctype(ls.result)}(tr::op::minimum::apply(tr::op::maximum::apply(tr::cast<{ct}>({a}), "
                     f"tr::cast<{ct}>({lo})), tr::cast<{ct}>({hi})))")
    return lw.lazy(f"tr::binary<tr::op::minimum, {ct}>(tr::binary<tr::op::maximum, {ct}>({a}, {lo}), {hi})")


register(np.clip, Entry("numpy.clip", _clip_infer, _clip_lower, ()))
register_method("clip", Entry("clip", _clip_infer, _clip_lower, ()))


def _copy_infer(site):
    site.check_arity(1, 1)
    a = site.args[0]
    if not isinstance(a, T.Array):
        raise site.error(f"copy() needs an array, not {a}")
    return T.Array(a.dtype, a.ndim, "C"), None


def _copy_lower(ls):
    return CExpr(f"tr::copy_as<{ls.lower.elem(ls.result.dtype)}>({ls.args[0].code})")


register(np.copy, Entry("numpy.copy", _copy_infer, _copy_lower, ()))
register_method("copy", Entry("copy", _copy_infer, _copy_lower, ()))
register(np.array, Entry("numpy.array", _copy_infer, _copy_lower, ()))


def _astype_infer(site):
    site.check_arity(2, 3, ("dtype", "copy"))
    a = site.args[0]
    if not isinstance(a, T.Array):
        raise site.error(f"astype() needs an array, not {a}")
    dtype = dtype_arg(site, 1)
    copy = site.const_arg(2, "copy", True)
    if copy is NOT_CONST:
        raise site.error("astype(copy=...) must be known while compiling")
    if not copy and dtype == a.dtype:  # the array itself, as NumPy returns it
        return a, "same"
    return T.Array(dtype, a.ndim, "C"), None


def _astype_lower(ls):
    if ls.site_info == "same":
        return CExpr(ls.lower.ev(ls.args[0]))
    return _copy_lower(ls)


def _np_astype_infer(site):
    if site.args and isinstance(site.args[0], T.Scalar):
        raise site.error("np.astype() needs an array")
    return _astype_infer(site)


register_method("astype", Entry("astype", _astype_infer, _astype_lower, ()))
if hasattr(np, "astype"):  # NumPy >= 2.1
    register(np.astype, Entry("numpy.astype", _np_astype_infer, _astype_lower, ()))


# ---- shape functions ---------------------------------------------------------------

def _reshape_infer(site):
    a = site.args[0]
    if not isinstance(a, T.Array):
        raise site.error(f"reshape() needs an array, not {a}")
    rest = site.args[1:] or [site.kwargs.get("shape") or site.kwargs.get("newshape")]
    if len(rest) == 1 and rest[0] is not None:
        t = rest[0]
        if isinstance(t, T.Scalar) and t.kind in "iu":
            return T.Array(a.dtype, 1, "C", a.readonly), ("int", 1)
        if isinstance(t, T.Tuple) and all(isinstance(i, T.Scalar) and i.kind in "iu" for i in t.items):
            return T.Array(a.dtype, len(t.items), "C", a.readonly), ("tuple", len(t.items))
    if len(rest) > 1 and all(isinstance(t, T.Scalar) and t.kind in "iu" for t in rest):
        return T.Array(a.dtype, len(rest), "C", a.readonly), ("ints", len(rest))
    raise site.error("reshape() needs a shape: ints or a tuple of ints")


def _reshape_lower(ls):
    lw = ls.lower
    kind, n = ls.site_info
    rest = ls.args[1:] or [ls.kwargs.get("shape") or ls.kwargs.get("newshape")]
    if kind == "tuple":
        tmp = lw.hoist(rest[0].code, ls.arg_types[1] if len(ls.arg_types) > 1 else list(ls.kw_types.values())[0])
        dims = ", ".join(f"int64_t(std::get<{i}>({tmp}))" for i in range(n))
    else:
        dims = ", ".join(f"int64_t({r.code})" for r in rest)
    return CExpr(f"tr::np::reshape<{n}>({lw.ev(ls.args[0])}, {{{dims}}})")


register(np.reshape, Entry("numpy.reshape", _reshape_infer, _reshape_lower, (H_SHAPE,)))
register_method("reshape", Entry("reshape", _reshape_infer, _reshape_lower, (H_SHAPE,)))


def _transpose_infer(site):
    site.check_arity(1, 1)
    a = site.args[0]
    if not isinstance(a, T.Array):
        raise site.error(f"transpose() needs an array, not {a}")
    return T.Array(a.dtype, a.ndim, a.layout if a.ndim <= 1 else "A", a.readonly), None


def _transpose_lower(ls):
    if ls.arg_types[0].ndim <= 1:
        return CExpr(ls.lower.ev(ls.args[0]))
    return CExpr(f"tr::np::transpose({ls.lower.ev(ls.args[0])})")


register(np.transpose, Entry("numpy.transpose", _transpose_infer, _transpose_lower, (H_SHAPE,)))
register_method("transpose", Entry("transpose", _transpose_infer, _transpose_lower, (H_SHAPE,)))


def _flat(kind):
    def infer(site):
        site.check_arity(1, 1)
        a = site.args[0]
        if not isinstance(a, T.Array):
            raise site.error(f"{kind}() needs an array, not {a}")
        return T.Array(a.dtype, 1, "C", a.readonly and kind == "ravel"), None

    def lower(ls):
        return CExpr(f"tr::np::{kind}({ls.lower.ev(ls.args[0])})")

    return Entry(kind, infer, lower, (H_SHAPE,))


register(np.ravel, _flat("ravel"))
register_method("ravel", _flat("ravel"))
register_method("flatten", _flat("flatten"))


# ---- scalar constructors: np.float32(x), np.int64(x), ... ------------------------

def _scalar_ctor(dtype):
    def infer(site):
        site.check_arity(0, 1)
        if site.args and not isinstance(site.args[0], T.Scalar):
            raise site.error(f"np.{dtype}() of {site.args[0]} is not supported", "use a.astype(...) for arrays")
        return T.Scalar(dtype), None

    def lower(ls):
        elem = ls.lower.elem(dtype)
        if not ls.args:
            return CExpr(f"{elem}()")
        src = ls.arg_types[0]
        if np.dtype(dtype).kind in "iu" and src.weak and src.kind in "iuf":
            # a Python int or float converts as int() would, and must fit (NumPy's OverflowError/ValueError);
            # NumPy scalars are cast
            value = f"{'double' if src.kind == 'f' else 'int64_t'}({ls.args[0].code})"  # a literal is a C++ int
            return CExpr(f"tr::py_store<{elem}>({value}, \"{dtype}\")")
        return CExpr(f"tr::cast<{elem}>({ls.args[0].code})")

    return Entry(f"numpy.{dtype}", infer, lower, ("transpile_rt/numpy/setitem.hpp",))


for _d in T.DTYPES:
    register(np.dtype(_d).type, _scalar_ctor(_d))


def _item_infer(site):
    site.check_arity(1, 1)
    a = site.args[0]
    if isinstance(a, T.Scalar):
        return T.Scalar({"b": "bool", "i": "int64", "u": "int64", "f": "float64", "c": "complex128"}[a.kind],
                        weak=True), "scalar"
    if isinstance(a, T.Array):
        return T.Scalar({"b": "bool", "i": "int64", "u": "int64", "f": "float64", "c": "complex128"}[a.scalar.kind],
                        weak=True), "array"
    raise site.error(f"item() of {a}")


def _item_lower(ls):
    ct = ls.lower.ctype(ls.result)
    if ls.site_info == "scalar":
        return CExpr(f"tr::cast<{ct}>({ls.args[0].code})")
    return CExpr(f"tr::cast<{ct}>(tr::np::item({ls.lower.ev(ls.args[0])}))")


register_method("item", Entry("item", _item_infer, _item_lower, ("transpile_rt/numpy/item.hpp",)))


def _fill_infer(site):
    site.check_arity(2, 2)
    a = site.args[0]
    if not isinstance(a, T.Array) or not isinstance(site.args[1], T.Scalar):
        raise site.error("fill() needs an array and a scalar")
    if a.readonly:
        raise site.error("assignment destination is read-only")
    return T.NONE, None


def _fill_lower(ls):
    return CExpr(f"(tr::assign({ls.lower.ev(ls.args[0])}, {ls.args[1].code}), tr::none_t{{}})")


register_method("fill", Entry("fill", _fill_infer, _fill_lower, ()))
