"""The cache never runs code it cannot trust: planted libraries (with or
without forged metadata) are never loaded, a cache root or entry of another
user or writable by others is refused, the root is created 0700, and the
signing key must be private."""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys

import pytest

from . import cacheproj as cp

PLANTED = r'''
#include <stdio.h>
__attribute__((constructor)) static void planted(void) {
    FILE *f = fopen(MARKER, "w");
    if (f) { fputs("planted code ran", f); fclose(f); }
}
'''


def planted_library(tmp_path, marker) -> bytes:
    """A real shared library whose constructor writes the marker file."""
    src = tmp_path / "planted.c"
    src.write_text(PLANTED)
    out = tmp_path / "planted.so"
    # Stripped, and linked by gold where it runs (as modules are): small enough
    # to be written over a module's library in place.
    command = ["g++", "-x", "c", "-shared", "-fPIC", "-s", f'-DMARKER="{marker}"', str(src), "-o", str(out)]
    if subprocess.run(command + ["-fuse-ld=gold"], capture_output=True, timeout=60).returncode != 0:
        subprocess.run(command, check=True, timeout=60)
    return out.read_bytes()


def test_planted_library_is_never_loaded(tmp_path):
    proj, cache = cp.make(tmp_path), tmp_path / "cache"
    marker = tmp_path / "marker"
    planted = planted_library(tmp_path, marker)
    assert cp.run(proj, cache, "kernel", "twice_int")["compiles"] == 2
    # 1. the library swapped, metadata untouched; 2. metadata forged to match the planted library
    lib_only = cp.entry_of(cache, "kernel", "float64[::1], int")
    (lib_only / "module.so").write_bytes(planted)
    forged = cp.entry_of(cache, "twice", "int")
    (forged / "module.so").write_bytes(planted)
    meta = json.loads((forged / "meta.json").read_text())
    import hashlib

    meta.update(library_size=len(planted), library_sha256=hashlib.sha256(planted).hexdigest())
    (forged / "meta.json").write_text(json.dumps(meta))

    r = cp.run(proj, cache, "kernel", "twice_int")
    assert not marker.exists(), "the planted library's constructor ran"
    assert r["compiles"] == 2 and r["results"] == ["np.float64(20.0)", "6"]
    assert len(cp.set_aside(cache)) == 2  # kept for inspection, never run
    assert cp.run(proj, cache, "kernel", "twice_int")["compiles"] == 0
    assert not marker.exists()


def test_library_rewritten_in_place_with_its_times_restored_is_never_loaded(tmp_path):
    """A warm start hashes a library only when its file identity (inode, size,
    mtime, ctime) differs from the signed one: a library rewritten in place,
    same size and inode, mtime set back, still differs by its ctime."""
    proj, cache = cp.make(tmp_path), tmp_path / "cache"
    marker = tmp_path / "marker"
    assert cp.run(proj, cache, "kernel")["compiles"] == 1
    lib = cp.entry_of(cache, "kernel", "float64[::1], int") / "module.so"
    before = lib.stat()
    meta = json.loads((lib.parent / "meta.json").read_text())
    assert meta["library_stat"] == [before.st_ino, before.st_size, before.st_mtime_ns, before.st_ctime_ns]
    planted = planted_library(tmp_path, marker)
    assert len(planted) <= before.st_size
    with open(lib, "r+b") as f:  # the same file: padding after the ELF's contents does not stop it loading
        f.write(planted + bytes(before.st_size - len(planted)))
    os.utime(lib, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = lib.stat()
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (before.st_ino, before.st_size, before.st_mtime_ns)

    r = cp.run(proj, cache, "kernel")
    assert not marker.exists(), "the planted library's constructor ran"
    assert r["compiles"] == 1 and r["results"] == ["np.float64(20.0)"] and len(cp.set_aside(cache)) == 1
    assert cp.run(proj, cache, "kernel")["compiles"] == 0


def test_root_created_private(tmp_path):
    proj, cache = cp.make(tmp_path), tmp_path / "a" / "cache"
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(cache), PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run([sys.executable, "run.py", "twice_int"], cwd=proj, env=env, capture_output=True, text=True,
                         timeout=300, preexec_fn=lambda: os.umask(0))
    assert out.returncode == 0, out.stderr
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    for p in cache.glob("*/*/*"):  # the entry's files too: the compiler's output follows the umask
        assert stat.S_IMODE(p.stat().st_mode) & 0o022 == 0, p
    for d in cache.glob("*/*"):
        if d.is_dir():
            assert stat.S_IMODE(d.stat().st_mode) & 0o077 == 0, d
    link = tmp_path / "link-to-cache"  # a root reached through a symlink is judged by its target
    link.symlink_to(cache)
    r = cp.run(proj, link, "twice_int")
    assert r["compiles"] == 0 and r["warnings"] == []


def test_world_writable_root_is_refused(tmp_path):
    proj, cache = cp.make(tmp_path), tmp_path / "cache"
    cache.mkdir()
    cache.chmod(0o777)
    r = cp.run(proj, cache, "twice_int")
    assert r["compiles"] == 1 and r["results"] == ["6"]
    assert any("CacheWarning" in w and str(cache) in w and "writable by group and others" in w
               for w in r["warnings"]), r["warnings"]
    assert list(cache.iterdir()) == []  # nothing written there, nothing read
    assert cp.run(proj, cache, "twice_int")["compiles"] == 1


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a folder to another user needs root")
def test_foreign_owned_root_and_entry_are_refused(tmp_path):
    proj = cp.make(tmp_path)
    foreign = tmp_path / "foreign"
    foreign.mkdir(mode=0o700)
    os.chown(foreign, 65534, 65534)
    r = cp.run(proj, foreign, "twice_int")
    assert r["compiles"] == 1 and any("owned by uid 65534" in w for w in r["warnings"]), r["warnings"]
    assert list(foreign.iterdir()) == []

    cache = tmp_path / "cache"
    cp.run(proj, cache, "twice_int")
    entry = cp.entry_of(cache, "twice", "int")
    os.chown(entry, 65534, 65534)
    r = cp.run(proj, cache, "twice_int")
    assert r["compiles"] == 1 and r["results"] == ["6"]
    assert any("CacheWarning" in w and "owned by uid 65534" in w for w in r["warnings"]), r["warnings"]
    assert entry.is_dir() and not cp.set_aside(cache)  # refused, not deleted: it is not ours


def test_entry_writable_by_others_is_refused(tmp_path):
    proj, cache = cp.make(tmp_path), tmp_path / "cache"
    cp.run(proj, cache, "twice_int")
    entry = cp.entry_of(cache, "twice", "int")
    (entry / "module.so").chmod(0o666)
    r = cp.run(proj, cache, "twice_int")
    assert r["compiles"] == 1 and any("writable by group and others" in w for w in r["warnings"]), r["warnings"]


def test_signing_key_must_be_private(tmp_path):
    proj, cache, config = cp.make(tmp_path), tmp_path / "cache", tmp_path / "config"
    r = cp.run(proj, cache, "twice_int", TRANSPILE_CONFIG_DIR=str(config))
    key = config / "cache-key"
    assert r["warnings"] == [] and stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_bytes()) == 32
    assert cp.run(proj, cache, "twice_int", TRANSPILE_CONFIG_DIR=str(config))["compiles"] == 0
    key.chmod(0o644)
    r = cp.run(proj, cache, "twice_int", TRANSPILE_CONFIG_DIR=str(config))
    assert r["compiles"] == 1 and any("signing key" in w and "readable by others" in w for w in r["warnings"])
    key.chmod(0o600)
    # a new key (the old one lost): every entry fails its signature and is rebuilt, none is run
    shutil.rmtree(config)
    r = cp.run(proj, cache, "twice_int", TRANSPILE_CONFIG_DIR=str(config))
    assert r["compiles"] == 1 and r["warnings"] == [] and len(cp.set_aside(cache)) == 1
