"""Ahead-of-time builds with --inplace and the import hook, end to end: the
example package is built by the real `transpile` executable, then imported
in fresh processes with no C++ compiler on PATH (and under -W error), and
must give CPython's results with zero compilations; stale artifacts are
detected; broken manifests never break an import."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
EXE = Path(sys.executable).parent / "transpile"


def no_compiler_env(tmp: Path, **extra) -> dict:
    """PATH holds only python: no g++, c++ or clang++; CXX unset.  `python` is a
    script that runs this interpreter as it was started (a virtual
    environment's python, not the base interpreter it links to)."""
    bindir = tmp / "nocc-bin"
    bindir.mkdir(exist_ok=True)
    wrapper = bindir / "python"
    if not wrapper.exists():
        wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
        wrapper.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "CXX"}
    env.update(PATH=str(bindir), TRANSPILE_CACHE_DIR=str(tmp / "empty-cache"), PYTHONDONTWRITEBYTECODE="1", **extra)
    return env


def run_py(args, cwd, env, check=True):
    out = subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True,
                         text=True, timeout=300)
    if check:
        assert out.returncode == 0, out.stdout + out.stderr
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """examples/aot_pkg + aot_demo.py, copied and built in place by the real executable."""
    work = tmp_path_factory.mktemp("aot")
    shutil.copytree(ROOT / "examples" / "aot_pkg", work / "aot_pkg",
                    ignore=shutil.ignore_patterns("__transpile__", "__pycache__"))
    shutil.copy(ROOT / "examples" / "aot_demo.py", work / "aot_demo.py")
    assert EXE.exists(), f"the console script is not installed at {EXE} (pip install -e .)"
    out = subprocess.run([str(EXE), "build", "--inplace", "-j", "2", "aot_pkg"], cwd=work, capture_output=True,
                         text=True, timeout=600, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "6 built, 0 up to date, 0 failed" in out.stdout
    return work


def test_build_writes_manifest(built):
    manifest = json.loads((built / "aot_pkg" / "__transpile__" / "manifest.json").read_text())
    got = sorted((e["qualname"], tuple(e["arg_types"])) for e in manifest["entries"])
    assert got == [("axpy", ("float", "float64[:]", "float64[:]")), ("centered", ("float64[:]",)),
                   ("norm2", ("float64[:]",)),
                   ("smooth", ("float32[:, :]", "int")), ("smooth", ("float64[:, :]", "int")),
                   ("square", ("float64",))]
    for e in manifest["entries"]:
        assert e["file"] == "kernels.py"
        assert (built / "aot_pkg" / "__transpile__" / e["dir"] / "module.so").is_file()
        assert (built / "aot_pkg" / "__transpile__" / e["dir"] / "module.cpp").is_file()


def test_run_without_compiler_under_W_error(built, tmp_path):
    env = no_compiler_env(tmp_path)
    out = run_py(["-W", "error", "-m", "transpile", "run", "aot_demo.py"], built, env)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"same": True, "compiles": 0}
    assert out.stderr == ""


SCRIPT = """
import json, sys
import numpy as np
from transpile import install_import_hook
install_import_hook()
import aot_pkg
import transpile.dispatcher as d
bound = {n: len(getattr(aot_pkg, n).signatures) for n in ("axpy", "smooth", "norm2")}
x = np.arange(6.0)
r = {"axpy": aot_pkg.axpy(3.0, x, x).tolist(), "norm2": float(aot_pkg.norm2(x[::2])),
     "smooth": aot_pkg.smooth(np.ones((4, 5), np.float32), 2).dtype.name}
print(json.dumps({"bound": bound, "result": r, "compiles": d.COMPILE_COUNT,
                  "libcst": "libcst" in sys.modules, "jinja2": "jinja2" in sys.modules}))
"""


def test_hook_binds_at_import(built, tmp_path):
    """Right after the import the prebuilt specializations are registered;
    calls (C-contiguous arrays and strided views) compile nothing and never
    load the compiler's front end."""
    (built / "hook_script.py").write_text(SCRIPT)
    out = run_py(["-W", "error", "hook_script.py"], built, no_compiler_env(tmp_path))
    data = json.loads(out.stdout.strip().splitlines()[-1])
    assert data["bound"] == {"axpy": 1, "smooth": 2, "norm2": 1}
    x = [float(i) for i in range(6)]
    assert data["result"] == {"axpy": [3 * v + v for v in x], "norm2": 0.5 * sum(v * v for v in x[::2]),
                              "smooth": "float32"}
    assert data["compiles"] == 0 and not data["libcst"] and not data["jinja2"]


def test_stale_artifacts(built, tmp_path):
    """After an edit the changed function's artifact is not used: it compiles on
    the first call when a compiler exists, and runs as plain Python with a
    NoCompilerWarning when none does; unchanged functions keep their artifacts."""
    work = tmp_path / "stale"
    shutil.copytree(built, work, ignore=shutil.ignore_patterns("__pycache__", "nocc-bin"))
    kernels = work / "aot_pkg" / "kernels.py"
    text = kernels.read_text()
    assert "    return a * x + y\n" in text
    kernels.write_text(text.replace("    return a * x + y\n", "    return a * x + y - 1.0\n"))
    check = ("import json, numpy as np, aot_pkg, transpile.dispatcher as d\n"
             "x = np.arange(4.0)\n"
             "print(json.dumps({'axpy': aot_pkg.axpy(2.0, x, x).tolist(), 'norm2': float(aot_pkg.norm2(x)),"
             " 'compiles': d.COMPILE_COUNT}))\n")
    (work / "check.py").write_text(check)
    expected_axpy = [3.0 * v - 1.0 for v in range(4)]
    expected_norm = 0.5 * sum(v * v for v in range(4))

    out = run_py(["-m", "transpile", "run", "check.py"], work, no_compiler_env(tmp_path))
    data = json.loads(out.stdout.strip().splitlines()[-1])
    assert data == {"axpy": expected_axpy, "norm2": expected_norm, "compiles": 0}
    assert "NoCompilerWarning" in out.stderr and "runs as plain Python" in out.stderr
    assert "axpy(float, float64[::1], float64[::1]): no C++ compiler found and no prebuilt artifact" in out.stderr
    assert "norm2" not in out.stderr  # unchanged: still prebuilt

    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(tmp_path / "cache"), PYTHONDONTWRITEBYTECODE="1")
    out = run_py(["-m", "transpile", "run", "check.py"], work, env)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    assert data == {"axpy": expected_axpy, "norm2": expected_norm, "compiles": 1}

    out = run_py(["-W", "error", "-m", "transpile", "run", "check.py"], work, no_compiler_env(tmp_path),
                 check=False)
    assert out.returncode != 0 and "NoCompilerWarning" in out.stderr  # the fallback does warn


def test_without_hook_and_without_compiler_it_runs_as_python_with_the_remedy(built, tmp_path):
    """A plain script (no hook, nothing prebuilt, no compiler): one
    NoCompilerWarning per function naming the remedy, CPython's result."""
    work = tmp_path / "nohook"
    shutil.copytree(built, work, ignore=shutil.ignore_patterns("__pycache__", "nocc-bin"))
    shutil.rmtree(work / "aot_pkg" / "__transpile__")
    code = "import numpy as np, aot_pkg\nprint(repr(aot_pkg.norm2(np.ones(3))), repr(aot_pkg.norm2(np.ones(4))))\n"
    out = run_py(["-c", code], work, no_compiler_env(tmp_path))
    assert out.stdout.split() == [repr(np.float64(1.5)), repr(np.float64(2.0))]
    assert out.stderr.count("NoCompilerWarning: norm2(float64[::1]): no C++ compiler found") == 1  # once per function
    assert "NoCompilerWarning: square(float64)" in out.stderr  # the @jit helper norm2 calls, run by Python too
    assert "transpile build --inplace" in out.stderr


def test_damaged_manifest_never_breaks_an_import(built, tmp_path):
    work = tmp_path / "damaged"
    shutil.copytree(built, work, ignore=shutil.ignore_patterns("__pycache__", "nocc-bin"))
    manifest = work / "aot_pkg" / "__transpile__" / "manifest.json"
    data = json.loads(manifest.read_text())
    lib = work / "aot_pkg" / "__transpile__" / data["entries"][0]["dir"] / "module.so"
    lib.write_bytes(b"not a library")
    code = ("import json, numpy as np, warnings\nfrom transpile import install_import_hook\n"
            "install_import_hook()\nimport aot_pkg, transpile.dispatcher as d\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    r = aot_pkg.smooth(np.ones((3, 3)), 1).sum(), aot_pkg.axpy(1.0, np.ones(2), np.ones(2)).sum()\n"
            "print(json.dumps({'r': [float(v) for v in r], 'warned': len(w), 'compiles': d.COMPILE_COUNT}))\n")
    out = run_py(["-c", code], work, no_compiler_env(tmp_path))
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["r"] == [9.0, 4.0] and result["compiles"] == 0
    assert result["warned"] == 1  # only the damaged one runs as plain Python

    manifest.write_text("{ not json")
    out = run_py(["-W", "error", "-c", "from transpile import install_import_hook\ninstall_import_hook()\n"
                  "import aot_pkg\nprint(aot_pkg.axpy.py_func.__name__)"], work, no_compiler_env(tmp_path))
    assert out.stdout.strip() == "axpy"


def test_rebuild_is_up_to_date(built):
    out = subprocess.run([str(EXE), "build", "--inplace", "aot_pkg/kernels.py"], cwd=built, capture_output=True,
                         text=True, timeout=300, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert out.returncode == 0, out.stderr
    assert "0 built, 6 up to date, 0 failed" in out.stdout


MAIN_SCRIPT = '''\
from __future__ import annotations
import json, sys
import numpy as np
from transpile import jit
import transpile.dispatcher as d

OFFSET = 2.0


@jit
def total(x: float64[:]):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * OFFSET
    return s


if __name__ == "__main__":
    x = np.arange(float(sys.argv[1]))
    print(json.dumps({"r": float(total(x)), "e": float(total.py_func(x)), "compiles": d.COMPILE_COUNT,
                      "argv": sys.argv[1:]}))
'''


def test_script_built_in_place_runs_as_main(tmp_path):
    """A script's own functions, built while imported as `main_script`, serve
    it when it runs as __main__ (its frozen constant is found there)."""
    work = tmp_path / "script"
    work.mkdir()
    (work / "main_script.py").write_text(MAIN_SCRIPT)
    out = subprocess.run([str(EXE), "build", "--inplace", "-q", "main_script.py"], cwd=work, capture_output=True,
                         text=True, timeout=300, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert out.returncode == 0, out.stderr
    out = run_py(["-W", "error", "-m", "transpile", "run", "main_script.py", "5", "--flag"], work,
                 no_compiler_env(tmp_path))
    assert json.loads(out.stdout) == {"r": 20.0, "e": 20.0, "compiles": 0, "argv": ["5", "--flag"]}


KERN = """\
from transpile import jit


# transpile: export wsum(float64[:], float64)
@jit
def wsum(x, w):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * w
    return s


# transpile: export half(float64)
@jit
def half(w):
    return w / 2
"""

KERN_USE = """\
import json, numpy as np, kern, transpile.dispatcher as d
x = np.arange(10.0)
calls = [(x, 0.5), (x, np.float64(0.5)), (np.asfortranarray(x), 0.5), (x[::3], np.float64(2.0)),
         (x[::-1], 0.25)]
same = [repr(kern.wsum(a, w)) == repr(kern.wsum.py_func(a, w)) for a, w in calls]
h = kern.half(np.float64(3.0))
compiles = d.COMPILE_COUNT
try:
    kern.half(3.0)
    py_float = "compiled"
except Exception as exc:
    py_float = type(exc).__name__
print(json.dumps({"same": same, "half": repr(h), "half(3.0)": py_float, "compiles": compiles,
                  "served": len(kern.wsum.signatures)}))
"""


def test_prebuilt_serves_every_call_it_accepts(tmp_path):
    """One artifact built for (float64[:], float64) serves C-contiguous, Fortran,
    strided and reversed arrays with Python floats and NumPy float64 weights,
    without a compiler: its code for a Python float weight is the same C++, so
    the results have CPython's types.  half(float64) returns w / 2, an
    np.float64; for a Python float CPython gives a float, so that artifact does
    not serve it (with no compiler it runs as Python: a NoCompilerWarning,
    an error under -W error)."""
    work = tmp_path / "kern"
    work.mkdir()
    (work / "kern.py").write_text(KERN)
    (work / "use.py").write_text(KERN_USE)
    out = subprocess.run([str(EXE), "build", "kern.py", "--inplace"], cwd=work, capture_output=True, text=True,
                         timeout=300, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert out.returncode == 0 and "2 built" in out.stdout, out.stdout + out.stderr
    out = run_py(["-W", "error", "use.py"], work, no_compiler_env(tmp_path))
    data = json.loads(out.stdout.strip().splitlines()[-1])
    assert data == {"same": [True] * 5, "half": "np.float64(1.5)", "half(3.0)": "NoCompilerWarning", "compiles": 0,
                    "served": 4}, out.stderr


POLICY = """\
import numpy as np
from transpile import jit


@jit
def total(x):
    s = 0.0
    for v in x:
        s += v
    return s


@jit(fullgraph=True)
def strict(x):
    return x.sum()


print(repr(total(np.arange(4.0))), repr(total(np.arange(5.0))), flush=True)
strict(np.ones(2))
"""

FAKE_COMPILERS = {  # real programs that are not C++20 compilers: what is under test is transpile's check
    "gcc": ("exec gcc \"$@\"\n", "a library it builds cannot be loaded"),
    "c++14": ("exec g++ \"$@\" -std=c++14\n", "it does not compile C++20"),
}


@pytest.mark.parametrize("fake", sorted(FAKE_COMPILERS))
def test_unusable_compiler_is_checked_once_and_nothing_is_cached(tmp_path, fake):
    """CXX names a C compiler, or a compiler without C++20: the functions run as
    Python with one NoCompilerWarning (not "a bug in transpile's code
    generation"), fullgraph=True raises NoCompilerError at the user's line, and
    nothing is cached, so a second run behaves the same."""
    if shutil.which("gcc") is None or shutil.which("g++") is None:
        pytest.skip("needs gcc and g++ to make the fake compilers from")
    script, why = FAKE_COMPILERS[fake]
    bindir = tmp_path / "fakecc"
    bindir.mkdir()
    wrapper = bindir / "fake-cxx"
    wrapper.write_text(f"#!/bin/sh\nPATH={os.environ['PATH']}\n{script}")
    wrapper.chmod(0o755)
    (tmp_path / "policy.py").write_text(POLICY)
    env = dict(os.environ, CXX=str(wrapper), TRANSPILE_CACHE_DIR=str(tmp_path / "cache"), PYTHONDONTWRITEBYTECODE="1")
    env.pop("TRANSPILE_DEBUG", None)
    for _ in range(2):
        out = run_py(["policy.py"], tmp_path, env, check=False)
        assert out.returncode == 1, out.stderr
        assert out.stdout.split() == [repr(np.float64(6.0)), repr(np.float64(10.0))]
        assert out.stderr.count("NoCompilerWarning") == 1 and why in out.stderr
        assert f"total: the C++ compiler {wrapper} cannot be used" in out.stderr
        assert "code generation" not in out.stderr
        frames = [line for line in out.stderr.splitlines() if line.startswith("  File ")]
        line = POLICY.splitlines().index("strict(np.ones(2))") + 1
        assert frames == [f'  File "{tmp_path / "policy.py"}", line {line}, in <module>'], out.stderr
        assert f"NoCompilerError: error: the C++ compiler {wrapper} cannot be used" in out.stderr
        assert not list((tmp_path / "cache").rglob("module.so"))
