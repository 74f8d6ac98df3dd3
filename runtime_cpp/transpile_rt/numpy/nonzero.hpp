// np.nonzero(a) and np.where(a): per axis, the indices of a's nonzero
// elements in C order (row-major, as NumPy walks them), as new int64 arrays.
#pragma once
#include <stdint.h>
#include <tuple>
#include <utility>
#include "../array.hpp"

namespace tr {
namespace np {
namespace detail {

template <class T> inline bool nonzero_item(const T &v) {
    if constexpr (is_complex<T>::value) return v.re != 0 || v.im != 0;
    else return v != T(0);
}

// Calls f(index, offset) for each element of a in C order (index: N counters).
template <class T, int N, int L, class F> inline void each_in_c_order(const Array<T, N, L> &a, F &&f) {
    for (int k = 0; k < N; ++k)
        if (a.shape[k] == 0) return;
    int64_t index[N] = {};
    int64_t offset = 0;
    for (;;) {
        f(index, offset);
        int k = N - 1;
        for (; k >= 0; --k) {
            offset += a.stride(k);
            if (++index[k] < a.shape[k]) break;
            offset -= a.stride(k) * a.shape[k];
            index[k] = 0;
        }
        if (k < 0) return;
    }
}

template <class T, int N, int L, size_t... K>
inline auto nonzero_tuple(const Array<T, N, L> &a, std::index_sequence<K...>) {
    int64_t count = 0;
    each_in_c_order(a, [&](const int64_t *, int64_t off) { count += nonzero_item(a.data[off]); });
    Array<int64_t, 1, C> axes[N];
    for (int k = 0; k < N; ++k) axes[k] = empty<int64_t, 1>(&count);
    int64_t j = 0;
    each_in_c_order(a, [&](const int64_t *index, int64_t off) {
        if (!nonzero_item(a.data[off])) return;
        for (int k = 0; k < N; ++k) axes[k].data[j] = index[k];
        ++j;
    });
    return std::make_tuple(axes[K]...);
}

}  // namespace detail

template <class T, int N, int L> inline auto nonzero(const Array<T, N, L> &a) {
    return detail::nonzero_tuple(a, std::make_index_sequence<N>{});
}

}  // namespace np
}  // namespace tr
