"""Typing the arguments of a call that the bridge could not match (the slow
path), where some are functions (issue 13): the bridge describes numbers,
arrays and the rest; a function value, alone or inside a tuple, is typed
here by its identity (hir/functions.py) and numbered in the bridge, which
then matches it by identity on the fast path."""
from __future__ import annotations

import types

from . import _runtime
from .hir import functions
from .hir import types as T

functions.install(_runtime.register_function)


def describe(value) -> list:
    """The types of one argument (one per descriptor tree); TypeError for a
    value compiled code cannot take, with the bridge's message."""
    try:
        return T.from_descriptor(_runtime.describe(value))
    except TypeError:
        typed = _with_functions(value, 0)
        if typed is None:
            raise
        return [typed]


def is_plain_object(value) -> bool:
    """An instance of an ordinary class (not a number, array, container,
    function, class, module or @jit_class instance): the `self` of a method
    call (plain_methods.py, imported only then)."""
    cls = type(value)
    if cls.__module__ == "builtins" or cls.__module__.split(".")[0] == "numpy" or not cls.__dictoffset__ \
            or isinstance(value, (type, types.ModuleType, types.FunctionType, types.MethodType)):
        return False
    try:
        _runtime.describe(value)  # a @jit_class instance, a device array: the bridge takes it
    except TypeError:
        from .passes.targets import is_function_value  # on use: it brings the library (a warm start needs none)

        return not is_function_value(value)
    return False


def _with_functions(value, depth: int):
    """The type of a function value, or of a tuple holding some, else None."""
    from .passes.targets import is_function_value  # on use: it brings the library (a warm start needs none)

    if is_function_value(value):
        return functions.Function(value)
    if type(value) is tuple and depth < 16:
        items = []
        for item in value:
            try:
                items.extend(T.from_descriptor(_runtime.describe(item)))
            except TypeError:
                t = _with_functions(item, depth + 1)
                if t is None:
                    return None
                items.append(t)
        return T.Tuple(tuple(items))
    return None


def call_that_does_not_bind(py_func, call: tuple):
    """Arguments that do not fit the signature: CPython's own TypeError, word
    for word, from binding them to the function itself (no line of it runs),
    marked for the bridge to drop transpile's frames."""
    try:
        return py_func(*call[0], **call[1])
    except TypeError as exc:
        if exc.__traceback__ is not None and exc.__traceback__.tb_next is None:  # raised by the call, not in it
            exc._transpile_user_error = True
        raise
