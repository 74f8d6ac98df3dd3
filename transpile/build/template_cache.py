"""Jinja2's compiled templates, kept between processes so that a process's
first build does not compile templates/*.j2 again (~20-60 ms of every cold
start, more than rendering them takes).  They belong to the installed
templates, not to one cache: they are kept beside the signing key, as the
compiler's probe marker is (toolchain.py), and outlive any cache directory.

A compiled template is code (marshal'ed, run when it renders), so it is
trusted as a cache entry is: written 0600 into the user's private folder,
signed with the per-user key (build/trust.py), and read only when it is this
user's alone and its signature verifies; Jinja2 then uses it only while the
template's source is the one it was compiled from."""
from __future__ import annotations

import os
from pathlib import Path

import jinja2

from ..cxx import render
from ..hashing import compare_digest, hmac_sha256
from . import cache, trust

FOLDER = "templates"  # in trust.config_dir()
_SIGNATURE = 64  # hex HMAC-SHA256 ahead of the bytecode


class SignedBytecodeCache(jinja2.BytecodeCache):
    def __init__(self, folder: Path):
        self.folder = folder

    def _path(self, bucket) -> Path:
        return self.folder / f"{bucket.key}.j2c"

    @staticmethod
    def _signature(bucket, data: bytes) -> bytes:
        return hmac_sha256(trust.signing_key(), f"{bucket.key}\n".encode() + data).encode()

    def load_bytecode(self, bucket) -> None:
        try:
            f, _ = cache.open_owned(self._path(bucket))
            with f:
                raw = f.read()
        except (OSError, trust.Untrusted):
            return  # none yet, or not to be trusted: the template compiles (and the file is replaced)
        signature, data = raw[:_SIGNATURE], raw[_SIGNATURE:]
        if compare_digest(signature, self._signature(bucket, data)):
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket) -> None:
        data = bucket.bytecode_to_string()
        path = self._path(bucket)
        tmp = path.with_name(f".{path.name}-{os.getpid()}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(self._signature(bucket, data) + data)
            os.replace(tmp, path)  # readers see the old file or the whole new one
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def install() -> None:
    """Hands the renderer the cache of compiled templates (once per process);
    without a usable cache folder it compiles templates as before."""
    global _INSTALLED
    if _INSTALLED:
        return
    _INSTALLED = True
    if trust.key_problem():  # a folder others could write, or no key to sign with
        return
    folder = trust.config_dir() / FOLDER
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        trust.check_owned(folder)
    except (OSError, trust.Untrusted):
        return
    render.use_bytecode_cache(SignedBytecodeCache(folder))


_INSTALLED = False
