"""Pickling @jit functions, for process pools and clusters.

A dispatcher pickles by reference (module + qualified name) when that name
finds it again, as functions do, and by value otherwise (closures, functions
of __main__ sent to a worker that has another __main__): the Python function
then travels as cloudpickle bytes with its options.  Either way the compiled
specializations travel too (build/artifacts.py), so a worker on the same
platform calls native code at once, compiling nothing; the bytes are checked
against their sha256 before they enter the worker's cache."""
from __future__ import annotations

import copyreg
import functools
import marshal
import pickle
import sys
from _thread import _local as thread_local  # threading.local itself, without importing threading

from . import _runtime
from .hashing import sha256

_BY_VALUE: dict = {}  # sha256 of a by-value payload -> the dispatcher rebuilt from it (one per process)
_PICKLING = thread_local()


def _resolves_to(module: str, qualname: str, obj) -> bool:
    target = sys.modules.get(module)
    for part in qualname.split("."):
        target = getattr(target, part, None)
    return target is obj


def _code_token(fn) -> str:
    return sha256(marshal.dumps(fn.__code__)).hexdigest()


def _payload(impl) -> bytes | None:
    """The function by value (cloudpickle), or None where it cannot be made."""
    active = getattr(_PICKLING, "active", None)
    if active is None:
        active = _PICKLING.active = set()
    if id(impl) in active:  # a function that names itself: cannot travel by value
        return None
    try:
        import cloudpickle
    except ImportError:
        return None
    active.add(id(impl))
    try:
        return cloudpickle.dumps((impl.py_func, impl.options), protocol=pickle.DEFAULT_PROTOCOL)
    finally:
        active.discard(id(impl))


def reduce_dispatcher(dispatcher):
    impl = dispatcher.jit_function
    if impl.construct is not None:  # a @jit_class constructor lives on its class
        return getattr, (impl.construct.cls, "__jit_construct__")
    fn = impl.py_func
    module, qualname = fn.__module__, fn.__qualname__
    shipped = impl.artifacts()
    by_name = "<locals>" not in qualname and _resolves_to(module, qualname, dispatcher)
    if by_name and module != "__main__":
        return _by_reference, (module, qualname, shipped)
    payload = _payload(impl)
    if payload is None and not by_name:
        raise pickle.PicklingError(
            f"cannot pickle @jit function {module}.{qualname}: it is not reachable by name, and pickling it by "
            "value needs cloudpickle (pip install cloudpickle) and a function that does not refer back to itself "
            "(a recursive function, or a method of a @jit_class, which pickles by reference only: define it at "
            "module level in an importable module)")
    # __main__ by name: a spawned worker reruns the script, a cluster worker has another __main__
    return _main_or_value, (module if by_name else None, qualname, _code_token(fn), payload, shipped)


def _by_reference(module: str, qualname: str, shipped):
    import importlib

    target = importlib.import_module(module)
    for part in qualname.split("."):
        target = getattr(target, part)
    _install(target, shipped)
    return target


def _main_or_value(module, qualname, token, payload, shipped):
    if module is not None:
        target = sys.modules.get(module)
        for part in qualname.split("."):
            target = getattr(target, part, None)
        impl = getattr(target, "jit_function", None) if isinstance(target, _runtime.Dispatcher) else None
        if impl is not None and _code_token(impl.py_func) == token:
            _install(target, shipped)
            return target
    if payload is None:
        raise pickle.UnpicklingError(f"@jit function {qualname}: not found by name here and not sent by value "
                                     "(cloudpickle was missing where it was pickled)")
    digest = sha256(payload).hexdigest()
    dispatcher = _BY_VALUE.get(digest)
    if dispatcher is None:
        import cloudpickle  # noqa: F401 - the payload was made by it

        from . import importhook  # noqa: F401  (hands the dispatcher its lookup of prebuilt artifacts)
        from .dispatcher import JitFunction

        fn, options = pickle.loads(payload)
        dispatcher = JitFunction(fn, options).dispatcher
        functools.update_wrapper(dispatcher, fn)
        _BY_VALUE[digest] = dispatcher
    _install(dispatcher, shipped)
    return dispatcher


def _install(dispatcher, shipped) -> None:
    impl = getattr(dispatcher, "jit_function", None)
    if impl is not None and shipped:
        impl.install_artifacts(shipped)


copyreg.pickle(_runtime.Dispatcher, reduce_dispatcher)
