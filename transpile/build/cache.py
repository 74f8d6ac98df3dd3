"""The on-disk cache of compiled specializations.

Content-addressed: the key hashes everything that decides the generated
code and its build, computed before any parsing.  Entries are written to a
temporary directory and renamed into place under a file lock, so concurrent
processes never see half an entry or build the same one twice; a damaged
entry (checksum mismatch) is removed and rebuilt.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

META = "meta.json"
LIBRARY = "module.so"
SOURCE = "module.cpp"


def cache_root() -> Path:
    env = os.environ.get("TRANSPILE_CACHE_DIR") or os.environ.get("MS_COMPILER_CACHE_PATH")  # MindSpore's name
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("transpile", appauthor=False))


def make_key(parts: list) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def entry_dir(key: str, root: Path | None = None) -> Path:
    return (root or cache_root()) / key[:2] / key


def file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def load(key: str, root: Path | None = None) -> dict | None:
    """The entry's metadata if present and intact; a damaged entry is removed."""
    d = entry_dir(key, root)
    meta_path = d / META
    try:
        with open(meta_path) as f:
            meta = json.load(f)
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        _discard(d)
        return None
    lib = d / LIBRARY
    try:
        if lib.stat().st_size != meta.get("library_size") or file_digest(lib) != meta.get("library_sha256"):
            _discard(d)
            return None
    except OSError:
        _discard(d)
        return None
    meta["dir"] = str(d)
    return meta


def _discard(d: Path) -> None:
    shutil.rmtree(d, ignore_errors=True)


@contextmanager
def locked(key: str, root: Path | None = None):
    """An exclusive lock for building one entry (held across processes)."""
    base = (root or cache_root()) / key[:2]
    base.mkdir(parents=True, exist_ok=True)
    with open(base / f"{key}.lock", "a+") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)


def staging_dir(key: str, root: Path | None = None) -> Path:
    base = (root or cache_root()) / key[:2]
    base.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{key[:16]}-", dir=base))


def commit(key: str, staging: Path, meta: dict, root: Path | None = None) -> dict:
    """Moves a finished build into place atomically and returns its metadata."""
    lib = staging / LIBRARY
    meta = dict(meta, library_size=lib.stat().st_size, library_sha256=file_digest(lib), created=time.time(),
                python=sys.implementation.cache_tag)
    with open(staging / META, "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
    final = entry_dir(key, root)
    if final.exists():
        _discard(final)
    os.rename(staging, final)
    meta["dir"] = str(final)
    return meta


def entries(root: Path | None = None) -> list[dict]:
    root = root or cache_root()
    out = []
    if not root.is_dir():
        return out
    for sub in sorted(root.iterdir()):
        if not sub.is_dir():
            continue
        for d in sorted(sub.iterdir()):
            meta_path = d / META
            if d.is_dir() and meta_path.is_file():
                try:
                    with open(meta_path) as f:
                        meta = json.load(f)
                except (OSError, ValueError):
                    meta = {"damaged": True}
                meta["dir"] = str(d)
                meta["key"] = d.name
                meta["size"] = sum(p.stat().st_size for p in d.iterdir() if p.is_file())
                out.append(meta)
    return out


def clear(older_than_days: float | None = None, root: Path | None = None) -> int:
    """Removes entries (all, or those older than the given age); returns how many."""
    root = root or cache_root()
    removed = 0
    now = time.time()
    for meta in entries(root):
        if older_than_days is not None and now - meta.get("created", now) < older_than_days * 86400:
            continue
        _discard(Path(meta["dir"]))
        removed += 1
    return removed
