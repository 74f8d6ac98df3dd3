"""C++ spellings of types and literals."""
from __future__ import annotations

import hashlib
import math

from ..hir import types as T
from ..hir.jit_classes import layout_key
from .names import symbol

SCALAR_CTYPES = {
    "bool": "bool", "int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t",
    "uint8": "uint8_t", "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t",
    "float32": "float", "float64": "double", "complex64": "tr::complex64", "complex128": "tr::complex128",
}


def elem(dtype: str) -> str:
    return SCALAR_CTYPES[dtype]


def ctype(t: T.Type) -> str:
    if isinstance(t, T.Scalar):
        return SCALAR_CTYPES[t.dtype]
    if isinstance(t, T.DeviceArray):  # CUDA memory: data, shape and strides (backend/parallel.hpp)
        return f"tr::DeviceArray<{SCALAR_CTYPES[t.dtype]}, {t.ndim}, tr::A>"
    if isinstance(t, T.Array):
        layout = "tr::C" if t.layout == "C" else "tr::A"
        return f"tr::Array<{SCALAR_CTYPES[t.dtype]}, {t.ndim}, {layout}>"
    if isinstance(t, T.RecordArray):  # transpile_rt/records.hpp (cxx/lower_records.py)
        return f"tr::Array<tr::rec::Bytes<{t.rec.itemsize}>, {t.ndim}, {'tr::C' if t.layout == 'C' else 'tr::A'}>"
    if isinstance(t, T.Record):  # one record: a 0-d view of the array it lies in
        return f"tr::Array<tr::rec::Bytes<{t.rec.itemsize}>, 0, tr::A>"
    if isinstance(t, T.Tuple):
        return f"std::tuple<{', '.join(ctype(i) for i in t.items)}>"
    if isinstance(t, T.List):
        return f"tr::List<{ctype(T.INT if t.elem is None else t.elem)}>"
    if isinstance(t, T.Instance):
        return f"tr::Ref<{struct_name(t)}>"
    if t == T.STR:
        return "tr::Str"
    if isinstance(t, T.Dict):
        return f"tr::Dict<{ctype(t.key)}, {ctype(t.value)}>"
    if isinstance(t, T.Set):
        return f"tr::Set<{ctype(t.elt)}>"
    if isinstance(t, T.Optional):
        return f"tr::Optional<{ctype(t.inner)}>"
    if t == T.UNKNOWN:
        return "tr::none_t"
    if t == T.NONE:
        return "tr::none_t"
    if t == T.ANY:
        return "tr::Object"
    if isinstance(t, T.Function):  # transpile_rt/function.hpp (cxx/lower_functions.py)
        return "tr::Fn"
    raise TypeError(f"no C++ type for {t}")


def float_literal(v: float, dtype: str = "float64") -> str:
    if math.isnan(v):
        text = "__builtin_nan(\"\")"
    elif math.isinf(v):
        text = "__builtin_inf()" if v > 0 else "(-__builtin_inf())"
    else:
        text = repr(float(v))
        if "e" not in text and "." not in text:
            text += ".0"
    if dtype == "float32":
        return f"float({text})"
    return text


def literal(value, t: T.Type) -> str:
    """A C++ expression of C++ type ctype(t) holding `value`."""
    if isinstance(t, T.Scalar):
        d = t.dtype
        if d == "bool":
            return "true" if value else "false"
        if d.startswith("complex"):
            c = complex(value)
            return f"{ctype(t)}({float_literal(c.real)}, {float_literal(c.imag)})"
        if d.startswith("float"):
            return float_literal(float(value), d)
        v = int(value)
        if d == "int64":
            if v == -2**63:
                return "INT64_MIN"
            return f"int64_t({v})" if abs(v) >= 2**31 else str(v)
        return f"{ctype(t)}({v})"
    if isinstance(t, T.Tuple):
        inner = ", ".join(literal(v, it) for v, it in zip(value, t.items))
        return f"{ctype(t)}({inner})"
    if t == T.NONE:
        return "tr::none_t{}"
    raise TypeError(f"no literal for {t}")


def struct_name(t: T.Instance) -> str:
    """The C++ struct of one @jit_class field layout (cxx/lower_classes.py declares it)."""
    digest = hashlib.sha256(layout_key(t).encode()).hexdigest()[:10]
    return f"L_{symbol(t.cls.name)}_{digest}"
