"""A process that finds only the quick build of a specialization in the cache
(earlier processes exited before its optimized build was done) does not start
that build's compiler during its first tiers.WARM_DELAY seconds: a short
script pays no background compile at all.  tiers.wait() starts it at once, and
the build then lands in the cache for later processes."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

SCRIPT = """
import sys
import time
import numpy as np
import transpile
from transpile import jit
from transpile.build import tiers


@jit
def shift(a, k):
    return a + k


tiers.WARM_DELAY = 60.0  # the deferral, not its length, is under test: no race with a slow machine
if sys.argv[1] == "first":
    # a process that exits before its optimized build is done; on a fast idle
    # machine that build can finish within the sleep below, so none is queued
    tiers._state.stopping = True
r = shift(np.arange(4.0), 1.5)
assert r.tolist() == [1.5, 2.5, 3.5, 4.5]
(tier,) = shift.tiers.values()
time.sleep(0.3)  # without the deferral, a background build would have started by now
# a compiler run (the quick build, or a background build already started) imports subprocess
print(tier, transpile.compile_count(), "compiler-ran" if "subprocess" in sys.modules else "no-compiler")
if sys.argv[1] == "wait":
    assert tiers.wait(timeout=600)
    (tier,) = shift.tiers.values()
    print(tier)
"""


def _run(tmp_path, mode):
    script = tmp_path / "deferral.py"
    script.write_text(textwrap.dedent(SCRIPT))
    env = dict(os.environ, TRANSPILE_TIERED="1", TRANSPILE_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, str(script), mode], env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def test_quick_entry_from_cache_defers_its_optimized_build(tmp_path):
    assert _run(tmp_path, "first") == ["quick", "1", "compiler-ran"]  # built here; exits before its optimized build
    assert _run(tmp_path, "exit") == ["quick", "0", "no-compiler"]  # loaded: no compiler while the delay runs
    assert _run(tmp_path, "wait") == ["quick", "0", "no-compiler", "optimized"]  # wait() starts it at once
    assert _run(tmp_path, "exit") == ["optimized", "0", "no-compiler"]  # later processes start optimized
