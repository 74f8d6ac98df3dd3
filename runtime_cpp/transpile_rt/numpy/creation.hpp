// Array creation: np.zeros/ones/empty/full(+_like), np.arange, np.linspace,
// np.eye.  arange and linspace reproduce NumPy's arithmetic step by step so
// the values match bit for bit.
#pragma once
#include <stdint.h>
#include <string.h>
#include <type_traits>
#include "../array.hpp"
#include "../math/fmath.hpp"

namespace tr {
namespace np {

template <class T, int N> Array<T, N, C> empty(const int64_t (&shape)[N]) { return tr::empty<T, N>(shape); }

template <class T, int N> Array<T, N, C> zeros(const int64_t (&shape)[N]) {
    Array<T, N, C> a = tr::empty<T, N>(shape);
    memset(static_cast<void *>(a.data), 0, size_t(a.size()) * sizeof(T));  // all-zero bits are 0 for every dtype
    return a;
}

template <class T, int N> Array<T, N, C> full(const int64_t (&shape)[N], T value) {
    Array<T, N, C> a = tr::empty<T, N>(shape);
    const int64_t n = a.size();
    T *d = a.data;
    for (int64_t i = 0; i < n; ++i) d[i] = value;
    return a;
}

template <class T, int N> Array<T, N, C> ones(const int64_t (&shape)[N]) { return full<T, N>(shape, T(1)); }

// 0-d arrays: their `shape` member is int64_t[1], which no int64_t[0]
// parameter accepts, so zeros<T, 0>(a.shape) lands here.
template <class T, int N>
    requires(N == 0)
Array<T, 0, C> empty(const int64_t *shape) {
    return tr::empty<T, 0>(shape);
}
template <class T, int N>
    requires(N == 0)
Array<T, 0, C> full(const int64_t *shape, T value) {
    Array<T, 0, C> a = tr::empty<T, 0>(shape);
    a.data[0] = value;
    return a;
}
template <class T, int N>
    requires(N == 0)
Array<T, 0, C> zeros(const int64_t *shape) {
    return full<T, 0>(shape, T(0));
}
template <class T, int N>
    requires(N == 0)
Array<T, 0, C> ones(const int64_t *shape) {
    return full<T, 0>(shape, T(1));
}

// *_like: same shape, C order, element type T chosen by the caller.
template <class T, class U, int N, int L> Array<T, N, C> empty_like(const Array<U, N, L> &a) {
    return tr::empty<T, N>(a.shape);
}
template <class T, class U, int N, int L> Array<T, N, C> zeros_like(const Array<U, N, L> &a) {
    Array<T, N, C> r = tr::empty<T, N>(a.shape);
    memset(static_cast<void *>(r.data), 0, size_t(r.size()) * sizeof(T));
    return r;
}
template <class T, class U, int N, int L> Array<T, N, C> full_like(const Array<U, N, L> &a, T value) {
    Array<T, N, C> r = tr::empty<T, N>(a.shape);
    const int64_t n = r.size();
    for (int64_t i = 0; i < n; ++i) r.data[i] = value;
    return r;
}
template <class T, class U, int N, int L> Array<T, N, C> ones_like(const Array<U, N, L> &a) {
    return full_like<T>(a, T(1));
}

namespace detail {

// numpy's _arange_safe_ceil_to_intp.
inline int64_t arange_ceil(double v) {
    double c = fm::ceil(v);
    if (fm::isnan(c)) raise(TR_ERR_VALUE, "arange: cannot compute length");
    if (!(-9223372036854775808.0 <= c && c < 9223372036854775808.0))
        raise(TR_ERR_VALUE, "Maximum allowed size exceeded");
    return int64_t(c);
}

template <class T> TR_NO_FP_CONTRACT void arange_fill(T *buf, int64_t len) {
    T start = buf[0], delta = T(buf[1] - start);
    for (int64_t i = 2; i < len; ++i) buf[i] = T(start + T(i) * delta);
}

// Arguments of a float32 arange are usually Python floats (float64).
template <class T> struct arange_arg { using type = T; };
template <> struct arange_arg<float> { using type = double; };
}  // namespace detail

// np.arange(start, stop, step, dtype=T).  S is the type the arguments have
// in Python (float64 for Python floats, int64 for ints, float32 for
// np.float32 scalars); it defaults to T, or float64 for a float32 T.  NumPy: the
// length is ceil((stop - start) / step) computed in S (float64 for ints,
// as Python's true division), element 1 is T(start + step) computed in S,
// and element i >= 2 is start + i * (element1 - element0) computed in T.
template <class T, class S = typename detail::arange_arg<T>::type>
Array<T, 1, C> arange(std::type_identity_t<S> start, std::type_identity_t<S> stop, std::type_identity_t<S> step) {
    int64_t len;
    if constexpr (!is_float<S>::value) {
        if (step == 0) raise(TR_ERR_ZERODIV, "division by zero");
        __int128 delta = (__int128)stop - (__int128)start;
        len = delta == 0 ? 0 : detail::arange_ceil(double(delta) / double(step));
    } else {
        if (step == 0) raise(TR_ERR_ZERODIV, "float division by zero");
        S delta = S(stop - start);
        S val = S(delta / step);
        if (val == 0 && delta != 0) len = fm::signbit(val) ? 0 : 1;  // underflow, or an infinite step
        else len = detail::arange_ceil(double(val));
    }
    if (len < 0) len = 0;
    const int64_t shape[1] = {len};
    Array<T, 1, C> a = tr::empty<T, 1>(shape);
    if (len > 0) a.data[0] = T(start);
    if (len > 1) {
        a.data[1] = T(S(start + step));
        detail::arange_fill(a.data, len);
    }
    return a;
}

namespace detail {

// NumPy's linspace: y = arange(num) * step + start, rounding each operation
// separately (no fused multiply-add), then y[-1] = stop.  CT is the
// computation dtype (float64 unless start/stop were float32 scalars).
template <class T, class CT> TR_NO_FP_CONTRACT void linspace_fill(T *out, CT start, CT stop, int64_t num, bool endpoint) {
    const int64_t div = endpoint ? num - 1 : num;
    const CT delta = CT(stop - start);
    auto store = [&](int64_t i, CT y) {
        if constexpr (is_int<T>::value) out[i] = T(fm::floor(y));
        else out[i] = T(y);
    };
    if (div > 0) {
        const CT step = CT(delta / CT(div));
        if (step == 0) {
            for (int64_t i = 0; i < num; ++i) {
                CT y = CT(CT(i) / CT(div));
                y = CT(y * delta);
                store(i, CT(y + start));
            }
        } else {
            for (int64_t i = 0; i < num; ++i) {
                CT y = CT(CT(i) * step);
                store(i, CT(y + start));
            }
        }
    } else {
        for (int64_t i = 0; i < num; ++i) {
            CT y = CT(CT(i) * delta);
            store(i, CT(y + start));
        }
    }
    if (endpoint && num > 1) store(num - 1, stop);
}

}  // namespace detail

template <class T, class CT = double>
Array<T, 1, C> linspace(double start, double stop, int64_t num = 50, bool endpoint = true) {
    if (num < 0) raise(TR_ERR_VALUE, "Number of samples, %lld, must be non-negative.", (long long)num);
    const int64_t shape[1] = {num};
    Array<T, 1, C> a = tr::empty<T, 1>(shape);
    detail::linspace_fill<T, CT>(a.data, CT(start), CT(stop), num, endpoint);
    return a;
}

// np.eye(n, m, k): ones on the k-th diagonal.
template <class T> Array<T, 2, C> eye(int64_t n, int64_t m = -1, int64_t k = 0) {
    if (m < 0) m = n;
    const int64_t shape[2] = {n, m};
    Array<T, 2, C> a = zeros<T, 2>(shape);
    for (int64_t i = 0; i < n; ++i) {
        int64_t j = i + k;
        if (j >= 0 && j < m) a.data[i * m + j] = T(1);
    }
    return a;
}
template <class T> Array<T, 2, C> identity(int64_t n) { return eye<T>(n, n, 0); }

}  // namespace np
}  // namespace tr
