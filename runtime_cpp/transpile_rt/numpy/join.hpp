// Joining and repeating arrays: np.concatenate, np.stack (vstack and hstack
// are concatenations of 2-d / 1-d views), np.tile, np.repeat, and the
// row/column views np.outer is built from.  The result dtype R is chosen by
// the code generator (NumPy's result_type of the inputs, or dtype=).
#pragma once
#include <stdint.h>
#include "../array.hpp"
#include "../expr.hpp"
#include "common.hpp"

namespace tr {
namespace np {

// A value of type R that is never produced: raises instead (errors NumPy
// raises whatever the values, found while compiling).
template <class R> R fail(int code, const char *message) { raise(code, "%s", message); }

namespace detail {

[[noreturn]] __attribute__((cold)) inline void concat_dim_error(int k, int64_t s0, int i, int64_t si) {
    raise(TR_ERR_VALUE,
          "all the input array dimensions except for the concatenation axis must match exactly, but along dimension "
          "%d, the array at index 0 has size %lld and the array at index %d has size %lld",
          k, (long long)s0, i, (long long)si);
}

// out[..., pos:pos+n, ...] (along ax) as a strided view.
template <class R, int N> Array<R, N, A> slab(const Array<R, N, C> &out, int ax, int64_t pos, int64_t n) {
    Array<R, N, A> v;
    v.data = out.data + pos * out.stride(ax);
    for (int k = 0; k < N; ++k) v.shape[k] = out.shape[k], v.strides[k] = out.stride(k);
    v.shape[ax] = n;
    v.owner = out.owner;
    return v;
}

}  // namespace detail

// np.concatenate((a0, a1, ...), axis): every input has N dimensions.
template <class R, int N, class... As> Array<R, N, C> concatenate(int64_t axis, const As &...as) {
    static_assert(N >= 1, "zero-dimensional arrays cannot be concatenated");
    const int ax = detail::normalize_axis(axis, N);
    constexpr int K = sizeof...(As);
    const int64_t *shapes[K] = {as.shape...};
    int64_t out_shape[N];
    for (int k = 0; k < N; ++k) out_shape[k] = shapes[0][k];
    out_shape[ax] = 0;
    for (int i = 0; i < K; ++i) {
        for (int k = 0; k < N; ++k)
            if (k != ax && shapes[i][k] != shapes[0][k]) detail::concat_dim_error(k, shapes[0][k], i, shapes[i][k]);
        out_shape[ax] += shapes[i][ax];
    }
    Array<R, N, C> out = tr::empty<R, N>(out_shape);
    int64_t pos = 0;
    auto place = [&](const auto &a) {
        const int64_t n = a.shape[ax];
        if (n > 0) tr::assign(detail::slab(out, ax, pos, n), a);
        pos += n;
    };
    (place(as), ...);
    return out;
}

// np.stack((a0, a1, ...), axis): inputs of one shape, a new axis.
template <class R, int N, class... As> Array<R, N + 1, C> stack(int64_t axis, const As &...as) {
    const int ax = detail::normalize_axis(axis, N + 1);
    constexpr int K = sizeof...(As);
    const int64_t *shapes[K] = {as.shape...};
    for (int i = 1; i < K; ++i)
        for (int k = 0; k < N; ++k)
            if (shapes[i][k] != shapes[0][k]) raise(TR_ERR_VALUE, "all input arrays must have the same shape");
    int64_t out_shape[N + 1];
    for (int k = 0, j = 0; k < N + 1; ++k) out_shape[k] = k == ax ? int64_t(K) : shapes[0][j++];
    Array<R, N + 1, C> out = tr::empty<R, N + 1>(out_shape);
    int64_t pos = 0;
    auto place = [&](const auto &a) {
        Array<R, N, A> v;
        v.data = out.data + pos * out.stride(ax);
        for (int k = 0, j = 0; k < N + 1; ++k)
            if (k != ax) v.shape[j] = out.shape[k], v.strides[j] = out.stride(k), ++j;
        v.owner = out.owner;
        tr::assign(v, a);
        ++pos;
    };
    (place(as), ...);
    return out;
}

// A 1-d array as a (1, n) row or an (n, 1) column (views).
template <class T, int L> Array<T, 2, L> as_row(const Array<T, 1, L> &a) {
    Array<T, 2, L> v;
    v.data = a.data;
    v.shape[0] = 1, v.shape[1] = a.shape[0];
    v.strides[0] = a.shape[0] * a.stride(0), v.strides[1] = a.stride(0);
    v.owner = a.owner;
    return v;
}
template <class T, int L> Array<T, 2, C> as_column(const Array<T, 1, L> &a) {
    Array<T, 2, C> v;
    v.data = a.data;
    v.shape[0] = a.shape[0], v.shape[1] = 1;
    v.strides[0] = a.stride(0), v.strides[1] = 1;
    v.owner = a.owner;
    return v;
}

// np.tile(a, reps): D = max(a.ndim, len(reps)) dimensions.
template <int D, class T, int N, int L, int K> Array<T, D, C> tile(const Array<T, N, L> &a, const int64_t (&reps)[K]) {
    static_assert(D >= N && D >= K, "tile: bad dimensions");
    int64_t ashape[D], astr[D], r[D], out_shape[D];
    for (int k = 0; k < D; ++k) {
        const int ka = k - (D - N), kr = k - (D - K);
        ashape[k] = ka >= 0 ? a.shape[ka] : 1;
        astr[k] = ka >= 0 ? a.stride(ka) : 0;
        r[k] = kr >= 0 ? reps[kr] : 1;
        if (r[k] < 0) raise(TR_ERR_VALUE, "negative dimensions are not allowed");
        out_shape[k] = ashape[k] * r[k];
    }
    Array<T, D, C> out = tr::empty<T, D>(out_shape);
    const int64_t total = out.size();
    if (total == 0) return out;
    int64_t idx[D] = {}, src[D] = {};
    for (int64_t n = 0; n < total; ++n) {
        int64_t off = 0;
        for (int k = 0; k < D; ++k) off += src[k] * astr[k];
        out.data[n] = a.data[off];
        for (int k = D - 1; k >= 0; --k) {
            ++idx[k];
            if (++src[k] == ashape[k]) src[k] = 0;
            if (idx[k] < out_shape[k]) break;
            idx[k] = 0;
            src[k] = 0;
        }
    }
    return out;
}

namespace detail {
// Copies slice i of a (along ax) into out rows [pos, pos + r).
template <class T, int N, int L> void repeat_slices(const Array<T, N, L> &a, const Array<T, N, C> &out, int ax,
                                                    const int64_t *reps, int64_t nrep) {
    const int64_t n = a.shape[ax];
    int64_t pos = 0;
    for (int64_t i = 0; i < n; ++i) {
        const int64_t r = reps[nrep == 1 ? 0 : i];
        if (r == 0) continue;
        Array<T, N, A> src;
        src.data = a.data + i * a.stride(ax);
        for (int k = 0; k < N; ++k) src.shape[k] = a.shape[k], src.strides[k] = a.stride(k);
        src.shape[ax] = 1;
        src.owner = a.owner;
        tr::assign(slab(out, ax, pos, r), src);
        pos += r;
    }
}
}  // namespace detail

// np.repeat(a, r, axis) with one repeat count.
template <class T, int N, int L> Array<T, N, C> repeat(const Array<T, N, L> &a, int64_t r, int64_t axis) {
    const int ax = detail::normalize_axis(axis, N);
    if (r < 0) raise(TR_ERR_VALUE, "negative dimensions are not allowed");
    int64_t shape[N];
    for (int k = 0; k < N; ++k) shape[k] = a.shape[k];
    shape[ax] *= r;
    Array<T, N, C> out = tr::empty<T, N>(shape);
    if (out.size() > 0) detail::repeat_slices(a, out, ax, &r, 1);
    return out;
}

// np.repeat(a, repeats, axis) with a count per element (or one, broadcast).
template <class T, int N, int L, class I, int LI>
Array<T, N, C> repeat(const Array<T, N, L> &a, const Array<I, 1, LI> &repeats, int64_t axis) {
    const int ax = detail::normalize_axis(axis, N);
    const int64_t n = a.shape[ax], m = repeats.shape[0];
    if (m != n && m != 1)
        raise(TR_ERR_VALUE, "operands could not be broadcast together with shape (%lld,) (%lld,)", (long long)n,
              (long long)m);
    int64_t *reps = static_cast<int64_t *>(malloc(sizeof(int64_t) * size_t(m > 0 ? m : 1)));
    if (!reps) raise(TR_ERR_MEMORY, "out of memory");
    int64_t total = 0;
    for (int64_t i = 0; i < m; ++i) {
        reps[i] = int64_t(repeats.data[i * repeats.stride(0)]);
        if (reps[i] < 0) {
            free(reps);
            raise(TR_ERR_VALUE, "repeats may not contain negative values.");
        }
        total += reps[i];
    }
    if (m == 1) total = reps[0] * n;
    int64_t shape[N];
    for (int k = 0; k < N; ++k) shape[k] = a.shape[k];
    shape[ax] = total;
    Array<T, N, C> out = tr::empty<T, N>(shape);
    if (out.size() > 0) detail::repeat_slices(a, out, ax, reps, m);
    free(reps);
    return out;
}

}  // namespace np
}  // namespace tr
