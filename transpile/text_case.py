"""str.upper() and str.lower() of text that is not ASCII, called by compiled
code (transpile_rt/str_case.hpp) for Python's full Unicode case mapping
('straße'.upper() is 'STRASSE', 'İ'.lower() two code points); ASCII text is
mapped in C++."""


def upper(s: str) -> str:
    return s.upper()


def lower(s: str) -> str:
    return s.lower()
