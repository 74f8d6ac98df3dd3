// Running operations along an axis: np.cumsum, np.cumprod (NumPy's
// add/multiply.accumulate: sequential, in the result dtype R) and np.diff
// (n rounds of a[1:] - a[:-1]; not_equal for booleans).
#pragma once
#include <stdint.h>
#include <type_traits>
#include "../array.hpp"
#include "../expr.hpp"
#include "common.hpp"

namespace tr {
namespace np {
namespace detail {

template <bool Prod, class R, class T, int N, int L> Array<R, N, C> accumulate(const Array<T, N, L> &a, int64_t axis) {
    const int ax = normalize_axis(axis, N);
    Array<R, N, C> out = tr::empty<R, N>(a.shape);
    const int64_t n = a.shape[ax];
    if (out.size() == 0) return out;
    int64_t ist[N], ost[N];
    for (int k = 0; k < N; ++k) ist[k] = a.stride(k), ost[k] = out.stride(k);
    const int64_t s = a.stride(ax), os = out.stride(ax);
    for_each_lane<N>(a.shape, ist, ost, ax, [&](int64_t ioff, int64_t ooff) {
        const T *p = a.data + ioff;
        R *o = out.data + ooff;
        R acc = cast<R>(p[0]);
        o[0] = acc;
        for (int64_t i = 1; i < n; ++i) {
            if constexpr (Prod) acc = R(acc * cast<R>(p[i * s]));
            else acc = R(acc + cast<R>(p[i * s]));
            o[i * os] = acc;
        }
    });
    return out;
}

}  // namespace detail

template <class R, class T, int N, int L> Array<R, N, C> cumsum(const Array<T, N, L> &a, int64_t axis) {
    return detail::accumulate<false, R>(a, axis);
}
template <class R, class T, int N, int L> Array<R, N, C> cumprod(const Array<T, N, L> &a, int64_t axis) {
    return detail::accumulate<true, R>(a, axis);
}

// An array shaped like `a` but with length 1 along `axis`, filled with v
// (a scalar prepend=/append= of np.diff).
template <class R, class T, int N, int L, class V> Array<R, N, C> lane_full(const Array<T, N, L> &a, int64_t axis, V v) {
    const int ax = detail::normalize_axis(axis, N);
    int64_t shape[N];
    for (int k = 0; k < N; ++k) shape[k] = a.shape[k];
    shape[ax] = 1;
    Array<R, N, C> out = tr::empty<R, N>(shape);
    const int64_t m = out.size();
    for (int64_t i = 0; i < m; ++i) out.data[i] = cast<R>(v);
    return out;
}

inline void check_diff_order(int64_t n) {
    if (n < 0) raise(TR_ERR_VALUE, "order must be non-negative but got %lld", (long long)n);
}

// np.diff(a, n, axis) in dtype R (a's dtype, or with prepend/append theirs).
template <class R, class T, int N, int L> Array<R, N, C> diff(const Array<T, N, L> &a, int64_t n, int64_t axis) {
    check_diff_order(n);
    const int ax = detail::normalize_axis(axis, N);
    Array<R, N, C> cur = copy_as<R>(a);
    for (int64_t round = 0; round < n; ++round) {
        const int64_t len = cur.shape[ax];
        int64_t shape[N];
        for (int k = 0; k < N; ++k) shape[k] = cur.shape[k];
        shape[ax] = len > 0 ? len - 1 : 0;
        Array<R, N, C> next = tr::empty<R, N>(shape);
        if (next.size() > 0) {
            int64_t ist[N], ost[N];
            for (int k = 0; k < N; ++k) ist[k] = cur.stride(k), ost[k] = next.stride(k);
            const int64_t s = cur.stride(ax), os = next.stride(ax), m = shape[ax];
            detail::for_each_lane<N>(shape, ist, ost, ax, [&](int64_t ioff, int64_t ooff) {
                const R *p = cur.data + ioff;
                R *o = next.data + ooff;
                for (int64_t i = 0; i < m; ++i) {
                    if constexpr (std::is_same_v<R, bool>) o[i * os] = p[(i + 1) * s] != p[i * s];
                    else o[i * os] = R(p[(i + 1) * s] - p[i * s]);
                }
            });
        }
        cur = next;
    }
    return cur;
}

}  // namespace np
}  // namespace tr
