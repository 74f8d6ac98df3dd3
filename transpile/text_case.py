"""str.upper(), str.lower() and the str.is...() tests of text that is not
ASCII, called by compiled code (transpile_rt/str_case.hpp) for Python's full
Unicode case mapping ('straße'.upper() is 'STRASSE', 'İ'.lower() two code
points) and categories; ASCII text is mapped and tested in C++."""

METHODS = frozenset({"upper", "lower", "isalpha", "isdigit", "isalnum", "isupper", "islower", "isdecimal",
                     "isnumeric"})


def str_method(s: str, name: str):
    """s.name() for the methods str_case.hpp hands to Python."""
    if name not in METHODS:
        raise ValueError(f"not a str method compiled code hands to Python: {name!r}")
    return getattr(s, name)()
