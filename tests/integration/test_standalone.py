"""`transpile build --standalone`: a pybind11 extension module that imports
and runs without transpile.  The module is built once by the real command
line (a dotted module name, --output-dir), then imported by a Python started
with -I -S whose sys.path holds only the standard library, NumPy and the
module's folder (the process checks that neither transpile nor pybind11 can
be imported), and its results, result types, mutated arguments and
exceptions are compared with CPython's.  A second build goes through
cppimport from the emitted source alone."""
from __future__ import annotations

import importlib
import os
import pickle
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]

KERNELS = '''\
import numpy as np
from transpile import jit


# transpile: export scale(float64[:], float64)
@jit
def scale(a, s):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = a[i] * s
    return out


# transpile: export stats(float64[:, :])
@jit
def stats(m):
    total = 0.0
    n = 0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            total += m[i, j]
            n += 1
    return total, n, total / n


# transpile: export pick(int64[::1], int)
@jit
def pick(v, k):
    return v[k] * 2


@jit
def ratio(x: int, y: int):
    return x // y, x % y


# transpile: export bump(float64[:])
@jit
def bump(a):
    for i in range(a.shape[0]):
        a[i] += 1.0
    return a


# transpile: export tail(float64[:], float64)
@jit
def tail(a, x):
    a[0] = x
    return a[1:]
'''

FALLBACK = '''\
import statistics

from transpile import jit


# transpile: export middle(float64[:])
@jit
def middle(a):
    s = a.sum()
    m = statistics.median([1.0, 2.0, 3.0])
    return s
'''

# Run both by the module and by CPython: fresh arguments for each call.
CASES = '''\
import numpy as np

def cases():
    a = np.arange(6.0)
    m = np.arange(12.0).reshape(3, 4)
    return [
        ("scale", (a.copy(), 2.5)),
        ("scale", (a[::2], np.float64(-1.5))),
        ("scale", (np.zeros(0), 3.0)),
        ("stats", (m,)),
        ("stats", (np.asfortranarray(m)[:, 1:],)),
        ("stats", (np.zeros((0, 2)),)),
        ("pick", (np.arange(5), 3)),
        ("pick", (np.arange(5), -1)),
        ("pick", (np.arange(5), np.int64(1))),
        ("pick", (np.arange(5), 7)),
        ("ratio", (7, -2)),
        ("ratio", (7, 0)),
        ("bump", (np.ones(3),)),
        ("bump", (a.reshape(2, 3)[:, 1],)),
        ("tail", (a.copy(), 9.0)),
        ("tail", (np.zeros(0), 1.0)),
    ]
'''

ISOLATED = '''\
import pickle
import sys

sys.path[:0] = [{numpy_dir!r}, {module_dir!r}]
for name in ("transpile", "pybind11"):
    try:
        __import__(name)
    except ImportError:
        pass
    else:
        raise SystemExit(name + " can be imported: the check proves nothing")
import numpy as np
import kernels
from cases import cases

out = []
for name, args in cases():
    try:
        r = getattr(kernels, name)(*args)
        out.append(("ok", r, args, bool(args) and (r is args[0] or getattr(r, "base", None) is args[0])))
    except Exception as e:
        out.append(("raise", type(e).__name__, str(e), False))
refused = []
for fn, args in [(kernels.scale, (np.arange(3, dtype=np.float32), 1.0)),
                 (kernels.pick, (np.arange(6)[::2], 1)),
                 (kernels.bump, (np.ones((2, 2)),)),
                 (kernels.ratio, (1.0, 2)),
                 (kernels.pick, (np.arange(3), 2 ** 70)),
                 (kernels.scale, (np.arange(3.0),))]:
    try:
        fn(*args)
        refused.append(None)
    except Exception as e:
        refused.append((type(e).__name__, str(e)))
with open(sys.argv[1], "wb") as f:
    pickle.dump({{"cases": out, "refused": refused, "doc": kernels.scale.__doc__,
                 "modules": sorted(m for m in sys.modules if m.split(".")[0] in ("transpile", "pybind11"))}}, f)
'''


def _env() -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """sa_pkg.kernels built by `python -m transpile build --standalone` into out/."""
    work = tmp_path_factory.mktemp("standalone")
    (work / "sa_pkg").mkdir()
    (work / "sa_pkg" / "__init__.py").write_text("")
    (work / "sa_pkg" / "kernels.py").write_text(KERNELS)
    (work / "sa_pkg" / "fallback.py").write_text(FALLBACK)
    out = subprocess.run([sys.executable, "-m", "transpile", "build", "--standalone", "sa_pkg.kernels", "-o", "out"],
                         cwd=work, env=_env(), capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    return work


def _same(got, want) -> bool:
    if type(got) is not type(want):
        return False
    if isinstance(want, np.ndarray):
        return got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want, equal_nan=True)
    if isinstance(want, tuple):
        return len(got) == len(want) and all(_same(g, w) for g, w in zip(got, want))
    return got == want or (got != got and want != want)


def _cpython_results(work: Path):
    sys.path.insert(0, str(work))
    try:
        kernels = importlib.import_module("sa_pkg.kernels")
        namespace: dict = {}
        exec(CASES, namespace)
        out = []
        for name, args in namespace["cases"]():
            try:
                r = getattr(kernels, name).py_func(*args)
                out.append(("ok", r, args, bool(args) and (r is args[0] or getattr(r, "base", None) is args[0])))
            except Exception as e:  # noqa: BLE001 - compared with the module's
                out.append(("raise", type(e).__name__, str(e), False))
        return out
    finally:
        sys.path.remove(str(work))


def test_runs_without_transpile_as_cpython_does(built, tmp_path):
    """-I -S: no site-packages, no PYTHONPATH; NumPy alone is put on the path."""
    (tmp_path / "cases.py").write_text(CASES)
    script = tmp_path / "isolated.py"
    numpy_dir = tmp_path / "numpy-only"
    numpy_dir.mkdir()
    site = Path(np.__file__).resolve().parents[1]
    for entry in site.iterdir():  # the numpy package and its bundled libraries, nothing else
        if entry.name == "numpy" or entry.name == "numpy.libs":
            (numpy_dir / entry.name).symlink_to(entry)
    script.write_text(ISOLATED.format(numpy_dir=str(numpy_dir), module_dir=str(built / "out")))
    shutil.copy(tmp_path / "cases.py", built / "out" / "cases.py")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    proc = subprocess.run([sys.executable, "-I", "-S", str(script), str(tmp_path / "r.pkl")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with open(tmp_path / "r.pkl", "rb") as f:
        got = pickle.load(f)
    assert got["modules"] == []
    want = _cpython_results(built)
    assert len(got["cases"]) == len(want)
    for (gs, gv, gargs, gsame), (ws, wv, wargs, wsame) in zip(got["cases"], want):
        assert gs == ws, (gv, wv)
        if ws == "raise":
            assert (gv, gargs) == (wv, wargs)  # the exception's class and message
        else:
            assert _same(gv, wv), (gv, wv)
            assert all(_same(g, w) for g, w in zip(gargs, wargs))  # mutated arguments
            assert gsame == wsame  # `return a` gives the caller's array itself, a[1:] a view of it
    assert "scale(float64[:], float64) -> float64[::1]" in got["doc"]
    # Arguments no compiled signature takes: a TypeError that says why, never a conversion
    float32, strided, ndim, pyfloat, big, missing = got["refused"]
    assert float32[0] == "TypeError" and "float32[:] array" in float32[1] and "scale(float64[:], float64)" in float32[1]
    assert strided[0] == "TypeError" and "C-contiguous" in strided[1]
    assert ndim[0] == "TypeError" and "float64[:, :] array" in ndim[1]
    assert pyfloat[0] == "TypeError" and "(float, int)" in pyfloat[1]
    assert big[0] == "OverflowError"
    assert missing == ("TypeError", "scale() missing 1 required positional argument: 's'")  # CPython's words


def test_fallback_regions_are_refused_naming_the_line(built):
    out = subprocess.run([sys.executable, "-m", "transpile", "build", "--standalone", "sa_pkg/fallback.py",
                          "-o", "out2"], cwd=built, env=_env(), capture_output=True, text=True, timeout=300)
    assert out.returncode == 1
    assert "fallback.py:10: `m = statistics.median([1.0, 2.0, 3.0])` runs as Python" in out.stderr, out.stderr
    assert "cannot go in a standalone module" in out.stderr
    assert not (built / "out2" / "fallback.cpp").exists()


def test_cppimport_builds_the_emitted_source(built, tmp_path):
    """The .cpp alone, in a fresh folder: cppimport renders its header and builds it."""
    pytest.importorskip("cppimport")
    shutil.copy(built / "out" / "kernels.cpp", tmp_path / "kernels.cpp")
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(tmp_path)!r})
        import cppimport
        import numpy as np
        m = cppimport.imp("kernels")
        assert m.__file__.startswith({str(tmp_path)!r}), m.__file__
        print(m.pick(np.arange(5), 3), m.ratio(7, -2), m.scale(np.arange(3.0), 2.0).tolist())
    """)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.split("\n")[0] == "6 (-4, -1) [0.0, 2.0, 4.0]"
