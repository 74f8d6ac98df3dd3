"""The run-time side of module-level values (passes/live_globals.py): the
guards a specialization's cache entry records, their check on load, and the
tuple the bridge checks before each call (runtime.c, guards_hold).

A record is [module, name, attributes, kind, recorded]: kind "value" (a
frozen value: recorded is its hash; the bridge compares identity and the
slow path the hash, so rebinding to an equal value costs one slow call),
"type" (a live number: its type's name; the bridge compares the type) or
"array" (a live array: dtype, ndim and writability, which the bridge
compares: an array rebound to another of the same kind costs nothing)."""
from __future__ import annotations

import sys

_MISSING = object()


def records(program, value_hash) -> list:
    """What a cache entry stores about the globals its code depends on."""
    out = [[module, name, [], "value", value_hash(value)] for (module, name), value in program.global_deps.items()]
    for (module, name, attrs), (kind, recorded) in program.live_globals.items():
        out.append([module, name, list(attrs), kind, value_hash(recorded) if kind == "value" else recorded])
    return sorted(out)


def _signature(value) -> str:
    # imported on use: the typer's module brings the HIR, which a warm start never needs
    from .passes.live_globals import signature

    return signature(value)


def _current(module: str, name: str, attrs):
    mod = sys.modules.get(module)
    value = vars(mod).get(name, _MISSING) if mod is not None else _MISSING
    for attr in attrs:
        value = getattr(value, attr, _MISSING) if value is not _MISSING else _MISSING
    return value


def valid(deps: dict, value_hash) -> bool:
    """Whether every live record still matches the module's values."""
    for module, name, attrs, kind, recorded in deps.get("live", []):
        value = _current(module, name, attrs)
        if value is _MISSING:
            return False
        if (value_hash(value) if kind == "value" else _signature(value)) != recorded:
            return False
    return True


def guards(deps: dict) -> tuple:
    """The bridge's guards for the current values (valid() checked first)."""
    out = []
    for module, name, attrs, kind, _ in deps.get("live", []):
        mod = sys.modules.get(module)
        if mod is None:
            continue
        value = _current(module, name, attrs)
        expected, mode = (value, 0) if kind == "value" else (type(value), 1) if kind == "type" else \
            ((value.dtype, value.ndim, bool(value.flags.writeable)), 2)
        out.append((vars(mod), sys.intern(name), tuple(sys.intern(a) for a in attrs), expected, mode))
    return tuple(out)


def arm(dispatcher, spec: dict, value_hash) -> bool:
    """Re-checks a loaded specialization's globals after a guard failed (or
    when it is registered): True with the guards set again, False when a
    value changed so that the code must be rebuilt."""
    deps = spec.get("deps") or {}
    if not deps.get("live"):
        return True
    if not valid(deps, value_hash):
        return False
    dispatcher.set_guards(spec["address"], guards(deps))
    return True


def variant_key(key: str, load, value_hash, make_key) -> str:
    """The cache key for the globals' current values: the entry under `key`
    when its records match them (or it has none), else a key derived from
    them, so that each set of frozen values has its own entry (and its own
    library: a process cannot load a second library at the same path)."""
    try:
        meta = load(key)
    except Exception:  # noqa: BLE001 - the cache reports its own trouble when the entry is fetched
        return key
    deps = (meta or {}).get("deps") or {}
    if not deps.get("live") or valid(deps, value_hash):
        return key
    current = []
    for module, name, attrs, kind, _ in deps["live"]:
        value = _current(module, name, attrs)
        current.append([module, name, attrs, None if value is _MISSING
                        else value_hash(value) if kind == "value" else _signature(value)])
    return make_key([key, current])
