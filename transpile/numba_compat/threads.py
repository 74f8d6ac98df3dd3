"""Numba's thread-count and miscellaneous top-level names: code that calls
numba.set_num_threads(2) before a parallel kernel, reads numba.config, or
imports literal_unroll, cfunc or stencil at module level imports unchanged.
What runs differently says so (an error where it cannot run at all)."""
from __future__ import annotations

import os
import types as _types


def _cores() -> int:
    return os.cpu_count() or 1


# numba.config: the thread numbers and the switches code reads most.
config = _types.SimpleNamespace(NUMBA_NUM_THREADS=_cores(), NUMBA_DEFAULT_NUM_THREADS=_cores(),
                                DISABLE_JIT=bool(int(os.environ.get("NUMBA_DISABLE_JIT", "0") or 0)),
                                BOUNDSCHECK=None, FASTMATH=False)


def get_num_threads() -> int:
    """The number of threads prange loops run on: TRANSPILE_NUM_THREADS, which
    the runtime reads at each launch (transpile_rt/backend/cpu.hpp), else
    OpenMP's default of one per core."""
    value = os.environ.get("TRANSPILE_NUM_THREADS", "").strip()
    return int(value) if value.isdigit() and int(value) > 0 else config.NUMBA_NUM_THREADS


def set_num_threads(n) -> None:
    """Numba's bounds: 1 to NUMBA_NUM_THREADS (ValueError, as Numba's)."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"The number of threads specified must be an integer, not {type(n).__name__}")
    if not 1 <= n <= config.NUMBA_NUM_THREADS:
        raise ValueError(f"The number of threads must be between 1 and {config.NUMBA_NUM_THREADS}")
    os.environ["TRANSPILE_NUM_THREADS"] = str(n)


def get_thread_id() -> int:
    """Outside a parallel region, as in Numba, the main thread: 0.  (Inside a
    compiled prange body the call is not compiled.)"""
    return 0


def literal_unroll(container):
    """The container itself: a loop over it runs as Numba's unrolled one does in
    CPython (compiled, a tuple of one element type iterates as any tuple)."""
    return container


def _unsupported(name: str, why: str):
    def decorator(*args, **kwargs):
        raise NotImplementedError(f"numba.{name} is not available with transpile: {why}")
    decorator.__name__ = name
    return decorator


cfunc = _unsupported("cfunc", "it makes a C callback for ctypes/cffi; call a @njit function from Python, or "
                              "build a module with `transpile build --standalone`")
stencil = _unsupported("stencil", "write the neighbourhood as a loop over the interior (a[i - 1, j] + ...) "
                                  "in a @njit function")
