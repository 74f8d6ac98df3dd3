"""The disk cache for its users: every entry with its metadata and problem,
and removing entries and leftovers (`transpile cache list/verify/clear`,
transpile.cache).  Compiled code finds and writes entries through cache.py."""
from __future__ import annotations

import time
from pathlib import Path

from . import trust
from .cache import SET_ASIDE, Invalid, cache_root, read_entry, remove, stale_staging
from .pch import FOLDER as PCH_FOLDER


def _entry_dirs(root: Path):
    try:
        shards = sorted(s for s in root.iterdir() if len(s.name) == 2 and s.is_dir())
    except OSError:
        return
    for shard in shards:
        try:
            names = sorted(shard.iterdir())
        except OSError:
            continue
        for d in names:
            if not d.name.startswith(".") and not d.name.endswith(".lock"):
                yield d


def _size(d: Path) -> int:
    try:
        return sum(p.lstat().st_size for p in d.iterdir()) if d.is_dir() else d.lstat().st_size
    except OSError:
        return 0


def check(d: Path) -> tuple[dict, str | None]:
    """(metadata or {}, problem or None) of one entry folder, never raising;
    its library is hashed whatever its file identity says."""
    try:
        return read_entry(d, d.name, rehash=True), None
    except FileNotFoundError as exc:
        return {}, f"incomplete: {Path(exc.filename or d).name} is missing"
    except (NotADirectoryError, IsADirectoryError):
        return {}, "not an entry folder"
    except PermissionError as exc:
        return {}, f"unreadable: {exc.strerror}"
    except trust.Untrusted as exc:
        return {}, f"untrusted: {exc}"
    except Invalid as exc:
        return {}, f"invalid: {exc}"
    except OSError as exc:
        return {}, f"unreadable: {exc}"


def entries(root: Path | None = None) -> list[dict]:
    """Every entry with its metadata ('problem' set for one that would not be
    loaded), 'dir', 'key' and 'size'; never raises on a bad entry."""
    root = root or cache_root()
    out = []
    for d in _entry_dirs(root):
        meta, why = check(d)
        if why:
            meta = {"damaged": True, "problem": why}
        meta.update(dir=str(d), key=d.name, size=_size(d))
        out.append(meta)
    return out


def leftovers(root: Path | None = None) -> list[Path]:
    """Entries set aside and staging folders of dead processes."""
    root = root or cache_root()
    aside = []
    try:
        shards = [s for s in root.iterdir() if len(s.name) == 2 and s.is_dir()]
        aside = [p for p in root.iterdir() if p.name.startswith(SET_ASIDE)]  # shard folders that were files
    except OSError:
        shards = []
    for shard in shards:
        try:
            aside += [p for p in shard.iterdir() if p.name.startswith(SET_ASIDE)]
        except OSError:
            continue
    return sorted(aside) + stale_staging(root)


def clear(older_than_days: float | None = None, root: Path | None = None) -> int:
    """Removes entries (all, or those older than the given age) and, when
    clearing all, leftovers; returns how many entries."""
    root = root or cache_root()
    removed = 0
    now = time.time()
    for meta in entries(root):
        created = meta.get("created")
        if older_than_days is not None and isinstance(created, (int, float)) \
                and now - created < older_than_days * 86400:
            continue
        removed += remove(Path(meta["dir"]))
    if older_than_days is None:
        for p in leftovers(root):
            remove(p)
        remove(root / PCH_FOLDER)  # precompiled headers (build/pch.py): rebuilt by the next quick build
    return removed


def verify(root: Path | None = None, repair: bool = True) -> list[tuple[Path, str, str]]:
    """(path, problem, action) for each bad entry and leftover; with repair,
    invalid entries and leftovers are removed (they rebuild on next use);
    entries of other users or unreadable ones are only reported."""
    root = root or cache_root()
    report = []
    for d in _entry_dirs(root):
        _, why = check(d)
        if why is None:
            continue
        fixable = why.startswith(("invalid", "incomplete", "not an entry"))
        action = ("removed" if remove(d) else "could not remove") if repair and fixable else \
            "left alone (fix its owner or permissions, or remove it)" if not fixable else "would remove"
        report.append((d, why, action))
    for p in leftovers(root):
        why = "set aside (invalid)" if p.name.startswith(SET_ASIDE) else "staging folder of a dead process"
        report.append((p, why, ("removed" if remove(p) else "could not remove") if repair else "would remove"))
    return report
