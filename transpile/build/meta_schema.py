"""The shape of a cache entry's meta.json.

Signed metadata is still checked field by field before use: an entry written
by another version, or damaged on disk, must be set aside and rebuilt, never
crash the call or feed it a wrong result type."""
from __future__ import annotations

_HEX = frozenset("0123456789abcdef")


def is_hex64(v) -> bool:
    """A sha256 in hex, as hexdigest() writes it (a cache key, a library's hash)."""
    return isinstance(v, str) and len(v) == 64 and _HEX.issuperset(v)


def _list_of(check):
    return lambda v: isinstance(v, list) and all(check(x) for x in v)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _str(v) -> bool:
    return isinstance(v, str)


def _strings(n: int):
    return lambda v: isinstance(v, list) and len(v) == n and all(isinstance(x, str) for x in v)


def _descriptor(v) -> bool:
    return v is None or _list_of(_is_int)(v)


_REGION = {
    "module": _str, "qualname": _str, "filename": _str, "name": _str,
    "statements": _list_of(lambda s: isinstance(s, list) and len(s) == 4 and all(_is_int(x) for x in s)),
    "returns": _list_of(_is_int), "ins": _list_of(_str), "outs": _list_of(_strings(3)),
    "sources": _list_of(_str),
}


def _region(v) -> bool:
    return (isinstance(v, dict) and all(k in v and check(v[k]) for k, check in _REGION.items())
            and len(v["sources"]) == len(v["statements"]) and len(v["statements"]) > 0)


def _deps(v) -> bool:
    return (isinstance(v, dict) and _list_of(_strings(3))(v.get("jit", [])) and
            _list_of(_strings(3))(v.get("globals", [])))


# field -> check of its value when present
FIELDS = {
    "library_size": _is_int, "library_sha256": is_hex64,
    "library_stat": lambda v: isinstance(v, list) and len(v) == 4 and all(_is_int(x) for x in v),
    "created": _number, "signature": _str, "python": _str, "function": _str,
    "source_file": lambda v: v is None or isinstance(v, str),
    "symbol": lambda v: isinstance(v, str) and v.isidentifier(),
    "symbols": lambda v: isinstance(v, dict) and all(isinstance(s, str) and s.isidentifier() for s in v.values()),
    "arg_types": _list_of(_str), "return_type": _str, "arg_desc": _descriptor, "result_desc": _descriptor,
    "regions": _list_of(_region), "fallbacks": _list_of(lambda r: isinstance(r, dict)),
    "layouts": lambda v: isinstance(v, list), "uses_objects": lambda v: isinstance(v, bool),
    "aot": lambda v: isinstance(v, bool), "deps": _deps, "layout": _str,
    "releases_gil": lambda v: isinstance(v, bool), "header": _str,
}
REQUIRED = ("library_size", "library_sha256", "created", "signature")


def problem(meta) -> str | None:
    """Why meta is not a usable entry's metadata, or None."""
    if not isinstance(meta, dict):
        return f"meta.json holds a {type(meta).__name__}, not an object"
    for name in REQUIRED:
        if name not in meta:
            return f"meta.json lacks '{name}'"
    for name, check in FIELDS.items():
        if name in meta and not check(meta[name]):
            return f"meta.json has an invalid '{name}'"
    if "symbol" not in meta and "symbols" not in meta and "header" not in meta:  # header: build/pch.py's
        return "meta.json names no entry symbol"
    if "symbol" in meta and "result_desc" not in meta and "result_type_ser" not in meta:
        return "meta.json gives no result type"
    return None
