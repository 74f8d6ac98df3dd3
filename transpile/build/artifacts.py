"""Compiled specializations as bytes that travel (inside a pickled @jit
function): the library, its C++ source and its metadata, with the platform
they run on and the library's sha256.

A receiver on the same platform writes an artifact into its own cache only
after the bytes hash to what the sender recorded (and signs the entry with
its own key); on another platform, CPU or bridge ABI the artifact is ignored
and the receiver compiles (or finds its own cache entry)."""
from __future__ import annotations

import hashlib
import sysconfig
from functools import lru_cache
from pathlib import Path

from . import cache, meta_schema, trust
from .toolchain import native_cpu

FORMAT = 1


@lru_cache(maxsize=1)
def platform_tag() -> str:
    """Where a library runs: OS/arch, bridge ABI, and the CPU's features
    (JIT code is built with -march=native at jit_level O1)."""
    from .. import _runtime

    return f"{sysconfig.get_platform()}/abi{_runtime.ABI_VERSION}/cpu-{native_cpu()}"


def pack(entry: str) -> dict | None:
    """The artifact of a cache entry folder (verified as for loading), or None
    when it is not a cache entry (prebuilt, gone, damaged)."""
    d = Path(entry)
    try:
        meta = cache.read_entry(d, d.name)
        library = (d / cache.LIBRARY).read_bytes()
        source = (d / cache.SOURCE).read_text()
    except (OSError, cache.Invalid, trust.Untrusted):
        return None
    if hashlib.sha256(library).hexdigest() != meta["library_sha256"]:
        return None  # replaced since it was read
    for name in cache.COMMITTED:
        meta.pop(name, None)
    return {"format": FORMAT, "platform": platform_tag(), "key": d.name, "meta": meta, "library": library,
            "sha256": hashlib.sha256(library).hexdigest(), "source": source}


class Rejected(Exception):
    """An artifact that must not be used here."""


def install(artifact: dict, valid=None) -> dict:
    """The cache entry of an artifact built for this platform: the existing
    one when it holds the same library, else the verified bytes written as a
    new entry.  Raises Rejected (another platform, damaged bytes)."""
    if not isinstance(artifact, dict) or artifact.get("format") != FORMAT:
        raise Rejected("an artifact of another transpile version")
    if artifact.get("platform") != platform_tag():
        raise Rejected(f"built for {artifact.get('platform')}, this machine is {platform_tag()}")
    library, digest, key = artifact.get("library"), artifact.get("sha256"), artifact.get("key")
    if not isinstance(library, bytes) or hashlib.sha256(library).hexdigest() != digest:
        raise Rejected("the library's bytes do not hash to the sha256 the sender recorded")
    if not meta_schema.is_hex64(key):
        raise Rejected("the artifact's cache key is malformed")
    why = meta_schema.problem(dict(artifact.get("meta") or {}, library_size=len(library), library_sha256=digest,
                                   created=0, signature=""))
    if why:
        raise Rejected(why)

    def write(staging: Path) -> dict:
        (staging / cache.LIBRARY).write_bytes(library)
        (staging / cache.SOURCE).write_text(artifact.get("source") or "")
        return dict(artifact["meta"])

    def same(meta: dict) -> bool:
        return meta["library_sha256"] == digest and (valid is None or valid(meta))

    meta = cache.fetch(key, write, valid=same)
    if meta["library_sha256"] != digest:
        raise Rejected("the cache holds another library under the artifact's key")
    return meta
