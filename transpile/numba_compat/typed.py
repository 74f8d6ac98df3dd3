"""numba.typed.List and numba.typed.Dict as the plain Python list and dict
they stand for.  Compiled code takes lists as arguments (copied in, and
written back when the call ends); a dict argument makes the function run in
CPython (docs/architecture.md, "Dicts, sets, strs").  Item types are not
enforced: a list holds what CPython would let it hold."""
from __future__ import annotations


class List:
    """typed.List() / typed.List(iterable) / typed.List.empty_list(item_type): a list."""

    def __new__(cls, iterable=(), lsttype=None, allocated=None):
        return list(iterable)

    @staticmethod
    def empty_list(item_type=None, allocated=None):
        return []


class Dict:
    """typed.Dict() / typed.Dict.empty(key_type, value_type): a dict."""

    def __new__(cls, dcttype=None, n_keys=0):
        return {}

    @staticmethod
    def empty(key_type=None, value_type=None, n_keys=0):
        return {}
