// CPython's semantics for operators whose operands are both Python scalars
// (int, float, bool): ZeroDivisionError instead of IEEE results, and the
// float power errors.  NumPy scalars and arrays use ops/operators.hpp.
#pragma once
#include "operators.hpp"

namespace tr {
namespace py {

template <class T> TR_HD inline T truediv(T a, T b) {
    if (b == T(0))
        raise(TR_ERR_ZERODIV, is_int<T>::value ? "division by zero"
                              : is_complex<T>::value ? "complex division by zero" : "float division by zero");
    return a / b;
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
    if (b == 0) raise(TR_ERR_ZERODIV, is_int<T>::value ? "integer division or modulo by zero" : "float modulo");
    return op::mod::apply(a, b);
}
TR_HD inline int64_t pow(int64_t a, int64_t b) {
    if (b < 0)
        raise(TR_ERR_VALUE,
              "negative exponent %lld for an int power: the result would be a float; write a float base or exponent",
              (long long)b);
    return op::ipow(a, b);
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
template <class T> TR_HD inline T pow(T a, T b) { return op::pow::apply(a, b); }

}  // namespace py
}  // namespace tr
