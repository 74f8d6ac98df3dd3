"""A tiny project and a runner for cache tests: each run is a new process
that calls the kernels, compares with CPython and reports its compiles and
warnings as JSON."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

KERNELS = '''
from transpile import jit


@jit
def kernel(a, n):
    s = 0.0
    for i in range(n):
        s += a[i] * 2.0
    return s


@jit
def twice(x):
    return x * 2
'''

RUNNER = '''
import json, sys, warnings
import numpy as np
import transpile.resources
# transpile's own files change while these tests run (a shared checkout): the
# code fingerprint in the cache key is fixed so one run's entries are the next's
transpile.resources.fingerprint = lambda: "pinned for the test"
import kern
import transpile.dispatcher as d

CALLS = {"kernel": (kern.kernel, (np.arange(5.0), 5)), "twice_int": (kern.twice, (3,)),
         "twice_float": (kern.twice, (1.5,))}
out = {"same": True, "results": []}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for name in sys.argv[1:]:
        f, args = CALLS[name]
        got, want = f(*args), f.py_func(*args)
        out["results"].append(repr(got))
        out["same"] &= bool(type(got) is type(want) and got == want)
out["compiles"] = d.COMPILE_COUNT
out["warnings"] = [f"{w.category.__name__}: {w.message}" for w in caught]
print(json.dumps(out))
'''


def make(tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "kern.py").write_text(KERNELS)
    (proj / "run.py").write_text(RUNNER)
    return proj


def _plain_user() -> list:
    """Root reads and writes whatever the permissions say: run as root without
    the capabilities that override them, so permissions bite as for a user."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: file permissions cannot be made to apply")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]


def run_raw(proj: Path, cache: Path, *calls, plain_user=False, **env) -> subprocess.CompletedProcess:
    environ = dict(os.environ, TRANSPILE_CACHE_DIR=str(cache), PYTHONDONTWRITEBYTECODE="1", **env)
    prefix = _plain_user() if plain_user else []
    return subprocess.run([*prefix, sys.executable, "run.py", *calls], cwd=proj, env=environ, capture_output=True,
                          text=True, timeout=300)


def run(proj: Path, cache: Path, *calls, **kw) -> dict:
    out = run_raw(proj, cache, *calls, **kw)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["same"], result
    return result


def entry_of(cache: Path, symbol_part: str, arg_type: str) -> Path:
    """The entry folder of the function whose symbol contains symbol_part,
    for the argument types given as text."""
    for meta in cache.glob("*/*/meta.json"):
        m = json.loads(meta.read_text())
        if isinstance(m, dict) and symbol_part in m.get("symbol", "") and ", ".join(m.get("arg_types", [])) == arg_type:
            return meta.parent
    raise AssertionError(f"no entry for {symbol_part}({arg_type}) in {cache}")


def set_aside(cache: Path) -> list:
    return sorted(cache.glob("*/.invalid-*"))


def cli(cache: Path, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "transpile", "cache", *args], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, TRANSPILE_CACHE_DIR=str(cache)))
