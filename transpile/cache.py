"""The compile cache, for users: where it is, what is in it, and clearing it.

The directory is $TRANSPILE_CACHE_DIR, else the user's cache directory;
TRANSPILE_CACHE=0 turns the cache off (builds then last one process)."""
from __future__ import annotations

from .build.cache import cache_root as directory  # noqa: F401
from .build.cache import CacheError, CacheWarning  # noqa: F401
from .build.cache_admin import clear, entries, verify  # noqa: F401
