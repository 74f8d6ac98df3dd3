"""str.upper(), str.lower() and the str.is...() tests of text that is not
ASCII, called by compiled code (transpile_rt/str_case.hpp) for Python's full
Unicode case mapping ('straße'.upper() is 'STRASSE', 'İ'.lower() two code
points) and categories; ASCII text is mapped and tested in C++."""


def upper(s: str) -> str:
    return s.upper()


def lower(s: str) -> str:
    return s.lower()


TESTS = frozenset({"isalpha", "isdigit", "isalnum", "isupper", "islower", "isdecimal", "isnumeric"})


def str_test(s: str, name: str) -> bool:
    """s.isalpha() and the other tests str_case.hpp names."""
    if name not in TESTS:
        raise ValueError(f"not a str test: {name!r}")
    return getattr(s, name)()
