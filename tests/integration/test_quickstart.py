"""examples/quickstart.py, the README's first command, runs from an empty
cache: every result matches plain Python, it prints the cache directory it
used, and its builds (made several at once up front) serve the sections'
first calls; a second run compiles nothing."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "quickstart.py"


def _run(cache: Path) -> str:
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(cache))
    proc = subprocess.run([sys.executable, str(SCRIPT)], env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_quickstart_from_an_empty_cache_then_warm(tmp_path):
    cache = tmp_path / "cache"
    out = _run(cache)
    assert f"cache: {cache}\n" in out
    assert re.search(r"built 6 specializations in .* \(6 compiled, 0 loaded from the cache", out)
    assert out.count("matches plain Python") == 5 and "all results match plain Python" in out
    assert "run this script again" in out
    again = _run(cache)
    assert re.search(r"built 6 specializations in .* \(0 compiled, 6 loaded from the cache", again)
    assert "run this script again" not in again
