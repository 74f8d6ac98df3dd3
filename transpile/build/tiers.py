"""Tiered compilation: a specialization's first call runs on a quickly
compiled build, while one worker thread compiles the optimized build of the
same C++ in the background and swaps it in when it is ready.

Both builds are cache entries (their keys differ by the compiler flags), so a
later process starts on the optimized one when it exists.  The worker never
blocks the caller: the optimized compile runs at a lower priority, one at a
time, and the swap only changes the entry pointer of the dispatcher's
specialization (runtime.c, replace_entry).  TRANSPILE_TIERED=0 builds the
optimized code at once (toolchain.tiered).

At exit, a background compile still running is killed and its staging folder
removed; entries are committed by an atomic rename, so none is ever left
half-written.
"""
from __future__ import annotations

import os
import sys
import time
from _thread import allocate_lock
from pathlib import Path

from . import cache
from .loader import entry_address, init_regions
from .programs import kill_group
from .toolchain import OPTIMIZED, QUICK, compile_shared, find_compiler, precompile_prelude, tiered

# A quick entry found in the cache means the processes that used it before
# exited before its optimized build was done: mostly short scripts, for which
# that build is pure cost (a compiler started, then killed at exit).  Its
# build starts only once this process has lived this much longer (at once
# under wait()).
WARM_DELAY = 1.0  # seconds
# A quick build made by this process is optimized this much later: a script
# that ends just after its first call (the cold seed: ~20 ms) starts no
# compiler only to kill it at exit, and a longer one waits a fraction of the
# optimized compile's own second or more.  Ten interleaved cold seeds at load
# ~5: wall 1.73 -> 1.63 s, CPU 0.85 -> 0.81 s (medians).
FRESH_DELAY = 0.25  # seconds


class _Stopped(Exception):
    """The process is exiting: the background build is abandoned."""


def fetch(options, key_for, build, valid, root):
    """The cache entry a call runs on: the optimized one when it exists (or is
    built now, when not tiered), else the quick one, built if need be, which
    carries what follow() needs to schedule the optimized build.

    key_for(tier) -> key; build(key, tier, staging) -> metadata."""
    if not tiered(options):
        key = key_for(OPTIMIZED)
        return cache.fetch(key, lambda staging: build(key, OPTIMIZED, staging), valid=valid, root=root)
    optimized = key_for(OPTIMIZED)
    meta = _load(optimized, valid, root)
    if meta is not None:
        return meta
    quick = key_for(QUICK)
    built = []

    def build_quick(staging):
        built.append(True)
        precompile_prelude(options, root)  # while the function is translated
        return build(quick, QUICK, staging)

    meta = cache.fetch(quick, build_quick, valid=valid, root=root)
    base = {k: v for k, v in meta.items() if k not in cache.COMMITTED}
    meta["tier"] = QUICK
    meta["tier_next"] = (FRESH_DELAY if built else WARM_DELAY, (optimized, valid, root, options, meta["dir"], base))
    return meta


def quick_cached(options, key_for, valid) -> bool:
    """Whether the cache holds the quick build of a call's exact types (asked
    when no optimized one was found): fetch() runs it and schedules the
    optimized build, so importhook's search for wider prebuilt entries (~16
    keys, on a short script's warm start) is not needed.  Without a compiler,
    False: that search may still find a prebuilt entry to run instead of Python."""
    return (tiered(options) and find_compiler(required=False) is not None
            and _load(key_for(QUICK), valid, None) is not None)


def _load(key, valid, root):
    try:
        meta = cache.load(key, root)
    except Exception:  # noqa: BLE001 - an entry to leave alone (another user's, unreadable): the quick path
        return None
    return meta if meta is not None and valid(meta) else None


def follow(jf, spec: dict) -> None:
    """After a quick build is registered: queue its optimized build."""
    job = spec.pop("tier_next", None)
    if job is not None and not _state.stopping:
        delay, args = job
        _state.start()
        _state.jobs.put((time.monotonic() + delay, (jf, spec, *args)))


def wait(timeout: float | None = None) -> bool:
    """Blocks until every queued background build is done (tests, benchmarks);
    False if the timeout passed first."""
    if _state.thread is None or not _state.thread.is_alive():
        return True
    import threading

    done = threading.Event()
    _state.hurry.set()  # builds waiting out WARM_DELAY start now
    _state.jobs.put(done)
    return done.wait(timeout)


class _State:
    def __init__(self):
        self.stopped_at_exit = False  # stop() registered with atexit (by the first job; a fork inherits it)
        self.reset()

    def reset(self) -> None:
        """Empty (and, in a forked child, forgets the parent's worker and compilers).
        The worker's queue, event and thread are made by the first job: a warm
        start imports neither queue nor threading (~1 ms)."""
        self.jobs = None  # a queue.Queue
        self.thread = None  # a threading.Thread
        self.hurry = None  # a threading.Event, set: no more waiting out WARM_DELAY (wait(), exit)
        self.running: set = set()  # compiler processes of the background build
        self.stopping = False
        self.lock = allocate_lock()

    def start(self) -> None:
        import threading

        with self.lock:
            if self.jobs is None:
                import queue

                self.jobs = queue.Queue()
                self.hurry = threading.Event()
            if not self.stopped_at_exit:
                import atexit

                atexit.register(self.stop)
                self.stopped_at_exit = True
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._work, name="transpile-tiers", daemon=True)
                self.thread.start()

    def _work(self) -> None:
        import threading

        while True:
            job = self.jobs.get()
            if isinstance(job, threading.Event):
                job.set()
                continue
            not_before, args = job
            if time.monotonic() < not_before:
                self.hurry.wait(not_before - time.monotonic())
            try:
                _optimize(*args)
            except _Stopped:
                return
            except Exception:  # noqa: BLE001 - the quick build keeps serving; nothing is lost
                if os.environ.get("TRANSPILE_DEBUG", "0") not in ("", "0"):
                    import traceback

                    traceback.print_exc(file=sys.stderr)

    def track(self, proc) -> None:
        """A background compiler: after the caller's own threads (nice 10), and
        only on idle CPU time when TRANSPILE_NUM_THREADS=1 asks for one core."""
        one_core = os.environ.get("TRANSPILE_NUM_THREADS", "").strip() == "1"
        try:
            os.setpriority(os.PRIO_PGRP, proc.pid, 19 if one_core else 10)  # its own group: cc1plus too
        except OSError:
            pass
        with self.lock:  # against stop(): a compiler started as the process exits is killed by one of them
            self.running.add(proc)
            stopping = self.stopping
        if stopping:
            kill_group(proc)

    def stop(self) -> None:
        """At exit: no new build, the running compiler killed, its staging removed."""
        with self.lock:
            self.stopping = True
            running = list(self.running)
        if self.thread is None:  # nothing ever queued (a warm start)
            return
        self.hurry.set()  # a build waiting out WARM_DELAY gives up at once
        for proc in running:
            kill_group(proc)
        if self.thread is not None and self.thread.is_alive():
            self.thread.join(2.0)  # lets the worker remove its staging folder and release the entry's lock


_state = _State()
os.register_at_fork(after_in_child=_state.reset)


def _optimize(jf, spec, key, valid, root, options, quick_dir, base) -> None:
    def build(staging: Path) -> dict:
        import shutil

        shutil.copyfile(Path(quick_dir) / cache.SOURCE, staging / cache.SOURCE)  # the same C++, other flags
        proc_holder = []
        try:
            compile_shared(str(staging / cache.SOURCE), str(staging / cache.LIBRARY), options, progress=False,
                           tier=OPTIMIZED, started=lambda p: (proc_holder.append(p), _state.track(p)))
        except Exception:
            if _state.stopping:  # killed at exit: the worker ends (stop() waits for it), not back to its queue
                raise _Stopped from None
            raise
        finally:
            for p in proc_holder:
                _state.running.discard(p)
        if _state.stopping:
            raise _Stopped
        return dict(base, tier=OPTIMIZED)

    if _state.stopping:
        raise _Stopped
    meta = cache.fetch(key, build, valid=valid, root=root)
    if _state.stopping:
        raise _Stopped
    library = os.path.join(meta["dir"], cache.LIBRARY)
    address = entry_address(library, meta["symbol"])
    init_regions(library, spec.get("region_callables") or ())
    with jf._lock:
        if not any(s is spec for s in jf._specializations):
            return  # respecialized meanwhile (a global was rebound)
        jf.dispatcher.replace_entry(spec["address"], address)
        spec.update(dir=meta["dir"], address=address, tier=OPTIMIZED)
