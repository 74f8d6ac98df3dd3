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

// s.name() by Python (transpile/text_case.py str_method); weak "1": a bool result is Python's bool.
template <class R> inline R str_method_in_python(const Str &s, const char *name) {
    const Str method(name, int64_t(__builtin_strlen(name)));
    return call_python<R>("transpile.text_case", "str_method", {box(s), box(method)}, "1");
}

inline Str str_upper(const Str &s) {
    if (!str_is_ascii(s)) return str_method_in_python<Str>(s, "upper");
    return str_ascii_case<'a', 'z'>(s);
}
inline Str str_repr(const Str &s) {
    if (!str_is_ascii(s)) return call_python<Str>("builtins", "repr", {box(s)});
    return repr_of(s);
}
inline Str str_lower(const Str &s) {
    if (!str_is_ascii(s)) return str_method_in_python<Str>(s, "lower");
    return str_ascii_case<'A', 'Z'>(s);
}

// str.isalpha() and the other tests of every code point: ASCII here, any
// other text by Python's own methods (their Unicode categories).
enum StrTest { IS_ALPHA, IS_DIGIT, IS_ALNUM, IS_UPPER, IS_LOWER, IS_DECIMAL, IS_NUMERIC };

template <StrTest K> inline bool str_is(const Str &s) {
    static constexpr const char *names[] = {"isalpha", "isdigit", "isalnum", "isupper", "islower", "isdecimal",
                                            "isnumeric"};
    if (!str_is_ascii(s)) return str_method_in_python<bool>(s, names[K]);
    bool cased = false;
    for (int64_t i = 0; i < s.len; ++i) {
        const char c = s.data[i];
        const bool up = c >= 'A' && c <= 'Z', low = c >= 'a' && c <= 'z', digit = c >= '0' && c <= '9';
        cased = cased || up || low;
        if ((K == IS_ALPHA && !(up || low)) || ((K == IS_DIGIT || K == IS_DECIMAL || K == IS_NUMERIC) && !digit) ||
            (K == IS_ALNUM && !(up || low || digit)) || (K == IS_UPPER && low) || (K == IS_LOWER && up))
            return false;
    }
    return (K == IS_UPPER || K == IS_LOWER) ? cased : s.len > 0;
}

}  // namespace tr
