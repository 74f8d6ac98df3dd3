"""A precompiled header of the prelude every module starts with (its defines
and base runtime headers, cxx/prelude.py), for quick builds.

Parsing those headers is a large part of a quick build's compile (the cold
seed a * b + c: 387 M of the 876 M instructions cc1plus spends on it).  The
prelude depends on the options alone, so the header is compiled while the
function is still being translated: start() runs the compiler in a thread,
next to the import of libcst and the passes, and include_flags() waits for
it when the module's C++ is ready.  Making the header costs more than one
parse (810 M instructions), so a process makes it only when a core is idle
to run it on (or TRANSPILE_PCH=1; TRANSPILE_PCH=0: never uses one); once
made, every later quick build with the same flags, in any process, uses it.

The precompiled header is a cache entry of its own (keyed by the prelude, the
runtime headers' files, and the compiler and its flags, which GCC requires to
be the same; signed and checked as any entry, so a damaged one is set aside
and rebuilt) in the cache's "pch" folder, which `transpile cache list` does
not count as a specialization and `transpile cache clear` removes.  The
entry holds only the .gch file: GCC reads it in place of the header named by -include,
and a compile that cannot use it fails (no header text to fall back on),
after which toolchain.compile_shared compiles the module as it would without
one.  The module still includes the same headers itself, after the prelude's
identical lines, so its code is the same either way.
"""
from __future__ import annotations

import os
from _thread import allocate_lock
from pathlib import Path

from ..cxx import prelude
from . import cache
from .programs import kill_group

FOLDER = "pch"  # in the cache root: not a two-letter shard, so no entry of `transpile cache list`
HEADER = "prelude.hpp"  # named by -include; only its precompiled form is kept
GCH = HEADER + ".gch"

_jobs: dict = {}  # key -> _Job of this process
_lock = allocate_lock()


class _Job:
    def __init__(self, key: str, thread=None, meta: dict | None = None):
        self.key, self.thread, self.meta = key, thread, meta
        self.proc = None  # the compiler, while it runs


def _key(options, compiler, compile_flags: list) -> str:
    """The runtime headers' files (names, sizes, modification times), not the
    whole code's fingerprint: an edit of transpile's Python code makes no new
    10 MB header."""
    from ..fingerprint import stat_digest
    from ..resources import runtime_dir

    return cache.make_key(["pch", 1, stat_digest([runtime_dir()]), compiler.identity, compile_flags,
                           prelude.lines(options)])


def _root(root: Path | None) -> Path:
    folder = (root or cache.usable_root()) / FOLDER
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


def _wanted() -> bool | None:
    """TRANSPILE_PCH: 0 never, 1 always; else None: built when a core is idle."""
    value = os.environ.get("TRANSPILE_PCH", "").strip().lower()
    if value in ("0", "false", "no", "off"):
        return False
    return True if value in ("1", "true", "yes", "on") else None


def _core_idle() -> bool:
    """Whether a core is idle (the load average leaves one): building the
    header costs 810 M instructions, twice the parse it saves a module, so it
    pays for the build that makes it only beside that build, not after it."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    try:
        return os.getloadavg()[0] <= cores - 1
    except OSError:
        return False


def start(options, compiler, compile_flags: list, root: Path | None = None) -> None:
    """Looks up, or starts building, the prelude's precompiled header for a
    build with these flags (once per key and process).  One is built only
    where TRANSPILE_PCH=1 asks for it or a core is idle (see _core_idle);
    one built earlier is used whatever the load."""
    wanted = _wanted()
    if wanted is False:
        return
    key = _key(options, compiler, compile_flags)
    with _lock:
        if key in _jobs:
            return
        job = _jobs[key] = _Job(key)
    try:
        folder = _root(root)
        job.meta = cache.load(key, folder, GCH)
    except Exception:  # noqa: BLE001 - no precompiled header: the module compiles as it would without
        return
    if job.meta is None and (wanted or _core_idle()):
        import threading

        thread = threading.Thread(target=_build, args=(job, compiler, compile_flags, options, folder),
                                  name="transpile-pch", daemon=True)
        _stop_at_exit()
        thread.start()
        job.thread = thread  # started: another build's include_flags() may join it


def _build(job: _Job, compiler, compile_flags: list, options, folder: Path) -> None:
    def build(staging: Path) -> dict:
        import subprocess

        header = staging / HEADER
        header.write_text("\n".join(["// The prelude of transpile's generated modules (cxx/prelude.py).",
                                     *prelude.lines(options), ""]))
        cmd = [compiler.path, *compile_flags, "-x", "c++-header", str(header), "-o", str(staging / GCH)]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)  # killed as a group at exit
        with _lock:  # against _stop(): a compiler started as the process exits is killed by one of them
            job.proc = proc
            stopping = _stopping
        if stopping:
            kill_group(proc)
        try:
            if proc.wait(timeout=600) != 0:
                raise OSError(f"the precompiled header did not build ({' '.join(cmd)})")
        except subprocess.TimeoutExpired:
            kill_group(proc)
            raise
        finally:
            job.proc = None
        header.unlink()  # GCC needs only the .gch
        return {"header": HEADER}

    try:
        job.meta = cache.fetch(job.key, build, root=folder, library=GCH)
    except Exception:  # noqa: BLE001 - the module compiles without it
        job.meta = None


def include_flags(cpp_path: str, options, compiler, compile_flags: list) -> list[str]:
    """-include of the precompiled prelude for a module that starts with it,
    after waiting for start()'s build; [] without one."""
    job = _jobs.get(_key(options, compiler, compile_flags))
    if job is None:
        return []
    if job.thread is not None:
        job.thread.join()
    if job.meta is None or not os.path.isfile(os.path.join(job.meta["dir"], GCH)):
        return []
    with open(cpp_path) as f:
        if not prelude.starts_with(f.read(), options):
            return []
    return ["-include", os.path.join(job.meta["dir"], HEADER)]


_stopping = False
_stop_registered = []


def _stop_at_exit() -> None:
    if not _stop_registered:
        import atexit

        atexit.register(_stop)
        _stop_registered.append(True)


def _stop() -> None:
    """At exit: a precompiled header still building is abandoned (its staging
    folder removed by cache.fetch), no compiler left running."""
    global _stopping
    with _lock:
        _stopping = True
        jobs = list(_jobs.values())
    for job in jobs:
        if job.proc is not None:
            kill_group(job.proc)
        if job.thread is not None and job.thread.is_alive():
            job.thread.join(2.0)


os.register_at_fork(after_in_child=_jobs.clear)
