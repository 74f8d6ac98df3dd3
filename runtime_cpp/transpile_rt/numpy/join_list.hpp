// np.concatenate / np.stack of a list of arrays (the list's length is known
// only at run time; join.hpp's versions take a fixed number of arrays).
#pragma once
#include "join.hpp"
#include "../list.hpp"

namespace tr {

template <class R, int N, class T, int L> Array<R, N, C> list_concatenate(const List<Array<T, N, L>> &as, int64_t axis) {
    static_assert(N >= 1, "zero-dimensional arrays cannot be concatenated");
    const int64_t K = as.size();
    if (K == 0) raise(TR_ERR_VALUE, "need at least one array to concatenate");
    const int ax = np::detail::normalize_axis(axis, N);
    int64_t out_shape[N];
    for (int k = 0; k < N; ++k) out_shape[k] = as[0].shape[k];
    out_shape[ax] = 0;
    for (int64_t i = 0; i < K; ++i) {
        for (int k = 0; k < N; ++k)
            if (k != ax && as[i].shape[k] != as[0].shape[k])
                np::detail::concat_dim_error(k, as[0].shape[k], int(i), as[i].shape[k]);
        out_shape[ax] += as[i].shape[ax];
    }
    Array<R, N, C> out = tr::empty<R, N>(out_shape);
    int64_t pos = 0;
    for (int64_t i = 0; i < K; ++i) {
        const int64_t n = as[i].shape[ax];
        if (n > 0) tr::assign(np::detail::slab(out, ax, pos, n), as[i]);
        pos += n;
    }
    return out;
}

template <class R, int N, class T, int L> Array<R, N + 1, C> list_stack(const List<Array<T, N, L>> &as, int64_t axis) {
    const int64_t K = as.size();
    if (K == 0) raise(TR_ERR_VALUE, "need at least one array to stack");
    const int ax = np::detail::normalize_axis(axis, N + 1);
    for (int64_t i = 1; i < K; ++i)
        for (int k = 0; k < N; ++k)
            if (as[i].shape[k] != as[0].shape[k]) raise(TR_ERR_VALUE, "all input arrays must have the same shape");
    int64_t out_shape[N + 1];
    for (int k = 0, j = 0; k < N + 1; ++k) out_shape[k] = k == ax ? K : as[0].shape[j++];
    Array<R, N + 1, C> out = tr::empty<R, N + 1>(out_shape);
    for (int64_t i = 0; i < K; ++i) {
        Array<R, N, A> v;
        v.data = out.data + i * out.stride(ax);
        for (int k = 0, j = 0; k < N + 1; ++k)
            if (k != ax) v.shape[j] = out.shape[k], v.strides[j] = out.stride(k), ++j;
        v.owner = out.owner;
        tr::assign(v, as[i]);
    }
    return out;
}

}  // namespace tr
