"""print() compiled (library/print_lib.py, builtins/print.hpp): the text
CPython prints for every type of the subset, sep/end/file/flush, and output
interleaved in order with Python's own prints; against the undecorated
functions."""
from __future__ import annotations

import contextlib
import inspect
import io
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from ..conftest import assert_same
from . import print_kernels as pk


def outputs(fn, *args):
    """(result, stdout text, stderr text) of one call."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        result = fn(*args)
    return result, out.getvalue(), err.getvalue()


def same_output(jitted, *args):
    got = outputs(jitted, *args)
    expected = outputs(jitted.py_func, *args)
    assert got[1] == expected[1]
    assert got[2] == expected[2]
    assert_same(got[0], expected[0])
    return got


@pytest.mark.parametrize("x,n,flag,s", [(0.1, 3, True, "héllo"), (-2.5e-7, -40, False, "")])
def test_scalars(x, n, flag, s):
    items = np.array([0.5, 1e300, -7.0])
    result, out, err = same_output(pk.scalars, x, n, flag, s, np.float32(0.1), np.complex128(1 - 2j), items)
    assert "(1, \"it's\", 2.5)" in out and "np.float64(" in out  # repr of tuple items, as CPython


def test_arrays_dicts_optional():
    a = np.array([0.25, 0.75, 1e-9])
    m = np.arange(6.0).reshape(2, 3)
    for k in (1, 5):
        same_output(pk.containers, a, m, k)
    lst, copy = [0.25, 1.0], [0.25, 1.0]
    assert outputs(pk.list_argument, lst) == outputs(pk.list_argument.py_func, copy) and lst == copy


def test_float_text():
    """Shortest repr digits on awkward values (the C++ formatter of str.hpp)."""
    rng = np.random.default_rng(7)
    special = [0.0, -0.0, np.nan, np.inf, -np.inf, 5e-324, 1.7976931348623157e308, 1e16, 1e15, 9.999999999999999e15,
               1e-4, 1e-5, 0.1 + 0.2, 2.0**-1074, 2.0**60, 123456789.125]
    values = np.concatenate([special, rng.standard_normal(200) * 10.0 ** rng.integers(-30, 30, 200),
                             rng.integers(0, 2**63, 100, dtype=np.uint64).view(np.float64)])
    same_output(pk.float_texts, values)


def test_float_or_float64_variable():
    """`s = 0.0; s += x[i]; print(s)`: s is a float or an np.float64 by path;
    str() gives the same text for both, so the print compiles (no statement
    runs as Python) and the result keeps the type of the path taken."""
    for x in (np.array([0.1, 0.2, 1e16]), np.zeros(0)):
        same_output(pk.running_sum, x)
    assert pk.running_sum.fallbacks() == []


def test_prange_prints_in_order():
    """print needs the interpreter: a prange loop that prints runs in order."""
    _, out, _ = same_output(pk.in_prange, 6)
    lines, first = inspect.getsourcelines(pk.in_prange.py_func)
    line = first + next(i for i, text in enumerate(lines) if "print(" in text)
    assert f"prange loop run in order: line {line} calls print()" in pk.in_prange.inspect_cxx("int64")
    assert out == "".join(f"iteration {i}\n" for i in range(6))


def test_write_error_and_no_stdout():
    class Broken:
        def write(self, text):
            raise OSError("disk full")

    for fn in (pk.to_stdout, pk.to_stdout.py_func):
        with contextlib.redirect_stdout(Broken()), pytest.raises(OSError, match="disk full"):
            fn(1)
        with contextlib.redirect_stdout(None):  # print() writes nothing when sys.stdout is None
            assert fn(2) == 3


def test_interleaved_with_python_prints(tmp_path):
    """Compiled and Python prints alternate on the real stdout (a pipe, so
    block-buffered) and come out in program order, stderr too."""
    script = tmp_path / "interleave.py"
    script.write_text(textwrap.dedent("""
        import sys
        from tests.diff import print_kernels as pk
        for i in range(3):
            print("python", i)
            pk.to_stdout(i)
            print("python err", i, file=sys.stderr)
            pk.scalars(0.5, i, True, "s", __import__("numpy").float32(1.5), 1j, __import__("numpy").ones(1))
    """))
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    run = lambda: subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env,  # noqa: E731
                                 cwd=os.getcwd(), check=True)
    compiled = run()
    lines = compiled.stdout.splitlines()
    assert lines[0] == "python 0" and lines[1] == "compiled 0"
    assert [ln for ln in lines if ln.startswith(("python", "compiled"))] == \
        [f"{who} {i}" for i in range(3) for who in ("python", "compiled")]
    expected = io.StringIO()
    import numpy as np_

    with contextlib.redirect_stdout(expected), contextlib.redirect_stderr(io.StringIO()):
        for i in range(3):
            print("python", i)
            pk.to_stdout.py_func(i)
            pk.scalars.py_func(0.5, i, True, "s", np_.float32(1.5), 1j, np_.ones(1))
    assert compiled.stdout == expected.getvalue()
    assert [ln for ln in compiled.stderr.splitlines() if ln.startswith("python err")] == \
        [f"python err {i}" for i in range(3)]
