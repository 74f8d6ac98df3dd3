"""Whether a translated module may run with the GIL released.

Only code that touches no Python object may: no JIT Fallback region (Python
callbacks), no @jit_class instance (refcounts of their Python side), no
argument or result that crosses as a Python object (lists, strs, dicts,
sets, Any, device arrays), and no use of the bridge's host table (print,
containers built for Python): the lowering emits TR_FALLBACK_MODULE_INIT,
the module's receipt of that table, exactly when the code uses it.  The
bridge checks the descriptors again before it honours the flag."""
from __future__ import annotations

from ..hir import nodes as h
from ..hir import types as T
from ..passes.hir_walk import walk_body

HOST_MARKER = "TR_FALLBACK_MODULE_INIT"


def _plain(t) -> bool:
    if isinstance(t, T.DeviceArray):
        return False
    if isinstance(t, (T.Scalar, T.Array, T.NoneType)):
        return True
    if isinstance(t, T.Tuple):
        return all(_plain(i) for i in t.items)
    if isinstance(t, (T.Optional, T.MaybeWeak)):
        return _plain(t.inner)
    return False


# Nodes whose run time grows with the data (or is unbounded): a function with
# none of them finishes in nanoseconds.
_LONG_RUNNING = (h.For, h.While, h.GenExp, h.ListComp, h.DictComp, h.SetComp)


def _brief(translation) -> bool:
    """Straight-line code over scalars calling no other compiled function (so
    no recursion): it runs for nanoseconds, less than releasing and taking
    back the GIL costs (two mutex round trips: add(x, y) went from 374 to
    192 ns a call when it stopped, benchmarks/bench_core.py --only overhead).  Such a call holds
    the GIL, as math.sin does; anything that can run long releases it."""
    functions = translation.program.order
    if len(functions) != 1:
        return False
    fn = functions[0]
    return (all(isinstance(t, (T.Scalar, T.NoneType)) for t in fn.var_types.values())
            and not any(isinstance(n, _LONG_RUNNING) for n in walk_body(fn.hir.body)))


def touches_no_python(translation, arg_types, options) -> bool:
    return (options.backend == "cpu" and not translation.regions and not translation.layouts
            and HOST_MARKER not in translation.cpp
            and all(_plain(t) for t in (*arg_types, translation.return_type)))


def releases_gil(translation, arg_types, options) -> bool:
    return touches_no_python(translation, arg_types, options) and not _brief(translation)
