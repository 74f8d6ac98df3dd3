"""NumPy array creation (zeros/ones/empty/full and their _like forms,
arange, linspace, eye, identity), np.result_type and the scalar
constructors np.float32(x), np.int64(x), ...; C++ in numpy/creation.hpp."""
from __future__ import annotations

import numpy as np

from .base import CExpr
from ..hir import types as T
from .registry import register
from .base import Entry
from .numpy_common import H_CREATE, WEAK_VALUE, dtype_arg, shape_arg, shape_code, weak_fill_dtype


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
            operands.append(WEAK_VALUE[t.dtype] if t.weak
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
