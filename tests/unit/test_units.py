"""Unit checks of the pieces: the type lattice, the support tables, the
frontend's corner cases."""
from __future__ import annotations

import os

import numpy as np
import pytest

from transpile import jit
from transpile.hir import types as T
from transpile.library import all_entries
from transpile.resources import runtime_dir


@pytest.mark.parametrize("text", ["int", "float", "bool", "complex", "float32", "uint8", "float64[::1]",
                                  "int32[:, ::1]", "complex128[:]", "tuple[int, float64[:]]", "object", "None"])
def test_type_spelling_round_trips(text):
    t = T.parse_type(text)
    assert T.parse_type(str(t)) == t and repr(t) == str(t)


@pytest.mark.parametrize("t", [T.INT, T.FLOAT, T.Scalar("float32"), T.Array("int16", 3, "F", True),
                               T.Tuple((T.INT, T.Array("float64", 1, "A"))), T.NONE, T.ANY])
def test_descriptors_round_trip(t):
    assert T.from_descriptor(T.to_descriptor(t)) == [t]


def test_every_header_named_by_the_support_tables_exists():
    root = runtime_dir()
    headers = {h for entry in all_entries() for h in entry.headers}
    assert headers, "no entries registered"
    missing = [h for h in headers if not (root / h).is_file()]
    assert not missing


def test_runtime_headers_avoid_slow_standard_headers():
    slow = ("<cmath>", "<complex>", "<string>", "<stdexcept>", "<iostream>", "<vector>", "<algorithm>")
    offenders = []
    for dirpath, dirs, files in os.walk(runtime_dir() / "transpile_rt"):
        # standalone/ is pybind11 glue for `transpile build --standalone`, a build step
        # that pulls in pybind11 (and its <string>, <vector>) anyway; @jit never includes it
        dirs[:] = [d for d in dirs if d != "standalone"]
        for name in files:
            if name.endswith((".hpp", ".h")):
                text = open(os.path.join(dirpath, name)).read()
                offenders += [f"{name}: {h}" for h in slow if f"#include {h}" in text]
    assert not offenders


@jit
def one_line(a, b): return a * b + 1


def test_body_on_the_def_line_compiles():
    assert one_line(2, 3) == 7
    assert one_line.signatures == [(T.INT, T.INT)]
    assert one_line.fallbacks() == []


@pytest.mark.parametrize("text", ["(int, float64[:])", "int64)", "2i"])
def test_a_malformed_signature_is_a_clear_value_error(text):
    """Not a SyntaxError from NumPy's dtype parser (`transpile show --signature`)."""
    with pytest.raises(ValueError, match="unknown type|is not supported"):
        T.parse_signature(text)
