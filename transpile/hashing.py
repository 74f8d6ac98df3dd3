"""SHA-256 and HMAC-SHA256 of small inputs without OpenSSL.

`import hashlib` loads OpenSSL's libcrypto (~3 ms of every warm start, more
than anything else transpile imports), and `import hmac` imports hashlib.
A warm start only hashes a few short strings (the cache key, a code
object, the signed metadata), which CPython's own SHA-256 module does as
well.  The digests are the same; bulk data (libraries, arrays, pickled
payloads) is still hashed with hashlib, whose OpenSSL code is faster.
"""
from __future__ import annotations

try:
    from _sha256 import sha256  # CPython 3.10, 3.11
except ImportError:  # pragma: no cover - the module's name on 3.12+, or a build without it
    try:
        from _sha2 import sha256
    except ImportError:
        from hashlib import sha256
try:
    from _operator import _compare_digest as compare_digest  # hmac.compare_digest without OpenSSL
except ImportError:  # pragma: no cover - not CPython
    from hmac import compare_digest  # noqa: F401

__all__ = ["sha256", "hmac_sha256", "compare_digest", "value_digest"]

_BLOCK = 64  # SHA-256's block size in bytes
_INNER = bytes(x ^ 0x36 for x in range(256))
_OUTER = bytes(x ^ 0x5C for x in range(256))


def hmac_sha256(key: bytes, message: bytes) -> str:
    """The hex HMAC-SHA256 of message under key (RFC 2104): equal to
    hmac.new(key, message, hashlib.sha256).hexdigest()."""
    if len(key) > _BLOCK:
        key = sha256(key).digest()
    key = key.ljust(_BLOCK, b"\0")
    inner = sha256(key.translate(_INNER) + message).digest()
    return sha256(key.translate(_OUTER) + inner).hexdigest()


def value_digest(value) -> str:
    """What a module global holds, for the cache entries that froze it: an
    array's dtype, shape and bytes, else the repr of its type and value."""
    import hashlib  # bulk data: OpenSSL's SHA-256 is the faster one

    import numpy as np

    h = hashlib.sha256()
    if isinstance(value, np.ndarray):
        h.update(str((value.dtype.str, value.shape)).encode())
        h.update(np.ascontiguousarray(value).tobytes())
    else:
        h.update(repr((type(value).__name__, value)).encode())
    return h.hexdigest()
