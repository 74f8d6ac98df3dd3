// Python str in compiled code: immutable UTF-8 text, reference counted
// (literals and arguments are borrowed), and the formatting of numbers the
// way CPython's str()/repr()/format() spell them.  No <string>: it costs
// 0.2 s of every compile.
#pragma once
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "abi.h"
#include "error.hpp"
#include "float_int.hpp"
#include "scalar.hpp"

namespace tr {

inline void str_buffer_free(tr_buffer *b) { free(b); }

struct Str {
    const char *data = "";
    int64_t len = 0;
    tr_buffer *buf = nullptr;  // heap text (counted); null: a literal or an argument's text

    Str() = default;
    Str(const char *d, int64_t n) : data(d), len(n) {}
    Str(const Str &o) : data(o.data), len(o.len), buf(o.buf) {
        if (buf) __atomic_fetch_add(&buf->refcount, 1, __ATOMIC_RELAXED);
    }
    Str(Str &&o) noexcept : data(o.data), len(o.len), buf(o.buf) { o.buf = nullptr; }
    Str &operator=(Str o) noexcept {
        const char *d = data; data = o.data; o.data = d;
        int64_t n = len; len = o.len; o.len = n;
        tr_buffer *b = buf; buf = o.buf; o.buf = b;
        return *this;
    }
    ~Str() {
        if (buf && __atomic_sub_fetch(&buf->refcount, 1, __ATOMIC_ACQ_REL) == 0) buf->release(buf);
    }
    explicit operator bool() const { return len > 0; }

    // A new string of n bytes to fill through *out (NUL-terminated).
    static Str make(int64_t n, char **out) {
        tr_buffer *b = static_cast<tr_buffer *>(malloc(sizeof(tr_buffer) + size_t(n) + 1));
        if (!b) raise(TR_ERR_MEMORY, "out of memory for a string of %lld bytes", (long long)n);
        b->refcount = 1;
        b->release = str_buffer_free;
        b->data = reinterpret_cast<char *>(b + 1);
        char *p = static_cast<char *>(b->data);
        p[n] = 0;
        Str s;
        s.data = p;
        s.len = n;
        s.buf = b;
        *out = p;
        return s;
    }
    static Str copy(const char *d, int64_t n) {
        char *p;
        Str s = make(n, &p);
        memcpy(p, d, size_t(n));
        return s;
    }
};

inline bool operator==(const Str &a, const Str &b) {
    return a.len == b.len && (a.data == b.data || memcmp(a.data, b.data, size_t(a.len)) == 0);
}
inline bool operator!=(const Str &a, const Str &b) { return !(a == b); }
// UTF-8's bytes order as the code points do: CPython's str order.
inline bool operator<(const Str &a, const Str &b) {
    int64_t n = a.len < b.len ? a.len : b.len;
    int c = memcmp(a.data, b.data, size_t(n));
    return c < 0 || (c == 0 && a.len < b.len);
}
inline bool operator>(const Str &a, const Str &b) { return b < a; }
inline bool operator<=(const Str &a, const Str &b) { return !(b < a); }
inline bool operator>=(const Str &a, const Str &b) { return !(a < b); }

inline Str str_concat(const Str &a, const Str &b) {
    char *p;
    Str s = Str::make(a.len + b.len, &p);
    memcpy(p, a.data, size_t(a.len));
    memcpy(p + a.len, b.data, size_t(b.len));
    return s;
}

// s * n: n copies (none for n <= 0); CPython's OverflowError for a length
// past what a str can hold, MemoryError where it cannot be allocated.
inline Str str_repeat(const Str &s, int64_t n) {
    if (n <= 0 || s.len == 0) return Str();
    if (n > INT64_MAX / s.len) raise(TR_ERR_OVERFLOW, "repeated string is too long");
    char *p;
    Str out = Str::make(s.len * n, &p);
    for (int64_t i = 0; i < n; ++i, p += s.len) memcpy(p, s.data, size_t(s.len));
    return out;
}

// sep.join(items), one allocation: items counted by n and read by at(i).
template <class At> inline Str str_sep_join_n(const Str &sep, int64_t n, At at) {
    int64_t total = n > 1 ? sep.len * (n - 1) : 0;
    for (int64_t i = 0; i < n; ++i) total += at(i).len;
    char *p;
    Str s = Str::make(total, &p);
    for (int64_t i = 0; i < n; ++i) {
        if (i) memcpy(p, sep.data, size_t(sep.len)), p += sep.len;
        const Str &part = at(i);
        memcpy(p, part.data, size_t(part.len));
        p += part.len;
    }
    return s;
}
// A list of strs.
template <class Items> inline Str str_sep_join(const Str &sep, const Items &items) {
    return str_sep_join_n(sep, int64_t(items.size()), [&](int64_t i) -> const Str & { return items[i]; });
}
// Strs given one by one (a tuple's; no sep: an f-string's pieces), not copied.
template <class... S> inline Str str_join_sep(const Str &sep, const S &...parts) {
    if constexpr (sizeof...(S) == 0) {
        return Str();
    } else {
        const Str *items[] = {&parts...};
        return str_sep_join_n(sep, int64_t(sizeof...(S)), [&](int64_t i) -> const Str & { return *items[i]; });
    }
}
template <class... S> inline Str str_join(const S &...parts) { return str_join_sep(Str(), parts...); }

// The text is UTF-8: a byte 10xxxxxx continues a code point, any other starts one.
inline bool utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The byte after the code point that starts at byte `at`.
inline int64_t str_char_end(const Str &s, int64_t at) {
    int64_t end = at + 1;
    while (end < s.len && utf8_continuation(s.data[end])) ++end;
    return end;
}

// Bytes [from, to) of s, sharing its buffer (counted).
inline Str str_part(const Str &s, int64_t from, int64_t to) {
    Str out = s;
    out.data = s.data + from;
    out.len = to - from;
    return out;
}

// The byte offset of the first occurrence of sub in s at or after byte
// `from`, or -1.  On UTF-8 it finds exactly the occurrences a search on code
// points finds: no code point's bytes occur inside another's.
inline int64_t str_find_bytes(const Str &s, const Str &sub, int64_t from = 0) {
    if (sub.len == 0) return from <= s.len ? from : -1;
    for (int64_t i = from; i + sub.len <= s.len; ++i)
        if (s.data[i] == sub.data[0] && memcmp(s.data + i, sub.data, size_t(sub.len)) == 0) return i;
    return -1;
}

inline bool str_contains(const Str &hay, const Str &needle) { return str_find_bytes(hay, needle) >= 0; }

// len() counts code points, as Python does.
inline int64_t str_len(const Str &s) {
    int64_t n = 0;
    for (int64_t i = 0; i < s.len; ++i) n += !utf8_continuation(s.data[i]);
    return n;
}

inline uint64_t str_hash(const Str &s) {
    uint64_t h = 1469598103934665603ull;
    for (int64_t i = 0; i < s.len; ++i) h = (h ^ static_cast<unsigned char>(s.data[i])) * 1099511628211ull;
    return h;
}

inline Str str_arg(void *slot) {
    const tr_str *in = static_cast<const tr_str *>(slot);
    return Str(in->data, in->len);  // the caller holds the object for the whole call
}

inline void to_result(void *slot, Str s) {
    tr_str *out = static_cast<tr_str *>(slot);
    out->data = s.data;
    out->len = s.len;
    out->buffer = s.buf;  // the reference goes to the bridge
    s.buf = nullptr;
}

// Python's == between values of possibly different kinds (`x in (..)`):
// strs equal strs, numbers numbers, anything else is unequal.
inline bool eq_any(const Str &a, const Str &b) { return a == b; }
template <class A> inline bool eq_any(const Str &, const A &) { return false; }
template <class A> inline bool eq_any(const A &, const Str &) { return false; }
template <class A, class B> inline bool eq_any(const A &a, const B &b) { return a == b; }

// ---- numbers as text ------------------------------------------------------

inline Str str_of(const Str &s) { return s; }
inline Str str_of(bool b) { return b ? Str("True", 4) : Str("False", 5); }

template <class I> inline Str str_of_int(I v) {
    char buf[24];
    int n = snprintf(buf, sizeof buf, is_signed_int<I>::value ? "%lld" : "%llu",
                     is_signed_int<I>::value ? (long long)v : (unsigned long long)v);
    return Str::copy(buf, n);
}
inline Str str_of(int8_t v) { return str_of_int(v); }
inline Str str_of(int16_t v) { return str_of_int(v); }
inline Str str_of(int32_t v) { return str_of_int(v); }
inline Str str_of(int64_t v) { return str_of_int(v); }
inline Str str_of(uint8_t v) { return str_of_int(v); }
inline Str str_of(uint16_t v) { return str_of_int(v); }
inline Str str_of(uint32_t v) { return str_of_int(v); }
inline Str str_of(uint64_t v) { return str_of_int(v); }

// The correctly rounded p-digit decimal of x (x > 0) reads back as x: its
// digits and exponent.  Away from powers of two the interval of values that
// read back as x is symmetric, and the correctly rounded p+1 digits are at
// least as close to x as the p digits (which are p+1 digits too), so which
// lengths read back is monotone in p and a binary search finds the shortest.
inline bool round_trips(double x, int p, char *digits, int *nd, int *exp10) {
    char buf[48];
    snprintf(buf, sizeof buf, "%.*e", p - 1, x);
    const char *q = buf;
    *nd = 0;
    for (; *q && *q != 'e'; ++q)
        if (*q >= '0' && *q <= '9') digits[(*nd)++] = *q;
    *exp10 = atoi(q + 1);
    return strtod(buf, nullptr) == x;
}

// The shortest decimal digits that read back as x (x > 0, finite), as
// CPython's repr() finds them: for each length, the correctly rounded
// digits (glibc's printf and strtod round correctly); at a power of two the
// interval below x is half as wide, so every length is tried, with the next
// digits up too.  Returns the number of digits; *decpt: x = 0.DIGITS * 10**decpt.
inline int shortest_digits(double x, char *digits, int *decpt) {
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    if ((bits & ((uint64_t(1) << 52) - 1)) != 0) {  // not a power of two: binary search
        int lo = 1, hi = 17, nd = 0, exp10 = 0;     // 17 digits always read back
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (round_trips(x, mid, digits, &nd, &exp10)) hi = mid;
            else lo = mid + 1;
        }
        round_trips(x, lo, digits, &nd, &exp10);
        while (nd > 1 && digits[nd - 1] == '0') --nd;
        *decpt = exp10 + 1;
        return nd;
    }
    char buf[48];
    for (int p = 1; p <= 17; ++p) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, x);
        // buf: d[.ddd]e[+-]XX
        int nd = 0;
        const char *q = buf;
        for (; *q && *q != 'e'; ++q)
            if (*q >= '0' && *q <= '9') digits[nd++] = *q;
        int exp10 = atoi(q + 1);
        bool ok = strtod(buf, nullptr) == x;
        if (!ok && strtod(buf, nullptr) < x) {
            // one unit up in the last digit
            char up[20];
            memcpy(up, digits, size_t(nd));
            int k = nd - 1;
            while (k >= 0 && up[k] == '9') up[k--] = '0';
            int e2 = exp10;
            if (k < 0) {
                up[0] = '1';
                for (int j = 1; j < nd; ++j) up[j] = '0';
                ++e2;
            } else {
                ++up[k];
            }
            char cand[48];
            int m = 0;
            cand[m++] = up[0];
            if (nd > 1) {
                cand[m++] = '.';
                for (int j = 1; j < nd; ++j) cand[m++] = up[j];
            }
            snprintf(cand + m, sizeof cand - size_t(m), "e%d", e2);
            if (strtod(cand, nullptr) == x) {
                memcpy(digits, up, size_t(nd));
                exp10 = e2;
                ok = true;
            }
        }
        if (ok) {
            while (nd > 1 && digits[nd - 1] == '0') --nd;
            *decpt = exp10 + 1;
            return nd;
        }
    }
    // not reached: 17 significant digits always round-trip
    *decpt = 1;
    digits[0] = '0';
    return 1;
}

// repr(float) / str(float): CPython's 'r' format.
inline Str str_of(double x) {
    if (x != x) return Str("nan", 3);
    if (x == __builtin_inf()) return Str("inf", 3);
    if (x == -__builtin_inf()) return Str("-inf", 4);
    char out[64];
    int n = 0;
    if (__builtin_signbit(x)) {
        out[n++] = '-';
        x = -x;
    }
    if (x == 0) {
        memcpy(out + n, "0.0", 3);
        return Str::copy(out, n + 3);
    }
    char d[24];
    int decpt;
    int nd = shortest_digits(x, d, &decpt);
    if (decpt <= -4 || decpt > 16) {
        out[n++] = d[0];
        if (nd > 1) {
            out[n++] = '.';
            for (int j = 1; j < nd; ++j) out[n++] = d[j];
        }
        int e = decpt - 1;
        n += snprintf(out + n, sizeof out - size_t(n), "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
    } else if (decpt <= 0) {
        out[n++] = '0';
        out[n++] = '.';
        for (int j = 0; j < -decpt; ++j) out[n++] = '0';
        for (int j = 0; j < nd; ++j) out[n++] = d[j];
    } else if (decpt >= nd) {
        for (int j = 0; j < nd; ++j) out[n++] = d[j];
        for (int j = nd; j < decpt; ++j) out[n++] = '0';
        out[n++] = '.';
        out[n++] = '0';
    } else {
        for (int j = 0; j < decpt; ++j) out[n++] = d[j];
        out[n++] = '.';
        for (int j = decpt; j < nd; ++j) out[n++] = d[j];
    }
    return Str::copy(out, n);
}

// repr() of a key in a KeyError message, and of str values.
inline Str repr_of(const Str &s) {
    bool has_single = false, has_double = false;
    for (int64_t i = 0; i < s.len; ++i) has_single |= s.data[i] == '\'', has_double |= s.data[i] == '"';
    char quote = has_single && !has_double ? '"' : '\'';
    char *p;
    Str out = Str::make(s.len * 4 + 2, &p);
    int64_t n = 0;
    p[n++] = quote;
    for (int64_t i = 0; i < s.len; ++i) {
        unsigned char c = static_cast<unsigned char>(s.data[i]);
        if (c == '\\' || c == (unsigned char)quote) p[n++] = '\\', p[n++] = char(c);
        else if (c == '\n') p[n++] = '\\', p[n++] = 'n';
        else if (c == '\r') p[n++] = '\\', p[n++] = 'r';
        else if (c == '\t') p[n++] = '\\', p[n++] = 't';
        else if (c < 0x20 || c == 0x7f) n += snprintf(p + n, 5, "\\x%02x", c);
        else p[n++] = char(c);
    }
    p[n++] = quote;
    p[n] = 0;
    out.len = n;
    return out;
}
template <class T> inline Str repr_of(const T &v) { return str_of(v); }

// str(v) right-aligned in `width` (zero: zeros after the sign, a space
// counting as one), or left-aligned (spaces after it).
inline Str pad(const Str &s, int64_t width, bool zero, bool left = false) {
    int64_t n = str_len(s);
    if (n >= width) return s;
    char *p;
    Str out = Str::make(s.len + (width - n), &p);
    int64_t fill = width - n, k = 0, i = 0;
    if (left) {
        memcpy(p, s.data, size_t(s.len));
        memset(p + s.len, ' ', size_t(fill));
        return out;
    }
    if (zero && s.len && (s.data[0] == '-' || s.data[0] == '+' || s.data[0] == ' ')) p[k++] = s.data[i++];
    for (int64_t j = 0; j < fill; ++j) p[k++] = zero ? '0' : ' ';
    memcpy(p + k, s.data + i, size_t(s.len - i));
    return out;
}

// s's first `cut` bytes with `before` and `after` copies of `fill` around them.
inline Str str_padded(const Str &s, int64_t cut, int64_t before, int64_t after, const Str &fill) {
    if (before == 0 && after == 0 && cut == s.len) return s;
    char *p;
    Str out = Str::make(cut + (before + after) * fill.len, &p);
    for (int64_t j = 0; j < before; ++j, p += fill.len) memcpy(p, fill.data, size_t(fill.len));
    memcpy(p, s.data, size_t(cut));
    p += cut;
    for (int64_t j = 0; j < after; ++j, p += fill.len) memcpy(p, fill.data, size_t(fill.len));
    return out;
}

// format(s, spec) of a str: its first `prec` code points (prec < 0: all of
// them), widened to `width` code points with `fill` (one code point's UTF-8
// text) after it ('<'), before it ('>') or around it ('^': the odd one after).
inline Str format_str(const Str &s, int64_t width, int64_t prec, char align, const Str &fill) {
    int64_t cut = s.len, n = 0;
    for (int64_t i = 0; i < s.len; ++i) {
        if (utf8_continuation(s.data[i])) continue;
        if (prec >= 0 && n == prec) {
            cut = i;
            break;
        }
        ++n;
    }
    const int64_t pad = n >= width ? 0 : width - n;
    const int64_t before = align == '>' ? pad : align == '^' ? pad / 2 : 0;
    return str_padded(s, cut, before, pad - before, fill);
}

// s.ljust / rjust / center(width, fill) (how: '<', '>', '^'): center puts
// the odd pad where CPython's pad() does (left when width is odd).
inline Str str_justify(const Str &s, int64_t width, const Str &fill, char how) {
    if (str_len(fill) != 1) raise(TR_ERR_TYPE, "The fill character must be exactly one character long");
    const int64_t n = str_len(s), pad = n >= width ? 0 : width - n;
    const int64_t before = how == '<' ? 0 : how == '>' ? pad : pad / 2 + (pad & width & 1);
    return str_padded(s, s.len, before, pad - before, fill);
}
inline Str str_justify(const Str &s, int64_t width, char how) { return str_justify(s, width, Str(" ", 1), how); }

// s.zfill(width): zeros after a leading sign.
inline Str str_zfill(const Str &s, int64_t width) {
    const int64_t n = str_len(s);
    if (n >= width) return s;
    const int64_t sign = s.len && (s.data[0] == '+' || s.data[0] == '-');
    char *p;
    Str out = Str::make(s.len + (width - n), &p);
    memcpy(p, s.data, size_t(sign));
    memset(p + sign, '0', size_t(width - n));
    memcpy(p + sign + (width - n), s.data + sign, size_t(s.len - sign));
    return out;
}

// An infinity or NaN under a printf format of ours, as CPython's format()
// writes it: "nan" whatever its sign bit (printf: "-nan"), and a 0 flag
// padding with zeros after the sign (printf pads them with spaces).
inline Str format_nonfinite(const char *cfmt, double v) {
    bool left = false, plus = false, space = false, zero = false;
    const char *p = cfmt + 1;
    for (; *p == '-' || *p == '+' || *p == ' ' || *p == '0' || *p == '#'; ++p)
        left |= *p == '-', plus |= *p == '+', space |= *p == ' ', zero |= *p == '0';
    int64_t width = 0;
    for (; *p >= '0' && *p <= '9'; ++p) width = width * 10 + (*p - '0');
    if (*p == '.')
        for (++p; *p >= '0' && *p <= '9'; ++p) {
        }
    const bool upper = *p == 'F' || *p == 'E' || *p == 'G';
    const char *sign = !__builtin_isnan(v) && v < 0 ? "-" : plus ? "+" : space ? " " : "";
    char text[8];
    const int n = snprintf(text, sizeof text, "%s%s", sign,
                           __builtin_isnan(v) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf"));
    return pad(Str::copy(text, n), width, zero && !left, left);
}

// format(v, spec) for the specs whose meaning C's printf shares; the
// compiler turned the Python spec into `cfmt` (e.g. "%08.3f").
template <class T> inline Str format_printf(const char *cfmt, T v) {
    char buf[128];
    int n;
    if constexpr (is_float<T>::value) {
        if (!__builtin_isfinite(v)) return format_nonfinite(cfmt, double(v));
    }
    if constexpr (is_float<T>::value)
        n = snprintf(buf, sizeof buf, cfmt, double(v));
    else
        n = snprintf(buf, sizeof buf, cfmt, (long long)v);
    if (n < 0) n = 0;
    if (n >= int(sizeof buf)) {
        char *p;
        Str s = Str::make(n, &p);
        if constexpr (is_float<T>::value)
            snprintf(p, size_t(n) + 1, cfmt, double(v));
        else
            snprintf(p, size_t(n) + 1, cfmt, (long long)v);
        return s;
    }
    return Str::copy(buf, n);
}

// "%d" % x for a float x: int(x)'s digits.  Beyond int64 the float is an
// integer already, and printf's %.0f writes its exact value, as str(int(x))
// does; NaN and infinities raise int()'s errors.
inline Str format_int_of_float(const char *int_fmt, const char *float_fmt, double x) {
    if (__builtin_fabs(x) < 9223372036854775808.0 || !__builtin_isfinite(x))
        return format_printf(int_fmt, float_to_int64(x));
    return format_printf(float_fmt, x);
}


}  // namespace tr
