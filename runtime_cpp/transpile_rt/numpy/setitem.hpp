// A Python int or float stored into an integer array element: NumPy 2
// converts it as Python's int() would and refuses values the dtype cannot
// hold (OverflowError "Python integer 300 out of bounds for uint8"; NaN is a
// ValueError, infinity an OverflowError) instead of wrapping; NumPy 2.4
// treats NumPy scalars stored into signed integer arrays the same way
// (cxx/stores.py asks the installed NumPy which stores need this).
#pragma once
#include "../scalar.hpp"
#include "../error.hpp"

namespace tr {

template <class D> TR_HD inline D py_store(int64_t v, const char *dtype) {
    constexpr bool is_unsigned = D(-1) > D(0);
    constexpr int bits = 8 * int(sizeof(D));
    bool fits;
    if constexpr (bits == 64) fits = !is_unsigned || v >= 0;  // every int64 fits int64; uint64 takes v >= 0
    else if constexpr (is_unsigned) fits = v >= 0 && v < (int64_t(1) << bits);
    else fits = v >= -(int64_t(1) << (bits - 1)) && v < (int64_t(1) << (bits - 1));
    if (!fits) raise(TR_ERR_OVERFLOW, "Python integer %lld out of bounds for %s", (long long)v, dtype);
    return D(v);
}

template <class D> TR_HD inline D py_store(uint64_t v, const char *dtype) {
    if (v > uint64_t(9223372036854775807)) {
        if constexpr (sizeof(D) == 8 && D(-1) > D(0)) return D(v);
        raise(TR_ERR_OVERFLOW, "Python int too large to convert to C long");
    }
    return py_store<D>(int64_t(v), dtype);
}

template <class D> TR_HD inline D py_store(double v, const char *dtype) {
    if (v != v) raise(TR_ERR_VALUE, "cannot convert float NaN to integer");
    if (__builtin_isinf(v)) raise(TR_ERR_OVERFLOW, "cannot convert float infinity to integer");
    double t = __builtin_trunc(v);
    if (t >= -9223372036854775808.0 && t < 9223372036854775808.0) return py_store<D>(int64_t(t), dtype);
    if constexpr (sizeof(D) == 8 && D(-1) > D(0)) {  // uint64 holds [2**63, 2**64)
        if (t > 0 && t < 18446744073709551616.0) return D(t);
    }
    raise(TR_ERR_OVERFLOW, "Python int too large to convert to C long");
    return D(0);
}

}  // namespace tr
