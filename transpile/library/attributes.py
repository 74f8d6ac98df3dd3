"""Attributes of compiled values: a.shape, a.ndim, a.size, a.dtype, a.T,
a.real, a.imag, a.itemsize, a.nbytes, a.flat, z.real/z.imag of scalars."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .base import CExpr
from ..hir import types as T
from .records_lib import lookup as record_attribute
from .numpy_iter import flat_code, flat_type


@dataclass(frozen=True)
class AttrRule:
    infer: Callable  # base type -> type
    lower: Callable  # (lowerer, CExpr, base type, result type) -> CExpr


def _real_dtype(dtype: str) -> str:
    return {"complex64": "float32", "complex128": "float64"}.get(dtype, dtype)


def _shape_lower(lw, x, base, result):
    arr = lw.hoist(lw.ev(x), base)
    return CExpr(f"{lw.ctype(result)}({', '.join(f'{arr}.shape[{k}]' for k in range(base.ndim))})")


def _part(part):
    def infer(base):
        if isinstance(base, T.Array):
            return T.Array(_real_dtype(base.dtype), base.ndim, "A" if base.dtype.startswith("complex") else base.layout,
                           base.readonly)
        if base.weak:  # (3).imag is the Python int 0, True.real the int 1, (1j).real a float
            return T.FLOAT if base.dtype in ("float64", "complex128") else T.INT
        return T.Scalar(_real_dtype(base.dtype))

    def lower(lw, x, base, result):
        if isinstance(base, T.Array):
            if not base.dtype.startswith("complex"):
                return x if part == "real" else lw.lazy(f"tr::np::zeros<{lw.elem(base.dtype)}, {base.ndim}>"
                                                        f"({lw.hoist(lw.ev(x), base)}.shape)", "transpile_rt/numpy/creation.hpp")
            return lw.with_header(CExpr(f"tr::np::{part}_view({lw.ev(x)})"), "transpile_rt/numpy/item.hpp")
        if base.dtype.startswith("complex"):
            return CExpr(f"({x.code}).{'re' if part == 'real' else 'im'}")
        return CExpr(f"{lw.ctype(result)}({x.code})") if part == "real" else CExpr(f"{lw.ctype(result)}(0)")

    return AttrRule(infer, lower)


ARRAY_ATTRS = {
    "shape": AttrRule(lambda a: T.Tuple((T.INT,) * a.ndim), _shape_lower),
    "ndim": AttrRule(lambda a: T.INT, lambda lw, x, a, r: CExpr(str(a.ndim))),
    "size": AttrRule(lambda a: T.INT, lambda lw, x, a, r: CExpr(f"{lw.ev(x)}.size()")),
    "itemsize": AttrRule(lambda a: T.INT, lambda lw, x, a, r: CExpr(str(np.dtype(a.dtype).itemsize))),
    "nbytes": AttrRule(lambda a: T.INT,
                       lambda lw, x, a, r: CExpr(f"({lw.ev(x)}.size() * {np.dtype(a.dtype).itemsize})")),
    "dtype": AttrRule(lambda a: T.DType(a.dtype), lambda lw, x, a, r: CExpr("tr::none_t{}")),
    "T": AttrRule(lambda a: T.Array(a.dtype, a.ndim, a.layout if a.ndim <= 1 else "A", a.readonly),
                  lambda lw, x, a, r: CExpr(lw.ev(x)) if a.ndim <= 1
                  else lw.with_header(CExpr(f"tr::np::transpose({lw.ev(x)})"), "transpile_rt/numpy/shape.hpp")),
    "real": _part("real"),
    "imag": _part("imag"),
    "flat": AttrRule(flat_type, lambda lw, x, a, r: flat_code(lw, x, a)),
}
SCALAR_ATTRS = {"real": _part("real"), "imag": _part("imag")}


def lookup(base: T.Type, attr: str) -> AttrRule | None:
    if isinstance(base, T.Array):
        return ARRAY_ATTRS.get(attr)
    if isinstance(base, T.Scalar):
        return SCALAR_ATTRS.get(attr)
    if isinstance(base, (T.RecordArray, T.Record)):
        rule = record_attribute(base, attr, ARRAY_ATTRS)
        return AttrRule(*rule) if rule else None
    return None
