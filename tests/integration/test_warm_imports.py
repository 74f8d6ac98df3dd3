"""A warm start (the cache already holds the entry) loads what it needs and
nothing of the compiler: no libcst, Jinja2, parser, typer, lowering or C++
toolchain run, nor the standard modules only a build needs, so its cost
stays near `import numpy`'s (issue 14; the timing itself is
benchmarks/bench_core.py --only prepare, not a test)."""
from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap

import numpy as np

# Modules only a build needs: a warm process must import none of them.  Nor those of what the script
# does not use (@jit_class, prange, device backends, tiered builds, methods of plain objects): each module
# costs ~0.15 ms.
COMPILER_ONLY = ("libcst", "jinja2", "transpile.pipeline", "transpile.passes", "transpile.cxx", "transpile.library",
                 "transpile.frontend.parse", "transpile.frontend.to_hir", "transpile.frontend.bytecode",
                 "transpile.build.progress", "transpile.classes", "transpile.parallel", "transpile.build.backends",
                 "transpile.build.tiers", "transpile.build.template_cache", "transpile.plain_methods")
# Standard modules a warm start does without (each costs ~1-3 ms to import): dataclasses (values.py),
# OpenSSL's hashlib and hmac (hashing.py; the library is not hashed again while its file identity is the
# signed one: build/cache.py), shutil and its compression modules (build/programs.py), the json package
# (jsontext.py), tempfile, threading, queue and subprocess (builds only).  Unless NumPy itself imports them.
BUILD_ONLY_STDLIB = ("dataclasses", "hashlib", "_hashlib", "hmac", "shutil", "bz2", "lzma", "json", "tempfile",
                     "random", "threading", "queue", "subprocess", "copy")

SCRIPT = textwrap.dedent('''
    import sys
    import numpy as np
    import transpile
    from transpile import jit

    @jit
    def f(a, b, c):
        return a * b + c

    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    r = f(a, a, a)
    BUILD_ONLY_STDLIB = {build_only!r}
    print(repr({
        "value": r.tolist(), "dtype": str(r.dtype), "compiles": transpile.compile_count(),
        "loaded": sorted(m for m in sys.modules if m.split(".")[0] in ("libcst", "jinja2")
                         or m.startswith("transpile.")),
        "stdlib": sorted(m for m in sys.modules if m in BUILD_ONLY_STDLIB),
    }))
''')


SCRIPT = SCRIPT.replace("{build_only!r}", repr(BUILD_ONLY_STDLIB))


def _run(tmp_path, cache) -> dict:
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(cache), TRANSPILE_TIERED="0")
    out = subprocess.run([sys.executable, "warm.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    return ast.literal_eval(out.stdout.strip().splitlines()[-1])


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
    assert set(cold["stdlib"]) >= {"hashlib", "json", "shutil", "tempfile"}  # the check below can see them
    by_numpy = subprocess.run([sys.executable, "-c", f"import sys, numpy; print([m for m in {BUILD_ONLY_STDLIB!r} "
                               "if m in sys.modules])"], capture_output=True, text=True, timeout=300)
    assert by_numpy.returncode == 0, by_numpy.stderr
    assert sorted(set(warm["stdlib"]) - set(eval(by_numpy.stdout))) == []
