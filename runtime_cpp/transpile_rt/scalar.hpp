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

// A float converted to a 32- or 64-bit int as the x86-64 SSE instruction
// converts it: truncated in range, else (NaN, inf, too large) the minimum
// ("integer indefinite").
template <class I, class F> constexpr I sse_truncate(F v) {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__AVX2__) && !defined(__CUDACC__) && !TR_DEVICE_PASS
    // The instruction itself: GCC keeps the portable form's two compares as
    // branches without AVX2 (1.5x the time of a bare conversion in a loop at
    // -O2); with AVX2 it vectorizes that form, and not the instruction.
    if (!__builtin_is_constant_evaluated()) {
        typedef double v2df __attribute__((vector_size(16)));
        typedef float v4sf __attribute__((vector_size(16)));
        if constexpr (sizeof(F) == 8 && sizeof(I) == 8) return __builtin_ia32_cvttsd2si64((v2df){v, 0.0});
        else if constexpr (sizeof(F) == 8) return __builtin_ia32_cvttsd2si((v2df){v, 0.0});
        else if constexpr (sizeof(I) == 8) return __builtin_ia32_cvttss2si64((v4sf){v, 0.0f, 0.0f, 0.0f});
        else return __builtin_ia32_cvttss2si((v4sf){v, 0.0f, 0.0f, 0.0f});
    }
#endif
    constexpr I half = I(1) << (sizeof(I) * 8 - 2);
    constexpr F bound = F(half) * F(2);  // 2**31 or 2**63, exact in float and double
    return (v >= -bound && v < bound) ? I(v) : I(-half * 2);
}

// A float converted to an integer type as NumPy's casts do (its scalar loops,
// compiled for x86-64: np.uint16(np.float64(-1.5)) is 65535, np.int8(nan) 0):
// int64, uint32 and uint64 through a 64-bit conversion, the others through a
// 32-bit one, keeping the low bits; uint64 from 2**63 on converts x - 2**63 and
// sets the top bit.  C++ leaves an out-of-range conversion undefined (GCC folds
// constants to other values, AVX-512 converts to unsigned by other rules).
// tests/diff/test_fuzz_kinds.py holds the installed NumPy to this.
template <class To, class From> constexpr To float_to_int(From v) {
    if constexpr (sizeof(To) == 8 && To(-1) > To(0)) {
        constexpr From top = From(uint64_t(1) << 63);
        if (v >= top) return To(uint64_t(sse_truncate<int64_t>(v - top)) ^ (uint64_t(1) << 63));
        return To(sse_truncate<int64_t>(v));
    } else if constexpr (sizeof(To) == 8 || (sizeof(To) == 4 && To(-1) > To(0))) {
        return To(sse_truncate<int64_t>(v));
    } else {
        return To(sse_truncate<int32_t>(v));
    }
}

// Conversion between element types, NumPy-style (complex to real keeps the
// real part, anything to bool is "!= 0", floats to integers float_to_int).
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
            return cast<To>(v.re);
    } else if constexpr (is_int<To>::value && is_float<From>::value) {
        return float_to_int<To>(v);
    } else {
        return static_cast<To>(v);
    }
}

// 0 <= v < n (a chained comparison in Python, cxx/lower_expr.py) as one
// unsigned compare: a negative v wraps to above any n; n <= 0 holds nothing.
TR_HD inline bool in_range(int64_t v, int64_t n) { return uint64_t(v) < uint64_t(n > 0 ? n : 0); }

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

// (v & Mask) ? a : b, the mask tested in place (`if x % 2 == 0:` in
// collatz): one test instruction on the loop's critical path, where
// select(v & Mask, ...) computes the and, then tests it.
template <long long Mask, class T> TR_HD inline T select_bits(int64_t v, T a, T b) {
    static_assert(Mask > 0 && Mask <= 0x7fffffff, "a test instruction's immediate");
#if defined(__x86_64__) && !defined(__CUDA_ARCH__)
    if constexpr (sizeof(T) == 8 || sizeof(T) == 4) {
        __asm__("test %2, %1\n\tcmovne %3, %0" : "+r"(b) : "r"(v), "i"(Mask), "rm"(a) : "cc");
        return b;
    }
#endif
    return (v & Mask) ? a : b;
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

// pow(x, 2.0) -- `x ** 2` -- with glibc's bits, calling pow for ~2.5% of x.
// glibc's pow (2.28 on, sysdeps/ieee754/dbl-64/e_pow.c, the code x86-64 and
// AArch64 build) documents its error as ulperr_exp + |y log x| relerr_log
// 2^53 ULP, with ulperr_exp 0.511 and relerr_log 1.5 2^-68 (the figures
// without FMA; with it 0.509 and 1.3 2^-68: the larger pair holds for both).
// p = x*x is the exact square s rounded to nearest; e = s - p exactly (an FMA,
// or Dekker's product where the CPU has none).  When p is not a power of two,
// its neighbours are one ULP from it, so if |e| < (1 - E) ULP, no double but p
// lies within E ULP of s, and pow (error at most E) returns p.  The bound
// grows with |log s|, so the threshold is read from a table by p's exponent:
// (1 - E - 0.001) ULP, 0.488 ULP for p near 1, 0.455 near overflow.  Zero
// entries send p below 2^-959 (where e may be inexact, and pow's subnormal
// results), inf and NaN to pow, as the mantissa test sends powers of two
// (whose neighbour below is half an ULP away).
// benchmarks/check_square_bits.py compares it with pow over random, grid and
// near-midpoint x; tests/diff/test_perf_paths.py with CPython's x ** 2.

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 28)) \
    && (defined(__x86_64__) || defined(__aarch64__)) && !defined(__CUDA_ARCH__)
#define TR_SQUARE_WITHOUT_POW 1

namespace detail {

struct SquareThresholds {
    double at[2049];  // at[b + 1]: b the biased exponent of p; at[0] for -NaN (its arithmetic shift is -1)
};

constexpr SquareThresholds square_thresholds() {
    SquareThresholds t{};
    double ulp = 0x1p-1011;
    for (int b = 64; b <= 2046; b++, ulp *= 2) {  // p in [2^(b-1023), 2^(b-1022)), ULP 2^(b-1075)
        int log2_max = b >= 1023 ? b - 1022 : 1023 - b;  // |log2 s| at most this
        double bound = 0.511 + log2_max * 0.6931471805599453 * 1.5 / 32768.0;  // glibc's E, in ULP
        t.at[b + 1] = (1.0 - bound - 0.001) * ulp;
    }
    return t;
}

inline constexpr SquareThresholds square_threshold = square_thresholds();

// x*x - p exactly (p = x*x): the FMA instruction where the CPU has one (at
// run time: default builds target the baseline x86-64, where __builtin_fma is
// a libm call; libgcc reports FMA only where the OS saves AVX state), else
// Dekker's product of Veltkamp's halves, kept apart from -ffast-math's
// reassociation by empty asm statements.  Both are exact for p >= 2^-959.
inline double square_error(double x, double p) {
#if defined(__FMA__) || defined(__FP_FAST_FMA) || defined(__aarch64__)
    return __builtin_fma(x, x, -p);
#else
#ifndef TR_SQUARE_NO_FMA  // (defined: Dekker's product on any CPU, for benchmarks/check_square_bits.py)
    if (__builtin_expect(__builtin_cpu_supports("fma"), 1)) {  // every x86-64 CPU since 2013
        double e = p;
        __asm__("vfmsub231sd %1, %1, %0" : "+x"(e) : "x"(x));
        return e;
    }
#endif
    double c = 134217729.0 * x;  // 2^27 + 1: xh keeps the top 26 bits of x
    __asm__("" : "+x"(c));
    double xh = c - (c - x);
    __asm__("" : "+x"(xh));
    double xl = x - xh;
    return ((xh * xh - p) + 2.0 * xh * xl) + xl * xl;
#endif
}

// pow itself, out of the loop's way (cold) and mergeable (const).
[[gnu::noinline, gnu::cold, gnu::const]] inline double libm_square_call(double x) { return libm_pow_call(x, 2.0); }

}  // namespace detail
#endif

TR_HD inline double libm_square(double x) {
#ifdef TR_SQUARE_WITHOUT_POW
    double p = x * x;
    double e = detail::square_error(x, p);
    uint64_t bits = __builtin_bit_cast(uint64_t, p);
    if ((bits & 0x000fffffffffffffull) && __builtin_fabs(e) < detail::square_threshold.at[(int64_t(bits) >> 52) + 1])
        return p;
    return detail::libm_square_call(x);
#else
    return libm_pow_call(x, 2.0);
#endif
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

// NumPy's complex multiply and square loops (arrays, and ufunc calls): fused
// where the installed NumPy's loop fuses on this CPU, which
// transpile/numpy_loops.py asks it (bits: 1 complex64 multiply, 2 complex128
// multiply, 4 and 8 the same for square); its scalar operators never fuse
// (operator* above).
#ifndef TR_NUMPY_CMUL_FMA
#define TR_NUMPY_CMUL_FMA 0
#endif
// The unfused product never contracted: a module is built with
// -ffp-contract=off, but GCC's SLP vectorizer still forms fused complex
// multiply-adds where the target has them, and a harness may build the
// headers with other flags.  The fused one is spelled out, so stays inlinable.
template <class T> TR_NO_FP_CONTRACT TR_HD inline complex_t<T> unfused_cmul(complex_t<T> a, complex_t<T> b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <int Bit, class T> TR_HD inline complex_t<T> loop_cmul(complex_t<T> a, complex_t<T> b) {
    constexpr int shift = Bit + (sizeof(T) == 8 ? 1 : 0);
    if constexpr (((TR_NUMPY_CMUL_FMA >> shift) & 1) != 0) {
        if constexpr (sizeof(T) == 4)
            return {__builtin_fmaf(a.re, b.re, -(a.im * b.im)), __builtin_fmaf(a.re, b.im, a.im * b.re)};
        else
            return {__builtin_fma(a.re, b.re, -(a.im * b.im)), __builtin_fma(a.re, b.im, a.im * b.re)};
    } else {
        return unfused_cmul(a, b);
    }
}
template <class T> TR_HD inline complex_t<T> loop_multiply(complex_t<T> a, complex_t<T> b) { return loop_cmul<0>(a, b); }
template <class T> TR_HD inline complex_t<T> loop_square(complex_t<T> a) { return loop_cmul<2>(a, a); }
// NumPy's complex division (Smith's method through a reciprocal of the
// denominator: other bits than CPython's, which divides, py::cquot).
template <class T> TR_NO_FP_CONTRACT TR_HD inline complex_t<T> operator/(complex_t<T> a, complex_t<T> b) {
    T ar = __builtin_fabs(b.re), ai = __builtin_fabs(b.im);
    if (ar >= ai) {
        if (ar == 0 && ai == 0) return {a.re / ar, a.im / ai};
        T r = b.im / b.re, s = T(1) / (b.re + b.im * r);
        return {(a.re + a.im * r) * s, (a.im - a.re * r) * s};
    }
    T r = b.re / b.im, s = T(1) / (b.im + b.re * r);
    return {(a.re * r + a.im) * s, (a.im * r - a.re) * s};
}
template <class T> constexpr bool operator==(complex_t<T> a, complex_t<T> b) { return a.re == b.re && a.im == b.im; }
template <class T> constexpr bool operator!=(complex_t<T> a, complex_t<T> b) { return !(a == b); }
// NumPy orders complex numbers by real part, then imaginary part: its scalar
// operators (np.complex128(a) < b, and Python's max/min through them) just so.
// Its ufunc loops (np.less, array operators) let a real part that differs
// decide only when neither imaginary part is NaN (ufunc_ordered, used by the
// comparison functors of ops/operators.hpp).
template <class T> constexpr bool operator<(complex_t<T> a, complex_t<T> b) {
    return a.re < b.re || (a.re == b.re && a.im < b.im);
}
template <class T> constexpr bool operator<=(complex_t<T> a, complex_t<T> b) {
    return a.re < b.re || (a.re == b.re && a.im <= b.im);
}
template <class T> constexpr bool operator>(complex_t<T> a, complex_t<T> b) { return b < a; }
template <class T> constexpr bool operator>=(complex_t<T> a, complex_t<T> b) { return b <= a; }
template <class T> constexpr bool ufunc_ordered(T a, T b) {
    if constexpr (is_complex<T>::value) return a.re == b.re || (a.im == a.im && b.im == b.im);
    else return true;
}
template <class T> constexpr bool has_nan(T v) {
    if constexpr (is_complex<T>::value) return v.re != v.re || v.im != v.im;
    else if constexpr (is_float<T>::value) return v != v;
    else return false;
}
template <class T> TR_HD complex_t<T> &operator+=(complex_t<T> &a, complex_t<T> b) { return a = a + b; }
template <class T> TR_HD complex_t<T> &operator-=(complex_t<T> &a, complex_t<T> b) { return a = a - b; }
template <class T> TR_HD complex_t<T> &operator*=(complex_t<T> &a, complex_t<T> b) { return a = a * b; }
template <class T> TR_HD complex_t<T> &operator/=(complex_t<T> &a, complex_t<T> b) { return a = a / b; }

}  // namespace tr
