"""TRANSPILE_TIMING=1: where the time of a compile goes, printed to stderr.

Each specialization built in the calling thread gets one line: transpile's
own import (once per process), the imports of the compiler's modules
(libcst, Jinja2, the passes), parse, type, render (lowering and the C++
text), the C++ compile, and loading the library.  A phase nested in another
counts only for itself (parse happens inside typing, as callees are met).
Always on and cheap (a few perf_counter calls per compile), so benchmarks
can read the figures of the last build (`last()`).
"""
from __future__ import annotations

import os
import sys
import time
from _thread import _local as thread_local  # threading.local itself: `import threading` costs ~0.7 ms
from contextlib import contextmanager

PHASES = ("import", "parse", "type", "render", "compile", "load")

_IMPORT_STARTED = time.perf_counter()  # this module is the first transpile imports
_import_pending = 0.0  # transpile's import time, until the first build reports it
_import_done = False
_local = thread_local()
_last: dict = {}


def enabled() -> bool:
    return os.environ.get("TRANSPILE_TIMING", "").strip().lower() not in ("", "0", "false", "no", "off")


def imported() -> None:
    """Called at the end of transpile/__init__: the package's import time."""
    global _import_pending, _import_done
    if not _import_done:
        _import_done = True
        _import_pending = time.perf_counter() - _IMPORT_STARTED


@contextmanager
def phase(name: str):
    """Times one phase of the build running in this thread (exclusive of phases inside it)."""
    record = getattr(_local, "record", None)
    if record is None:
        yield
        return
    stack = _local.stack
    start = time.perf_counter()
    stack.append(0.0)  # time taken by phases nested in this one
    try:
        yield
    finally:
        elapsed = time.perf_counter() - start
        nested = stack.pop()
        record[name] = record.get(name, 0.0) + elapsed - nested
        if stack:
            stack[-1] += elapsed


@contextmanager
def build(label: str):
    """Around one specialization's build in this thread: collects its phases
    and prints them (TRANSPILE_TIMING=1)."""
    global _import_pending, _last
    if getattr(_local, "record", None) is not None:  # a build inside a build: counted in the outer one
        yield
        return
    _local.record, _local.stack = {}, []
    start = time.perf_counter()
    try:
        yield
    finally:
        record = _local.record
        _local.record = None
        total = time.perf_counter() - start
        if _import_pending:  # transpile's own import, reported with the first build only
            record["import"] = record.get("import", 0.0) + _import_pending
            total += _import_pending
            _import_pending = 0.0
        _last = dict(record, total=total)
        if enabled():
            parts = ", ".join(f"{name} {record[name]:.3f}" for name in PHASES if name in record)
            other = total - sum(record.values())
            print(f"transpile: timing {label}: {parts}, other {other:.3f}, total {total:.3f} s",
                  file=sys.stderr, flush=True)


def last() -> dict:
    """The phases (seconds) of the last build of any thread: {phase: s, "total": s}."""
    return dict(_last)
