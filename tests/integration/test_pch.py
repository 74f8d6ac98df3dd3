"""The precompiled prelude of quick builds (build/pch.py): a quick build
compiles the module with it, its entry is checked as any cache entry (a
damaged one is set aside and rebuilt, the call still right; `cache clear`
removes them), and a precompiled header the compiler cannot use leaves the
module to compile without it."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np

from transpile import jit
from transpile.build import cache, cache_admin, pch, tiers, toolchain

SCRIPT = """
import sys
import numpy as np
from transpile import jit
from transpile.build import pch, toolchain


@jit
def fma(a, b, c):
    return a * b + c


x = np.arange(6, dtype=sys.argv[1]).reshape(2, 3)
got = fma(x, x, x)
assert got.dtype == x.dtype and np.array_equal(got, x * x + x), got
(spec,) = fma._specializations
cmd = toolchain.command(spec["dir"] + "/module.cpp", "/dev/null", fma.options, tier=toolchain.QUICK)
print(spec["tier"], "with-prelude" if "-include" in cmd else "without")
"""


def _run(tmp_path, dtype):
    script = tmp_path / "prelude_script.py"
    script.write_text(textwrap.dedent(SCRIPT))
    env = dict(os.environ, TRANSPILE_TIERED="1", TRANSPILE_PCH="1", TRANSPILE_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, str(script), dtype], env=env, capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def _headers(root):
    return sorted(p for p in (root / pch.FOLDER).glob(f"*/*/{pch.GCH}") if not p.parent.name.startswith("."))


def test_quick_build_uses_the_prelude_and_rebuilds_a_damaged_one(tmp_path):
    root = tmp_path / "cache"
    assert _run(tmp_path, "float32") == ["quick", "with-prelude"]
    (gch,) = _headers(root)
    with open(gch, "r+b") as f:  # same size, other bytes: only its hash tells
        f.seek(os.path.getsize(gch) // 2)
        f.write(b"\0damaged\0" * 64)
    assert _run(tmp_path, "int64") == ["quick", "with-prelude"]  # another quick build: the prelude rebuilt
    assert len(_headers(root)) == 1 and cache.load(gch.parent.name, root / pch.FOLDER, pch.GCH) is not None
    assert len(list((root / pch.FOLDER).glob(f"*/{cache.SET_ASIDE}*"))) == 1  # the damaged one, never used
    cache_admin.clear(root=root)  # `transpile cache clear`
    assert not (root / pch.FOLDER).exists()


def test_a_prelude_the_compiler_rejects_leaves_the_module_to_compile_without(tmp_path, monkeypatch):
    """A precompiled header made with other flags (here -O0): GCC will not use
    it, and the entry holds no header text to read instead, so the compile with
    it fails and the module compiles again without it."""
    monkeypatch.setenv("TRANSPILE_CACHE_DIR", str(tmp_path / "cache"))

    @jit
    def shifted(a, k):
        return a + k

    compiler = toolchain.find_compiler()
    quick_flags = toolchain.flags(shifted.options, toolchain.QUICK)
    other = tmp_path / "other"
    other.mkdir()
    (other / pch.HEADER).write_text("\n".join(pch.prelude.lines(shifted.options)) + "\n")
    other_flags = [f if f != "-O1" else "-O0" for f in quick_flags]
    subprocess.run([compiler.path, *other_flags, "-x", "c++-header", str(other / pch.HEADER), "-o",
                    str(other / pch.GCH)], check=True, capture_output=True)
    (other / pch.HEADER).unlink()
    key = pch._key(shifted.options, compiler, quick_flags)
    monkeypatch.setitem(pch._jobs, key, pch._Job(key, meta={"dir": str(other)}))
    monkeypatch.setenv("TRANSPILE_TIERED", "1")

    a = np.arange(4.0)
    assert np.array_equal(shifted(a, 0.5), a + 0.5)
    (spec,) = shifted._specializations
    assert spec["tier"] == "quick"
    cmd = toolchain.command(spec["dir"] + "/module.cpp", "/dev/null", shifted.options, tier=toolchain.QUICK)
    assert "-include" in cmd  # the build was offered the rejected header
    assert tiers.wait(timeout=600)  # no background build left to the next test
