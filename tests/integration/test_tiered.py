"""Tiered compilation (build/tiers.py): the first call runs on a quick build,
the optimized build compiles in the background and is swapped in; both are
cache entries, so a later process starts on the optimized one; a process
that exits while the background build runs exits cleanly and leaves the
cache sound.  The rest of the suite runs with TRANSPILE_TIERED=0 (conftest)."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from transpile import jit
from transpile.build import cache_admin, tiers

from ..conftest import assert_same

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the checkout


def step(pos, vel, dt):
    n = pos.shape[0]
    acc = np.zeros_like(pos)
    for i in range(n):
        for j in range(n):
            if i != j:
                d0 = pos[j, 0] - pos[i, 0]
                d1 = pos[j, 1] - pos[i, 1]
                r2 = d0 * d0 + d1 * d1 + 0.01
                inv = 1.0 / (r2 * np.sqrt(r2))
                acc[i, 0] += d0 * inv
                acc[i, 1] += d1 * inv
    vel += dt * acc
    pos += dt * vel
    return pos, vel


def _inputs():
    rng = np.random.default_rng(7)
    return rng.random((16, 2)), rng.random((16, 2)) - 0.5, 0.01


@pytest.fixture
def tiered_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("TRANSPILE_TIERED", "1")
    root = tmp_path / "cache"
    monkeypatch.setenv("TRANSPILE_CACHE_DIR", str(root))
    return root


def test_quick_build_first_then_optimized_swapped_in(tiered_cache):
    f = jit(jit_level="O1")(step)
    args = _inputs()
    expected = step(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    got = f(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    assert_same(got, expected)
    (types,) = f.tiers
    assert f.tiers[types] == "quick"  # the call returned after the quick build
    assert tiers.wait(timeout=600)
    assert f.tiers[types] == "optimized"  # swapped in: later calls run the optimized entry
    args2 = _inputs()
    got = f(*args2)
    assert_same(got, step(*_inputs()))
    assert got[0] is args2[0] and got[1] is args2[1]  # the caller's arrays, updated in place, as in CPython
    built = sorted(e.get("tier") for e in cache_admin.entries(tiered_cache) if e.get("qualname") == step.__qualname__)
    assert built == ["optimized", "quick"]


SCRIPT = """\
import sys
import numpy as np
import transpile
from transpile import jit
from transpile.build import tiers


@jit(jit_level="O1")
def scale(a, k):
    s = 0.0
    for i in range(a.shape[0]):
        a[i] = a[i] * k
        s += a[i]
    return s


a = np.arange(5.0)
assert scale(a, 2.0) == 20.0 and a[4] == 8.0
(tier,) = scale.tiers.values()
print(tier, transpile.compile_count())
if sys.argv[1] == "wait":
    assert tiers.wait(timeout=600)
    (tier,) = scale.tiers.values()
    print(tier)
if sys.argv[1] == "stop":  # exits while the optimized build compiles
    import time

    deadline = time.monotonic() + 300
    while not tiers._state.running and time.monotonic() < deadline:
        time.sleep(0.01)
    compilers = list(tiers._state.running)
    tiers._state.stop()  # what atexit runs
    print(len(compilers), "worker-alive" if tiers._state.thread.is_alive() else "worker-done",
          all(p.poll() is not None for p in compilers))
"""


def _run(tmp_path, root, mode):
    script = tmp_path / "tiered_script.py"
    script.write_text(textwrap.dedent(SCRIPT))
    env = dict(os.environ, TRANSPILE_TIERED="1", TRANSPILE_CACHE_DIR=str(root))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
    proc = subprocess.run([sys.executable, str(script), mode], env=env, capture_output=True, text=True,
                          timeout=900)  # a hang fails the test instead of the run
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def test_exit_ends_the_background_worker_with_its_compiler(tmp_path):
    """stop() kills the optimized build's compiler and the worker ends, rather
    than going back to its queue while stop() waits out its 2 s join."""
    assert _run(tmp_path, tmp_path / "cache", "stop") == ["quick", "1", "1", "worker-done", "True"]


def test_compiler_started_after_stop_is_killed():
    """A background compile that starts as the process exits (after stop() has
    looked for running compilers) is killed when it is tracked."""
    state = tiers._State()
    state.stop()
    proc = subprocess.Popen(["sleep", "60"], start_new_session=True)
    state.track(proc)
    assert proc.wait(timeout=60) < 0  # killed by a signal, not run for a minute


def test_exit_during_background_build_then_later_process_starts_optimized(tmp_path):
    root = tmp_path / "cache"
    # exits while the optimized build runs: no hang, and the cache stays sound
    assert _run(tmp_path, root, "exit") == ["quick", "1"]
    assert [e for e in cache_admin.entries(root) if e.get("problem")] == []
    assert [why for _, why, _ in cache_admin.verify(root, repair=False) if why != "staging folder of a dead process"] == []
    # the quick entry is reused (nothing compiles in the foreground) and the optimized one is built
    assert _run(tmp_path, root, "wait") == ["quick", "0", "optimized"]
    # a later process starts on the optimized build
    assert _run(tmp_path, root, "exit") == ["optimized", "0"]
    assert sorted(e.get("tier") for e in cache_admin.entries(root)) == ["optimized", "quick"]
    assert [e for e in cache_admin.entries(root) if e.get("problem")] == []
