// np.trace, np.cross and np.linalg.norm (vector norms of any order, along
// an axis or of a whole array; matrix norms 'fro', 1, -1, inf, -inf).
// R is the result dtype chosen by the code generator.  Sums of squares are
// sequential here where NumPy calls BLAS or sums pairwise: the last bits of
// a norm can differ.
#pragma once
#include <stdint.h>
#include <type_traits>
#include "../array.hpp"
#include "../math/fmath.hpp"
#include "common.hpp"
#include "reduce.hpp"
#include "ufunc.hpp"

namespace tr {
namespace np {

// np.trace(a, offset): the sum of a diagonal, as NumPy sums a.diagonal().
template <class R, class T, int L> R trace(const Array<T, 2, L> &a, int64_t offset = 0) {
    Array<T, 1, A> d;
    const int64_t n0 = a.shape[0], n1 = a.shape[1];
    int64_t r0 = offset < 0 ? -offset : 0, c0 = offset > 0 ? offset : 0;
    int64_t len = n0 - r0 < n1 - c0 ? n0 - r0 : n1 - c0;
    if (len < 0) len = 0;
    d.data = a.data + (len > 0 ? r0 * a.stride(0) + c0 * a.stride(1) : 0);
    d.shape[0] = len;
    d.strides[0] = a.stride(0) + a.stride(1);
    d.owner = a.owner;
    return detail::sum_array<R>(d);
}

namespace detail {

template <class R, class T> inline R abs_of(T v) {
    if constexpr (is_complex<T>::value) return R(tr::uf::absolute::apply(v));
    else if constexpr (is_float<R>::value) return fm::fabs(cast<R>(v));
    else return cast<R>(v);
}

// |v|^2 as NumPy's (x.conj() * x).real: both products rounded.
template <class R, class T> TR_NO_FP_CONTRACT inline R sq_of(T v) {
    if constexpr (is_complex<T>::value) {
        R re = R(v.re), im = R(v.im);
        return abs2<R>(re, im);
    } else {
        R x = cast<R>(v);
        return R(x * x);
    }
}

enum NormKind : int { kNormTwo = 0, kNormInf, kNormNegInf, kNormZero, kNormOne, kNormP };

// The vector norm of n values get(i).
template <class R, class Get> R vector_norm(const Get &get, int64_t n, int kind, double p) {
    R acc = R(0);
    switch (kind) {
        case kNormTwo:
            for (int64_t i = 0; i < n; ++i) acc += sq_of<R>(get(i));
            return fm::sqrt(acc);
        case kNormInf:
            for (int64_t i = 0; i < n; ++i) {
                R v = abs_of<R>(get(i));
                if (v > acc || v != v) acc = v;
                if (acc != acc) break;
            }
            return acc;
        case kNormNegInf:
            if (n == 0) no_identity("minimum");
            acc = abs_of<R>(get(0));
            for (int64_t i = 1; i < n && acc == acc; ++i) {
                R v = abs_of<R>(get(i));
                if (v < acc || v != v) acc = v;
            }
            return acc;
        case kNormZero:
            for (int64_t i = 0; i < n; ++i) acc += R(bool(get(i)) ? 1 : 0);
            return acc;
        case kNormOne:
            for (int64_t i = 0; i < n; ++i) acc += abs_of<R>(get(i));
            return acc;
        default: {
            const R rp = R(p);
            for (int64_t i = 0; i < n; ++i) acc += fm::pow(abs_of<R>(get(i)), rp);
            return fm::pow(acc, R(R(1) / rp));
        }
    }
}

}  // namespace detail

// np.linalg.norm(x, ord) of a 1-d array, or ord=None/'fro' of any array.
template <class R, class T, int N, int L> R norm(const Array<T, N, L> &x, int kind, double p = 2) {
    if constexpr (N == 1) {
        const T *d = x.data;
        const int64_t s = x.stride(0);
        return detail::vector_norm<R>([&](int64_t i) { return d[i * s]; }, x.shape[0], kind, p);
    } else {
        R acc = R(0);
        for_each(x, [&](T &v) { acc += detail::sq_of<R>(v); });
        return fm::sqrt(acc);
    }
}

// Matrix norms of a 2-d array: ord 1 / -1 (column sums), inf / -inf (row
// sums); `largest` picks max (with 0 for an empty array) or min.
template <class R, class T, int L> R matrix_norm(const Array<T, 2, L> &x, bool columns, bool largest) {
    const int64_t n0 = x.shape[0], n1 = x.shape[1];
    const int64_t outer = columns ? n1 : n0, inner = columns ? n0 : n1;
    const int64_t so = columns ? x.stride(1) : x.stride(0), si = columns ? x.stride(0) : x.stride(1);
    if (!largest && outer == 0) detail::no_identity("minimum");
    R best = R(0);
    for (int64_t j = 0; j < outer; ++j) {
        R s = R(0);
        for (int64_t i = 0; i < inner; ++i) s += detail::abs_of<R>(x.data[j * so + i * si]);
        if (j == 0 && !largest) best = s;
        else if (largest ? (s > best || s != s) : (s < best || s != s)) best = s;
        if (best != best) break;
    }
    return best;
}

// Vector norms along one axis.
template <class R, class T, int N, int L>
Array<R, N - 1, C> norm_axis(const Array<T, N, L> &x, int64_t axis, int kind, double p = 2) {
    const int ax = detail::normalize_axis(axis, N);
    int64_t oshape[N > 1 ? N - 1 : 1];
    for (int k = 0, j = 0; k < N; ++k)
        if (k != ax) oshape[j++] = x.shape[k];
    Array<R, N - 1, C> out = tr::empty<R, N - 1>(oshape);
    if (out.size() == 0) return out;
    int64_t ist[N], ost[N];
    for (int k = 0, j = 0; k < N; ++k) {
        ist[k] = x.stride(k);
        ost[k] = k == ax ? 0 : out.stride(j++);
    }
    const int64_t n = x.shape[ax], s = x.stride(ax);
    detail::for_each_lane<N>(x.shape, ist, ost, ax, [&](int64_t ioff, int64_t ooff) {
        const T *d = x.data + ioff;
        out.data[ooff] = detail::vector_norm<R>([&](int64_t i) { return d[i * s]; }, n, kind, p);
    });
    return out;
}

namespace detail {
[[noreturn]] __attribute__((cold)) inline void cross_dim_error() {
    raise(TR_ERR_VALUE, "incompatible dimensions for cross product\n(dimension must be 2 or 3)");
}
}  // namespace detail

// np.cross(a, b) of 3-vectors along the last axis, the other axes
// broadcast.  M is the result's number of dimensions.
template <class R, int M, class T1, int N1, int L1, class T2, int N2, int L2>
TR_NO_FP_CONTRACT Array<R, M, C> cross(const Array<T1, N1, L1> &a, const Array<T2, N2, L2> &b) {
    static_assert(N1 >= 1 && N2 >= 1 && M == (N1 > N2 ? N1 : N2), "cross: bad dimensions");
    const int64_t la = a.shape[N1 - 1], lb = b.shape[N2 - 1];
    if ((la != 2 && la != 3) || (lb != 2 && lb != 3)) detail::cross_dim_error();
    if (la == 2 || lb == 2) raise(TR_ERR_VALUE, "cross products of 2-element vectors are not supported in compiled code");
    int64_t shape[M], sa[M], sb[M];
    for (int k = 0; k < M - 1; ++k) {
        const int ka = k - (M - N1), kb = k - (M - N2);
        const int64_t da = ka >= 0 ? a.shape[ka] : 1, db = kb >= 0 ? b.shape[kb] : 1;
        if (da != db && da != 1 && db != 1)
            raise(TR_ERR_VALUE, "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between "
                                "arg 0 with shape (%lld,) and arg 1 with shape (%lld,).", (long long)da, (long long)db);
        shape[k] = da == 1 ? db : da;
        sa[k] = ka >= 0 && da != 1 ? a.stride(ka) : 0;
        sb[k] = kb >= 0 && db != 1 ? b.stride(kb) : 0;
    }
    shape[M - 1] = 3;
    Array<R, M, C> out = tr::empty<R, M>(shape);
    const int64_t total = out.size() / 3;
    if (total == 0) return out;
    const int64_t ca = a.stride(N1 - 1), cb = b.stride(N2 - 1);
    int64_t idx[M] = {};
    for (int64_t n = 0; n < total; ++n) {
        int64_t oa = 0, ob = 0;
        for (int k = 0; k < M - 1; ++k) oa += idx[k] * sa[k], ob += idx[k] * sb[k];
        const R a0 = cast<R>(a.data[oa]), a1 = cast<R>(a.data[oa + ca]), a2 = cast<R>(a.data[oa + 2 * ca]);
        const R b0 = cast<R>(b.data[ob]), b1 = cast<R>(b.data[ob + cb]), b2 = cast<R>(b.data[ob + 2 * cb]);
        R *o = out.data + 3 * n;
        R t;
        t = R(a1 * b2);
        o[0] = R(t - R(a2 * b1));
        t = R(a2 * b0);
        o[1] = R(t - R(a0 * b2));
        t = R(a0 * b1);
        o[2] = R(t - R(a1 * b0));
        for (int k = M - 2; k >= 0; --k) {
            if (++idx[k] < shape[k]) break;
            idx[k] = 0;
        }
    }
    return out;
}

}  // namespace np
}  // namespace tr
