"""What the NumPy entries share: the runtime headers they include, reading
dtype=/shape=/axis= arguments while typing and spelling them while
lowering, and `Fail`, the typing info of a call NumPy rejects whatever the
values (lowered to code raising NumPy's exception when it runs, so compiled
code fails where Python fails)."""
from __future__ import annotations

import numpy as np

from .base import CExpr
from ..hir import types as T
from ..hir import promote
from .base import NOT_CONST

H_UFUNC = "transpile_rt/numpy/ufunc.hpp"
H_CREATE = "transpile_rt/numpy/creation.hpp"
H_REDUCE = "transpile_rt/numpy/reduce.hpp"
H_LINALG = "transpile_rt/numpy/linalg.hpp"
H_SHAPE = "transpile_rt/numpy/shape.hpp"
H_SORT = "transpile_rt/numpy/sorting.hpp"
H_HIST = "transpile_rt/numpy/histogram.hpp"
H_JOIN = "transpile_rt/numpy/join.hpp"
H_CUM = "transpile_rt/numpy/cumulative.hpp"
H_LA = "transpile_rt/numpy/linalg_more.hpp"
H_ITEM = "transpile_rt/numpy/item.hpp"

# The C++ type comparing a signed with an unsigned 64-bit integer exactly (promote.mixed_sign_comparison).
WIDE_INT = "__int128"
WEAK_VALUE = {"bool": False, "int64": 0, "float64": 0.0, "complex128": 0j}  # Python scalars, weak (NEP 50)
DEFAULT_DTYPE = {"bool": "bool", "int64": "int64", "float64": "float64", "complex128": "complex128"}
_ERR = {"value": "TR_ERR_VALUE", "type": "TR_ERR_TYPE", "index": "TR_ERR_INDEX", "axis": "TR_ERR_AXIS"}


class Fail:
    """Typing info of a call that NumPy would reject whatever the values:
    lowered to code that raises `kind` with `message` when it runs."""

    def __init__(self, kind: str, message: str):
        self.kind, self.message = kind, message


def fail_lower(ls) -> CExpr:
    info = ls.site_info
    text = info.message.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    ls.lower.module.include(H_JOIN)
    return CExpr(f'tr::np::fail<{ls.lower.ctype(ls.result)}>({_ERR[info.kind]}, "{text}")')


def lowering(fn):
    """Wraps an entry's lower: Fail infos raise at run time."""

    def lower(ls):
        if isinstance(ls.site_info, Fail):
            return fail_lower(ls)
        return fn(ls)

    return lower


def is_array(t) -> bool:
    return isinstance(t, T.Array)


def need_array(site, index, keyword, what, min_ndim=0) -> T.Array:
    t = site.arg_type(index, keyword)
    if not isinstance(t, T.Array):
        raise site.error(f"{what}() needs an array, not {t}")
    if t.ndim < min_ndim:
        raise site.error(f"{what}() needs an array of at least {min_ndim} dimension(s), not {t}")
    return t


def has_arg(site, index, keyword) -> bool:
    return site.arg_node(index, keyword) is not None


def const_value(site, index, keyword, default, what):
    """A compile-time constant argument (None, bool, int, str)."""
    node = site.arg_node(index, keyword)
    if node is None:
        return default
    v = site.const(node)
    if v is NOT_CONST:
        raise site.error(f"{what} must be known while compiling (a literal)")
    return v


def is_none_arg(site, index, keyword) -> bool:
    node = site.arg_node(index, keyword)
    return node is None or site.arg_type(index, keyword) == T.NONE


def int_arg(site, index, keyword, what):
    t = site.arg_type(index, keyword)
    if t is not None and not (isinstance(t, T.Scalar) and t.kind in "iub"):
        raise site.error(f"{what} must be an integer, not {t}")


def code_of(ls, index, keyword, default=None) -> str | None:
    if index is not None and index < len(ls.args):
        return ls.args[index].code
    if keyword in ls.kwargs:
        return ls.kwargs[keyword].code
    return default


def array_code(ls, index, keyword) -> str:
    if index is not None and index < len(ls.args):
        return ls.lower.ev(ls.args[index])
    return ls.lower.ev(ls.kwargs[keyword])


def type_at(ls, index, keyword):
    if index is not None and index < len(ls.arg_types):
        return ls.arg_types[index]
    return ls.kw_types.get(keyword)


def axis_code(ls, index, keyword, default) -> str:
    code = code_of(ls, index, keyword)
    return f"int64_t({code})" if code is not None else str(default)


def dtype_of_value(t: T.Scalar | T.Array) -> str:
    """The dtype np.asarray gives a value of type t (Python scalars: default dtypes)."""
    if isinstance(t, T.Scalar) and t.weak:
        return DEFAULT_DTYPE[t.dtype]
    return t.dtype


def real_float(dtype: str) -> str:
    """NumPy's float result dtype for norms: float32 stays, complex gives its real type."""
    return {"float32": "float32", "complex64": "float32"}.get(dtype, "float64")


def sequence_items(site, index, keyword, what) -> list[T.Array]:
    t = site.arg_type(index, keyword)
    if isinstance(t, T.Tuple) and t.items and all(isinstance(i, T.Array) for i in t.items):
        return list(t.items)
    raise site.error(f"{what}() needs a tuple of arrays in compiled code, not {t}")


def sequence_codes(ls, index, keyword, n) -> list[str]:
    t = type_at(ls, index, keyword)
    code = code_of(ls, index, keyword)
    tmp = ls.lower.hoist(code, t)
    return [f"std::get<{i}>({tmp})" for i in range(n)]


def cast_check(src: str, dst: str, casting: str) -> bool:
    return bool(np.can_cast(np.dtype(src), np.dtype(dst), casting=casting))


def keepdims_arg(site) -> bool:
    keep = const_value(site, None, "keepdims", False, "keepdims=")
    if keep not in (True, False, None):
        raise site.error("keepdims= must be True or False")
    return bool(keep)


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
        return np.result_type(WEAK_VALUE[t.dtype] if t.weak else promote.ufunc_operand(t)).name
    raise TypeError
