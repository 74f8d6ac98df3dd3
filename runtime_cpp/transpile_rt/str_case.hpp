// str.upper(), str.lower() and repr() of a str: ASCII text here, any other
// text by Python's own methods (transpile/text_case.py, builtins.repr), whose
// Unicode tables (full case mapping: 'straße'.upper() is 'STRASSE'; which
// code points repr escapes: '\u200b', '\x80') no table of ours repeats.  A
// module that uses them receives the host table and holds the GIL (library
// Entry.needs_python: library/dicts.py STR_REPR for repr()).
#pragma once
#include "python_calls.hpp"
#include "topy.hpp"

namespace tr {

inline bool str_is_ascii(const Str &s) {
    for (int64_t i = 0; i < s.len; ++i)
        if (static_cast<unsigned char>(s.data[i]) >= 0x80) return false;
    return true;
}

template <char From, char To> inline Str str_ascii_case(const Str &s) {
    char *p;
    Str out = Str::make(s.len, &p);
    for (int64_t i = 0; i < s.len; ++i) p[i] = (s.data[i] >= From && s.data[i] <= To) ? char(s.data[i] ^ 32) : s.data[i];
    return out;
}

inline Str str_upper(const Str &s) {
    if (!str_is_ascii(s)) return call_python<Str>("transpile.text_case", "upper", {box(s)});
    return str_ascii_case<'a', 'z'>(s);
}
inline Str str_repr(const Str &s) {
    if (!str_is_ascii(s)) return call_python<Str>("builtins", "repr", {box(s)});
    return repr_of(s);
}
inline Str str_lower(const Str &s) {
    if (!str_is_ascii(s)) return call_python<Str>("transpile.text_case", "lower", {box(s)});
    return str_ascii_case<'A', 'Z'>(s);
}

}  // namespace tr
