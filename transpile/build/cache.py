"""The on-disk cache of compiled specializations.

Content-addressed: the key hashes everything that decides the generated
code and its build, computed before any parsing.  Entries are written to a
staging directory and renamed into place under a file lock, so concurrent
processes never see half an entry or build the same one twice.

Nothing is loaded on trust (build/trust.py): the root and each entry must be
this user's and not writable by others, and an entry's signed metadata must
verify and the library's hash match it before anything is dlopen'ed.  An
invalid entry is set aside (renamed, never run) and rebuilt; an entry that
cannot be read for permission reasons is left alone and the build goes to a
private directory, as it does when the cache is read-only.
"""
from __future__ import annotations

import errno
import os
import sys
import time
import warnings
from contextlib import contextmanager
from pathlib import Path

from ..hashing import sha256
from ..jsontext import dumps as json_dumps, loads as json_loads
from ..resources import user_dir
from . import meta_schema, trust

META = "meta.json"
LIBRARY = "module.so"
SOURCE = "module.cpp"
SET_ASIDE = ".invalid-"  # prefix of entries set aside (inside the shard folder)
# the fields commit() adds to an entry's metadata: an entry made from another's metadata gets its own
COMMITTED = ("dir", "library_size", "library_sha256", "library_stat", "created", "python", "signature")

# Specializations and accessor modules translated and compiled by this process
# (not loaded from the cache), counted by whoever compiles: read by tests and
# tooling as transpile.dispatcher.COMPILE_COUNT.
COMPILE_COUNT = 0


class CacheWarning(RuntimeWarning):
    """The cache cannot be used as configured; builds go to a private directory."""


class CacheError(OSError):
    """The cache cannot be used and nothing sensible can replace it."""


class Invalid(Exception):
    """An entry that exists but must not be run."""


def cache_root() -> Path:
    env = os.environ.get("TRANSPILE_CACHE_DIR") or os.environ.get("MS_COMPILER_CACHE_PATH")  # MindSpore's name
    if env:
        return Path(env).expanduser()
    return user_dir("cache")


_ROOTS: dict = {}  # configured root -> the root to use (itself, or the private one)


def usable_root() -> Path:
    """The configured root, created 0700 and checked; a private directory
    (with a CacheWarning) when it belongs to another user, others can write
    it, or the signing key cannot be trusted."""
    configured = cache_root()
    known = _ROOTS.get(configured)
    if known is not None:
        return known
    try:
        _make_private_dir(configured)
        trust.check_owned(configured, os.stat(configured))  # a symlinked root is judged by its target
        root = configured
    except trust.Untrusted as exc:
        _warn(f"the compile cache is not used: {exc}", "make it yours and private (chmod 700), or set "
              "TRANSPILE_CACHE_DIR to a directory of your own")
        root = private_root()
    except (FileExistsError, NotADirectoryError):
        raise CacheError(f"the compile cache {configured} cannot be created: it or a folder above "
                         "it is a file; remove that file or set TRANSPILE_CACHE_DIR to a directory") from None
    except OSError as exc:  # read-only file system, no permission to create it
        _warn(f"the compile cache {configured} cannot be created ({exc.strerror})", "check its permissions, or set "
              "TRANSPILE_CACHE_DIR")
        root = private_root()
    if root == configured:
        problem = trust.key_problem()
        if problem:
            _warn(f"the cache's signing key cannot be used: {problem}", f"remove {trust.config_dir() / trust.KEY_FILE} "
                  "and its folder's write access for others; a new key is made and the cache rebuilt")
            root = private_root()
    _ROOTS[configured] = root
    return root


def _make_private_dir(path: Path) -> None:
    if path.is_dir():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        if not path.is_dir():
            raise
        return
    os.chmod(path, 0o700)  # whatever the umask


_PRIVATE_ROOT = None


def private_root() -> Path:
    """A directory of this process (0700), removed at exit."""
    global _PRIVATE_ROOT
    if _PRIVATE_ROOT is None:
        import atexit
        import shutil
        import tempfile

        _PRIVATE_ROOT = Path(tempfile.mkdtemp(prefix="transpile-private-"))
        atexit.register(shutil.rmtree, _PRIVATE_ROOT, True)
    return _PRIVATE_ROOT


def _warn(message: str, fix: str) -> None:
    warnings.warn(CacheWarning(f"{message}; compiling into a private directory of this process instead ({fix})"),
                  stacklevel=3)


def make_key(parts: list) -> str:
    return sha256(json_dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def entry_dir(key: str, root: Path | None = None) -> Path:
    return (root or usable_root()) / key[:2] / key


def file_digest(path: Path) -> str:
    with open(path, "rb") as f:
        return _digest(f)


def _digest(f) -> str:
    import hashlib  # OpenSSL's SHA-256: a library's megabyte hashes several times faster than with _sha256

    h = hashlib.sha256()
    for block in iter(lambda: f.read(1 << 20), b""):
        h.update(block)
    return h.hexdigest()


def library_identity(st: os.stat_result) -> list:
    """What the signed metadata records of the library file beside its
    sha256: inode, size, modification and change time.  No write to the
    file keeps them: the kernel sets the change time (ctime) on every write,
    chmod, rename or utime, and nothing but the clock can set it back (root
    only); a file put in its place is another inode.  A library with the
    signed identity is the file that was hashed and signed, so loading it
    does not read and hash it again; any other is hashed, as an entry signed
    before identities were recorded, or a copied cache, always is.  (The
    device is left out: some file systems number it anew at each mount.)"""
    return [st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def read_entry(d: Path, key: str, rehash: bool = False, library: str = LIBRARY) -> dict:
    """The metadata of the entry in d, checked before its library may be
    loaded.  FileNotFoundError: no entry; PermissionError: unreadable (left
    alone); trust.Untrusted: another user's or writable by others; Invalid:
    damaged, forged or from another version (to be set aside).  The library
    is hashed unless its file identity is the signed one (library_identity);
    rehash: always (`transpile cache verify`).  library: the file the entry
    signs (build/pch.py's entries hold a precompiled header)."""
    trust.check_owned(d)
    with open_owned(d / META)[0] as f:
        raw = f.read()
    try:
        meta = json_loads(raw)
    except ValueError as exc:
        raise Invalid(f"meta.json is not JSON ({exc})") from None
    if not isinstance(meta, dict):
        raise Invalid(meta_schema.problem(meta))
    if not trust.signed(key, meta):
        raise Invalid("meta.json's signature does not verify (written by someone else, or under another key)")
    why = meta_schema.problem(meta)
    if why:
        raise Invalid(why)
    lib, st = open_owned(d / library)
    with lib:
        if st.st_size != meta["library_size"]:
            raise Invalid(f"{library} has {st.st_size} bytes, the signed metadata says {meta['library_size']}")
        if (rehash or meta.get("library_stat") != library_identity(st)) and _digest(lib) != meta["library_sha256"]:
            raise Invalid(f"{library}'s sha256 differs from the signed one")
    meta["dir"] = str(d)
    return meta


def open_owned(path: Path):
    """Opens a file of an entry for reading, refusing links and files that
    are not this user's alone to write: (file, its stat)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    try:
        st = os.fstat(fd)
        trust.check_owned(path, st)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb"), st


def load(key: str, root: Path | None = None, library: str = LIBRARY) -> dict | None:
    """The entry's metadata if present and sound; an invalid entry is set
    aside and None returned.  Raises PermissionError or trust.Untrusted for an
    entry that must be left alone (fetch then builds privately)."""
    d = entry_dir(key, root)
    try:
        return read_entry(d, key, library=library)
    except (FileNotFoundError, NotADirectoryError):
        if d.exists() and not d.is_dir():
            set_aside(d)
        return None
    except Invalid:
        set_aside(d)
        return None


def set_aside(d: Path) -> None:
    """Renames an invalid entry out of the way (kept for inspection until
    `transpile cache clear`/`verify`); it is never loaded again."""
    try:
        os.rename(d, d.with_name(f"{SET_ASIDE}{d.name}-{time.time_ns()}"))
    except FileNotFoundError:
        pass  # another process set it aside first


def _shard(key: str, root: Path) -> Path:
    """The entry's parent folder; a file in its way (inside our own root) is
    set aside."""
    base = root / key[:2]
    try:
        base.mkdir(exist_ok=True, mode=0o700)
    except FileExistsError:
        set_aside(base)
        base.mkdir(exist_ok=True, mode=0o700)
    return base


def _acquire(key: str, root: Path) -> int:
    """Takes the entry's build lock (a folder in its place is set aside)."""
    lock = _shard(key, root) / f"{key}.lock"
    if lock.is_dir() and not lock.is_symlink():
        set_aside(lock)
    import fcntl  # builds only: a warm start locks nothing

    fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except BaseException:
        os.close(fd)
        raise
    return fd


@contextmanager
def locked(key: str, root: Path | None = None):
    """An exclusive lock for building one entry (held across processes)."""
    fd = _acquire(key, root or usable_root())
    try:
        yield
    finally:
        os.close(fd)  # releases the lock


def staging_dir(key: str, root: Path | None = None) -> Path:
    """A fresh build folder, named with this process's id so that one left by
    a killed build can be recognised and removed (remove_stale)."""
    import tempfile  # builds only, as shutil: a warm start imports neither (~3 ms)

    base = _shard(key, root or usable_root())
    return Path(tempfile.mkdtemp(prefix=f".{key[:16]}-{os.getpid()}-", dir=base))


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stale_staging(root: Path) -> list[Path]:
    """Staging folders whose building process is gone (killed mid-build)."""
    out = []
    try:
        shards = [s for s in root.iterdir() if len(s.name) == 2 and s.is_dir()]
    except OSError:
        return out
    for shard in shards:
        try:
            names = [p for p in shard.iterdir() if p.name.startswith(".") and not p.name.startswith(SET_ASIDE)]
        except OSError:
            continue
        for p in names:
            parts = p.name.split("-")
            if len(parts) >= 3 and parts[1].isdigit() and not _pid_alive(int(parts[1])):
                out.append(p)
    return out


def remove_stale(root: Path) -> int:
    import shutil

    stale = stale_staging(root)
    for p in stale:
        shutil.rmtree(p, ignore_errors=True)
    return len(stale)


def remove(path: Path) -> bool:
    """Removes an entry or leftover; False when it could not be (permissions)."""
    import shutil

    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    except FileNotFoundError:
        pass
    except OSError:
        return False
    return True


def commit(key: str, staging: Path, meta: dict, root: Path | None = None, library: str = LIBRARY) -> dict:
    """Moves a finished build into place atomically and returns its metadata."""
    import json  # a build's: the metadata indented for its readers (the warm path reads it with jsontext)

    def private(p: Path) -> None:  # whatever the umask (0 makes the compiler's output world-writable)
        os.chmod(p, p.stat().st_mode & 0o755)

    for p in staging.iterdir():
        private(p)
    os.chmod(staging, 0o700)
    lib = staging / library
    st = lib.stat()  # after its last chmod: renaming the folder changes none of it
    meta = dict(meta, library_size=st.st_size, library_sha256=file_digest(lib), library_stat=library_identity(st),
                created=time.time(), python=sys.implementation.cache_tag)
    meta["signature"] = trust.signature(key, meta)
    with open(staging / META, "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
    private(staging / META)
    final = entry_dir(key, root)
    if final.exists():  # loaded, sound, but stale (its dependencies changed)
        remove(final)
    os.rename(staging, final)
    meta["dir"] = str(final)
    return meta


_PRIVATE_ERRNOS = {errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT}


def fetch(key: str, build, valid=None, root: Path | None = None, library: str = LIBRARY) -> dict:
    """The entry of key: loaded when present, sound and valid(meta), else
    built by build(staging_folder) -> metadata and committed.

    An entry that cannot be trusted or read, and a cache that cannot be
    written, send the build to the private directory with a CacheWarning;
    an entry deleted under us is retried once first."""
    root = root or usable_root()
    retried = False
    while True:
        try:
            return _fetch_in(key, build, valid, root, library)
        except _CacheTrouble as trouble:
            exc = trouble.__cause__
            if isinstance(exc, FileNotFoundError) and not retried:
                retried = True  # removed by a concurrent `cache clear`: once more, then privately
                continue
            if root == private_root():
                raise exc from None
            _warn(f"the cache entry {entry_dir(key, root)} cannot be used: {exc}",
                  "`transpile cache verify` reports what is wrong")
            root = private_root()


class _CacheTrouble(Exception):
    """Wraps an error of the cache's own file operations (never of the build)."""


def _fetch_in(key: str, build, valid, root: Path, library: str) -> dict:
    with _cache_ops():
        meta = load(key, root, library)
    if meta is not None and (valid is None or valid(meta)):
        return meta
    with _cache_ops():
        lock = _acquire(key, root)
    try:
        with _cache_ops():
            meta = load(key, root, library)
        if meta is not None and (valid is None or valid(meta)):
            return meta
        with _cache_ops():
            remove_stale(root)
            staging = staging_dir(key, root)
        try:
            meta = build(staging)
            with _cache_ops():
                return commit(key, staging, meta, root, library)
        except BaseException:
            import shutil

            shutil.rmtree(staging, ignore_errors=True)
            raise
    finally:
        os.close(lock)


@contextmanager
def _cache_ops():
    try:
        yield
    except trust.Untrusted as exc:
        raise _CacheTrouble() from exc
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError) as exc:
        raise _CacheTrouble() from exc
    except OSError as exc:
        if exc.errno in _PRIVATE_ERRNOS:
            raise _CacheTrouble() from exc
        raise
