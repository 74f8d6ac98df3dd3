"""The identity of transpile's own code (its Python modules, templates and C++
runtime), part of every cache key so that an upgrade never reuses stale
artifacts.

An installed copy carries it in a stamp file written once at build time
(setup.py hashes the files' contents into `_fingerprint.txt`): a warm start
reads one small file.  A source checkout or an editable install has no stamp
and is edited while in use, so each process stats its files instead (names,
sizes and modification times stand for the contents; about 170 stat calls).

Standard library only: setup.py loads this file by path, before the package
(and its compiled bridge) exists.
"""
from __future__ import annotations

import os

try:
    from .hashing import sha256  # SHA-256 without OpenSSL's import (a checkout's every warm start)
except ImportError:  # loaded by path (setup.py): no package
    from hashlib import sha256

STAMP = "_fingerprint.txt"
SUFFIXES = (".py", ".j2", ".h", ".hpp", ".c", ".cuh")


def _walk(roots):
    """(index of the root, path relative to it, directory entry) of every file
    that decides generated code; __pycache__ and hidden folders are skipped."""
    for index, root in enumerate(roots):
        root = os.fspath(root)
        pending = [""]  # folders relative to root, each ending in a separator but the root's own ""
        while pending:
            rel_dir = pending.pop()
            with os.scandir(os.path.join(root, rel_dir)) as it:
                for entry in it:
                    name = entry.name
                    if entry.is_dir():
                        if name != "__pycache__" and not name.startswith("."):
                            pending.append(rel_dir + name + os.sep)
                    elif name.endswith(SUFFIXES):
                        yield index, rel_dir + name, entry


def _entries(roots) -> list[tuple[str, os.DirEntry]]:
    """(path relative to its root, directory entry) of every such file, in a fixed order."""
    out = [(rel, entry) for _, rel, entry in _walk(roots)]
    out.sort(key=lambda item: (item[0], item[1].path))
    return out


def files(roots) -> list[tuple[str, str]]:
    """(path relative to its root, path) of every file that decides generated
    code, in a fixed order."""
    return [(rel, entry.path) for rel, entry in _entries(roots)]


def content_digest(roots) -> str:
    """Hash of the files' names and contents (build time: setup.py)."""
    h = sha256()
    for rel, path in files(roots):
        with open(path, "rb") as f:
            h.update(f"{rel}:{sha256(f.read()).hexdigest()}\n".encode())
    return h.hexdigest()


def stat_digest(roots) -> str:
    """Hash of the files' names, sizes and modification times (a checkout).
    Every warm start of a checkout pays this (about 230 files, one stat call
    each): each file's line is made as the walk meets it, then the lines are
    sorted and hashed once."""
    lines = []
    for index, rel, entry in _walk(roots):
        st = entry.stat()
        lines.append(f"{rel}:{index}:{st.st_size}:{st.st_mtime_ns}\n")
    lines.sort()
    return sha256("".join(lines).encode()).hexdigest()


def read_stamp(package_dir) -> str | None:
    """The digest setup.py wrote into an installed package, or None."""
    try:
        with open(os.path.join(package_dir, STAMP)) as f:
            text = f.read().strip()
    except OSError:
        return None
    return text or None


def fingerprint(package_dir, roots) -> str:
    return read_stamp(package_dir) or stat_digest(roots)
