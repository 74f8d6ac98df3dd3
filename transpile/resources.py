"""Where the package's data lives: templates/ and runtime_cpp/ are shipped
inside the package when installed and sit at the project root in a source
checkout."""
from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def _find(name: str) -> Path:
    for candidate in (PACKAGE_DIR / name, PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"transpile installation is incomplete: no {name}/ directory next to {PACKAGE_DIR}")


def templates_dir() -> Path:
    return _find("templates")


def runtime_dir() -> Path:
    """The directory to put on the include path (it contains transpile_rt/)."""
    return _find("runtime_cpp")


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """Hash of transpile's own code, templates and C++ runtime: part of every
    cache key, so upgrading transpile never reuses stale artifacts.  Names,
    sizes and modification times stand for the contents: a warm start pays
    for ~80 stat calls instead of reading every file."""
    h = hashlib.sha256()
    roots = [PACKAGE_DIR, templates_dir(), runtime_dir()]
    seen = set()
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for fname in sorted(filenames):
                if not fname.endswith((".py", ".j2", ".h", ".hpp", ".c", ".cuh")):
                    continue
                path = os.path.join(dirpath, fname)
                real = os.path.realpath(path)
                if real in seen:
                    continue
                seen.add(real)
                st = os.stat(real)
                h.update(f"{os.path.relpath(path, root)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return h.hexdigest()
