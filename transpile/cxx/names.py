"""C++ names for Python identifiers: never a keyword, never reserved (no
double underscores, no leading underscore + capital), never our own tr_
prefix."""
from __future__ import annotations

import re

CXX_KEYWORDS = frozenset("""
alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t class
compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield decltype
default delete do double dynamic_cast else enum explicit export extern false float for friend goto if inline
int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public register
reinterpret_cast requires return short signed sizeof static static_assert static_cast struct switch template
this thread_local throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t
while xor xor_eq main errno assert tr std NULL INFINITY NAN EOF
""".split())


def local_name(name: str) -> str:
    if name in CXX_KEYWORDS or name.startswith("tr_") or "__" in name or re.match(r"_[A-Z]", name):
        return "v_" + name.replace("__", "_u_")
    return name


def bound_flag(local: str) -> str:
    """Whether a variable that a read may find unassigned holds a value
    (passes/unbound.py)."""
    return f"tr_bound_{local}"


def weak_flag(local: str) -> str:
    """The flag beside a variable whose value is a Python number on some
    paths and a NumPy scalar of the same dtype on others (passes/paths.py)."""
    return f"tr_weak_{local}"


def kind_slot(local: str) -> str:
    """Which of a variable's types its value has now: -1 its C++ type, i the
    i-th alternative, kept in alt_slot(local, i) (passes/paths.py)."""
    return f"tr_kind_{local}"


def alt_slot(local: str, i: int) -> str:
    return f"tr_alt{i}_{local}"


def symbol(name: str) -> str:
    """A C identifier from any text (function qualnames, module names)."""
    s = re.sub(r"[^0-9A-Za-z_]", "_", name)
    s = re.sub(r"_+", "_", s).strip("_") or "f"
    return s if not s[0].isdigit() else "f_" + s
