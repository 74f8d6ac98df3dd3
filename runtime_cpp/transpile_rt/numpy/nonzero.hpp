// np.nonzero(a) and np.where(a): per axis, the indices of a's nonzero
// elements in C order (row-major, as NumPy walks them), as new int64 arrays.
#pragma once
#include <stdint.h>
#include <tuple>
#include <utility>
#include "../array.hpp"
#include "iteration.hpp"

namespace tr {
namespace np {
namespace detail {

template <class T> inline bool nonzero_item(const T &v) {
    if constexpr (is_complex<T>::value) return v.re != 0 || v.im != 0;
    else return v != T(0);
}

template <class T, int N, int L, size_t... K>
inline auto nonzero_tuple(const Array<T, N, L> &a, std::index_sequence<K...>) {
    int64_t count = 0;
    FlatWalk<T, N, L> w(a);  // C order, as NumPy walks them (iteration.hpp)
    for (bool ok = w.begin(); ok; ok = w.next()) count += nonzero_item(w.cur());
    Array<int64_t, 1, C> axes[N];
    for (int k = 0; k < N; ++k) axes[k] = tr::empty<int64_t, 1>(&count);  // not np::empty (a shape array)
    int64_t j = 0;
    for (bool ok = w.begin(); ok; ok = w.next()) {
        if (!nonzero_item(w.cur())) continue;
        for (int k = 0; k < N; ++k) axes[k].data[j] = w.idx[k];
        ++j;
    }
    return std::make_tuple(axes[K]...);
}

}  // namespace detail

template <class T, int N, int L> inline auto nonzero(const Array<T, N, L> &a) {
    return detail::nonzero_tuple(a, std::make_index_sequence<N>{});
}

}  // namespace np
}  // namespace tr
