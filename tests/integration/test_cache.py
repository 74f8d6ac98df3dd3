"""The disk cache across processes: hits in a new process (without
importing libcst), invalidation on source/dependency/constant changes,
concurrent builders, damaged artifacts, TRANSPILE_CACHE=0 and clear()."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

KERNEL = '''
import numpy as np
from transpile import jit

SCALE = {scale}

@jit
def helper(x):
    return x * {factor}

@jit
def kernel(a, n):
    s = 0.0
    for i in range(n):
        s += helper(a[i]) * SCALE
    return s
'''

RUNNER = '''
import json, sys
import numpy as np
import kern
import transpile.dispatcher as d
r = kern.kernel(np.arange(5.0), 5)
print(json.dumps({"result": float(r), "compiles": d.COMPILE_COUNT, "libcst": "libcst" in sys.modules,
                  "jinja2": "jinja2" in sys.modules}))
'''


def write_project(path: Path, scale=2.0, factor=3.0) -> None:
    (path / "kern.py").write_text(KERNEL.format(scale=scale, factor=factor))
    (path / "run.py").write_text(RUNNER)
    for stale in (path / "__pycache__").glob("*") if (path / "__pycache__").exists() else []:
        stale.unlink()


def run(path: Path, cache: Path, **env) -> dict:
    environ = dict(os.environ, TRANSPILE_CACHE_DIR=str(cache), PYTHONDONTWRITEBYTECODE="1", **env)
    out = subprocess.run([sys.executable, "run.py"], cwd=path, env=environ, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def expected(scale, factor):
    return float(sum(i * factor * scale for i in range(5)))


@pytest.fixture
def project(tmp_path):
    proj = tmp_path / "proj"
    proj.mkdir()
    write_project(proj)
    return proj


def test_new_process_hits_cache_without_parsing(project, tmp_path):
    cache = tmp_path / "cache"
    first = run(project, cache)
    assert first == {"result": expected(2.0, 3.0), "compiles": 1, "libcst": True, "jinja2": True}
    second = run(project, cache)
    assert second == {"result": expected(2.0, 3.0), "compiles": 0, "libcst": False, "jinja2": False}


def test_changes_invalidate(project, tmp_path):
    cache = tmp_path / "cache"
    assert run(project, cache)["compiles"] == 1
    write_project(project, scale=2.0, factor=5.0)  # a @jit function the kernel calls
    r = run(project, cache)
    assert r["result"] == expected(2.0, 5.0) and r["compiles"] == 1
    write_project(project, scale=7.0, factor=5.0)  # a frozen module constant
    r = run(project, cache)
    assert r["result"] == expected(7.0, 5.0) and r["compiles"] == 1
    assert run(project, cache)["compiles"] == 0


def test_concurrent_processes_build_once(project, tmp_path):
    cache = tmp_path / "cache"
    environ = dict(os.environ, TRANSPILE_CACHE_DIR=str(cache), PYTHONDONTWRITEBYTECODE="1")
    procs = [subprocess.Popen([sys.executable, "run.py"], cwd=project, env=environ, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    results = []
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))
    assert all(r["result"] == expected(2.0, 3.0) for r in results)
    assert sum(r["compiles"] for r in results) == 1
    entries = [d for d in cache.glob("*/*") if d.is_dir()]
    assert len(entries) == 1 and not list(cache.glob("*/.*"))  # no staging leftovers


def test_truncated_artifact_is_rebuilt(project, tmp_path):
    cache = tmp_path / "cache"
    run(project, cache)
    (lib,) = cache.glob("*/*/module.so")
    data = lib.read_bytes()
    lib.write_bytes(data[: len(data) // 3])
    r = run(project, cache)
    assert r == {"result": expected(2.0, 3.0), "compiles": 1, "libcst": True, "jinja2": True}
    assert run(project, cache)["compiles"] == 0


def test_cache_disabled_writes_nothing(project, tmp_path):
    cache = tmp_path / "cache"
    r = run(project, cache, TRANSPILE_CACHE="0")
    assert r["result"] == expected(2.0, 3.0) and r["compiles"] == 1
    assert not cache.exists() or not any(cache.iterdir())


def test_clear(project, tmp_path):
    cache = tmp_path / "cache"
    run(project, cache)
    code = textwrap.dedent(f"""
        import transpile
        print(len(transpile.cache.entries()), transpile.cache.clear(), len(transpile.cache.entries()))
    """)
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, TRANSPILE_CACHE_DIR=str(cache)),
                         capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["1", "1", "0"], out.stderr
    assert run(project, cache)["compiles"] == 1
