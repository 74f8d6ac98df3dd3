// float/double overloads of the C math library, spelled through GCC
// builtins so that no <cmath> is needed (it costs ~0.2 s per compile) and so
// that float32 code calls the f-suffixed functions and stays in float.
// tr::fm::sqrt(1.0f) is sqrtf, tr::fm::sqrt(1.0) is sqrt.
#pragma once
#include <stdint.h>
#include "../hd.hpp"

namespace tr {
namespace fm {

#define TR_FM1(name)                                                   \
    TR_HD inline float name(float x) { return __builtin_##name##f(x); }      \
    TR_HD inline double name(double x) { return __builtin_##name(x); }
#define TR_FM2(name)                                                            \
    TR_HD inline float name(float x, float y) { return __builtin_##name##f(x, y); }   \
    TR_HD inline double name(double x, double y) { return __builtin_##name(x, y); }

TR_FM1(sqrt) TR_FM1(cbrt) TR_FM1(exp) TR_FM1(exp2) TR_FM1(expm1) TR_FM1(log) TR_FM1(log2) TR_FM1(log10)
TR_FM1(log1p) TR_FM1(sin) TR_FM1(cos) TR_FM1(tan) TR_FM1(asin) TR_FM1(acos) TR_FM1(atan) TR_FM1(sinh)
TR_FM1(cosh) TR_FM1(tanh) TR_FM1(asinh) TR_FM1(acosh) TR_FM1(atanh) TR_FM1(floor) TR_FM1(ceil)
TR_FM1(trunc) TR_FM1(rint) TR_FM1(round) TR_FM1(fabs) TR_FM1(erf) TR_FM1(erfc) TR_FM1(tgamma)
TR_FM1(lgamma)
TR_FM2(atan2) TR_FM2(hypot) TR_FM2(pow) TR_FM2(copysign) TR_FM2(fmod) TR_FM2(fmax) TR_FM2(fmin)
#undef TR_FM1
#undef TR_FM2

TR_HD inline float scalbn(float x, int n) { return __builtin_scalbnf(x, n); }
TR_HD inline double scalbn(double x, int n) { return __builtin_scalbn(x, n); }
TR_HD inline float frexp(float x, int *e) { return __builtin_frexpf(x, e); }
TR_HD inline double frexp(double x, int *e) { return __builtin_frexp(x, e); }
TR_HD inline float ldexp(float x, int e) { return __builtin_ldexpf(x, e); }
TR_HD inline double ldexp(double x, int e) { return __builtin_ldexp(x, e); }

template <class T> TR_HD inline bool isnan(T x) { return __builtin_isnan(x); }
template <class T> TR_HD inline bool isinf(T x) { return __builtin_isinf(x); }
template <class T> TR_HD inline bool isfinite(T x) { return __builtin_isfinite(x); }
template <class T> TR_HD inline bool signbit(T x) { return __builtin_signbit(x) != 0; }

template <class T> TR_HD inline T inf() { return __builtin_inf(); }
template <> inline float inf<float>() { return __builtin_inff(); }
template <class T> TR_HD inline T nan() { return __builtin_nan(""); }
template <> inline float nan<float>() { return __builtin_nanf(""); }

}  // namespace fm
}  // namespace tr

// TR_NO_FP_CONTRACT and TR_NO_FP_CONTRACT_VEC: hd.hpp.
