// s[i] and s[a:b:c] of a str: by code points, as CPython indexes (the text
// is UTF-8, so a position is found by counting the bytes that start a code
// point).  A step-1 slice and an item share the string's buffer.
#pragma once
#include "index.hpp"
#include "str.hpp"

namespace tr {

// The byte offset of code point k (0 <= k <= the number of code points).
inline int64_t str_offset(const Str &s, int64_t k) {
    for (int64_t i = 0; i < s.len; ++i)
        if (!utf8_continuation(s.data[i]) && k-- == 0) return i;
    return s.len;
}

inline Str str_item(const Str &s, int64_t i) {
    const int64_t n = str_len(s);
    if (i < 0) i += n;
    if (i < 0 || i >= n) raise(TR_ERR_INDEX, "string index out of range");
    const int64_t from = str_offset(s, i);
    return str_part(s, from, str_char_end(s, from));
}

inline Str str_slice(const Str &s, const Slice &sl) {
    int64_t start, length;
    adjust_slice(sl, str_len(s), start, length);
    if (sl.step == 1) {
        const int64_t from = str_offset(s, start);
        return str_part(s, from, str_offset(str_part(s, from, s.len), length) + from);
    }
    // any other step: the offset of every code point, then the chosen ones copied
    const int64_t n = str_len(s);
    int64_t *at = static_cast<int64_t *>(malloc(sizeof(int64_t) * size_t(n + 1)));
    if (!at) raise(TR_ERR_MEMORY, "out of memory slicing a string of %lld characters", (long long)n);
    for (int64_t i = 0, k = 0; i < s.len; ++i)
        if (!utf8_continuation(s.data[i])) at[k++] = i;
    at[n] = s.len;
    int64_t bytes = 0;
    for (int64_t k = 0, i = start; k < length; ++k, i += sl.step) bytes += at[i + 1] - at[i];
    char *p;
    Str out = Str::make(bytes, &p);
    for (int64_t k = 0, i = start; k < length; ++k, i += sl.step) {
        memcpy(p, s.data + at[i], size_t(at[i + 1] - at[i]));
        p += at[i + 1] - at[i];
    }
    free(at);
    return out;
}

}  // namespace tr
