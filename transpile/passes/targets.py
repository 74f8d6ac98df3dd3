"""What a called value is: a @jit dispatcher's Python function, or a plain helper of the user's own project."""
from __future__ import annotations

import os
import types

import numpy as np

from ..library import lookup_callable


def is_user_function(value) -> bool:
    """A plain Python function of the user's own project (not the standard
    library, site-packages or an extension): compiled with its caller."""
    import inspect
    import sysconfig

    if not inspect.isfunction(value) or getattr(value, "__closure__", None):
        return False
    if lookup_callable(value) is not None:  # a library entry (transpile.prange) is not a helper
        return False
    try:
        path = os.path.realpath(inspect.getsourcefile(value) or "")
    except TypeError:
        return False
    if not path or "site-packages" in path or "dist-packages" in path:
        return False
    paths = sysconfig.get_paths()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        root = os.path.realpath(paths.get(key, "") or "/nonexistent")
        if path.startswith(root + os.sep):
            return False
    return True


def is_function_value(value) -> bool:
    """Whether compiled code takes `value` as a function value (issue 13): a
    @jit function, a Python function (lambdas and closures too: a closure's
    calls run as Python) or a builtin/NumPy callable."""
    from .. import _runtime

    return isinstance(value, (types.FunctionType, types.BuiltinFunctionType, np.ufunc, _runtime.Dispatcher))


def jit_target(value):
    """The Python function behind a @jit dispatcher, or None."""
    from .. import _runtime

    return value.py_func if isinstance(value, _runtime.Dispatcher) else None
