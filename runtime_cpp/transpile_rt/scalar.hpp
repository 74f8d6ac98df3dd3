// Scalar types: the fixed-width integers, IEEE floats and a small complex
// type.  <complex> is avoided on purpose (0.3 s per compile); math goes
// through GCC/Clang builtins so no <cmath> is needed either.
#pragma once
#include <stdint.h>
#include "hd.hpp"

namespace tr {

template <class T> struct complex_t {
    T re, im;
    constexpr complex_t() : re(0), im(0) {}
    constexpr complex_t(T r) : re(r), im(0) {}
    constexpr complex_t(T r, T i) : re(r), im(i) {}
    template <class U> constexpr explicit complex_t(const complex_t<U> &o) : re(T(o.re)), im(T(o.im)) {}
    constexpr explicit operator bool() const { return re != 0 || im != 0; }
};
using complex64 = complex_t<float>;
using complex128 = complex_t<double>;

template <class T> struct is_complex { static constexpr bool value = false; };
template <class T> struct is_complex<complex_t<T>> { static constexpr bool value = true; };

template <class T> struct is_float { static constexpr bool value = false; };
template <> struct is_float<float> { static constexpr bool value = true; };
template <> struct is_float<double> { static constexpr bool value = true; };

template <class T> struct is_int { static constexpr bool value = false; };
#define TR_INT_TYPE(T) \
    template <> struct is_int<T> { static constexpr bool value = true; };
TR_INT_TYPE(int8_t) TR_INT_TYPE(int16_t) TR_INT_TYPE(int32_t) TR_INT_TYPE(int64_t)
TR_INT_TYPE(uint8_t) TR_INT_TYPE(uint16_t) TR_INT_TYPE(uint32_t) TR_INT_TYPE(uint64_t)
#undef TR_INT_TYPE

template <class T> struct is_signed_int { static constexpr bool value = is_int<T>::value && T(-1) < T(0); };

template <class T> struct real_of { using type = T; };
template <class T> struct real_of<complex_t<T>> { using type = T; };

// Conversion between element types, NumPy-style (complex to real keeps the
// real part, anything to bool is "!= 0").
template <class To, class From> constexpr To cast(const From &v) {
    if constexpr (is_complex<To>::value) {
        if constexpr (is_complex<From>::value)
            return To(v);
        else
            return To(typename real_of<To>::type(v));
    } else if constexpr (is_complex<From>::value) {
        if constexpr (sizeof(To) == 1 && To(2) == To(1))
            return v.re != 0 || v.im != 0;
        else
            return To(v.re);
    } else {
        return static_cast<To>(v);
    }
}

// c ? a : b for integers without a branch (cmov on x86-64), for an if/else
// that assigns one variable from cheap arms (cxx/lower_select.py): GCC keeps
// such a test as a branch, which a random test mispredicts half the time.
// The test may be an integer (nonzero: true), tested as it is.
template <class C, class T> TR_HD inline T select(C c, T a, T b) {
#if defined(__x86_64__) && !defined(__CUDA_ARCH__)
    if constexpr ((sizeof(T) == 8 || sizeof(T) == 4) && sizeof(C) == 1) {
        __asm__("test %b1, %b1\n\tcmovne %2, %0" : "+r"(b) : "q"(c), "rm"(a) : "cc");
        return b;
    } else if constexpr ((sizeof(T) == 8 || sizeof(T) == 4) && sizeof(C) == 8) {
        __asm__("test %1, %1\n\tcmovne %2, %0" : "+r"(b) : "r"(c), "rm"(a) : "cc");
        return b;
    }
#endif
    return c ? a : b;
}

// pow() as the C library computes it, which is what CPython and NumPy scalars
// call.  GCC rewrites pow(x, 2.0) with a known exponent into x*x, and libm's
// pow differs from that product in the last bit for about 0.1% of x, so the
// exponent is hidden from the optimizer.
template <class T> TR_HD inline T libm_pow_call(T x, T y) {
#if defined(__x86_64__) && !defined(__CUDA_ARCH__)
    __asm__("" : "+x"(y));
#elif defined(__aarch64__) && !defined(__CUDA_ARCH__)
    __asm__("" : "+w"(y));
#else
    volatile T hidden = y;
    y = hidden;
#endif
    if constexpr (sizeof(T) == 4) return __builtin_powf(x, y);
    else return __builtin_pow(x, y);
}

// pow(x, 2.0) -- `x ** 2` -- with glibc's bits, without the call for ~96% of
// x.  glibc's pow (2.28 on, sysdeps/ieee754/dbl-64/e_pow.c) is within 0.54 ULP
// of the exact square, and x*x is the exact square rounded to nearest: where
// the exact square lies within 0.46 ULP of x*x, no other double is within
// 0.54 ULP of it, so pow returns x*x.  Zeros, subnormal and huge squares,
// powers of two (whose neighbours below are half an ULP away), NaN and inf
// go to pow.  (30M random x, any bit pattern, matched pow bit for bit.)
TR_HD inline double libm_square(double x) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 28)) && !defined(__CUDA_ARCH__)
    double hi = x * x;
    uint64_t bits = __builtin_bit_cast(uint64_t, hi);
    uint64_t exponent = bits & 0x7ff0000000000000ull;
    if (exponent > (uint64_t(64) << 52) && exponent < (uint64_t(0x7fe) << 52) && (bits & 0x000fffffffffffffull)) {
        double lo = __builtin_fma(x, x, -hi);  // x*x == hi + lo exactly
        double ulp = __builtin_bit_cast(double, exponent - (uint64_t(52) << 52));
        if (__builtin_fabs(lo) < 0.46 * ulp) return hi;
    }
#endif
    return libm_pow_call(x, 2.0);
}

template <class T> TR_HD inline T libm_pow(T x, T y) {
    if constexpr (sizeof(T) == 8) {
        if (y == 2.0) return libm_square(x);
    }
    return libm_pow_call(x, y);
}

template <class T> constexpr complex_t<T> operator+(complex_t<T> a, complex_t<T> b) { return {a.re + b.re, a.im + b.im}; }
template <class T> constexpr complex_t<T> operator-(complex_t<T> a, complex_t<T> b) { return {a.re - b.re, a.im - b.im}; }
template <class T> constexpr complex_t<T> operator-(complex_t<T> a) { return {-a.re, -a.im}; }
template <class T> constexpr complex_t<T> operator*(complex_t<T> a, complex_t<T> b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <class T> TR_HD inline complex_t<T> operator/(complex_t<T> a, complex_t<T> b) {
    // Smith's algorithm: no overflow for large |b|.
    T ar = __builtin_fabs(b.re), ai = __builtin_fabs(b.im);
    if (ar >= ai) {
        if (ar == 0 && ai == 0) return {a.re / ar, a.im / ai};
        T r = b.im / b.re, d = b.re + b.im * r;
        return {(a.re + a.im * r) / d, (a.im - a.re * r) / d};
    }
    T r = b.re / b.im, d = b.re * r + b.im;
    return {(a.re * r + a.im) / d, (a.im * r - a.re) / d};
}
template <class T> constexpr bool operator==(complex_t<T> a, complex_t<T> b) { return a.re == b.re && a.im == b.im; }
template <class T> constexpr bool operator!=(complex_t<T> a, complex_t<T> b) { return !(a == b); }
template <class T> TR_HD complex_t<T> &operator+=(complex_t<T> &a, complex_t<T> b) { return a = a + b; }
template <class T> TR_HD complex_t<T> &operator-=(complex_t<T> &a, complex_t<T> b) { return a = a - b; }
template <class T> TR_HD complex_t<T> &operator*=(complex_t<T> &a, complex_t<T> b) { return a = a * b; }
template <class T> TR_HD complex_t<T> &operator/=(complex_t<T> &a, complex_t<T> b) { return a = a / b; }

}  // namespace tr
