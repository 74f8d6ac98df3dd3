"""Faults of the cache: damaged or foreign metadata is set aside and rebuilt
(never a crash, never another entry's result), `transpile cache list/clear`
survive bad entries and `verify` repairs them, a read-only cache or an
unreadable entry sends the build to a private directory without deleting
anything, a path blocked by a file is a clear error (or repaired inside the
cache), a build killed with SIGKILL leaves nothing behind after the next
compile, and an entry deleted during a build is retried."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import warnings

import pytest

from transpile.build import cache

from . import cacheproj as cp


def test_invalid_metadata_is_set_aside_and_rebuilt(tmp_path):
    proj, cache_dir = cp.make(tmp_path), tmp_path / "cache"
    calls = ("kernel", "twice_int", "twice_float")
    assert cp.run(proj, cache_dir, *calls)["compiles"] == 3
    kernel = cp.entry_of(cache_dir, "kernel", "float64[::1], int")
    as_int, as_float = cp.entry_of(cache_dir, "twice", "int"), cp.entry_of(cache_dir, "twice", "float")
    (kernel / "meta.json").write_text("[]")  # valid JSON, wrong contents
    for name in ("meta.json", "module.so", "module.cpp"):  # another entry's (signed) files: a float result
        shutil.copy(as_float / name, as_int / name)
    r = cp.run(proj, cache_dir, *calls)
    assert r["results"] == ["np.float64(20.0)", "6", "3.0"] and r["compiles"] == 2
    assert len(cp.set_aside(cache_dir)) == 2
    assert cp.run(proj, cache_dir, *calls)["compiles"] == 0


def test_cli_list_clear_verify_survive_bad_entries(tmp_path):
    proj, cache_dir = cp.make(tmp_path), tmp_path / "cache"
    cp.run(proj, cache_dir, "kernel", "twice_int")
    kernel = cp.entry_of(cache_dir, "kernel", "float64[::1], int")
    (kernel / "meta.json").write_text(json.dumps({"created": "yesterday", "arg_types": 3}))
    (cp.entry_of(cache_dir, "twice", "int") / "module.so").unlink()
    # The shard may already hold a real entry (keys hash the tmp path), so reuse it.
    (cache_dir / "ab").mkdir(exist_ok=True)
    (cache_dir / "ab" / ("ab" + "0" * 62)).write_text("a file where an entry folder belongs")
    listed = cp.cli(cache_dir, "list")
    assert listed.returncode == 0, listed.stderr
    assert "3 entries" in listed.stdout and "3 damaged" in listed.stdout
    assert "invalid: meta.json's signature does not verify" in listed.stdout
    assert "incomplete: module.so is missing" in listed.stdout

    dry = cp.cli(cache_dir, "verify", "--dry-run")
    assert dry.returncode == 0 and dry.stdout.count("would remove") == 3, dry.stdout
    fixed = cp.cli(cache_dir, "verify")
    assert fixed.returncode == 0 and fixed.stdout.count(": removed") == 3, fixed.stdout
    assert "0 entries checked" in fixed.stdout
    r = cp.run(proj, cache_dir, "kernel", "twice_int")
    assert r["compiles"] == 2 and r["warnings"] == []
    cleared = cp.cli(cache_dir, "clear")
    assert cleared.returncode == 0 and "removed 2 entries" in cleared.stdout


def test_read_only_cache_compiles_privately(tmp_path):
    proj, cache_dir = cp.make(tmp_path), tmp_path / "cache"
    cp.run(proj, cache_dir, "kernel")
    for d in [cache_dir, *cache_dir.iterdir()]:
        d.chmod(0o500)
    try:
        r = cp.run(proj, cache_dir, "kernel", "twice_int", plain_user=True)
    finally:
        for d in [cache_dir, *cache_dir.iterdir()]:
            d.chmod(0o700)
    # the entry present is used; the missing one is built privately, with a warning
    assert r["compiles"] == 1 and r["results"] == ["np.float64(20.0)", "6"]
    assert len(r["warnings"]) == 1 and "CacheWarning" in r["warnings"][0] and "private" in r["warnings"][0]


def test_unreadable_entry_is_left_alone(tmp_path):
    proj, cache_dir = cp.make(tmp_path), tmp_path / "cache"
    cp.run(proj, cache_dir, "twice_int")
    entry = cp.entry_of(cache_dir, "twice", "int")
    (entry / "meta.json").chmod(0o000)
    try:
        r = cp.run(proj, cache_dir, "twice_int", plain_user=True)
    finally:
        (entry / "meta.json").chmod(0o600)
    assert r["compiles"] == 1 and r["results"] == ["6"]
    assert any("Permission denied" in w for w in r["warnings"]), r["warnings"]
    assert (entry / "module.so").exists() and not cp.set_aside(cache_dir)  # not deleted
    assert cp.run(proj, cache_dir, "twice_int")["compiles"] == 0


def test_paths_blocked_by_files(tmp_path):
    proj = cp.make(tmp_path)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    for root in (blocker, blocker / "cache"):
        out = cp.run_raw(proj, root, "twice_int")
        assert out.returncode != 0
        last = out.stderr.strip().splitlines()[-1]
        assert last.startswith("transpile.build.cache.CacheError:") and str(root) in last, out.stderr
        assert "remove that file or set TRANSPILE_CACHE_DIR" in last
    # inside the cache (ours), a file where a folder belongs and a lock that is a folder are set aside
    cache_dir = tmp_path / "cache"
    cp.run(proj, cache_dir, "twice_int")
    entry = cp.entry_of(cache_dir, "twice", "int")
    shard = entry.parent
    shutil.rmtree(shard)
    shard.write_text("")
    r = cp.run(proj, cache_dir, "twice_int")
    assert r["compiles"] == 1 and r["warnings"] == []
    shutil.rmtree(entry)
    lock = shard / f"{entry.name}.lock"
    lock.unlink()
    lock.mkdir()
    r = cp.run(proj, cache_dir, "twice_int")
    assert r["compiles"] == 1 and r["warnings"] == [] and lock.is_file()


def test_staging_of_a_killed_build_is_removed(tmp_path):
    proj, cache_dir = cp.make(tmp_path), tmp_path / "cache"
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(cache_dir), PYTHONDONTWRITEBYTECODE="1")
    victim = subprocess.Popen([sys.executable, "run.py", "kernel"], cwd=proj, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    staging = []
    while not staging and time.time() < deadline and victim.poll() is None:
        staging = list(cache_dir.glob(f"*/.*-{victim.pid}-*"))
        time.sleep(0.005)
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    assert staging, "the build finished before it could be killed"
    assert staging[0].exists()
    r = cp.run(proj, cache_dir, "twice_int")  # the next compile (of anything) sweeps it
    assert r["compiles"] == 1 and not staging[0].exists()


def test_entry_deleted_during_a_build_is_retried(tmp_path, monkeypatch):
    root = tmp_path / "cache"
    monkeypatch.setenv("TRANSPILE_CACHE_DIR", str(root))
    key = "cd" + "1" * 62
    builds = []

    def build(staging):
        (staging / cache.LIBRARY).write_bytes(b"not loaded by this test")
        builds.append(staging)
        if len(builds) == 1:  # what a concurrent `transpile cache clear` does
            shutil.rmtree(root / key[:2])
        return {"symbol": "tr_entry_x", "result_desc": [1]}

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a retry in place: no warning, no private directory
        meta = cache.fetch(key, build, root=cache.usable_root())
    assert len(builds) == 2 and meta["dir"] == str(root / key[:2] / key)
    assert cache.load(key, root)["library_sha256"] == meta["library_sha256"]

    def always_cleared(staging):
        (staging / cache.LIBRARY).write_bytes(b"x")
        if staging.is_relative_to(root):
            shutil.rmtree(staging.parent)
        return {"symbol": "tr_entry_x", "result_desc": [1]}

    with pytest.warns(cache.CacheWarning, match="private directory"):
        meta = cache.fetch("cd" + "2" * 62, always_cleared, root=cache.usable_root())
    assert meta["dir"].startswith(str(cache.private_root()))
