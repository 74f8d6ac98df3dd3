"""NumPy 2 (NEP 50) and CPython promotion rules, decided with NumPy itself.

For an operation we need two dtypes: the computation type (what operands are
converted to before the C++ operation runs) and the result type.  NumPy's
`ufunc.resolve_dtypes` answers both for NumPy operands, with Python scalars
passed as "weak" (int/float/complex); CPython's own rules apply when both
operands are Python scalars.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .lattice import BOOL, COMPLEX, DTYPES, FLOAT, INT, Array, Scalar, Type

BINARY_UFUNCS = {
    "+": np.add, "-": np.subtract, "*": np.multiply, "/": np.true_divide, "//": np.floor_divide,
    "%": np.remainder, "**": np.power, "<<": np.left_shift, ">>": np.right_shift, "&": np.bitwise_and,
    "|": np.bitwise_or, "^": np.bitwise_xor, "<": np.less, "<=": np.less_equal, ">": np.greater,
    ">=": np.greater_equal, "==": np.equal, "!=": np.not_equal,
}
UNARY_UFUNCS = {"-": np.negative, "+": np.positive, "~": np.invert}
COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")
COMPARISON_UFUNCS = tuple(BINARY_UFUNCS[op] for op in COMPARISONS)

_WEAK_PY = {"int64": int, "float64": float, "complex128": complex}
_PY_RANK = {"bool": 0, "int64": 1, "float64": 2, "complex128": 3}
_WEAK_VALUE = {"int64": 0, "float64": 0.0, "complex128": 0j}


@dataclass(frozen=True)
class OpTypes:
    """Computation dtype(s) and result type of one operation."""

    compute: str  # dtype the operands are converted to
    result: Type
    python_semantics: bool = False  # both operands Python scalars: CPython's errors apply


class PromotionError(Exception):
    pass


def ufunc_operand(t: Type):
    """What resolve_dtypes takes for an operand of type t."""
    dtype = t.dtype if isinstance(t, (Scalar, Array)) else None
    if isinstance(t, Scalar) and t.weak and dtype in _WEAK_PY:
        return _WEAK_PY[dtype]
    return np.dtype(dtype)


def resolve_ufunc(ufunc, operands: list[Type]) -> tuple[list[str], list[str]]:
    """(input loop dtypes, output dtypes) NumPy picks for these operands."""
    try:
        dts = ufunc.resolve_dtypes(tuple(ufunc_operand(t) for t in operands) + (None,) * ufunc.nout)
    except Exception as exc:  # numpy raises several kinds (UFuncNoLoopError, TypeError)
        spelled = ", ".join(str(t) for t in operands)
        raise PromotionError(f"numpy.{ufunc.__name__} does not support ({spelled}): {exc}") from None
    unsupported = sorted({d.name for d in dts} - set(DTYPES))
    if unsupported:  # np.sqrt of bool or int8 computes in float16
        spelled = ", ".join(str(t) for t in operands)
        raise PromotionError(f"numpy.{ufunc.__name__} of ({spelled}) computes in {', '.join(unsupported)}, "
                             "which compiled code does not support")
    return [d.name for d in dts[:ufunc.nin]], [d.name for d in dts[ufunc.nin:]]


def _result_shape(operands: list[Type], dtype: str) -> Type:
    arrays = [t for t in operands if isinstance(t, Array)]
    if arrays and max(a.ndim for a in arrays) > 0:
        return Array(dtype, max(a.ndim for a in arrays), "C")
    return Scalar(dtype)  # NumPy gives a scalar when every array operand is 0-d


def python_binary(op: str, a: Scalar, b: Scalar, exponent_value=None) -> OpTypes:
    """CPython's rules for two Python scalars (bool arithmetic gives int)."""
    rank = max(_PY_RANK[a.dtype], _PY_RANK[b.dtype])
    if op in COMPARISONS:
        compute = "float64" if rank == 2 else ("complex128" if rank == 3 else "int64")
        if rank == 0:
            compute = "int64"
        if rank == 3 and op not in ("==", "!="):
            raise PromotionError(f"'{op}' not supported between instances of 'complex' and 'complex'")
        return OpTypes(compute, BOOL, True)
    if op in ("&", "|", "^") and rank == 0:
        return OpTypes("bool", BOOL, True)
    if op in ("&", "|", "^", "<<", ">>"):
        if rank > 1:
            raise PromotionError(f"unsupported operand type(s) for {op}: '{a}' and '{b}'")
        return OpTypes("int64", INT, True)
    if op == "@":
        raise PromotionError("unsupported operand type(s) for @: Python scalars")
    if rank == 3:
        if op in ("//", "%"):
            raise PromotionError(f"unsupported operand type(s) for {op}: 'complex'")
        return OpTypes("complex128", COMPLEX, True)
    if op == "/" or rank == 2:
        return OpTypes("float64", FLOAT, True)
    if op == "**" and exponent_value is not None and exponent_value < 0:
        return OpTypes("float64", FLOAT, True)
    return OpTypes("int64", INT, True)


def binary(op: str, a: Type, b: Type, exponent_value=None) -> OpTypes:
    if not isinstance(a, (Scalar, Array)) or not isinstance(b, (Scalar, Array)):
        raise PromotionError(f"unsupported operand type(s) for {op}: '{a}' and '{b}'")
    if isinstance(a, Scalar) and isinstance(b, Scalar) and a.weak and b.weak:
        return python_binary(op, a, b, exponent_value)
    if op == "@":
        raise PromotionError("use np.dot/np.matmul rules for @")  # handled by the numpy library table
    if op == "**" and isinstance(a, Array) and a.dtype == "bool" and isinstance(b, Scalar) and b.weak \
            and b.dtype == "int64":
        # ndarray.__pow__ computes `a ** 2` (a Python int 2) as np.square, which keeps bool in int8;
        # np.power gives int64.  Values agree (0 or 1): only the dtype is NumPy's choice.
        if exponent_value is None:
            raise PromotionError("the dtype of a bool array ** a Python int depends on the exponent's value "
                                 "(int8 for 2, int64 otherwise), known only at run time")
        if exponent_value == 2:
            return OpTypes("int8", _result_shape([a], "int8"))
    ufunc = BINARY_UFUNCS[op]
    # A Python bool next to NumPy values behaves like np.bool_.
    ops = [Scalar("bool") if isinstance(t, Scalar) and t.weak and t.dtype == "bool" else t for t in (a, b)]
    ins, outs = resolve_ufunc(ufunc, ops)
    return OpTypes(_comparison_compute(ufunc, ins[0], (a, b)), _result_shape([a, b], outs[0]))


def _comparison_compute(ufunc, compute: str, operands) -> str:
    """NumPy compares a Python int with a narrower integer by value
    (np.int8(50) < 300 is True); converting 300 to int8 would not: such
    comparisons are computed in int64, which holds both."""
    if ufunc in COMPARISON_UFUNCS and compute in _NARROW_INTS and any(
            isinstance(t, Scalar) and t.weak and t.dtype == "int64" for t in operands):
        return "int64"
    return compute


_NARROW_INTS = ("int8", "int16", "int32", "uint8", "uint16", "uint32")


def mixed_sign_comparison(compute: str, operands) -> bool:
    """A comparison of a signed with an unsigned integer computed in 64 bits.
    NumPy compares these by value (np.uint64(5) < -1 is False: its loops
    qQ->? and Qq->?, and NEP 50 for Python ints); converted to one 64-bit
    C++ type, one operand would wrap.  The lowering compares them in 128 bits."""
    kinds = {np.dtype(t.dtype).kind if isinstance(t, (Scalar, Array)) else None for t in operands}
    return compute in ("int64", "uint64") and kinds == {"i", "u"}


def unary(op: str, a: Type) -> OpTypes:
    if op == "not":
        return OpTypes("bool", BOOL)
    if not isinstance(a, (Scalar, Array)):
        raise PromotionError(f"bad operand type for unary {op}: '{a}'")
    if isinstance(a, Scalar) and a.weak:
        if a.dtype == "bool":
            return OpTypes("int64", INT, True)
        if op == "~" and a.dtype != "int64":
            raise PromotionError(f"bad operand type for unary ~: '{a}'")
        return OpTypes(a.dtype, a, True)
    ins, outs = resolve_ufunc(UNARY_UFUNCS[op], [a])
    return OpTypes(ins[0], _result_shape([a], outs[0]))


def ufunc_call(ufunc, operands: list[Type]) -> OpTypes:
    """A NumPy ufunc called as a function: np.sqrt(x), np.maximum(a, b)."""
    ops = [Scalar("bool") if isinstance(t, Scalar) and t.weak and t.dtype == "bool" else t for t in operands]
    ins, outs = resolve_ufunc(ufunc, ops)
    return OpTypes(_comparison_compute(ufunc, ins[0], operands), _result_shape(operands, outs[0]))


def scalar_join(a: Scalar, b: Scalar) -> Scalar:
    """The type a variable gets when it holds values of both types."""
    if a == b:
        return a
    if a.weak and b.weak:
        rank = max(_PY_RANK[a.dtype], _PY_RANK[b.dtype])
        return [BOOL, INT, FLOAT, COMPLEX][rank] if rank else BOOL
    # A Python scalar joins as a weak *value* (NEP 50): `s = 0; s += np.int32(x)`
    # leaves s an int32, as in Python.  (np.result_type(int, ...) would say int64.)
    ops = [_WEAK_VALUE[t.dtype] if t.weak and t.dtype in _WEAK_VALUE else
           (np.dtype(bool) if t.weak and t.dtype == "bool" else np.dtype(t.dtype)) for t in (a, b)]
    return Scalar(np.result_type(*ops).name)


def can_cast_safe(src: str, dst: str) -> bool:
    """Every value of dtype src is exactly a value of dtype dst."""
    return bool(np.can_cast(np.dtype(src), np.dtype(dst), casting="safe"))


def int_fits_mantissa(src: str, dst: str) -> bool:
    """Every value of integer dtype src is exact in floating dtype dst
    (NumPy's "safe" int64 -> float64 cast rounds above 2**53)."""
    bits = np.iinfo(np.dtype(src)).bits - (np.dtype(src).kind == "i")
    return bits <= np.finfo(np.dtype(dst)).nmant + 1


def can_cast_same_kind(src: str, dst: str) -> bool:
    return bool(np.can_cast(np.dtype(src), np.dtype(dst), casting="same_kind"))
