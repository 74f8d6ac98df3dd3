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


def _compiled_spellings() -> None:
    """In compiled code typed.List(...) is list(...), and typed.List.empty_list,
    typed.Dict() and typed.Dict.empty are [] and {}: the element types the
    item types name are what the stores give (as CPython's list and dict)."""
    from dataclasses import replace

    from ..library import lookup_callable, register
    from ..library.base import Entry

    def without_args(entry, name):
        return Entry(name, lambda site: entry.infer(replace(site, args=[], kwargs={}, arg_nodes=[], kw_nodes={})),
                     lambda ls: entry.lower(replace(ls, args=[], kwargs={}, arg_types=[], kw_types={})),
                     entry.headers)

    lst, dct = lookup_callable(list), lookup_callable(dict)
    register(List, Entry("List", lst.infer, lst.lower, lst.headers))
    register(List.empty_list, without_args(lst, "List.empty_list"))
    register(Dict, without_args(dct, "Dict"))
    register(Dict.empty, without_args(dct, "Dict.empty"))


_compiled_spellings()
