// Python's `math` module on float64 (and int64 where CPython takes ints),
// with CPython 3.11's results and errors:
//   ValueError "math domain error"  for invalid arguments and singularities
//   OverflowError "math range error" for results too large
// following Modules/mathmodule.c (math_1 / math_2 / math_1a rules; its own
// gamma, lgamma, hypot, pow and log wrappers are reproduced here).  Integer
// results (floor, ceil, trunc, factorial, gcd) are int64: where CPython
// would return a larger int we raise OverflowError instead.
#pragma once
#include <stdint.h>
#include "../error.hpp"
#include "../scalar.hpp"
#include "../float_int.hpp"
#include "fmath.hpp"

namespace tr {
namespace math {

inline constexpr double pi = 3.141592653589793;
inline constexpr double e = 2.718281828459045;
inline constexpr double tau = 6.283185307179586;
inline constexpr double inf = __builtin_inf();
inline constexpr double nan = __builtin_nan("");

namespace detail {

TR_NORETURN __attribute__((cold, noinline)) TR_HD inline void domain_error() { raise(TR_ERR_VALUE, "math domain error"); }
TR_NORETURN __attribute__((cold, noinline)) TR_HD inline void range_error() { raise(TR_ERR_OVERFLOW, "math range error"); }

// CPython's math_1: NaN from non-NaN -> ValueError; inf from finite ->
// OverflowError (can_overflow) or ValueError (singularity).
TR_HD inline double check1(double x, double r, bool can_overflow) {
    if (__builtin_isnan(r) && !__builtin_isnan(x)) domain_error();
    if (__builtin_isinf(r) && __builtin_isfinite(x)) {
        if (can_overflow) range_error();
        domain_error();
    }
    return r;
}

// CPython's math_2.
TR_HD inline double check2(double x, double y, double r) {
    if (__builtin_isnan(r) && !__builtin_isnan(x) && !__builtin_isnan(y)) domain_error();
    if (__builtin_isinf(r) && __builtin_isfinite(x) && __builtin_isfinite(y)) range_error();
    return r;
}

// sin(pi*x), exact at integers (CPython's m_sinpi).
TR_HD inline double sinpi(double x) {
    double y = __builtin_fmod(__builtin_fabs(x), 2.0), r;
    int n = int(__builtin_round(2.0 * y));
    switch (n) {
        case 0: r = __builtin_sin(pi * y); break;
        case 1: r = __builtin_cos(pi * (y - 0.5)); break;
        case 2: r = __builtin_sin(pi * (1.0 - y)); break;
        case 3: r = -__builtin_cos(pi * (y - 1.5)); break;
        default: r = __builtin_sin(pi * (y - 2.0)); break;
    }
    return __builtin_copysign(1.0, x) * r;
}

// Lanczos approximation, N = 13, g = 6.024680040776729583740234375 (the
// parameters CPython uses, from Boost), as a rational function.
inline constexpr double lanczos_g = 6.024680040776729583740234375;
inline constexpr double lanczos_g_minus_half = 5.524680040776729583740234375;
inline constexpr double lanczos_num[13] = {
    23531376880.410759688572007674451636754734846804940, 42919803642.649098768957899047001988850926355848959,
    35711959237.355668049440185451547166705960488635843, 17921034426.037209699919755754458931112671403265390,
    6039542586.3520280050642916443072979210699388420708, 1439720407.3117216736632230727949123939715485786772,
    248874557.86205415651146038641322942321632125127801, 31426415.585400194380614231628318205362874684987640,
    2876370.6289353724412254090516208496135991145378768, 186056.26539522349504029498971604569928220784236328,
    8071.6720023658162106380029022722506138218516325024, 210.82427775157934587250973392071336271166969580291,
    2.5066282746310002701649081771338373386264310793408};
inline constexpr double lanczos_den[13] = {0.0,      39916800.0, 120543840.0, 150917976.0, 105258076.0,
                                           45995730.0, 13339535.0, 2637558.0,   357423.0,    32670.0,
                                           1925.0,     66.0,       1.0};

TR_NO_FP_CONTRACT TR_HD inline double lanczos_sum(double x) {
    double num = 0.0, den = 0.0;
    if (x < 5.0) {
        for (int i = 13; --i >= 0;) {
            num = num * x + lanczos_num[i];
            den = den * x + lanczos_den[i];
        }
    } else {
        for (int i = 0; i < 13; i++) {
            num = num / x + lanczos_num[i];
            den = den / x + lanczos_den[i];
        }
    }
    return num / den;
}

// Error kinds a computation can report, as CPython's errno.
enum { OK = 0, DOM = 1, RANGE = 2 };

TR_NO_FP_CONTRACT TR_HD inline double tgamma(double x, int &err) {
    if (!__builtin_isfinite(x)) {
        if (__builtin_isnan(x) || x > 0.0) return x;
        err = DOM;
        return __builtin_nan("");
    }
    if (x == 0.0) {
        err = DOM;
        return __builtin_copysign(__builtin_inf(), x);
    }
    if (x == __builtin_floor(x)) {
        if (x < 0.0) {
            err = DOM;
            return __builtin_nan("");
        }
        if (x <= 23) {
            double f = 1.0;
            for (int i = 2; i < int(x); ++i) f *= i;  // exact: (x-1)! < 2**70 has few bits set
            return f;
        }
    }
    double absx = __builtin_fabs(x), r, y, z, sqrtpow;
    if (absx < 1e-20) {
        r = 1.0 / x;
        if (__builtin_isinf(r)) err = RANGE;
        return r;
    }
    if (absx > 200.0) {
        if (x < 0.0) return 0.0 / sinpi(x);
        err = RANGE;
        return __builtin_inf();
    }
    y = absx + lanczos_g_minus_half;
    if (absx > lanczos_g_minus_half) {
        double q = y - absx;
        z = q - lanczos_g_minus_half;
    } else {
        double q = y - lanczos_g_minus_half;
        z = q - absx;
    }
    z = z * lanczos_g / y;
    if (x < 0.0) {
        r = -pi / sinpi(absx) / absx * __builtin_exp(y) / lanczos_sum(absx);
        r -= z * r;
        if (absx < 140.0) {
            r /= __builtin_pow(y, absx - 0.5);
        } else {
            sqrtpow = __builtin_pow(y, absx / 2.0 - 0.25);
            r /= sqrtpow;
            r /= sqrtpow;
        }
    } else {
        r = lanczos_sum(absx) / __builtin_exp(y);
        r += z * r;
        if (absx < 140.0) {
            r *= __builtin_pow(y, absx - 0.5);
        } else {
            sqrtpow = __builtin_pow(y, absx / 2.0 - 0.25);
            r *= sqrtpow;
            r *= sqrtpow;
        }
    }
    if (__builtin_isinf(r)) err = RANGE;
    return r;
}

TR_NO_FP_CONTRACT TR_HD inline double lgamma(double x, int &err) {
    if (!__builtin_isfinite(x)) {
        if (__builtin_isnan(x)) return x;
        return __builtin_inf();
    }
    if (x == __builtin_floor(x) && x <= 2.0) {
        if (x <= 0.0) {
            err = DOM;
            return __builtin_inf();
        }
        return 0.0;
    }
    double absx = __builtin_fabs(x);
    if (absx < 1e-20) return -__builtin_log(absx);
    double r = __builtin_log(lanczos_sum(absx)) - lanczos_g;
    r += (absx - 0.5) * (__builtin_log(absx + lanczos_g - 0.5) - 1);
    if (x < 0.0)
        r = 1.144729885849400174143427351353058711647 /* log(pi) */ - __builtin_log(__builtin_fabs(sinpi(absx))) -
            __builtin_log(absx) - r;
    if (__builtin_isinf(r)) err = RANGE;
    return r;
}

// CPython's is_error for math_1a: EDOM -> ValueError; ERANGE -> OverflowError
// unless the result is small (an underflow).
TR_HD inline double check_errno(double r, int err) {
    if (err == DOM) domain_error();
    if (err == RANGE && __builtin_fabs(r) >= 1.5) range_error();
    return r;
}

// sqrt(x*x + y*y) for |x|, |y| already taken: CPython's vector_norm for two
// coordinates (scaled, Veltkamp-Dekker split squares, compensated sum and a
// correction step; nearly always correctly rounded).
TR_NO_FP_CONTRACT TR_HD inline double vector_norm2(double a, double b) {
    double max = a > b ? a : b;
    if (__builtin_isinf(a) || __builtin_isinf(b)) return __builtin_inf();
    if (__builtin_isnan(a) || __builtin_isnan(b)) return __builtin_nan("");
    if (max == 0.0) return max;
    const double T27 = 134217729.0;
    const double vec[2] = {a, b};
    double csum = 1.0, frac1 = 0.0, frac2 = 0.0, frac3 = 0.0, oldcsum, x, t, hi, lo, h;
    int max_e;
    __builtin_frexp(max, &max_e);
    if (max_e >= -1023) {
        double scale = __builtin_ldexp(1.0, -max_e);
        for (int i = 0; i < 2; i++) {
            x = vec[i] * scale;
            t = x * T27;
            hi = t - (t - x);
            lo = x - hi;
            x = hi * hi;
            oldcsum = csum;
            csum += x;
            frac1 += (oldcsum - csum) + x;
            x = 2.0 * hi * lo;
            oldcsum = csum;
            csum += x;
            frac2 += (oldcsum - csum) + x;
            frac3 += lo * lo;
        }
        h = __builtin_sqrt(csum - 1.0 + (frac1 + frac2 + frac3));
        x = h;
        t = x * T27;
        hi = t - (t - x);
        lo = x - hi;
        x = -hi * hi;
        oldcsum = csum;
        csum += x;
        frac1 += (oldcsum - csum) + x;
        x = -2.0 * hi * lo;
        oldcsum = csum;
        csum += x;
        frac2 += (oldcsum - csum) + x;
        x = -lo * lo;
        oldcsum = csum;
        csum += x;
        frac3 += (oldcsum - csum) + x;
        x = csum - 1.0 + (frac1 + frac2 + frac3);
        return (h + x / (2.0 * h)) / scale;
    }
    for (int i = 0; i < 2; i++) {
        x = vec[i] / max;
        x = x * x;
        oldcsum = csum;
        csum += x;
        frac1 += (oldcsum - csum) + x;
    }
    return max * __builtin_sqrt(csum - 1.0 + frac1);
}

TR_HD inline double m_log(double x) {
    if (__builtin_isfinite(x)) {
        if (x > 0.0) return __builtin_log(x);
        domain_error();  // log(0) = -inf (singularity), log(negative) = nan
    }
    if (__builtin_isnan(x) || x > 0.0) return x;
    domain_error();
}

}  // namespace detail

// ------------------------------------------------- one-argument functions

// check1's answer for sqrt, in one comparison: the result is NaN from a
// non-NaN x exactly when x < 0 (sqrt(-0.0) is -0.0), and never infinite
// from a finite x.
TR_HD inline double sqrt(double x) {
    if (x < 0.0) detail::domain_error();
    return __builtin_sqrt(x);
}
// sqrt of an x the compiler proved never negative (>= 0, -0.0 or NaN:
// transpile/passes/signs.py): no check, so a loop around it can vectorize.
TR_HD inline double sqrt_unchecked(double x) { return __builtin_sqrt(x); }
TR_HD inline double cbrt(double x) { return __builtin_cbrt(x); }
TR_HD inline double exp(double x) { return detail::check1(x, __builtin_exp(x), true); }
TR_HD inline double exp2(double x) { return detail::check1(x, __builtin_exp2(x), true); }
TR_HD inline double expm1(double x) { return detail::check1(x, __builtin_expm1(x), true); }
TR_HD inline double log(double x) { return detail::m_log(x); }
TR_HD inline double log2(double x) {
    if (!__builtin_isfinite(x)) {
        if (__builtin_isnan(x) || x > 0.0) return x;
        detail::domain_error();
    }
    if (x > 0.0) return __builtin_log2(x);
    detail::domain_error();
}
TR_HD inline double log10(double x) {
    if (__builtin_isfinite(x)) {
        if (x > 0.0) return __builtin_log10(x);
        detail::domain_error();
    }
    if (__builtin_isnan(x) || x > 0.0) return x;
    detail::domain_error();
}
TR_HD inline double log1p(double x) {
    if (x == 0.0) return x;  // keeps the sign of zero
    return detail::check1(x, __builtin_log1p(x), false);
}
// math.log(x, base) = log(x) / log(base); a base of 1 divides by zero.
TR_HD inline double log(double x, double base) {
    double num = detail::m_log(x), den = detail::m_log(base);
    if (den == 0.0) raise(TR_ERR_ZERODIV, "float division by zero");
    return num / den;
}
// check1's answer for sin, cos and tan, tested on x rather than on the
// result (off the critical path of a loop that calls them): each is NaN
// exactly for x = +-inf among non-NaN x, and finite everywhere else.
TR_HD inline double sin(double x) {
    if (__builtin_isinf(x)) detail::domain_error();
    return __builtin_sin(x);
}
TR_HD inline double cos(double x) {
    if (__builtin_isinf(x)) detail::domain_error();
    return __builtin_cos(x);
}
TR_HD inline double tan(double x) {
    if (__builtin_isinf(x)) detail::domain_error();
    return __builtin_tan(x);
}
TR_HD inline double asin(double x) { return detail::check1(x, __builtin_asin(x), false); }
TR_HD inline double acos(double x) { return detail::check1(x, __builtin_acos(x), false); }
TR_HD inline double atan(double x) { return detail::check1(x, __builtin_atan(x), false); }
TR_HD inline double sinh(double x) { return detail::check1(x, __builtin_sinh(x), true); }
TR_HD inline double cosh(double x) { return detail::check1(x, __builtin_cosh(x), true); }
TR_HD inline double tanh(double x) { return detail::check1(x, __builtin_tanh(x), false); }
TR_HD inline double asinh(double x) { return detail::check1(x, __builtin_asinh(x), false); }
TR_HD inline double acosh(double x) { return detail::check1(x, __builtin_acosh(x), false); }
TR_HD inline double atanh(double x) { return detail::check1(x, __builtin_atanh(x), false); }
TR_HD inline double fabs(double x) { return __builtin_fabs(x); }
TR_HD inline double erf(double x) { return __builtin_erf(x); }
TR_HD inline double erfc(double x) { return __builtin_erfc(x); }
TR_HD inline double gamma(double x) {
    int err = detail::OK;
    double r = detail::tgamma(x, err);
    return detail::check_errno(r, err);
}
TR_HD inline double lgamma(double x) {
    int err = detail::OK;
    double r = detail::lgamma(x, err);
    return detail::check_errno(r, err);
}
TR_HD inline double degrees(double x) { return x * (180.0 / pi); }
TR_HD inline double radians(double x) { return x * (pi / 180.0); }
TR_HD inline bool isnan(double x) { return __builtin_isnan(x); }
TR_HD inline bool isinf(double x) { return __builtin_isinf(x); }
TR_HD inline bool isfinite(double x) { return __builtin_isfinite(x); }

// floor/ceil/trunc return Python ints (int64 here); ints pass through.
TR_HD inline int64_t floor(double x) { return float_to_int64(__builtin_floor(x)); }
TR_HD inline int64_t ceil(double x) { return float_to_int64(__builtin_ceil(x)); }
TR_HD inline int64_t trunc(double x) { return float_to_int64(__builtin_trunc(x)); }
template <class I>
    requires(is_int<I>::value)
int64_t floor(I x) {
    return int64_t(x);
}
template <class I>
    requires(is_int<I>::value)
int64_t ceil(I x) {
    return int64_t(x);
}
template <class I>
    requires(is_int<I>::value)
int64_t trunc(I x) {
    return int64_t(x);
}

// ------------------------------------------------- two-argument functions

// CPython's m_atan2 handles the special cases itself, as C99 does.
TR_HD inline double atan2(double y, double x) { return detail::check2(y, x, __builtin_atan2(y, x)); }
TR_HD inline double hypot(double x, double y) { return detail::vector_norm2(__builtin_fabs(x), __builtin_fabs(y)); }
TR_HD inline double copysign(double x, double y) { return __builtin_copysign(x, y); }
TR_HD inline double fmod(double x, double y) {
    if (__builtin_isinf(y) && __builtin_isfinite(x)) return x;
    double r = __builtin_fmod(x, y);
    if (__builtin_isnan(r) && !__builtin_isnan(x) && !__builtin_isnan(y)) detail::domain_error();
    return r;
}
// IEEE remainder (CPython's m_remainder is exact; so is the C function).
TR_HD inline double remainder(double x, double y) {
    double r = __builtin_remainder(x, y);
    if (__builtin_isnan(r) && !__builtin_isnan(x) && !__builtin_isnan(y)) detail::domain_error();
    return r;
}

TR_HD inline double pow(double x, double y) {
    if (!__builtin_isfinite(x) || !__builtin_isfinite(y)) {
        if (__builtin_isnan(x)) return y == 0.0 ? 1.0 : x;
        if (__builtin_isnan(y)) return x == 1.0 ? 1.0 : y;
        if (__builtin_isinf(x)) {
            bool odd_y = __builtin_isfinite(y) && __builtin_fmod(__builtin_fabs(y), 2.0) == 1.0;
            if (y > 0.0) return odd_y ? x : __builtin_fabs(x);
            if (y == 0.0) return 1.0;
            return odd_y ? __builtin_copysign(0.0, x) : 0.0;
        }
        // y infinite
        if (__builtin_fabs(x) == 1.0) return 1.0;
        if (y > 0.0 && __builtin_fabs(x) > 1.0) return y;
        if (y < 0.0 && __builtin_fabs(x) < 1.0) return -y;
        return 0.0;
    }
    double r = libm_pow(x, y);
    if (!__builtin_isfinite(r)) {
        if (__builtin_isnan(r) || x == 0.0) detail::domain_error();  // (-x)**non-integer, 0**negative
        detail::range_error();
    }
    return r;
}

TR_HD inline bool isclose(double a, double b, double rel_tol = 1e-09, double abs_tol = 0.0) {
    if (rel_tol < 0.0 || abs_tol < 0.0) raise(TR_ERR_VALUE, "tolerances must be non-negative");
    if (a == b) return true;
    if (__builtin_isinf(a) || __builtin_isinf(b)) return false;
    double diff = __builtin_fabs(b - a);
    return diff <= __builtin_fabs(rel_tol * b) || diff <= __builtin_fabs(rel_tol * a) || diff <= abs_tol;
}

// ------------------------------------------------------ integer functions

TR_HD inline int64_t factorial(int64_t n) {
    if (n < 0) raise(TR_ERR_VALUE, "factorial() not defined for negative values");
    if (n > 20) raise(TR_ERR_OVERFLOW, "factorial() result does not fit in int64 (argument %lld)", (long long)n);
    int64_t r = 1;
    for (int64_t i = 2; i <= n; ++i) r *= i;
    return r;
}

// gcd of the absolute values; gcd(0, 0) == 0.  (The one unrepresentable
// result, 2**63 for gcd(-2**63, 0 or -2**63), wraps.)
TR_HD inline int64_t gcd(int64_t a, int64_t b) {
    uint64_t x = a < 0 ? 0 - uint64_t(a) : uint64_t(a), y = b < 0 ? 0 - uint64_t(b) : uint64_t(b);
    while (y) {
        uint64_t t = x % y;
        x = y;
        y = t;
    }
    return int64_t(x);
}
TR_HD inline int64_t lcm(int64_t a, int64_t b) {
    if (a == 0 || b == 0) return 0;
    int64_t g = gcd(a, b);
    int64_t r = (a / g) * b;  // wraps like int64 arithmetic does
    return r < 0 ? -r : r;
}

}  // namespace math
}  // namespace tr
