"""Value kinds of the fuzzer: what a generated expression evaluates to.

A kind is a short string ('int', 'f32', 'u8', 'A:int64', ...). The generator
never re-implements Python's or NumPy's promotion rules: the kind of `a op b`
is the kind of the value CPython gives for sample operands (`result_kind`),
so the generator's idea of a program's types follows whatever NumPy does.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

# NumPy scalar kinds -> (type, the feature that draws them as parameters and literals).
NP_SCALARS = {"f64": np.float64, "f32": np.float32, "i64": np.int64, "i32": np.int32,
              "i16": np.int16, "i8": np.int8, "u64": np.uint64, "u32": np.uint32, "u16": np.uint16,
              "u8": np.uint8, "nb": np.bool_, "c128": np.complex128}
SCALAR_FEATURE = {"f64": "numpy_scalars", "f32": "numpy_scalars", "i64": "numpy_scalars", "i32": "numpy_scalars",
                  "i16": "small_ints", "i8": "small_ints", "u64": "unsigned", "u32": "unsigned",
                  "u16": "unsigned", "u8": "unsigned", "nb": "bool_arrays", "c128": "complex"}
# 1-D array dtypes -> the feature that draws them besides `arrays` (None: `arrays` alone).
ARRAY_FEATURE = {"float64": None, "float32": None, "int64": None, "int32": None, "int16": "small_ints",
                 "int8": "small_ints", "uint64": "unsigned", "uint8": "unsigned", "bool": "bool_arrays"}
ARRAY_DTYPES = tuple(ARRAY_FEATURE)
ARRAYS = tuple(f"A:{d}" for d in ARRAY_DTYPES)
# Kinds that index an array (np.bool_ would be a mask).
INDEX_KINDS = ("int",) + tuple(k for k, t in NP_SCALARS.items() if np.dtype(t).kind in "iu")
CONDITION_KINDS = ("bool", "nb")
# The dtypes the first version of the fuzzer drew; their values keep its pools (old seeds stay valid).
_FIRST_DTYPES = ("int64", "int32")

_TYPE_KIND = {int: "int", float: "float", bool: "bool", **{t: k for k, t in NP_SCALARS.items()}}


def is_array(kind: str | None) -> bool:
    return kind is not None and kind.startswith("A:")


def scalar_kinds(features) -> list:
    """The NumPy scalar kinds drawn under these features."""
    return [k for k, f in SCALAR_FEATURE.items() if f in features]


def array_kinds(features) -> list:
    if "arrays" not in features:
        return []
    return [f"A:{d}" for d, f in ARRAY_FEATURE.items() if f is None or f in features]


def dtype_of(kind: str) -> np.dtype:
    return np.dtype(kind[2:] if is_array(kind) else NP_SCALARS[kind])


def kind_of(value) -> str | None:
    """The kind of a value, or None for anything the generator does not use
    (Python complex numbers, 0-d or 2-d arrays, float16...)."""
    if isinstance(value, np.ndarray):
        name = value.dtype.name
        return f"A:{name}" if value.ndim == 1 and name in ARRAY_DTYPES else None
    return _TYPE_KIND.get(type(value))


def sample(kind: str):
    """A harmless value of the kind: positive, so samples never raise."""
    if kind == "int":
        return 3
    if kind == "float":
        return 1.5
    if kind == "bool":
        return True
    if kind == "nb":
        return np.True_
    if kind == "c128":
        return np.complex128(1.5 + 0.5j)
    if kind in NP_SCALARS:
        return NP_SCALARS[kind](3 if dtype_of(kind).kind in "iu" else 1.5)
    return np.array([1, 2, 3], dtype=kind[2:])


_CACHE: dict = {}
_EVAL_GLOBALS = {"math": math, "np": np}


def result_kind(template: str, kinds: tuple) -> str | None:
    """Kind of `template.format(*operands)` evaluated on samples of `kinds`
    (None when CPython rejects it: the generator then picks something else)."""
    key = (template, kinds)
    if key not in _CACHE:
        names = [f"_s{i}" for i in range(len(kinds))]
        scope = dict(_EVAL_GLOBALS, **{n: sample(k) for n, k in zip(names, kinds)})
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _CACHE[key] = kind_of(eval(template.format(*names), scope))  # noqa: S307 - our own text
        except Exception:  # noqa: BLE001 - any rejection means "not this combination"
            _CACHE[key] = None
    return _CACHE[key]


BIG_INTS = (2**31, -2**31 - 1, 3_000_000_000, 2**40, 2**62, -2**63)


def int_edges(dtype: np.dtype) -> list:
    """The values where an integer dtype wraps or converts badly: 0, ±1, its ends, and for
    uint64 the values around 2**63 (beyond int64) and 2**64."""
    info = np.iinfo(dtype)
    edges = [0, 1, int(info.max), int(info.max) - 1]
    if info.min < 0:
        edges += [-1, int(info.min), int(info.min) + 1]
    if dtype == np.uint64:
        edges += [2**63 - 1, 2**63, 2**63 + 1]
    return edges


def _dtype_int(rng, dtype: np.dtype) -> int:
    """An int of the dtype's range: one of its edges a third of the time, else a small one."""
    if rng.random() < 0.35:
        return rng.choice(int_edges(dtype))
    pool = [0, 1, 2, 3, 5, 7, 12, 100, rng.randint(0, 20)]
    if np.iinfo(dtype).min < 0:
        pool += [-1, -3, -8, -37, rng.randint(-20, 0)]
    return rng.choice(pool)


def literal(rng, kind: str, big: bool = False) -> str:
    """Source text of a constant of the kind (with `big`, sometimes an int beyond int32)."""
    if kind == "int":
        return str(rng.choice([0, 1, 2, 3, 5, 7, -1, -2, 10] + (list(BIG_INTS) if big else [])))
    if kind == "float":
        return rng.choice(["0.0", "0.5", "1.0", "2.0", "-1.5", "3.25", "1e-3", "-0.0"])
    if kind == "bool":
        return rng.choice(["True", "False"])
    if kind == "nb":
        return rng.choice(["np.True_", "np.False_"])
    if kind == "c128":
        return f"np.complex128({rng.choice(['0.5', '-1.5', '0.0', '2.0'])}{rng.choice(['+', '-'])}" \
               f"{rng.choice(['0.0', '1.0', '2.5'])}j)"
    if kind in ("i64", "i32", "f64", "f32"):
        return f"np.{dtype_of(kind).name}({literal(rng, 'int' if kind[0] == 'i' else 'float', big)})"
    if kind in NP_SCALARS:
        return f"np.{dtype_of(kind).name}({_dtype_int(rng, dtype_of(kind))})"
    return f"np.ones(3, dtype=np.{kind[2:]})"


# ---- argument values ---------------------------------------------------------------

def _int_value(rng, big: bool = False) -> int:
    pool = [0, 0, 1, -1, 2, 3, -3, 5, 7, -8, 12, 100, -37, rng.randint(-20, 20), rng.randint(-20, 20)]
    return rng.choice(pool + (list(BIG_INTS) if big else []))


def _float_value(rng, special: bool) -> float:
    pool = [0.0, -0.0, 0.5, -2.5, 1.0, 3.75, 1e-3, 100.25, rng.uniform(-10, 10), rng.uniform(-10, 10)]
    if special:
        pool += [math.nan, math.inf, -math.inf, 1e300, 5e-324]
    return rng.choice(pool)


def _element(rng, dtype: np.dtype, special: bool):
    """One value of a NumPy dtype, as a Python value the dtype holds exactly."""
    if dtype.kind == "b":
        return rng.random() < 0.5
    if dtype.kind == "c":
        return complex(_float_value(rng, special), _float_value(rng, special))
    if dtype.kind in "iu":
        return _int_value(rng) if dtype.name in _FIRST_DTYPES else _dtype_int(rng, dtype)
    return _float_value(rng, special)


def value(rng, kind: str, length: int, special: bool, big: bool = False):
    """A random argument of the kind; arrays have the given length; `special`: NaN, inf and
    friends among the floats; `big`: ints beyond int32 among Python ints."""
    if kind == "int":
        return _int_value(rng, big)
    if kind == "float":
        return _float_value(rng, special)
    if kind == "bool":
        return rng.random() < 0.5
    dtype = dtype_of(kind)
    with warnings.catch_warnings():  # np.float32(1e300) is inf, as intended
        warnings.simplefilter("ignore")
        if kind in NP_SCALARS:
            return NP_SCALARS[kind](_element(rng, dtype, special))
        return np.array([_element(rng, dtype, special) for _ in range(length)], dtype=dtype)
