"""Whether a translated module may run with the GIL released.

Only code that touches no Python object may: no JIT Fallback region (Python
callbacks), no @jit_class instance (refcounts of their Python side), no
argument or result that crosses as a Python object (lists, strs, dicts,
sets, Any, device arrays), and no use of the bridge's host table (print,
containers built for Python): the lowering emits TR_FALLBACK_MODULE_INIT,
the module's receipt of that table, exactly when the code uses it.  The
bridge checks the descriptors again before it honours the flag."""
from __future__ import annotations

from ..hir import types as T

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


def releases_gil(translation, arg_types, options) -> bool:
    return (options.backend == "cpu" and not translation.regions and not translation.layouts
            and HOST_MARKER not in translation.cpp
            and all(_plain(t) for t in (*arg_types, translation.return_type)))
