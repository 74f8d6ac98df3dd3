// Python operators as functors, applied to operands already converted to the
// computation type that NumPy's type resolution picked.  Array expressions
// and NumPy scalars use these directly (NumPy semantics: x // 0 == 0 for
// integers, IEEE results for floats); ops/python.hpp adds CPython's
// ZeroDivisionError for Python int/float operands.  Integer overflow wraps
// (modules are built with -fwrapv), as it does in NumPy.
#pragma once
#include <type_traits>

#include "../scalar.hpp"
#include "../error.hpp"

namespace tr {
namespace op {

template <class T> TR_HD inline T fmod_(T a, T b) {
    if constexpr (sizeof(T) == 4) return __builtin_fmodf(a, b);
    else return __builtin_fmod(a, b);
}
// x unchanged, but unknown to the optimizer from here on.  A division or
// fmod by zero makes its NaN at run time, where the CPU makes NumPy's and
// CPython's (x86's default NaN has its sign bit set); folded while compiling
// (in a branch that knows the divisor is 0) GCC makes a positive one, which
// math.copysign and the text of a signed NaN would show.
template <class T> TR_HD __attribute__((always_inline)) inline T opaque(T x) {
#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(__CUDA_ARCH__) && !TR_DEVICE_PASS
#if defined(__x86_64__)
    __asm__("" : "+x"(x));
#else
    __asm__("" : "+w"(x));
#endif
#endif
    return x;
}
template <class T> TR_HD inline T floor_(T a) {
    if constexpr (sizeof(T) == 4) return __builtin_floorf(a);
    else return __builtin_floor(a);
}

struct add { template <class T> TR_HD static T apply(T a, T b) { return T(a + b); } };
struct sub { template <class T> TR_HD static T apply(T a, T b) { return T(a - b); } };
struct mul {
    template <class T> TR_HD static T apply(T a, T b) {
        if constexpr (sizeof(T) == 1 && T(2) == T(1)) return a && b;
        else if constexpr (is_complex<T>::value) return loop_multiply(a, b);  // NumPy's loop (scalar.hpp)
        else return T(a * b);
    }
};
struct truediv { template <class T> TR_HD static T apply(T a, T b) { return a / b; } };

// A divisor known while compiling to be a power of two: floor division is
// an arithmetic shift and the (non-negative) remainder a mask, which is what
// the general code computes too.
template <class T> TR_HD __attribute__((always_inline)) inline bool const_pow2(T b) {
    return __builtin_constant_p(b) && b > 0 && (b & (b - 1)) == 0;
}

// Both 64-bit operands in [0, 2**32), the divisor unknown while compiling:
// a 32-bit division gives the same quotient and remainder, needs no sign
// fix-up, and is much faster than a 64-bit one on many x86 cores (fib_mod's
// loop: 1.7x).  LLVM inserts the same test ("bypass slow division").  A
// divisor known while compiling is left to GCC, which multiplies instead.
template <class T> TR_HD __attribute__((always_inline)) inline bool narrow_division(T a, T b) {
    if constexpr (is_int<T>::value && sizeof(T) == 8)
        return !__builtin_constant_p(b) && ((uint64_t(a) | uint64_t(b)) >> 32) == 0;
    else
        return false;
}

struct floordiv {
    template <class T> TR_HD static T apply(T a, T b) {
        if constexpr (is_int<T>::value) {
            if (const_pow2(b)) return T(a >> __builtin_ctzll((unsigned long long)b));
            if (b == 0) return 0;
            if (narrow_division(a, b)) return T(uint32_t(a) / uint32_t(b));
            if constexpr (is_signed_int<T>::value) {
                if (b == T(-1)) return T(T(0) - a);
                T q = a / b;
                if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
                return q;
            } else {
                return a / b;
            }
        } else {
            if (b == 0) return opaque(a) / opaque(b);
            T mod = fmod_(a, b);
            T div = (a - mod) / b;
            if (mod != 0 && ((b < 0) != (mod < 0))) div -= T(1);
            T fl;
            if (div != 0) {
                fl = floor_(div);
                if (div - fl > T(0.5)) fl += T(1);
            } else {
                fl = __builtin_copysign(T(0), a / b);
            }
            return fl;
        }
    }
};

struct mod {
    template <class T> TR_HD static T apply(T a, T b) {
        if constexpr (is_int<T>::value) {
            if (const_pow2(b)) return T(a & (b - 1));
            if (b == 0) return 0;
            if (narrow_division(a, b)) return T(uint32_t(a) % uint32_t(b));
            if constexpr (is_signed_int<T>::value) {
                if (b == T(-1)) return 0;
                T r = a % b;
                if (r != 0 && ((r < 0) != (b < 0))) r += b;
                return r;
            } else {
                return a % b;
            }
        } else {
            if (b == 0) return fmod_(opaque(a), opaque(b));
            T r = fmod_(a, b);
            if (r != 0) {
                if ((b < 0) != (r < 0)) r += b;
            } else {
                r = __builtin_copysign(T(0), b);
            }
            return r;
        }
    }
};

template <class T> TR_HD inline T ipow(T base, T exp) {
    if constexpr (is_signed_int<T>::value) {
        if (exp < 0) raise(TR_ERR_VALUE, "Integers to negative integer powers are not allowed.");
    }
    T result = 1;
    while (exp) {
        if (exp & 1) result = T(result * base);
        exp = T(exp >> 1);
        base = T(base * base);
    }
    return result;
}

#if !defined(__CUDA_ARCH__) && !TR_DEVICE_PASS
// The C library's complex type (GCC's __complex__), for cpow and csqrt.
inline __complex__ double gnu_complex(complex_t<double> a) {
    __complex__ double z;
    __real__ z = a.re;
    __imag__ z = a.im;
    return z;
}
inline __complex__ float gnu_complex(complex_t<float> a) {
    __complex__ float z;
    __real__ z = a.re;
    __imag__ z = a.im;
    return z;
}
#endif

// NumPy's complex power (its scalar npy_cpow and its power loop agree, as
// the installed NumPy shows: tests/diff/test_complex_power.py): b == 0 gives
// 1; a zero base 0 where b's real part is positive, else nan+nanj; an
// integer exponent below 100 in magnitude by products (1, 2 and 3 written
// out, others by squaring from 1, a negative one then 1/r by NumPy's
// division); anything else libm's cpow.
template <class R> TR_NO_FP_CONTRACT TR_HD inline complex_t<R> cpow(complex_t<R> a, complex_t<R> b) {
    if (b.re == 0 && b.im == 0) return complex_t<R>(1, 0);
    if (a.re == 0 && a.im == 0) return b.re > 0 ? complex_t<R>(0, 0) : complex_t<R>(R(__builtin_nan("")), R(__builtin_nan("")));
    if (b.im == 0 && __builtin_fabs(b.re) < 100 && b.re == R(int64_t(b.re))) {
        const int64_t n = int64_t(b.re);
        if (n == 1) return a;
        if (n == 2) return a * a;
        if (n == 3) return a * (a * a);
        const int64_t m = n < 0 ? -n : n;
        complex_t<R> r(1, 0), p = a;
        for (int64_t mask = 1;; mask <<= 1) {
            if (m & mask) r = r * p;
            if (m < (mask << 1)) break;
            p = p * p;
        }
        return n < 0 ? complex_t<R>(1, 0) / r : r;
    }
#if defined(__CUDA_ARCH__) || TR_DEVICE_PASS
    double lr = __builtin_log(__builtin_hypot(double(a.re), double(a.im))), t = __builtin_atan2(double(a.im), double(a.re));
    double wr = double(b.re) * lr - double(b.im) * t, wi = double(b.re) * t + double(b.im) * lr;
    double m = __builtin_exp(wr);
    return complex_t<R>(R(m * __builtin_cos(wi)), R(m * __builtin_sin(wi)));
#else
    if constexpr (sizeof(R) == 4) {
        __complex__ float z = __builtin_cpowf(gnu_complex(a), gnu_complex(b));
        return complex_t<R>(__real__ z, __imag__ z);
    } else {
        __complex__ double z = __builtin_cpow(gnu_complex(a), gnu_complex(b));
        return complex_t<R>(__real__ z, __imag__ z);
    }
#endif
}

// np.reciprocal of a complex number (NumPy's own loop; `z ** -1` on an array
// goes through it), and np.sqrt's (libm csqrt; `z ** 0.5` on an array).
template <class R> TR_NO_FP_CONTRACT TR_HD inline complex_t<R> creciprocal(complex_t<R> a) {
    if (__builtin_fabs(a.im) <= __builtin_fabs(a.re)) {
        const R r = a.im / a.re, d = a.re + a.im * r;
        return complex_t<R>(R(1) / d, -r / d);
    }
    const R r = a.re / a.im, d = a.re * r + a.im;
    return complex_t<R>(r / d, R(-1) / d);
}

struct pow {
    template <class T> TR_HD static T apply(T a, T b) {
        if constexpr (is_int<T>::value) return ipow(a, b);
        else if constexpr (is_float<T>::value) return libm_pow(a, b);
        else if constexpr (is_complex<T>::value) return cpow(a, b);
        else return T(a || !b);  // bool ** bool
    }
};

// array ** scalar: NumPy computes a float array to the power of a scalar 2,
// 0.5 or -1 as square, sqrt or reciprocal (bit for bit: not pow), and any
// other exponent with pow.  An array of exponents always goes through pow.
template <class Loop> struct pow_scalar_exponent_by {
    template <class T> TR_HD static T apply(T a, T b) {
        if constexpr (is_float<T>::value) {
            if (b == T(2)) return T(a * a);
            if (b == T(0.5)) {
                if constexpr (sizeof(T) == 4) return __builtin_sqrtf(a);
                else return __builtin_sqrt(a);
            }
            if (b == T(-1)) return T(T(1) / a);
        }
        return Loop::apply(a, b);
    }
};
// Other exponents through the C library's pow, or (pow_scalar_exponent_by<tr::uf::numpy_loop<K>>) NumPy's
// own power loop (numpy/numpy_loops.hpp: its bits on every CPU).
using pow_scalar_exponent = pow_scalar_exponent_by<pow>;

// A complex array to the power of a Python int -1 or 2, or of a Python
// float 0.5: NumPy 2 calls np.reciprocal / np.square / np.sqrt for these
// (its fast_scalar_power); a NumPy scalar exponent goes through the power
// loop.
struct cpow_python_int {
    template <class T> TR_HD static T apply(T a, T b) {
        if (b.im == 0 && b.re == -1) return creciprocal(a);
        if (b.im == 0 && b.re == 2) return loop_square(a);
        return pow::apply(a, b);
    }
};
struct cpow_python_float {
    template <class T> TR_HD static T apply(T a, T b) {
#if !defined(__CUDA_ARCH__) && !TR_DEVICE_PASS
        if (b.im == 0 && b.re == 0.5) {
            if constexpr (sizeof(typename real_of<T>::type) == 4) {
                __complex__ float z = __builtin_csqrtf(gnu_complex(a));
                return T(__real__ z, __imag__ z);
            } else {
                __complex__ double z = __builtin_csqrt(gnu_complex(a));
                return T(__real__ z, __imag__ z);
            }
        }
#endif
        return pow::apply(a, b);
    }
};

// NumPy's shifts (npy_lshift, npy_rshift): a count outside [0, bits of T),
// a negative one read as unsigned, shifts every bit out -- 0, or -1 for >> of
// a negative value -- where C++ leaves the result undefined.
struct lshift {
    template <class T> TR_HD static T apply(T a, T b) {
        if (uint64_t(b) >= sizeof(T) * 8) return T(0);
        return T(std::make_unsigned_t<T>(a) << b);  // unsigned: wraps as NumPy's loop does
    }
};
struct rshift {
    template <class T> TR_HD static T apply(T a, T b) {
        if (uint64_t(b) >= sizeof(T) * 8) return a < 0 ? T(-1) : T(0);
        return T(a >> b);
    }
};
struct bitand_ { template <class T> TR_HD static T apply(T a, T b) { return T(a & b); } };
struct bitor_ { template <class T> TR_HD static T apply(T a, T b) { return T(a | b); } };
struct bitxor { template <class T> TR_HD static T apply(T a, T b) { return T(a ^ b); } };

struct eq { template <class T> TR_HD static bool apply(T a, T b) { return a == b; } };
struct ne { template <class T> TR_HD static bool apply(T a, T b) { return a != b; } };
// NumPy's ufunc loops: complex numbers with a NaN imaginary part order only by equal real parts (scalar.hpp).
struct lt { template <class T> TR_HD static bool apply(T a, T b) { return a < b && ufunc_ordered(a, b); } };
struct le { template <class T> TR_HD static bool apply(T a, T b) { return a <= b && ufunc_ordered(a, b); } };
struct gt { template <class T> TR_HD static bool apply(T a, T b) { return a > b && ufunc_ordered(a, b); } };
struct ge { template <class T> TR_HD static bool apply(T a, T b) { return a >= b && ufunc_ordered(a, b); } };

struct logical_and { template <class T> TR_HD static bool apply(T a, T b) { return bool(a) && bool(b); } };
struct logical_or { template <class T> TR_HD static bool apply(T a, T b) { return bool(a) || bool(b); } };
struct logical_xor { template <class T> TR_HD static bool apply(T a, T b) { return bool(a) != bool(b); } };

struct maximum {
    template <class T> TR_HD static T apply(T a, T b) {
        if (has_nan(a)) return a;  // NaN propagates, the first one (a NaN in either part of a complex)
        if (has_nan(b)) return b;
        return a >= b ? a : b;
    }
};
struct minimum {
    template <class T> TR_HD static T apply(T a, T b) {
        if (has_nan(a)) return a;  // NaN propagates, the first one (a NaN in either part of a complex)
        if (has_nan(b)) return b;
        return a <= b ? a : b;
    }
};
struct fmax { template <class T> TR_HD static T apply(T a, T b) { return (b != b || a >= b) ? a : b; } };
struct fmin { template <class T> TR_HD static T apply(T a, T b) { return (b != b || a <= b) ? a : b; } };

struct neg {
    template <class T> TR_HD static T apply(T a) {
        if constexpr (is_int<T>::value) return T(T(0) - a);  // wraps, and -bool is rejected by typing
        else return -a;                                       // -0.0 for 0.0, as NumPy
    }
};
struct pos { template <class T> TR_HD static T apply(T a) { return a; } };
struct invert {
    template <class T> TR_HD static T apply(T a) {
        if constexpr (sizeof(T) == 1 && T(2) == T(1)) return !a;
        else return T(~a);
    }
};
struct logical_not { template <class T> TR_HD static bool apply(T a) { return !bool(a); } };

}  // namespace op
}  // namespace tr
