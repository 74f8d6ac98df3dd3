"""capture_mode="bytecode" and the automatic fallback to it: functions with no
source file (exec, python -c, the REPL) compile from their code objects and
agree with CPython."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import statistics

import numpy as np
import pytest

from transpile import jit
from transpile.diagnostics import FunctionNotCompilable, TranspileError, TranspileFallbackWarning

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SOURCE = '''
def loops(a, n):
    s = 0.0
    i = 0
    while i < n and s < 100.0:
        if a[i] > 0:
            s += float(a[i])
        elif a[i] < -5:
            break
        else:
            i += 2
            continue
        i += 1
    for j in range(n):
        if j == 3 or j == 4:
            continue
        if not j < 7:
            break
        s = s + j * 0.5
    return s if s > 0 else -s

def arrays(a, b):
    c = np.sqrt(a * a + b * b)
    c[1:-1] += a[:-2] - b[2:]
    x, y = c.sum(), (a if a[0] > b[0] else b).max()
    x, y = y, x
    return c, x - y

def tuples_and_bools(x, y):
    lo = hi = x
    if y < lo and not y == 0:
        lo = y
    elif y > hi or y is None:
        hi = y
    t = (lo, hi)
    p, (q, r) = x, t
    return p + q * r, lo <= hi, (x > 0) and (y > 0)

def comprehension(a):
    total = sum(v * 2.0 for v in a if v > 0)
    assert total >= 0, "negative"
    return total

def while_true(n):
    k = 0
    while True:
        k += 1
        if k * k > n:
            break
    return k
'''


def _exec(source, **options):
    ns = {"np": np}
    exec(compile(source, "<capture-test>", "exec"), ns)  # no file: inspect cannot read the source
    return {name: jit(fn, fullgraph=True, **options) for name, fn in ns.items() if callable(fn) and name != "np"}


@pytest.fixture(scope="module", params=["bytecode", None])
def fns(request):
    return _exec(SOURCE, capture_mode=request.param) if request.param else _exec(SOURCE)


@pytest.mark.parametrize("n", [0, 3, 6])
def test_loops(check, fns, n):
    check(fns["loops"], np.array([1.0, -1.0, 3.0, -7.0, 2.0, 2.0]), n)
    check(fns["loops"], np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]), n + 3)


def test_arrays(check, fns):
    check(fns["arrays"], np.arange(5.0), np.linspace(0.0, 1.0, 5))
    check(fns["arrays"], -np.arange(5.0), np.linspace(0.0, 1.0, 5))


@pytest.mark.parametrize("x,y", [(1, 2), (3, -1), (2, 0), (-2, -5)])
def test_tuples_and_bools(check, fns, x, y):
    check(fns["tuples_and_bools"], x, y)


def test_comprehension_and_assert(check, fns):
    check(fns["comprehension"], np.array([1.0, -2.0, 3.0]))
    check(fns["while_true"], 50)


def test_explicit_ast_needs_source():
    f = _exec("def f(x):\n    return x + 1\n", capture_mode="ast")["f"]
    with pytest.raises(TranspileError, match="cannot read the source"):
        f(1)


def test_unrecovered_code_runs_in_python():
    source = "def f(x):\n    try:\n        return 1 // x\n    except ZeroDivisionError:\n        return -1\n"
    ns: dict = {}
    exec(compile(source, "<capture-test>", "exec"), ns)
    f = jit(ns["f"])
    with pytest.warns(TranspileFallbackWarning, match="not recovered from bytecode|same bytecode"):
        assert f(0) == -1
    assert f(2) == 0
    strict = jit(ns["f"], fullgraph=True)
    with pytest.raises(FunctionNotCompilable):
        strict(2)


def test_unsupported_statement_is_a_region():
    """A statement outside the compiled subset runs as Python from the
    recovered (verified) text, as in ast mode."""
    source = ("def f(a, n):\n    s = 0.0\n    for i in range(n):\n        m = statistics.median([a[i], 1.0, 3.0])\n"
              "        s += m * 2.0\n    return s\n")
    ns: dict = {"statistics": statistics}
    exec(compile(source, "<capture-test>", "exec"), ns)
    f = jit(ns["f"])
    with pytest.warns(TranspileFallbackWarning, match="statistics.median"):
        assert f(np.arange(4.0), 4) == ns["f"](np.arange(4.0), 4)
    assert any(r["line"] == 4 and "statistics.median" in r["source"] for r in f.fallbacks())


def test_python_dash_c():
    code = ("from transpile import jit; import numpy as np; f = jit(lambda a, b: a * b + 1); "
            "print(f(np.ones(3), np.ones(3)))")
    out = subprocess.run([sys.executable, "-W", "error::UserWarning", "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[2. 2. 2.]"


def test_interactive_session():
    """A function typed into an interactive interpreter (driven through a pty)."""
    pty = pytest.importorskip("pty")
    script = textwrap.dedent("""\
        import warnings; warnings.simplefilter("error", UserWarning)
        from transpile import jit
        import numpy as np
        @jit
        def axpy(a, x, y):
            return a * x + y

        print("RESULT", axpy(2.0, np.arange(3.0), np.ones(3)).tolist())
        """)
    pid, fd = pty.fork()
    if pid == 0:  # the child: an interactive interpreter on the pty
        os.chdir(ROOT)
        os.execv(sys.executable, [sys.executable, "-i", "-q"])
    os.write(fd, (script + "exit()\n").encode())
    chunks = []
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.waitpid(pid, 0)
    text = b"".join(chunks).decode(errors="replace")
    assert "RESULT [1.0, 3.0, 5.0]" in text, text[-2000:]
