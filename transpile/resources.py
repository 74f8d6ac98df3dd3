"""Where the package's data lives: templates/ and runtime_cpp/ are shipped
inside the package when installed and sit at the project root in a source
checkout."""
from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


@lru_cache(maxsize=None)  # on every cache key (flags name the runtime's folder): no stat calls each time
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
    """Identity of transpile's own code, templates and C++ runtime: part of
    every cache key, so upgrading transpile never reuses stale artifacts
    (transpile/fingerprint.py: a stamp written at install time, or the files'
    sizes and modification times in a source checkout)."""
    from . import fingerprint as fp

    return fp.fingerprint(PACKAGE_DIR, [PACKAGE_DIR, templates_dir(), runtime_dir()])


def user_dir(kind: str) -> Path:
    """platformdirs.user_{kind}_dir("transpile", appauthor=False), kind "cache"
    or "config".  On Linux the XDG rule is applied here: importing platformdirs
    costs ~5 ms, and every warm start asks for the signing key's folder
    (tests/unit/test_user_dirs.py checks that both give the same folder)."""
    if sys.platform.startswith("linux"):
        base = os.environ.get(f"XDG_{kind.upper()}_HOME", "")
        if not os.path.isabs(base):  # unset, empty or relative: the XDG default
            base = os.path.expanduser(f"~/.{kind}")
        return Path(base, "transpile")
    import platformdirs

    return Path(getattr(platformdirs, f"user_{kind}_dir")("transpile", appauthor=False))
