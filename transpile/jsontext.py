"""json.loads and json.dumps for the warm path, without importing json.

A warm start reads one entry's meta.json, checks its signature (over the
metadata's JSON text) and hashes its cache key (JSON text too).  `import
json` costs ~1.5 ms (its modules compile six regular expressions); the work
itself is done by json's C accelerator, _json, which json hands the same
settings as below.  The text is json.dumps's byte for byte (a test compares
them); without _json (not CPython) the json module is used.
"""
from __future__ import annotations

_WHITESPACE = " \t\n\r"  # JSON's


class _Decoding:
    """The settings json.JSONDecoder() gives the C scanner."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}.__getitem__


def _not_serializable(o):
    raise TypeError(f"Object of type {o.__class__.__name__} is not JSON serializable")


try:
    from _json import encode_basestring_ascii, make_encoder, make_scanner

    _scan = make_scanner(_Decoding())
except (ImportError, TypeError):  # pragma: no cover - not CPython
    _scan = None


def loads(text):
    """json.loads(text) (bytes are read as UTF-8, which json.dump writes)."""
    if _scan is None:  # pragma: no cover
        import json

        return json.loads(text)
    if isinstance(text, (bytes, bytearray)):
        text = text.decode("utf-8")
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _scan(text, start)
    except StopIteration:
        raise ValueError(f"Expecting value: char {start}") from None
    if text[end:].strip(_WHITESPACE):
        raise ValueError(f"Extra data: char {end}")
    return value


def dumps(value, sort_keys: bool = False, default=None) -> str:
    """json.dumps(value, sort_keys=sort_keys, default=default)."""
    if _scan is None:  # pragma: no cover
        import json

        return json.dumps(value, sort_keys=sort_keys, default=default)
    if isinstance(value, str):
        return encode_basestring_ascii(value)
    encode = make_encoder({}, default or _not_serializable, encode_basestring_ascii, None, ": ", ", ", sort_keys,
                          False, True)
    return "".join(encode(value, 0))
