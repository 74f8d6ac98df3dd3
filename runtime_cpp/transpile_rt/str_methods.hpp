// str methods, ord(), chr() and iteration over a str, on UTF-8 text with
// CPython's results: positions count code points (a byte offset found by a
// byte search is turned into one), whitespace is what str.isspace() says
// for every code point (ASCII's six, U+001C..U+001F, and the Unicode ones
// below), and substrings are searched for as bytes (str.hpp str_find_bytes).
#pragma once
#include "list.hpp"
#include "str.hpp"

namespace tr {

namespace detail {

// The code point starting at byte i of s, and the byte after it.
inline uint32_t utf8_decode(const Str &s, int64_t i, int64_t &next) {
    const unsigned char c = static_cast<unsigned char>(s.data[i]);
    int extra = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
    uint32_t cp = extra == 0 ? c : extra == 1 ? (c & 0x1F) : extra == 2 ? (c & 0x0F) : (c & 0x07);
    next = i + 1;
    for (; extra > 0 && next < s.len; --extra, ++next) cp = (cp << 6) | (static_cast<unsigned char>(s.data[next]) & 0x3F);
    return cp;
}

// Python's str.isspace() of one code point (Unicode 14, CPython 3.11's _PyUnicode_IsWhitespace).
inline bool is_space(uint32_t c) {
    if (c < 0x80) return c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
    return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
           c == 0x202F || c == 0x205F || c == 0x3000;
}

}  // namespace detail

// for ch in s (and enumerate(s), zip(s, ...)): code point i of s, read in
// order, each step O(1).
struct StrChars {
    Str s;
    int64_t n;
    int64_t k = 0, at = 0;  // code point k starts at byte `at`
    explicit StrChars(const Str &text) : s(text), n(str_len(text)) {}
    Str operator[](int64_t i) {
        if (i < k) k = at = 0;
        for (; k < i; ++k) at = str_char_end(s, at);
        return str_part(s, at, str_char_end(s, at));
    }
};

inline int64_t str_ord(const Str &s) {
    const int64_t n = str_len(s);
    if (n != 1) raise(TR_ERR_TYPE, "ord() expected a character, but string of length %lld found", (long long)n);
    int64_t next;
    return int64_t(detail::utf8_decode(s, 0, next));
}

// chr(i): lone surrogates are kept, encoded as CPython's surrogatepass does.
inline Str str_chr(int64_t i) {
    if (i < 0 || i > 0x10FFFF) raise(TR_ERR_VALUE, "chr() arg not in range(0x110000)");
    const uint32_t c = uint32_t(i);
    char b[4];
    int n;
    if (c < 0x80) b[0] = char(c), n = 1;
    else if (c < 0x800) b[0] = char(0xC0 | (c >> 6)), b[1] = char(0x80 | (c & 0x3F)), n = 2;
    else if (c < 0x10000)
        b[0] = char(0xE0 | (c >> 12)), b[1] = char(0x80 | ((c >> 6) & 0x3F)), b[2] = char(0x80 | (c & 0x3F)), n = 3;
    else
        b[0] = char(0xF0 | (c >> 18)), b[1] = char(0x80 | ((c >> 12) & 0x3F)), b[2] = char(0x80 | ((c >> 6) & 0x3F)),
        b[3] = char(0x80 | (c & 0x3F)), n = 4;
    char *p;
    Str out = Str::make(n, &p);
    memcpy(p, b, size_t(n));
    return out;
}

inline int64_t str_find(const Str &s, const Str &sub) {
    const int64_t at = str_find_bytes(s, sub, 0);
    return at < 0 ? -1 : str_len(str_part(s, 0, at));
}

inline int64_t str_rfind(const Str &s, const Str &sub) {
    for (int64_t i = s.len - sub.len; i >= 0; --i)
        if (memcmp(s.data + i, sub.data, size_t(sub.len)) == 0) return str_len(str_part(s, 0, i));
    return -1;
}

inline int64_t str_index(const Str &s, const Str &sub) {
    const int64_t at = str_find(s, sub);
    if (at < 0) raise(TR_ERR_VALUE, "substring not found");
    return at;
}

// Non-overlapping occurrences; an empty sub occurs before every code point and at the end.
inline int64_t str_count(const Str &s, const Str &sub) {
    if (sub.len == 0) return str_len(s) + 1;
    int64_t n = 0;
    for (int64_t at = str_find_bytes(s, sub, 0); at >= 0; at = str_find_bytes(s, sub, at + sub.len)) ++n;
    return n;
}

inline Str str_replace(const Str &s, const Str &old, const Str &with) {
    if (old.len == 0) {  // `with` before every code point and at the end
        const int64_t n = str_len(s);
        char *p;
        Str out = Str::make(s.len + (n + 1) * with.len, &p);
        for (int64_t i = 0; i <= s.len; ++i) {
            if (i == s.len || !utf8_continuation(s.data[i])) {
                memcpy(p, with.data, size_t(with.len));
                p += with.len;
            }
            if (i < s.len) *p++ = s.data[i];
        }
        return out;
    }
    const int64_t n = str_count(s, old);
    if (n == 0) return s;
    char *p;
    Str out = Str::make(s.len + n * (with.len - old.len), &p);
    int64_t from = 0;
    for (int64_t at = str_find_bytes(s, old, 0); at >= 0; at = str_find_bytes(s, old, from)) {
        memcpy(p, s.data + from, size_t(at - from));
        p += at - from;
        memcpy(p, with.data, size_t(with.len));
        p += with.len;
        from = at + old.len;
    }
    memcpy(p, s.data + from, size_t(s.len - from));
    return out;
}

// s.split(sep): ValueError for an empty separator, as CPython.
inline List<Str> str_split(const Str &s, const Str &sep) {
    if (sep.len == 0) raise(TR_ERR_VALUE, "empty separator");
    List<Str> out = List<Str>::make();
    int64_t from = 0;
    for (int64_t at = str_find_bytes(s, sep, 0); at >= 0; at = str_find_bytes(s, sep, from)) {
        out.push(str_part(s, from, at));
        from = at + sep.len;
    }
    out.push(str_part(s, from, s.len));
    return out;
}

// s.split(): runs of whitespace separate, none at the ends.
inline List<Str> str_split(const Str &s) {
    List<Str> out = List<Str>::make();
    int64_t i = 0, next;
    while (i < s.len) {
        while (i < s.len && detail::is_space(detail::utf8_decode(s, i, next))) i = next;
        if (i >= s.len) break;
        int64_t start = i;
        while (i < s.len && !detail::is_space(detail::utf8_decode(s, i, next))) i = next;
        out.push(str_part(s, start, i));
    }
    return out;
}

// strip / lstrip / rstrip (ends: 1 left, 2 right, 3 both) of whitespace, or
// of the code points in `chars`.
inline Str str_strip(const Str &s, int ends, const Str *chars = nullptr) {
    auto strippable = [&](int64_t at, int64_t end) {
        if (!chars) {
            int64_t next;
            return detail::is_space(detail::utf8_decode(s, at, next));
        }
        for (int64_t j = 0; j + (end - at) <= chars->len; ++j)
            if ((j == 0 || !utf8_continuation(chars->data[j])) &&
                memcmp(chars->data + j, s.data + at, size_t(end - at)) == 0 &&
                (j + (end - at) == chars->len || !utf8_continuation(chars->data[j + (end - at)])))
                return true;
        return false;
    };
    int64_t lo = 0, hi = s.len, next;
    if (ends & 1)
        while (lo < hi) {
            detail::utf8_decode(s, lo, next);
            if (!strippable(lo, next)) break;
            lo = next;
        }
    if (ends & 2)
        while (hi > lo) {
            int64_t start = hi - 1;
            while (start > lo && utf8_continuation(s.data[start])) --start;
            if (!strippable(start, hi)) break;
            hi = start;
        }
    return str_part(s, lo, hi);
}

inline bool str_isspace(const Str &s) {
    if (s.len == 0) return false;
    for (int64_t i = 0, next; i < s.len; i = next)
        if (!detail::is_space(detail::utf8_decode(s, i, next))) return false;
    return true;
}

}  // namespace tr
