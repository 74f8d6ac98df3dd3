// CPython's semantics for operators whose operands are both Python scalars
// (int, float, bool): ZeroDivisionError instead of IEEE results, and the
// float power errors.  NumPy scalars and arrays use ops/operators.hpp.
#pragma once
#include <tuple>

#include "operators.hpp"

namespace tr {
namespace py {

// CPython's complex quotient (_Py_c_quot): Smith's method dividing by the
// denominator (NumPy multiplies by its reciprocal: scalar.hpp's operator/);
// errno's EDOM for a zero divisor becomes `zero`.
TR_NO_FP_CONTRACT TR_HD inline complex_t<double> cquot(complex_t<double> a, complex_t<double> b, bool *zero = nullptr) {
    const double br = __builtin_fabs(b.re), bi = __builtin_fabs(b.im);
    if (br >= bi) {
        if (br == 0) {
            if (zero) *zero = true;
            return complex_t<double>(0, 0);
        }
        const double ratio = b.im / b.re, denom = b.re + b.im * ratio;
        return complex_t<double>((a.re + a.im * ratio) / denom, (a.im - a.re * ratio) / denom);
    }
    if (bi >= br) {
        const double ratio = b.re / b.im, denom = b.re * ratio + b.im;
        return complex_t<double>((a.re * ratio + a.im) / denom, (a.im * ratio - a.re) / denom);
    }
    return complex_t<double>(__builtin_nan(""), __builtin_nan(""));  // a NaN in b
}

template <class T> TR_HD inline T truediv(T a, T b) {
    if (b == T(0))
        raise(TR_ERR_ZERODIV, is_int<T>::value ? "division by zero"
                              : is_complex<T>::value ? "complex division by zero" : "float division by zero");
    if constexpr (is_complex<T>::value) return cquot(a, b);
    else return a / b;
}
TR_HD inline double truediv_int(int64_t a, int64_t b) {
    if (b == 0) raise(TR_ERR_ZERODIV, "division by zero");
    return double(a) / double(b);
}
template <class T> TR_HD inline T floordiv(T a, T b) {
    if (b == 0)
        raise(TR_ERR_ZERODIV, is_int<T>::value ? "integer division or modulo by zero" : "float floor division by zero");
    return op::floordiv::apply(a, b);
}
template <class T> TR_HD inline T mod(T a, T b) {
    if (b == 0) raise(TR_ERR_ZERODIV, is_int<T>::value ? TR_MSG_INT_MOD_ZERO : "float modulo");
    return op::mod::apply(a, b);
}
// CPython's comparison of an int with a float: exact (float_richcompare),
// where converting the int to double rounds past 2**53.  -1, 0, 1 as a < b,
// a == b, a > b; 2 when b is NaN (every order false, != true).
TR_HD inline int int_float_order(int64_t a, double b) {
    if (b != b) return 2;
    if (b >= 9223372036854775808.0) return -1;
    if (b < -9223372036854775808.0) return 1;
    const int64_t whole = int64_t(b);  // toward zero: exact, |b| < 2**63
    if (a != whole) return a < whole ? -1 : 1;
    const double frac = b - double(whole);  // exact, with b's sign
    return frac > 0 ? -1 : frac < 0 ? 1 : 0;
}
// A comparison's truth from such an order (-2: the NaN's 2, negated for b op a).
TR_HD constexpr bool ordered(int order, const char *op) {
    if (order == 2 || order == -2) return op[0] == '!';
    switch (op[0]) {
        case '<': return op[1] ? order <= 0 : order < 0;
        case '>': return op[1] ? order >= 0 : order > 0;
        case '=': return order == 0;
        default: return order != 0;
    }
}

// CPython's int shifts: a negative count is a ValueError; a count of 64 or
// more shifts every bit out (x >> n is then 0 or -1, exactly as CPython's; x
// << n is the exact result modulo 2^64, as every int64 operation here wraps).
TR_HD inline int64_t lshift(int64_t a, int64_t b) {
    if (b < 0) raise(TR_ERR_VALUE, "negative shift count");
    return op::lshift::apply(a, b);
}
TR_HD inline int64_t rshift(int64_t a, int64_t b) {
    if (b < 0) raise(TR_ERR_VALUE, "negative shift count");
    return op::rshift::apply(a, b);
}
// divmod(a, b): CPython computes both from one division (_float_div_mod,
// long_divmod), as // and % do, with divmod's own message for a zero float
// divisor.
template <class T> TR_HD inline std::tuple<T, T> divmod(T a, T b) {
    if (b == 0) raise(TR_ERR_ZERODIV, is_int<T>::value ? "integer division or modulo by zero" : "float divmod()");
    return {op::floordiv::apply(a, b), op::mod::apply(a, b)};
}
TR_HD inline int64_t pow(int64_t a, int64_t b) {
    if (b < 0)
        raise(TR_ERR_VALUE,
              "negative exponent %lld for an int power: the result would be a float; write a float base or exponent",
              (long long)b);
    return op::ipow(a, b);
}
// pow(a, b, m) of Python ints, as CPython's long_pow: ValueError for m == 0
// and for a negative b when a has no inverse modulo m; the result has m's
// sign.  Products are taken in 128 bits, so any int64 modulus works.
inline int64_t pow_mod(int64_t a, int64_t b, int64_t m) {  // host only: 128-bit products
    if (m == 0) raise(TR_ERR_VALUE, "pow() 3rd argument cannot be 0");
    const uint64_t n = m < 0 ? uint64_t(0) - uint64_t(m) : uint64_t(m);
    uint64_t base = a < 0 ? (n - (uint64_t(0) - uint64_t(a)) % n) % n : uint64_t(a) % n;
    uint64_t e = b < 0 ? uint64_t(0) - uint64_t(b) : uint64_t(b);
    if (b < 0) {  // base's inverse modulo n (extended Euclid), then its power
        __int128 r0 = __int128(n), r1 = __int128(base), t0 = 0, t1 = 1;
        while (r1 != 0) {
            const __int128 q = r0 / r1, r2 = r0 - q * r1, t2 = t0 - q * t1;
            r0 = r1, r1 = r2, t0 = t1, t1 = t2;
        }
        if (r0 != 1) raise(TR_ERR_VALUE, "base is not invertible for the given modulus");
        base = uint64_t(t0 < 0 ? t0 + __int128(n) : t0);
    }
    uint64_t result = n == 1 ? 0 : 1;
    for (; e > 0 && n != 1; e >>= 1) {
        if (e & 1) result = uint64_t((unsigned __int128)result * base % n);
        base = uint64_t((unsigned __int128)base * base % n);
    }
    return m < 0 && result != 0 ? int64_t(result - n) : int64_t(result);
}

TR_HD inline double pow(double a, double b) {
    if (a == 0 && b < 0) raise(TR_ERR_ZERODIV, "0.0 cannot be raised to a negative power");
    // CPython's result here is complex; a float-typed result would silently be another type.
    if (a < 0 && __builtin_isfinite(a) && __builtin_isfinite(b) && b != __builtin_floor(b))
        raise(TR_ERR_VALUE, "a negative float raised to a non-integer power: Python's result would be complex, "
                            "which compiled float code cannot return; write complex(x) ** y");
    double r = libm_pow(a, b);
    if (__builtin_isinf(r) && __builtin_isfinite(a) && __builtin_isfinite(b))
        raise(TR_ERR_OVERFLOW, "(34, 'Numerical result out of range')");
    return r;
}
// CPython's complex ** (complex_pow, 3.11-3.13): an integer exponent of at
// most 100 in magnitude by squaring from 1 (a negative one then 1/r), any
// other in polar form through libm's hypot, pow, atan2, exp, log, cos, sin.
// errno decides the errors: EDOM (0 to a negative or complex power, or a
// phase cos/sin cannot take) is ZeroDivisionError; a result with an
// infinite part OverflowError.
TR_NO_FP_CONTRACT TR_HD inline complex_t<double> pow(complex_t<double> a, complex_t<double> b) {
    bool edom = false;
    complex_t<double> p;
    if (b.im == 0 && b.re == __builtin_floor(b.re) && __builtin_fabs(b.re) <= 100) {
        const long n = long(b.re);
        complex_t<double> r(1, 0), x = a;
        for (long mask = 1, m = n < 0 ? -n : n; mask > 0 && m >= mask; mask <<= 1) {
            if (m & mask) r = r * x;
            x = x * x;
        }
        p = n > 0 ? r : cquot(complex_t<double>(1, 0), r, &edom);
    } else if (b.re == 0 && b.im == 0) {
        p = complex_t<double>(1, 0);
    } else if (a.re == 0 && a.im == 0) {
        edom = b.im != 0 || b.re < 0;
        p = complex_t<double>(0, 0);
    } else {
        const double vabs = __builtin_hypot(a.re, a.im);
        double len = libm_pow(vabs, b.re);
        const double at = __builtin_atan2(a.im, a.re);
        double phase = at * b.re;
        if (b.im != 0) {
            len /= __builtin_exp(at * b.im);
            phase += b.im * __builtin_log(vabs);
        }
        edom = __builtin_isinf(phase);  // cos and sin of an infinity set EDOM
        p = complex_t<double>(len * __builtin_cos(phase), len * __builtin_sin(phase));
    }
    if (edom) raise(TR_ERR_ZERODIV, "0.0 to a negative or complex power");
    if (__builtin_isinf(p.re) || __builtin_isinf(p.im)) raise(TR_ERR_OVERFLOW, "complex exponentiation");
    return p;
}
template <class T> TR_HD inline T pow(T a, T b) { return op::pow::apply(a, b); }

}  // namespace py
}  // namespace tr
