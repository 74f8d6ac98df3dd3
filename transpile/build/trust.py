"""What makes a cache entry trustworthy before its library is loaded.

A library in the cache runs native code in the user's process the moment it
is dlopen'ed (constructors), so nothing is loaded on the word of files an
attacker could write.  Two things stand between the cache and dlopen:

* ownership: the cache root and each entry must belong to this user and not
  be writable by group or others (else a shared or world-writable directory
  would let another user plant entries);
* a signature: each entry's metadata, which records the library's sha256, is
  signed with HMAC-SHA256 under a per-user key kept 0600 in the user's config
  directory.  A forged meta.json next to a planted library cannot carry a
  valid signature, and the library's hash is checked against the signed one
  before dlopen (unless its signed file identity shows it is the very file
  that was hashed: cache.library_identity).
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from ..hashing import compare_digest, hmac_sha256
from ..jsontext import dumps as json_dumps
from ..resources import user_dir

KEY_FILE = "cache-key"
KEY_BYTES = 32  # from os.urandom, what secrets.token_bytes returns (secrets costs a warm start ~1 ms)

_KEY: dict = {}  # key file path -> the key in use
_PROBLEMS: dict = {}  # key file path -> why it is not trusted


class Untrusted(Exception):
    """A path that belongs to another user or that others can write."""

    def __init__(self, path, why: str):
        super().__init__(f"{path}: {why}")
        self.path = path
        self.why = why


def config_dir() -> Path:
    env = os.environ.get("TRANSPILE_CONFIG_DIR")
    if env:
        return Path(env).expanduser()
    return user_dir("config")


def check_owned(path, st: os.stat_result | None = None) -> None:
    """Raises Untrusted unless path (not followed if a link) is this user's
    and not writable by group or others."""
    st = st or os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        raise Untrusted(path, "is a symbolic link")
    if st.st_uid != os.getuid():
        raise Untrusted(path, f"is owned by uid {st.st_uid}, not by this user (uid {os.getuid()})")
    if st.st_mode & 0o022:
        who = " and ".join(name for bit, name in ((0o020, "group"), (0o002, "others")) if st.st_mode & bit)
        raise Untrusted(path, f"is writable by {who} (mode {stat.S_IMODE(st.st_mode):o})")


def signing_key() -> bytes:
    """This user's signing key, created on first use.  When the key file (or
    its folder) could have been read or replaced by others, a key of this
    process only is used (key_problem() says why: the shared cache is then
    not used)."""
    path = str(config_dir() / KEY_FILE)
    if path not in _KEY:
        try:
            try:
                _KEY[path] = _read_key(Path(path))
            except FileNotFoundError:
                _KEY[path] = _create_key(Path(path))
        except (Untrusted, OSError) as exc:
            _KEY[path] = os.urandom(KEY_BYTES)
            _PROBLEMS[path] = str(exc)
    return _KEY[path]


def key_problem() -> str | None:
    """Why this user's signing key cannot be trusted, or None."""
    signing_key()
    return _PROBLEMS.get(str(config_dir() / KEY_FILE))


def _read_key(path: Path) -> bytes:
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    try:
        st = os.fstat(fd)
        check_owned(path, st)
        if st.st_mode & 0o077:
            raise Untrusted(path, f"is readable by others (mode {stat.S_IMODE(st.st_mode):o}); it must be 0600")
        check_owned(path.parent)
        data = os.read(fd, KEY_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) != KEY_BYTES:
        raise Untrusted(path, f"is not a {KEY_BYTES}-byte key (delete it: a new one is made, and the cache rebuilt)")
    return data


def _create_key(path: Path) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    data = os.urandom(KEY_BYTES)
    tmp = path.with_name(f".{KEY_FILE}-{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)
    try:
        os.link(tmp, path)  # never replaces a key another process made first
    except FileExistsError:
        os.unlink(tmp)
        return _read_key(path)
    os.unlink(tmp)
    return _read_key(path)


def signature(key: str, meta: dict) -> str:
    """The entry's signature: binds its metadata (library hash included) to
    its cache key, so an entry moved under another key is refused too."""
    body = json_dumps({k: v for k, v in meta.items() if k != "signature"}, sort_keys=True)
    return hmac_sha256(signing_key(), f"{key}\n{body}".encode())


def signed(key: str, meta: dict) -> bool:
    sig = meta.get("signature")
    return isinstance(sig, str) and compare_digest(sig, signature(key, meta))
