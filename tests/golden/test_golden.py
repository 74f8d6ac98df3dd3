"""Golden C++ for a few small functions (regenerate with
TRANSPILE_UPDATE_GOLDEN=1 and review the diff), and determinism: rendering
the same specialization twice gives identical text."""
from __future__ import annotations

from pathlib import Path

import pytest

from transpile.hir import types as T
from transpile.options import make_options
from transpile.pipeline import translate

from . import golden_funcs as g
from .golden_text import matches_golden

HERE = Path(__file__).parent
CASES = {
    "axpy_f32": (g.axpy, "float32, float32[::1], float32[::1]"),
    "jacobi_2d": (g.jacobi, "float64[:, ::1], int"),
    "prefix_sum": (g.prefix_sum, "float64[:]"),
    "collatz": (g.collatz, "int"),
}


def generate(name: str) -> str:
    fn, sig = CASES[name]
    options = make_options(jit_level=fn.options.jit_level)
    return translate(fn.py_func, tuple(T.parse_signature(sig)), options, f"tr_entry_{name}").cpp


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name):
    assert matches_golden(generate(name), HERE / f"{name}.cpp"), \
        f"generated C++ for {name} changed; review and regenerate"


@pytest.mark.parametrize("name", sorted(CASES))
def test_render_is_deterministic(name):
    assert generate(name) == generate(name)


def test_python_lines_annotate_cxx():
    text = generate("collatz")
    assert "// golden_funcs.py:33  while n != 1:" in text
    assert "// golden_funcs.py:35  n = n // 2" in text


def test_golden_functions_compile_and_agree_with_python(check):
    import numpy as np

    check(g.axpy, np.float32(2.0), np.arange(5, dtype=np.float32), np.ones(5, dtype=np.float32))
    u = np.zeros((6, 7))
    u[0] = 1.0
    check(g.jacobi, u, 4)
    check(g.prefix_sum, np.linspace(0.0, 1.0, 9)[::2])
    check(g.collatz, 27)
