"""Calls of a @jit method whose `self` is an ordinary Python object (issue
13; the rewrite: passes/plain_methods.py).  The method compiles as a
function of the attributes it reads (passed as arguments, so their types
key the specialization) and of those it assigns (passed in one-element
lists, copied back onto the object when the call ends, also when it raises).
The attributes are read when the call starts, as arguments are.

A method that does not qualify, a class that customizes attribute access,
an attribute that is missing or is a property (its getter or setter would
run at another time than in CPython),
and a specialization with a statement running as Python that names `self`:
the call runs in CPython, as before."""
from __future__ import annotations

import inspect
import types

from .diagnostics import FunctionNotCompilable, UnsupportedArgumentError
from .frontend.source import source_hash
from .hashing import sha256


def call(jitfn, args: tuple, call_as_written: tuple):
    """jitfn(*args) where args[0] is a plain object."""
    state = _state(jitfn)
    if isinstance(state, str):
        return _refuse(jitfn, call_as_written, f"'{_self_name(jitfn)}' is a plain Python object and {state}")
    plan, inner = state
    obj = args[0]
    cls = type(obj)
    if cls.__getattribute__ is not object.__getattribute__ or cls.__setattr__ is not object.__setattr__ \
            or hasattr(cls, "__getattr__"):
        return _refuse(jitfn, call_as_written, f"{cls.__qualname__} customizes attribute access")
    values = []
    for attr in plan.reads + plan.writes:
        if isinstance(inspect.getattr_static(type(obj), attr, None), (property, types.GetSetDescriptorType,
                                                                       types.MemberDescriptorType)):
            return _refuse(jitfn, call_as_written, f"{type(obj).__qualname__}.{attr} is a property")
        try:
            values.append(getattr(obj, attr))
        except AttributeError:  # CPython raises it where the method reads it (or creates it)
            return jitfn.py_func(*call_as_written[0], **call_as_written[1])
    boxes = [[v] for v in values[len(plan.reads):]]
    try:
        return inner.dispatcher(*values[:len(plan.reads)], *boxes, *args[1:])
    finally:
        for attr, box in zip(plan.writes, boxes):
            setattr(obj, attr, box[0])


def _refuse(jitfn, call_as_written, reason: str):
    """The whole method runs in CPython (an error under fullgraph=True)."""
    if jitfn.options.fullgraph:
        raise UnsupportedArgumentError(f"{jitfn.py_func.__qualname__}(): {reason}")
    return jitfn._run_in_python(call_as_written, reason)


def _self_name(jitfn) -> str:
    return next(iter(inspect.signature(jitfn.py_func).parameters), "self")


def _state(jitfn):
    state = getattr(jitfn, "_plain_method", None)
    if state is None:
        state = jitfn._plain_method = _make(jitfn)
    return state


def _make(jitfn):
    from .frontend import function_hir, register_hir
    from .passes import plain_methods

    method = jitfn.py_func
    try:
        hir = function_hir(method)
    except Exception as exc:  # noqa: BLE001 - the whole-function fallback reports it
        return f"its source cannot be compiled ({exc})"
    plan = plain_methods.plan(hir)
    if isinstance(plan, str):
        return f"{plan}"
    stub = _stub(method, plan)
    register_hir(stub, plain_methods.rewrite(hir, plan))
    inner = _method_class(type(jitfn))(stub, jitfn.options)
    inner.self_name = plan.self_name
    digest = sha256(f"{source_hash(method)} {plan.reads} {plan.writes}".encode()).hexdigest()
    inner._source_hash = digest
    return plan, inner


def _stub(method, plan):
    """A function of the derived parameters that runs the method in CPython
    (what a whole-function fallback of the compiled form runs), with the
    method's name, globals and file."""
    names = [plan.param(a) for a in plan.reads + plan.writes]
    rest = list(inspect.signature(method).parameters)[1:]
    params = ", ".join(names + rest)
    src = (f"def __tr_make(__tr_run):\n    def {method.__name__}({params}):\n"
           f"        return __tr_run(({', '.join(names)}{',' if names else ''}), ({', '.join(rest)}{',' if rest else ''}))\n"
           f"    return {method.__name__}\n")
    code = compile(src, method.__code__.co_filename, "exec")
    make = types.FunctionType(next(c for c in code.co_consts if isinstance(c, types.CodeType)), method.__globals__)

    def run(hidden, given):
        proxy = types.SimpleNamespace(**dict(zip(plan.reads, hidden)))
        for attr, box in zip(plan.writes, hidden[len(plan.reads):]):
            setattr(proxy, attr, box[0])
        try:
            return method(proxy, *given)
        finally:
            for attr, box in zip(plan.writes, hidden[len(plan.reads):]):
                box[0] = getattr(proxy, attr)

    stub = make(run)
    stub.__qualname__ = method.__qualname__
    stub.__module__ = method.__module__
    return stub


def _regions_name(spec: dict, name: str) -> bool:
    import re

    pattern = re.compile(rf"\b{re.escape(name)}\b")
    return any(pattern.search(text) for r in spec.get("regions") or () for text in r.get("sources") or ())


_CLASSES: dict = {}


def _method_class(base):
    """The compiled form of a plain-object method, a subclass of the
    dispatcher's JitFunction: a specialization whose fallback statements name
    `self` (which exists only in CPython's frame) is dropped and runs in
    CPython."""
    cls = _CLASSES.get(base)
    if cls is None:
        class MethodFunction(base):
            self_name = "self"

            def _ensure(self, arg_types: tuple) -> dict:
                spec = super()._ensure(arg_types)
                if _regions_name(spec, self.self_name):
                    with self._lock:
                        self._specializations.remove(spec)
                        self.dispatcher.remove_overload(spec["address"])
                    raise FunctionNotCompilable(f"a statement that runs as Python uses '{self.self_name}'")
                return spec

        cls = _CLASSES[base] = MethodFunction
    return cls
