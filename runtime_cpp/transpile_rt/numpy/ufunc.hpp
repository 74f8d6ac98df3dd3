// NumPy ufuncs as functors for the expression templates:
//   tr::unary<tr::uf::sqrt, double>(x)      lazily, elementwise
//   tr::uf::sqrt::apply(2.0)                 on one scalar
// Each apply() receives its operand already converted to the computation
// type NumPy's type resolution picked for the loop (float32, float64,
// complex64/128, or an integer type for the int-capable ufuncs) and returns
// what that NumPy loop returns (absolute of complex -> real, isnan -> bool).
// Float-only functions given an integer compute in float64, as NumPy's
// int -> 'd' loops do.  float32 calls the f-suffixed libm functions.
//
// Complex: sqrt and exp follow glibc's csqrt/cexp (which NumPy calls),
// absolute follows NumPy's own SIMD loop, log follows glibc's clog except
// within a hair of the unit circle; power uses NumPy's repeated
// multiplication for small integral exponents and exp(b*log(a)) otherwise.
//
// Where fusing a*b+c into an FMA (which GCC does under -march=native unless
// -ffp-contract=off) would change NumPy's result, the arithmetic lives in
// out-of-line TR_NO_FP_CONTRACT helpers (complex products, logaddexp2).
#pragma once
#include <stdint.h>
#include "../scalar.hpp"
#include "../ops/operators.hpp"
#include "../math/fmath.hpp"

namespace tr {
namespace uf {
namespace detail {

template <class T> struct ftype_of { using type = double; };
template <> struct ftype_of<float> { using type = float; };
template <class T> using ftype = typename ftype_of<T>::type;

template <class T> inline constexpr bool is_bool = sizeof(T) == 1 && T(2) == T(1);

template <class T> inline constexpr T max_v = sizeof(T) == 4 ? T(3.40282346638528859811704183484516925e+38f)
                                                             : T(1.79769313486231570814527423731704357e+308);
template <class T> inline constexpr T min_v = sizeof(T) == 4 ? T(1.17549435082228750796873653722224568e-38f)
                                                             : T(2.22507385850720138309023271733240406e-308);
template <class T> inline constexpr int mant_dig = sizeof(T) == 4 ? 24 : 53;
template <class T> inline constexpr T eps_v = sizeof(T) == 4 ? T(1.1920928955078125e-07) : T(2.220446049250313e-16);

template <class T> TR_HD complex_t<T> c_sqrt(complex_t<T> x) {
    T re = x.re, im = x.im;
    const bool rfin = fm::isfinite(re), ifin = fm::isfinite(im);
    if (!rfin || !ifin) {
        if (fm::isinf(im)) return {fm::inf<T>(), im};
        if (fm::isinf(re)) {
            if (re < 0) return {fm::isnan(im) ? fm::nan<T>() : T(0), fm::copysign(fm::inf<T>(), im)};
            return {re, fm::isnan(im) ? fm::nan<T>() : fm::copysign(T(0), im)};
        }
        return {fm::nan<T>(), fm::nan<T>()};
    }
    if (im == 0) {
        if (re < 0) return {T(0), fm::copysign(fm::sqrt(-re), im)};
        return {fm::fabs(fm::sqrt(re)), fm::copysign(T(0), im)};
    }
    if (re == 0) {
        T r = fm::fabs(im) >= 2 * min_v<T> ? fm::sqrt(T(0.5) * fm::fabs(im)) : T(0.5) * fm::sqrt(2 * fm::fabs(im));
        return {r, fm::copysign(r, im)};
    }
    int scale = 0;
    if (fm::fabs(re) > max_v<T> / 4) {
        scale = 1;
        re = fm::scalbn(re, -2);
        im = fm::scalbn(im, -2);
    } else if (fm::fabs(im) > max_v<T> / 4) {
        scale = 1;
        re = fm::fabs(re) >= 4 * min_v<T> ? fm::scalbn(re, -2) : T(0);
        im = fm::scalbn(im, -2);
    } else if (fm::fabs(re) < 2 * min_v<T> && fm::fabs(im) < 2 * min_v<T>) {
        scale = -((mant_dig<T> + 1) / 2);
        re = fm::scalbn(re, -2 * scale);
        im = fm::scalbn(im, -2 * scale);
    }
    T d = fm::hypot(re, im), r, s;
    if (re > 0) {
        r = fm::sqrt(T(0.5) * (d + re));
        if (scale == 1 && fm::fabs(im) < 1) {
            s = im / r;
            r = fm::scalbn(r, scale);
            scale = 0;
        } else {
            s = T(0.5) * (im / r);
        }
    } else {
        s = fm::sqrt(T(0.5) * (d - re));
        if (scale == 1 && fm::fabs(im) < 1) {
            r = fm::fabs(im / s);
            s = fm::scalbn(s, scale);
            scale = 0;
        } else {
            r = fm::fabs(T(0.5) * (im / s));
        }
    }
    if (scale) {
        r = fm::scalbn(r, scale);
        s = fm::scalbn(s, scale);
    }
    return {r, fm::copysign(s, im)};
}

template <class T> TR_HD complex_t<T> c_exp(complex_t<T> x) {
    T re = x.re, im = x.im;
    const bool rfin = fm::isfinite(re), ifin = fm::isfinite(im);
    if (rfin && ifin) {
        const int t = sizeof(T) == 4 ? 88 : 709;  // (int)((MAX_EXP - 1) * ln 2)
        T sinix, cosix;
        if (fm::fabs(im) > min_v<T>) {
            sinix = fm::sin(im);
            cosix = fm::cos(im);
        } else {
            sinix = im;
            cosix = 1;
        }
        if (re > t) {
            T exp_t = fm::exp(T(t));
            re -= t;
            sinix *= exp_t;
            cosix *= exp_t;
            if (re > t) {
                re -= t;
                sinix *= exp_t;
                cosix *= exp_t;
            }
        }
        if (re > t) return {max_v<T> * cosix, max_v<T> * sinix};
        T ev = fm::exp(re);
        return {ev * cosix, ev * sinix};
    }
    if (fm::isnan(re)) {
        if (im == 0) return {re, im};
        return {fm::nan<T>(), fm::nan<T>()};
    }
    if (fm::isinf(re)) {
        if (ifin) {
            T value = re > 0 ? fm::inf<T>() : T(0);
            if (im == 0) return {value, im};
            return {fm::copysign(value, fm::cos(im)), fm::copysign(value, fm::sin(im))};
        }
        if (re > 0) return {fm::inf<T>(), im - im};
        return {T(0), fm::copysign(T(0), im)};
    }
    return {fm::nan<T>(), fm::nan<T>()};
}

// x*x + y*y - 1 without cancellation (glibc's __x2y2m1): exact products
// split into high and low parts, summed smallest first.
TR_HD inline double x2y2m1(double x, double y) {
    double v[5];
    v[1] = x * x;
    v[0] = __builtin_fma(x, x, -v[1]);
    v[3] = y * y;
    v[2] = __builtin_fma(y, y, -v[3]);
    v[4] = -1.0;
    auto sort_from = [&](int lo) {  // ascending |v|, insertion sort
        for (int i = lo + 1; i < 5; ++i)
            for (int j = i; j > lo && __builtin_fabs(v[j - 1]) > __builtin_fabs(v[j]); --j) {
                double t = v[j];
                v[j] = v[j - 1];
                v[j - 1] = t;
            }
    };
    sort_from(0);
    for (int i = 0; i <= 3; ++i) {
        double hi = v[i + 1] + v[i];
        double lo = (v[i + 1] - hi) + v[i];
        v[i + 1] = hi;
        v[i] = lo;
        sort_from(i + 1);
    }
    return v[4] + v[3] + v[2] + v[1] + v[0];
}
TR_HD inline float x2y2m1(float x, float y) {
    double dx = x, dy = y;
    return float(dx * dx + dy * dy - 1.0);
}

// glibc's clog.
template <class T> TR_NO_FP_CONTRACT TR_HD complex_t<T> c_log(complex_t<T> x) {
    T re = x.re, im = x.im;
    if (fm::isnan(re) || fm::isnan(im)) {
        if (fm::isinf(re) || fm::isinf(im)) return {fm::inf<T>(), fm::nan<T>()};
        return {fm::nan<T>(), fm::nan<T>()};
    }
    T ang = fm::atan2(im, re);
    if (fm::isinf(re) || fm::isinf(im)) return {fm::inf<T>(), ang};
    if (re == 0 && im == 0) return {-fm::inf<T>(), ang};
    T ax = fm::fabs(re), ay = fm::fabs(im);
    int scale = 0;
    if (ax < ay) {
        T t = ax;
        ax = ay;
        ay = t;
    }
    if (ax > max_v<T> / 2) {
        scale = -1;
        ax = fm::scalbn(ax, scale);
        ay = ay >= min_v<T> * 2 ? fm::scalbn(ay, scale) : T(0);
    } else if (ax < min_v<T> && ay < min_v<T>) {
        scale = mant_dig<T>;
        ax = fm::scalbn(ax, scale);
        ay = fm::scalbn(ay, scale);
    }
    T lr;
    if (ax == 1 && scale == 0) {
        lr = fm::log1p(ay * ay) / 2;
    } else if (ax > 1 && ax < 2 && ay < 1 && scale == 0) {
        T d2m1 = (ax - 1) * (ax + 1);
        if (ay >= eps_v<T>) d2m1 += ay * ay;
        lr = fm::log1p(d2m1) / 2;
    } else if (ax < 1 && ax >= T(0.5) && ay < eps_v<T> / 2 && scale == 0) {
        lr = fm::log1p((ax - 1) * (ax + 1)) / 2;
    } else if (ax < 1 && ax >= T(0.5) && scale == 0 && ax * ax + ay * ay >= T(0.5)) {
        lr = fm::log1p(x2y2m1(ax, ay)) / 2;
    } else {
        lr = fm::log(fm::hypot(ax, ay)) - T(scale) * T(0.693147180559945309417232121458176568);
    }
    return {lr, ang};
}

// |z| as NumPy's SIMD loop computes it (loops_unary_complex.dispatch):
// max * sqrt(1 + (min/max)^2) with a fused multiply-add, infinities first,
// then NaN.  (On a CPU without FMA NumPy rounds the product separately.)
template <class T> TR_HD inline T c_abs(complex_t<T> z) {
    T re = fm::fabs(z.re), im = fm::fabs(z.im);
    if (fm::isinf(re) || fm::isinf(im)) return fm::inf<T>();
    if (fm::isnan(re) || fm::isnan(im)) return fm::nan<T>();
    T larger = re > im ? re : im, smaller = re > im ? im : re;
    T ratio = larger == 0 ? T(0) : smaller / larger;
    T h;
    if constexpr (sizeof(T) == 4) h = __builtin_sqrtf(__builtin_fmaf(ratio, ratio, 1.0f));
    else h = __builtin_sqrt(__builtin_fma(ratio, ratio, 1.0));
    return h * larger;
}

template <class F> TR_NO_FP_CONTRACT TR_HD F logaddexp2(F x, F y) {
    if (x == y) return F(x + 1);  // infinities of one sign
    F d = x - y;
    const F log2e = F(1.442695040888963407359924681001892137);
    if (d > 0) return F(x + log2e * fm::log1p(fm::exp2(-d)));
    if (d <= 0) return F(y + log2e * fm::log1p(fm::exp2(d)));
    return d;  // NaN
}

}  // namespace detail

// ---------------------------------------------------------------- unary

#define TR_UF_FLOAT1(NAME, FN)                                                   \
    struct NAME {                                                                \
        template <class T> TR_HD static auto apply(T x) { return fm::FN(detail::ftype<T>(x)); } \
    };

TR_UF_FLOAT1(cbrt, cbrt)
TR_UF_FLOAT1(exp2, exp2)
TR_UF_FLOAT1(expm1, expm1)
TR_UF_FLOAT1(log2, log2)
TR_UF_FLOAT1(log10, log10)
TR_UF_FLOAT1(log1p, log1p)
TR_UF_FLOAT1(sin, sin)
TR_UF_FLOAT1(cos, cos)
TR_UF_FLOAT1(tan, tan)
TR_UF_FLOAT1(arcsin, asin)
TR_UF_FLOAT1(arccos, acos)
TR_UF_FLOAT1(arctan, atan)
TR_UF_FLOAT1(sinh, sinh)
TR_UF_FLOAT1(cosh, cosh)
TR_UF_FLOAT1(tanh, tanh)
TR_UF_FLOAT1(arcsinh, asinh)
TR_UF_FLOAT1(arccosh, acosh)
TR_UF_FLOAT1(arctanh, atanh)
TR_UF_FLOAT1(fabs, fabs)
TR_UF_FLOAT1(rint, rint)  // NumPy has no integer rint loop: ints give float64
#undef TR_UF_FLOAT1

struct sqrt {
    template <class T> TR_HD static auto apply(T x) {
        if constexpr (is_complex<T>::value) return detail::c_sqrt(x);
        else return fm::sqrt(detail::ftype<T>(x));
    }
};
struct exp {
    template <class T> TR_HD static auto apply(T x) {
        if constexpr (is_complex<T>::value) return detail::c_exp(x);
        else return fm::exp(detail::ftype<T>(x));
    }
};
struct log {
    template <class T> TR_HD static auto apply(T x) {
        if constexpr (is_complex<T>::value) return detail::c_log(x);
        else return fm::log(detail::ftype<T>(x));
    }
};

// floor/ceil/trunc have integer (and bool) loops since NumPy 2.1: identity.
#define TR_UF_ROUNDING(NAME)                                      \
    struct NAME {                                                 \
        template <class T> TR_HD static T apply(T x) {                  \
            if constexpr (is_float<T>::value) return fm::NAME(x); \
            else return x;                                        \
        }                                                         \
    };
TR_UF_ROUNDING(floor)
TR_UF_ROUNDING(ceil)
TR_UF_ROUNDING(trunc)
#undef TR_UF_ROUNDING

struct absolute {
    template <class T> TR_HD static auto apply(T x) {
        if constexpr (is_complex<T>::value) return detail::c_abs(x);
        else if constexpr (is_float<T>::value) return fm::fabs(x);
        else if constexpr (is_signed_int<T>::value) return T(x < 0 ? T(-x) : x);  // wraps at INT_MIN like NumPy
        else return x;
    }
};

struct sign {
    template <class T> TR_HD static T apply(T x) {
        if constexpr (is_complex<T>::value) {
            using F = typename real_of<T>::type;
            if (fm::isnan(x.re) || fm::isnan(x.im)) return T(fm::nan<F>(), fm::nan<F>());
            if (x.re == 0 && x.im == 0) return T(F(0), F(0));
            if (fm::isinf(x.re) || fm::isinf(x.im)) {
                if (fm::isinf(x.re) && fm::isinf(x.im)) return T(fm::nan<F>(), fm::nan<F>());
                return T(fm::isinf(x.re) ? fm::copysign(F(1), x.re) : F(0),
                         fm::isinf(x.im) ? fm::copysign(F(1), x.im) : F(0));
            }
            F a = fm::hypot(x.re, x.im);
            return T(x.re / a, x.im / a);
        } else if constexpr (is_float<T>::value) {
            return x > 0 ? T(1) : (x < 0 ? T(-1) : (x == 0 ? T(0) : x));
        } else {
            return T((x > 0) - (x < T(0)));
        }
    }
};

struct square {
    template <class T> TR_HD static T apply(T x) {
        if constexpr (is_complex<T>::value) return loop_square(x);
        else return T(x * x);
    }
};

struct reciprocal {
    template <class T> TR_HD static T apply(T x) {
        if constexpr (is_complex<T>::value) {
            return op::creciprocal(x);
        } else if constexpr (is_float<T>::value) {
            return T(1) / x;
        } else {
            // NumPy computes 1.0/x and converts: 1, -1, else 0; x == 0 gives
            // the x86 "integer indefinite" for 32/64-bit types.
            if (x == T(1)) return T(1);
            if constexpr (is_signed_int<T>::value) {
                if (x == T(-1)) return T(-1);
                if (x == 0 && sizeof(T) >= 4) return T(T(1) << (sizeof(T) * 8 - 1));
            }
            return T(0);
        }
    }
};

struct negative {
    template <class T> TR_HD static T apply(T x) {
        if constexpr (is_complex<T>::value || is_float<T>::value) return -x;
        else return T(T(0) - x);
    }
};
struct positive {
    template <class T> TR_HD static T apply(T x) { return x; }
};

struct isnan {
    template <class T> TR_HD static bool apply(T x) {
        if constexpr (is_complex<T>::value) return fm::isnan(x.re) || fm::isnan(x.im);
        else if constexpr (is_float<T>::value) return fm::isnan(x);
        else return false;
    }
};
struct isinf {
    template <class T> TR_HD static bool apply(T x) {
        if constexpr (is_complex<T>::value) return fm::isinf(x.re) || fm::isinf(x.im);
        else if constexpr (is_float<T>::value) return fm::isinf(x);
        else return false;
    }
};
struct isfinite {
    template <class T> TR_HD static bool apply(T x) {
        if constexpr (is_complex<T>::value) return fm::isfinite(x.re) && fm::isfinite(x.im);
        else if constexpr (is_float<T>::value) return fm::isfinite(x);
        else return true;
    }
};
struct signbit {
    template <class T> TR_HD static bool apply(T x) {
        if constexpr (is_float<T>::value) return fm::signbit(x);
        else return x < T(0);
    }
};

// x * (pi / 180) with the constant computed in the loop type.
struct deg2rad {
    template <class T> TR_HD static auto apply(T x) {
        using F = detail::ftype<T>;
        return F(x) * F(F(3.141592653589793238462643383279502884) / F(180));
    }
};
// rad2deg multiplies by 180/pi computed in the loop type (float32:
// 180.0f / (float)pi, which is one ulp below (float)(180/pi)).
struct rad2deg {
    template <class T> TR_HD static auto apply(T x) {
        using F = detail::ftype<T>;
        return F(x) * F(F(180) / F(3.141592653589793238462643383279502884));
    }
};
using radians = deg2rad;
using degrees = rad2deg;

struct conjugate {
    template <class T> TR_HD static T apply(T x) {
        if constexpr (is_complex<T>::value) return T(x.re, -x.im);
        else return x;
    }
};
using conj = conjugate;

struct logical_not {
    template <class T> TR_HD static bool apply(T x) { return !bool(x); }
};

// --------------------------------------------------------------- binary

struct arctan2 {
    template <class T> TR_HD static auto apply(T a, T b) {
        using F = detail::ftype<T>;
        return fm::atan2(F(a), F(b));
    }
};
struct hypot {
    template <class T> TR_HD static auto apply(T a, T b) {
        using F = detail::ftype<T>;
        return fm::hypot(F(a), F(b));
    }
};
struct copysign {
    template <class T> TR_HD static auto apply(T a, T b) {
        using F = detail::ftype<T>;
        return fm::copysign(F(a), F(b));
    }
};

struct power {
    template <class T> TR_HD static T apply(T a, T b) {
        if constexpr (is_complex<T>::value) return op::cpow(a, b);
        else if constexpr (is_float<T>::value) return b == T(0.5) ? fm::sqrt(a) : fm::pow(a, b);  // NumPy's fast path
        else if constexpr (detail::is_bool<T>) return T(a || !b);
        else return op::ipow(a, b);  // ValueError for negative exponents
    }
};

// NaN-propagating; of two equal values (0.0 and -0.0) the second is
// returned, as NumPy's SIMD loops do.  Complex numbers (NumPy's complex loops,
// ordered as scalar.hpp says): a NaN in either part propagates, and of two
// equal values the first is returned.
struct maximum {
    template <class T> TR_HD static T apply(T a, T b) {
        if constexpr (is_float<T>::value || is_complex<T>::value) {
            if (has_nan(a)) return a;
            if (has_nan(b)) return b;
        }
        if constexpr (is_complex<T>::value) return a >= b ? a : b;
        else return a > b ? a : b;
    }
};
struct minimum {
    template <class T> TR_HD static T apply(T a, T b) {
        if constexpr (is_float<T>::value || is_complex<T>::value) {
            if (has_nan(a)) return a;
            if (has_nan(b)) return b;
        }
        if constexpr (is_complex<T>::value) return a <= b ? a : b;
        else return a < b ? a : b;
    }
};
// NaN-ignoring.
struct fmax {
    template <class T> TR_HD static T apply(T a, T b) {
        if constexpr (is_float<T>::value || is_complex<T>::value) {
            if (has_nan(b)) return a;
            if (has_nan(a)) return b;
        }
        return a >= b ? a : b;  // NumPy's loop: the first of two equals (0.0 and -0.0)
    }
};
struct fmin {
    template <class T> TR_HD static T apply(T a, T b) {
        if constexpr (is_float<T>::value || is_complex<T>::value) {
            if (has_nan(b)) return a;
            if (has_nan(a)) return b;
        }
        return a <= b ? a : b;
    }
};

// C fmod: the result has the sign of the dividend.  Integers: 0 for a zero
// divisor (NumPy warns), and MIN % -1 is 0.
struct fmod {
    template <class T> TR_HD static T apply(T a, T b) {
        if constexpr (is_float<T>::value) {
            return fm::fmod(a, b);
        } else {
            if (b == 0) return T(0);
            if constexpr (is_signed_int<T>::value)
                if (b == T(-1)) return T(0);
            return T(a % b);
        }
    }
};

struct logaddexp {
    template <class T> TR_HD static auto apply(T a, T b) {
        using F = detail::ftype<T>;
        F x = F(a), y = F(b);
        if (x == y) return F(x + F(0.693147180559945309417232121458176568));  // infinities of one sign
        F d = x - y;
        if (d > 0) return F(x + fm::log1p(fm::exp(-d)));
        if (d <= 0) return F(y + fm::log1p(fm::exp(d)));
        return d;  // NaN
    }
};
struct logaddexp2 {
    template <class T> TR_HD static auto apply(T a, T b) {
        using F = detail::ftype<T>;
        return detail::logaddexp2(F(a), F(b));
    }
};

struct logical_and {
    template <class T> TR_HD static bool apply(T a, T b) { return bool(a) && bool(b); }
};
struct logical_or {
    template <class T> TR_HD static bool apply(T a, T b) { return bool(a) || bool(b); }
};
struct logical_xor {
    template <class T> TR_HD static bool apply(T a, T b) { return bool(a) != bool(b); }
};

// The arithmetic and comparison ufuncs by their NumPy names.
using add = op::add;
using subtract = op::sub;
using multiply = op::mul;
using true_divide = op::truediv;
using divide = op::truediv;
using floor_divide = op::floordiv;
using remainder = op::mod;
using mod = op::mod;
using bitwise_and = op::bitand_;
using bitwise_or = op::bitor_;
using bitwise_xor = op::bitxor;
using invert = op::invert;
using bitwise_not = op::invert;
using left_shift = op::lshift;
using right_shift = op::rshift;
using equal = op::eq;
using not_equal = op::ne;
using less = op::lt;
using less_equal = op::le;
using greater = op::gt;
using greater_equal = op::ge;

}  // namespace uf
}  // namespace tr
