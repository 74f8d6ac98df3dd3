"""Signatures compiled when a function is decorated (signatures=[...], and
Numba-style eager signatures): several at once.

Each specialization is translated in turn (the passes share per-process
tables, so translation holds one lock) and its C++ compiler runs in parallel
with the others' on a small thread pool: as many workers as
TRANSPILE_NUM_THREADS (else the CPU count) allows, at most 8.  One progress
line counts them (build/progress.py) when they take over a second.
"""
from __future__ import annotations

import os

MAX_WORKERS = 8


def workers(count: int) -> int:
    try:
        limit = int(os.environ.get("TRANSPILE_NUM_THREADS") or 0) or (os.cpu_count() or 1)
    except ValueError:
        limit = os.cpu_count() or 1
    return max(1, min(count, limit, MAX_WORKERS))


def compile_all(impl, signatures: list[tuple]) -> list[BaseException | None]:
    """impl.compile(types) for each, in parallel; per signature the exception
    it raised, or None."""
    if len(signatures) <= 1:
        return [_attempt(impl, types) for types in signatures]
    from concurrent.futures import ThreadPoolExecutor, as_completed

    from .build import progress

    results: list = [None] * len(signatures)
    label = f"{impl.py_func.__qualname__}: {len(signatures)} signatures"
    with progress.group(label, len(signatures)) as one_done, \
            ThreadPoolExecutor(workers(len(signatures)), thread_name_prefix="transpile-compile") as pool:
        futures = {pool.submit(_attempt, impl, types): n for n, types in enumerate(signatures)}
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            one_done()
    return results


def _attempt(impl, types: tuple) -> BaseException | None:
    try:
        impl.compile(types)
    except Exception as exc:  # noqa: BLE001 - handed back to the caller, which knows what to raise
        return exc
    return None
