"""Capture modes and the rest of the system: the cache key names the text a
function was compiled from, `transpile show` / `annotate` for functions
captured from bytecode or a trace, and closures as jitted functions."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

from transpile import jit
from transpile.diagnostics import TranspileFallbackWarning
from transpile.frontend.source import source_hash
from transpile.hir import types as T

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

MODULE = '''import numpy as np
from transpile import jit


@jit
def scaled(a, k):
    return a * k + np.float64(1.0)
'''


def _impl(dispatcher):
    return dispatcher._ensure.__self__


def test_key_names_the_text_a_function_was_compiled_from(tmp_path, monkeypatch):
    """A function of a file (compiled from its source) and the same text
    exec'd under the same module name (compiled from its recovered bytecode)
    have equal code objects: their cache entries must still differ, and so
    must those of equal code exec'd as two different files."""
    (tmp_path / "capture_keymod.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    import capture_keymod

    exec_fns = []
    for filename in ("<generated one>", "<generated two>"):
        ns = {"__name__": "capture_keymod"}
        exec(compile(MODULE, filename, "exec", dont_inherit=True), ns)  # noqa: S102 - the test's own text
        exec_fns.append(ns["scaled"])
    from_file = capture_keymod.scaled
    assert source_hash(from_file.py_func) == source_hash(exec_fns[0].py_func) == source_hash(exec_fns[1].py_func)
    types = tuple(T.parse_signature("float64[:], float64"))
    keys = [_impl(f)._key(types) for f in (from_file, *exec_fns)]
    assert len(set(keys)) == 3, keys

    a = np.arange(4.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # neither may fall back
        for f in (from_file, exec_fns[0]):
            got = f(a, 3.0)
            assert got.dtype == np.float64 and np.array_equal(got, a * 3.0 + 1.0)


MODES = '''import numpy as np
from transpile import jit


@jit(capture_mode="bytecode")
def axpy(a, x, y):
    z = a * x
    return z + y


@jit(capture_mode="trace")
def abc(a, b, c):
    t = a * b
    return np.sqrt(t + c)


if __name__ == "__main__":
    print(abc(np.ones(3), 2.0, np.arange(3.0)).tolist())
'''


def _cli(*args, cwd):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-m", "transpile", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_show_and_annotate_bytecode_and_trace_functions(tmp_path):
    (tmp_path / "modes_cli.py").write_text(MODES)
    sig = "axpy=float64, float64[:], float64[:]"
    # bytecode: the recovered text, each statement on its line-table line
    shown = _cli("show", "modes_cli.py:axpy", "--signature", sig.split("=")[1], "--color", "never", cwd=tmp_path)
    assert "// modes_cli.py (axpy, recovered from bytecode):7  z = a * x" in shown
    assert "// modes_cli.py (axpy, recovered from bytecode):8  return z + y" in shown
    # trace: nothing recorded until a call
    env = dict(os.environ, PYTHONPATH=ROOT)
    failed = subprocess.run([sys.executable, "-m", "transpile", "show", "modes_cli.py:abc"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert failed.returncode != 0 and "call it once" in failed.stdout + failed.stderr
    ran = subprocess.run([sys.executable, "modes_cli.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=300)
    assert ran.stdout.strip() == str(np.sqrt(np.ones(3) * 2.0 + np.arange(3.0)).tolist()), ran.stderr
    shown = _cli("show", "modes_cli.py:abc", "--color", "never", cwd=tmp_path)
    assert "abc(float64[::1], float, float64[::1]): the record of a call" in shown
    assert "//     t0 = (a * b)  # line 13: t = a * b" in shown
    assert "//     t2 = np.sqrt(t1)  # line 14: return np.sqrt(t + c)" in shown
    assert "TR_EXPORT" in shown  # the entry's C++ follows

    _cli("annotate", "modes_cli.py", "--signature", sig, cwd=tmp_path)
    page = (tmp_path / "modes_cli.html").read_text()
    import html
    import json
    import re

    status = dict(re.findall(r"id='L(\d+)' data-line='\d+' data-status='(\w*)'", page))
    assert [status[n] for n in ("7", "8", "13", "14")] == ["compiled"] * 4, status
    summary = json.loads(html.unescape(re.search(r"id='summary'>(.*?)</script>", page).group(1)))
    by_name = {f["name"]: f for f in summary["functions"]}
    assert by_name["axpy"]["recovered"] == "def axpy(a, x, y):\n\n    z = a * x\n    return z + y\n"
    assert by_name["abc"]["status"] == "compiled" and "(a trace)" in by_name["abc"]["signatures"][0]
    assert "abc(float64[::1], float, float64[::1]): the trace&#x27;s record" in page  # line 14's C++ block


w = np.zeros(3)  # a global the closures below must not read in place of their own cell


def _closures():
    w = np.arange(3.0)

    def nested(a):
        return a * w + 1.0
    return w, [jit(nested), jit(lambda a: a * w + 1.0), jit(capture_mode="bytecode")(nested)]


def test_closures_run_in_cpython_reading_their_own_cells():
    """The frontends read a free variable as a global (NameError, or silently
    the global `w` above): a jitted closure runs in CPython, in every mode,
    and sees its cell rebound (trace mode compiles them: below)."""
    cell_value, fns = _closures()
    a = np.ones(3)
    for f in fns:
        with pytest.warns(TranspileFallbackWarning, match="closure over 'w'"):
            got = f(a)
        assert np.array_equal(got, a * cell_value + 1.0)
        f.py_func.__closure__[0].cell_contents = np.full(3, 5.0)  # rebound: never a stale array
        assert np.array_equal(f(a), np.full(3, 6.0))
        f.py_func.__closure__[0].cell_contents = cell_value


def _trace_closure():
    w = np.arange(3.0)
    scale = 2.0

    def rebind(value):
        nonlocal w
        w = value
    return jit(capture_mode="trace")(lambda a: np.sqrt(a * w + scale)), rebind


def test_trace_closure_passes_its_cells_as_hidden_arguments():
    """Trace mode compiles a closure over an array: the cells' values are
    arguments of the compiled code, read at each call, so a rebound cell is
    used as it is now -- the same kind of array without a new compile,
    another dtype or a number through a new trace -- never a stale array."""
    from transpile.build import cache

    f, rebind = _trace_closure()
    a = np.ones(3)
    before = cache.COMPILE_COUNT
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fallback: compiled
        assert np.array_equal(f(a), np.sqrt(a * np.arange(3.0) + 2.0))
        rebind(np.full(3, 7.0))
        assert np.array_equal(f(a), np.full(3, 3.0))
        assert cache.COMPILE_COUNT - before <= 1  # same types: the same code (0 when the cache had it)
        rebind(np.arange(3, dtype=np.int32))
        assert np.array_equal(f(a), np.sqrt(a * np.arange(3, dtype=np.int32) + 2.0))
    rebind(np.ones(4))  # CPython's error, from the compiled code's broadcast
    with pytest.raises(ValueError, match="broadcast"):
        f(a)
    with pytest.raises(TypeError):  # CPython's arity error, not the hidden arguments'
        f(a, a)


def test_trace_closure_that_rebinds_its_cell_runs_in_cpython():
    w = np.zeros(2)

    def bump(a):
        nonlocal w
        w = w + a
        return w
    f = jit(capture_mode="trace")(bump)
    with pytest.warns(TranspileFallbackWarning):
        assert np.array_equal(f(np.ones(2)), np.ones(2))
    assert np.array_equal(w, np.ones(2))
