"""Types from the text users write: `signatures=["float64[:], int64"]`,
`transpile build --signature`, and the spelling types print (Type.spell)."""
from __future__ import annotations

import numpy as np

from .lattice import ANY, BOOL, COMPLEX, DTYPES, FLOAT, INT, NONE, STR, Array, DeviceArray, List, Scalar, Tuple, Type


def parse_signature(text: str) -> list[Type]:
    """Types from text like "float64[:, :], int64, float" (signatures=, --signature)."""
    out = []
    for part in _split_top(text):
        out.append(parse_type(part))
    return out


def _split_top(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


_ALIASES = {"int": INT, "float": FLOAT, "bool": BOOL, "complex": COMPLEX, "None": NONE, "object": ANY, "str": STR}


def parse_type(text: str) -> Type:
    text = text.strip()
    if text in _ALIASES:
        return _ALIASES[text]
    for suffix, readonly in ((" (cuda device)", False), (" (cuda device, readonly)", True)):
        if text.endswith(suffix):  # as DeviceArray.spell() writes it
            base = parse_type(text[:-len(suffix)])
            return DeviceArray(base.dtype, base.ndim, "A", readonly)
    if text.startswith("list[") and text.endswith("]"):
        return List(parse_type(text[5:-1]))
    if text.startswith("tuple[") and text.endswith(", ...]"):
        return List(parse_type(text[6:-6]), True)
    if text.startswith("tuple[") and text.endswith("]"):
        return Tuple(tuple(parse_type(p) for p in _split_top(text[6:-1])))
    if "[" in text and text.endswith("]"):
        dtype, dims = text[:-1].split("[", 1)
        dims = [d.strip() for d in dims.split(",")]
        layout = "C" if dims[-1] == "::1" else ("F" if dims[0] == "::1" and len(dims) > 1 else "A")
        if len(dims) == 1 and dims[0] == ":":
            layout = "A"
        return Array(_dtype_name(dtype.strip()), len(dims), layout)
    return Scalar(_dtype_name(text))


def _dtype_name(text: str) -> str:
    try:
        name = np.dtype(text).name
    except (TypeError, ValueError, SyntaxError):  # NumPy parses "(int" and "2i" as dtype expressions
        raise ValueError(f"unknown type {text!r}: write types like \"float64[:], int64\" "
                         "(no parentheses)") from None
    if name not in DTYPES:
        raise ValueError(f"dtype {name} is not supported; supported: {', '.join(DTYPES)}")
    return name
