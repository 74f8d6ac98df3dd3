// Python builtins on scalars: round, int(), abs, min, max with CPython's
// results and error messages.  int is int64 here: a result CPython would
// return as a larger int raises OverflowError instead.
#pragma once
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "../error.hpp"
#include "../float_int.hpp"
#include "../scalar.hpp"

namespace tr {
namespace builtins {
namespace detail {

// Rounds the decimal digit string d[0..n) (value 0.d1d2... x 10^exp10) to
// `keep` digits, half to even; returns the new length (0 when everything
// rounds away) and bumps exp10 on a carry out of the first digit.
TR_HD inline int round_digits(char *d, int n, int keep, int &exp10) {
    if (keep >= n) return n;
    if (keep < 0) return 0;
    bool up;
    int first = d[keep] - '0';
    if (first != 5) {
        up = first > 5;
    } else {
        bool rest = false;
        for (int i = keep + 1; i < n; ++i)
            if (d[i] != '0') rest = true;
        up = rest || (keep > 0 && ((d[keep - 1] - '0') & 1));  // keep == 0: the digit before is 0 (even)
    }
    int len = keep;
    if (up) {
        int i = keep - 1;
        while (i >= 0 && d[i] == '9') d[i--] = '0';
        if (i >= 0) {
            d[i]++;
        } else {
            // carry out: 999 -> 1000
            for (int j = len; j > 0; --j) d[j] = d[j - 1];
            d[0] = '1';
            ++len;
            ++exp10;
        }
    }
    return len;
}

}  // namespace detail

// round(x): nearest integer, ties to even.
TR_HD inline int64_t round_half_even(double x) { return float_to_int64(__builtin_rint(x)); }

// int(x) for a float: truncation toward zero, which the conversion itself
// does; the range checks give the same answers on x as on trunc(x).
TR_HD inline int64_t to_int(double x) { return float_to_int64(x); }
TR_HD inline int64_t to_int(uint64_t x) {
    if (x > uint64_t(INT64_MAX)) raise(TR_ERR_OVERFLOW, "Python int too large to convert to C long");
    return int64_t(x);
}

// round(x, n) for a float.  CPython rounds the exact binary value of x to n
// decimal places (half to even) with its own dtoa and converts the digits
// back with a correctly rounded strtod.  We do the same with the C library:
// printf's %f/%e conversions round the exact binary value (glibc and musl
// are exact, ties to even in the default rounding mode) and strtod is
// correctly rounded, so the results match CPython there; a C library with
// inexact printf could differ in rare near-ties.  round(2.675, 2) == 2.67
// because 2.675 is really 2.67499999...
TR_HD inline double round_ndigits(double x, int64_t ndigits) {
    if (!__builtin_isfinite(x)) return x;
    if (ndigits > 323) return x;         // NDIGITS_MAX: x is already exact to that many places
    if (ndigits < -308) return 0.0 * x;  // NDIGITS_MIN: rounds to +-0
    double r;
    if (ndigits >= 0) {
        char out[720];  // up to 309 integer digits + point + 323 decimals
        snprintf(out, sizeof out, "%.*f", int(ndigits), x);
        r = strtod(out, nullptr);
    } else {
        if (x == 0.0) return x;
        // All digits (a double has at most 767 significant decimal digits),
        // rounded here at the 10^-ndigits place.
        char buf[800];
        snprintf(buf, sizeof buf, "%.770e", x);
        const char *p = buf;
        bool neg = *p == '-';
        if (neg) ++p;
        char d[780];
        int n = 0;
        d[n++] = *p++;
        if (*p == '.') ++p;
        while (*p >= '0' && *p <= '9') d[n++] = *p++;
        int e10 = atoi(p + 1);      // x = d0.d1d2... * 10^e10
        int exp10 = e10 + 1;        // x = 0.d0d1d2... * 10^exp10
        int64_t keep = int64_t(e10) + ndigits + 1;  // digits at or above 10^-ndigits (< 0: none)
        int len = detail::round_digits(d, n, keep < -1 ? -1 : int(keep), exp10);
        if (len == 0) return neg ? -0.0 : 0.0;
        char out[820];
        int q = snprintf(out, sizeof out, "%s0.", neg ? "-" : "");
        for (int i = 0; i < len && q < 800; ++i) out[q++] = d[i];
        snprintf(out + q, sizeof out - q, "e%d", exp10);
        r = strtod(out, nullptr);
    }
    if (__builtin_isinf(r)) raise(TR_ERR_OVERFLOW, "rounded value too large to represent");
    return r;
}

// round(i, n) for an int: exact, half to even (n >= 0 leaves i unchanged).
TR_HD inline int64_t round_ndigits(int64_t x, int64_t ndigits) {
    if (ndigits >= 0) return x;
    if (ndigits < -19) return 0;
    __int128 p = 1;
    for (int64_t i = 0; i < -ndigits; ++i) p *= 10;
    __int128 v = x, q = v / p, r = v % p;
    if (r < 0) r += p, q -= 1;  // floor division
    __int128 twice = 2 * r;
    if (twice > p || (twice == p && (q & 1))) q += 1;
    __int128 res = q * p;
    if (res > INT64_MAX || res < INT64_MIN) raise(TR_ERR_OVERFLOW, "Python int too large to convert to C long");
    return int64_t(res);
}

// NumPy's 10.0**n for np.round (power_of_ten in its calculation.c): exact to
// 1e8, then products by 10, which round from 1e23 on -- as np.round's results
// do with them.  From 1e309 on every product is inf.
TR_HD inline double np_power_of_ten(int64_t n) {
    constexpr double exact[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
    if (n < 9) return exact[n];
    double r = 1e9;
    for (; n > 9 && r != __builtin_inf(); --n) r *= 10.0;
    return r;
}

// round(x, n) of a NumPy scalar is np.round(x, n) (PyArray_Round): x times
// 10**n rounded half to even and divided back (n < 0: divided, rounded,
// multiplied back), in x's own float type; an integer x is returned as it is
// for n >= 0, else rounded through float64 and converted back as NumPy casts.
// n must fit a C int.
template <class T> TR_HD inline T np_round_ndigits(T x, int64_t n) {
    if (n > INT32_MAX) raise(TR_ERR_OVERFLOW, "signed integer is greater than maximum");
    if (n < INT32_MIN) raise(TR_ERR_OVERFLOW, "signed integer is less than minimum");
    if constexpr (is_int<T>::value) {
        return n >= 0 ? x : float_to_int<T>(np_round_ndigits(double(x), n));
    } else {
        const T f = T(np_power_of_ten(n < 0 ? -n : n));
        if constexpr (sizeof(T) == 4) return n >= 0 ? __builtin_rintf(x * f) / f : __builtin_rintf(x / f) * f;
        else return n >= 0 ? __builtin_rint(x * f) / f : __builtin_rint(x / f) * f;
    }
}

// abs(x): ints wrap at INT64_MIN like the rest of int64 arithmetic;
// complex gives the modulus (OverflowError when it overflows, as CPython).
template <class T> TR_HD inline auto py_abs(T x) {
    if constexpr (is_complex<T>::value) {
        double r = __builtin_hypot(double(x.re), double(x.im));
        if (__builtin_isinf(r) && __builtin_isfinite(double(x.re)) && __builtin_isfinite(double(x.im)))
            raise(TR_ERR_OVERFLOW, "absolute value too large");
        return r;
    } else if constexpr (is_float<T>::value) {
        return T(__builtin_fabs(x));
    } else if constexpr (sizeof(T) == 1 && T(2) == T(1)) {
        return int64_t(x);  // abs(True) == 1
    } else {
        return T(x < 0 ? T(0) - x : x);
    }
}

// min(a, b) / max(a, b): CPython keeps the first argument unless a later
// one compares strictly less (greater), so min(nan, 1) is nan and
// min(1, nan) is 1, and equal values return the first.
template <class T> TR_HD inline T py_min(T a, T b) { return b < a ? b : a; }
template <class T> TR_HD inline T py_max(T a, T b) { return b > a ? b : a; }
template <class T, class... Ts> inline T py_min(T a, T b, T c, Ts... rest) { return py_min(py_min(a, b), c, rest...); }
template <class T, class... Ts> inline T py_max(T a, T b, T c, Ts... rest) { return py_max(py_max(a, b), c, rest...); }

}  // namespace builtins
}  // namespace tr
