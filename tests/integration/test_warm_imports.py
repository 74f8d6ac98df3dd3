"""A warm start (the cache already holds the entry) loads what it needs and
nothing of the compiler: no libcst, Jinja2, parser, typer, lowering or C++
toolchain run, so its cost stays near `import numpy`'s (issue 14; the timing
itself is benchmarks/bench_core.py --only prepare, not a test)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np

# Modules only a build needs: a warm process must import none of them.
COMPILER_ONLY = ("libcst", "jinja2", "transpile.pipeline", "transpile.passes", "transpile.cxx", "transpile.library",
                 "transpile.frontend.parse", "transpile.frontend.to_hir", "transpile.frontend.bytecode",
                 "transpile.build.progress")

SCRIPT = textwrap.dedent('''
    import json, sys
    import numpy as np
    import transpile
    from transpile import jit

    @jit
    def f(a, b, c):
        return a * b + c

    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    r = f(a, a, a)
    print(json.dumps({
        "value": r.tolist(), "dtype": str(r.dtype), "compiles": transpile.compile_count(),
        "loaded": sorted(m for m in sys.modules if m.split(".")[0] in ("libcst", "jinja2")
                         or m.startswith("transpile.")),
    }))
''')


def _run(tmp_path, cache) -> dict:
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(cache), TRANSPILE_TIERED="0")
    out = subprocess.run([sys.executable, "warm.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_warm_start_imports_nothing_of_the_compiler(tmp_path):
    (tmp_path / "warm.py").write_text(SCRIPT)
    cache = tmp_path / "cache"
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    expected = (a * a + a).tolist()

    cold = _run(tmp_path, cache)
    assert cold["compiles"] == 1 and cold["value"] == expected and cold["dtype"] == "float32"
    assert "libcst" in cold["loaded"] and "transpile.pipeline" in cold["loaded"]  # the check below can see them

    warm = _run(tmp_path, cache)
    assert warm["compiles"] == 0 and warm["value"] == expected and warm["dtype"] == "float32"
    leaked = [m for m in warm["loaded"] if any(m == c or m.startswith(c + ".") for c in COMPILER_ONLY)]
    assert leaked == []
