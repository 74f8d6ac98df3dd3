"""Value kinds of the fuzzer: what a generated expression evaluates to.

A kind is a short string ('int', 'f32', 'A:int64', ...). The generator never
re-implements Python's or NumPy's promotion rules: the kind of `a op b` is
the kind of the value CPython gives for sample operands (`result_kind`), so
the generator's idea of a program's types follows whatever NumPy does.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

SCALARS = ("int", "float", "bool", "f64", "f32", "i64", "i32")
NP_SCALARS = {"f64": np.float64, "f32": np.float32, "i64": np.int64, "i32": np.int32}
ARRAY_DTYPES = ("float64", "float32", "int64", "int32")
ARRAYS = tuple(f"A:{d}" for d in ARRAY_DTYPES)
# np.bool_ comes out of comparisons of NumPy scalars; it is never a parameter.
CONDITION_KINDS = ("bool", "nb")

_TYPE_KIND = {int: "int", float: "float", bool: "bool", np.float64: "f64", np.float32: "f32",
              np.int64: "i64", np.int32: "i32", np.bool_: "nb"}


def is_array(kind: str | None) -> bool:
    return kind is not None and kind.startswith("A:")


def kind_of(value) -> str | None:
    """The kind of a value, or None for anything the generator does not use
    (complex numbers, 0-d or 2-d arrays, bool arrays...)."""
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
    if kind in NP_SCALARS:
        return NP_SCALARS[kind](3 if kind[0] == "i" else 1.5)
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


def literal(rng, kind: str, big: bool = False) -> str:
    """Source text of a constant of the kind (with `big`, sometimes an int beyond int32)."""
    if kind == "int":
        return str(rng.choice([0, 1, 2, 3, 5, 7, -1, -2, 10] + (list(BIG_INTS) if big else [])))
    if kind == "float":
        return rng.choice(["0.0", "0.5", "1.0", "2.0", "-1.5", "3.25", "1e-3", "-0.0"])
    if kind in ("bool", "nb"):
        return rng.choice(["True", "False"])
    if kind in NP_SCALARS:
        name = {"f64": "float64", "f32": "float32", "i64": "int64", "i32": "int32"}[kind]
        return f"np.{name}({literal(rng, 'int' if kind[0] == 'i' else 'float', big)})"
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


def value(rng, kind: str, length: int, special: bool, big: bool = False):
    """A random argument of the kind; arrays have the given length; `special`: NaN, inf and
    friends among the floats; `big`: ints beyond int32 among Python ints."""
    if kind == "int":
        return _int_value(rng, big)
    if kind == "float":
        return _float_value(rng, special)
    if kind == "bool":
        return rng.random() < 0.5
    if kind in NP_SCALARS:
        scalar = NP_SCALARS[kind]
        with warnings.catch_warnings():  # np.float32(1e300) is inf, as intended
            warnings.simplefilter("ignore")
            return scalar(_int_value(rng)) if kind[0] == "i" else scalar(_float_value(rng, special))
    dtype = np.dtype(kind[2:])
    if dtype.kind == "i":
        return np.array([_int_value(rng) for _ in range(length)], dtype=dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.array([_float_value(rng, special) for _ in range(length)], dtype=dtype)
