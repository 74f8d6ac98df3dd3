"""A cache entry carries everything it needs to run: a function with a JIT
Fallback statement, compiled in one place, is called after its project is
moved (the statement's source comes from the entry, not the old path)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

KERNEL = '''
import statistics
from transpile import jit


@jit
def kernel(n):
    s = 0.0
    for i in range(n):
        m = statistics.median([float(i), 1.0, 3.0])
        s += m
    return s
'''

RUNNER = '''
import json, warnings
warnings.simplefilter("ignore")
import kern
import transpile.dispatcher as d
print(json.dumps({"result": kern.kernel(6), "expected": kern.kernel.py_func(6), "compiles": d.COMPILE_COUNT}))
'''


def run(path, cache) -> dict:
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(cache), PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run([sys.executable, "run.py"], cwd=path, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_moved_project_runs_its_fallback_statement(tmp_path):
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "kern.py").write_text(KERNEL)
    (proj / "run.py").write_text(RUNNER)
    cache = tmp_path / "cache"
    first = run(proj, cache)
    assert first["compiles"] == 1 and first["result"] == first["expected"]
    moved = tmp_path / "elsewhere" / "proj2"
    moved.parent.mkdir()
    shutil.move(str(proj), str(moved))
    second = run(moved, cache)
    assert second == {"result": first["expected"], "expected": first["expected"], "compiles": 0}
