// Advanced ("fancy") indexing with integer arrays: a[idx], a[i_arr, j_arr],
// a[idx, 1:3], a[:, idx], a[idx] = v, with NumPy's rules:
//  * the index arrays (and integer scalars next to them) broadcast together;
//  * their broadcast dimensions replace them in place when all of them are
//    next to each other, and come first otherwise (a[0, :, idx]);
//  * the result is a new array; a store assigns in C order of the result
//    (with repeated indices, the last value wins).
// Negative indices wrap; out-of-range ones raise IndexError.
#pragma once
#include <stdint.h>
#include <stdio.h>
#include "index.hpp"
#include "numpy/common.hpp"

// The per-element callbacks of fancy::walk are inlined even at -O1.
#define TR_INLINE_LAMBDA __attribute__((always_inline))

namespace tr {
namespace fancy {

enum Kind : int { kInt = 0, kSlice, kAll, kNew, kArr };

template <class I> constexpr int code_of() {
    static_assert(is_int<I>::value, "index arrays must hold integers");
    return (is_signed_int<I>::value ? 0 : 4) + (sizeof(I) == 1 ? 0 : sizeof(I) == 2 ? 1 : sizeof(I) == 4 ? 2 : 3);
}

inline int64_t read(const void *p, int code, int64_t off) {
    switch (code) {
        case 0: return static_cast<const int8_t *>(p)[off];
        case 1: return static_cast<const int16_t *>(p)[off];
        case 2: return static_cast<const int32_t *>(p)[off];
        case 3: return static_cast<const int64_t *>(p)[off];
        case 4: return static_cast<const uint8_t *>(p)[off];
        case 5: return static_cast<const uint16_t *>(p)[off];
        case 6: return static_cast<const uint32_t *>(p)[off];
        default: return int64_t(static_cast<const uint64_t *>(p)[off]);
    }
}

struct Idx {
    int kind = kInt;
    int64_t value = 0;
    Slice s{};
    const void *data = nullptr;
    int code = 0, nd = 0;
    const int64_t *shape = nullptr;
    int64_t strides[TR_MAX_NDIM] = {};
    int64_t mask_len = -1;  // a boolean mask's length (its positions are data), checked against its axis
};

// A 1-d boolean mask among other indices (a[:, m], a[m, 1:]) is, by NumPy's
// rule, the int array of its True positions (m.nonzero()[0]) for the one axis
// it covers, once its length has been checked against that axis (plan below).
struct MaskPositions {
    Array<int64_t, 1, C> pos;
    int64_t len;
};
template <int L> MaskPositions mask_positions(const Array<bool, 1, L> &m) {
    int64_t count = 0;
    for (int64_t i = 0; i < m.shape[0]; ++i) count += m.data[i * m.stride(0)];
    int64_t shape[1] = {count};
    MaskPositions out{empty<int64_t, 1>(shape), m.shape[0]};
    for (int64_t i = 0, j = 0; i < m.shape[0]; ++i)
        if (m.data[i * m.stride(0)]) out.pos.data[j++] = i;
    return out;
}

template <class I>
    requires(is_int<I>::value)
inline Idx make(I v) {
    Idx x;
    x.kind = kInt;
    x.value = int64_t(v);
    return x;
}
inline Idx make(const Slice &s) {
    Idx x;
    x.kind = kSlice;
    x.s = s;
    return x;
}
inline Idx make(All) {
    Idx x;
    x.kind = kAll;
    return x;
}
inline Idx make(NewAxis) {
    Idx x;
    x.kind = kNew;
    return x;
}
template <class I, int K, int L> Idx make(const Array<I, K, L> &a) {
    Idx x;
    x.kind = kArr;
    x.data = a.data;
    x.code = code_of<I>();
    x.nd = K;
    x.shape = a.shape;
    for (int k = 0; k < K; ++k) x.strides[k] = a.stride(k);
    return x;
}
inline Idx make(const MaskPositions &m) {
    Idx x = make(m.pos);
    x.mask_len = m.len;
    return x;
}

// Where each result element comes from.
template <int K> struct Plan {
    int nd = 0;
    int64_t shape[TR_MAX_NDIM];
    int64_t stride[TR_MAX_NDIM];  // source stride of a basic result axis, 0 for broadcast ones
    int bpos[TR_MAX_NDIM];        // broadcast axis of a result axis, or -1
    int64_t base = 0;
    int B = 0;
    int nf = 0;
    struct F {
        const void *data;
        int code;
        int64_t st[TR_MAX_NDIM];  // strides over the B broadcast axes
        int64_t len, sstride;
        int axis;
    } f[K];
};

[[noreturn]] __attribute__((cold)) inline void broadcast_error(const Idx *ix, int K) {
    char buf[512];
    int p = 0;
    for (int i = 0; i < K && p < 400; ++i) {
        if (ix[i].kind != kArr) continue;
        char s[128];
        np::detail::format_shape(s, sizeof s, ix[i].shape, ix[i].nd);
        p += snprintf(buf + p, sizeof buf - p, "%s ", s);
    }
    raise(TR_ERR_INDEX, "shape mismatch: indexing arrays could not be broadcast together with shapes %s", buf);
}

template <class T, int N, int L, class... I> Plan<sizeof...(I)> plan(const Array<T, N, L> &a, const I &...idx) {
    constexpr int K = sizeof...(I);
    const Idx ix[K] = {make(idx)...};
    Plan<K> p;
    int first = -1, last = -1, count = 0, consumed = 0;
    for (int i = 0, axis = 0; i < K; axis += ix[i].kind != kNew, ++i)  // NumPy checks masks before the rest
        if (ix[i].mask_len >= 0 && axis < N && ix[i].mask_len != a.shape[axis])
            mask_length_error(axis, a.shape[axis], ix[i].mask_len);
    for (int i = 0; i < K; ++i) {
        if (ix[i].kind == kInt || ix[i].kind == kArr) {
            if (first < 0) first = i;
            last = i;
            ++count;
        }
        if (ix[i].kind != kNew) ++consumed;
    }
    if (consumed > N)
        raise(TR_ERR_INDEX, "too many indices for array: array is %d-dimensional, but %d were indexed", N, consumed);
    const bool adjacent = last - first + 1 == count;
    int64_t bshape[TR_MAX_NDIM];
    for (int i = 0; i < K; ++i)
        if (ix[i].kind == kArr && ix[i].nd > p.B) p.B = ix[i].nd;
    for (int b = 0; b < p.B; ++b) bshape[b] = 1;
    for (int i = 0; i < K; ++i) {
        if (ix[i].kind != kArr) continue;
        for (int k = 0; k < ix[i].nd; ++k) {
            const int b = p.B - ix[i].nd + k;
            const int64_t d = ix[i].shape[k];
            if (d != bshape[b]) {
                if (bshape[b] == 1) bshape[b] = d;
                else if (d != 1) broadcast_error(ix, K);
            }
        }
    }
    auto put_bdims = [&]() {
        for (int b = 0; b < p.B; ++b) {
            p.shape[p.nd] = bshape[b];
            p.stride[p.nd] = 0;
            p.bpos[p.nd] = b;
            ++p.nd;
        }
    };
    auto put = [&](int64_t n, int64_t s) {
        p.shape[p.nd] = n;
        p.stride[p.nd] = s;
        p.bpos[p.nd] = -1;
        ++p.nd;
    };
    if (!adjacent) put_bdims();
    int src = 0;
    for (int i = 0; i < K; ++i) {
        const Idx &x = ix[i];
        switch (x.kind) {
            case kInt:
                p.base += wrap_index(x.value, src, a.shape[src]) * a.stride(src);
                ++src;
                break;
            case kSlice: {
                int64_t start, len;
                adjust_slice(x.s, a.shape[src], start, len);
                p.base += start * a.stride(src);
                put(len, a.stride(src) * x.s.step);
                ++src;
                break;
            }
            case kAll:
                put(a.shape[src], a.stride(src));
                ++src;
                break;
            case kNew:
                put(1, 0);
                break;
            default: {
                auto &f = p.f[p.nf++];
                f.data = x.data;
                f.code = x.code;
                for (int b = 0; b < p.B; ++b) {
                    const int k = b - (p.B - x.nd);
                    f.st[b] = k >= 0 && x.shape[k] != 1 ? x.strides[k] : 0;
                }
                f.len = a.shape[src];
                f.sstride = a.stride(src);
                f.axis = src;
                ++src;
            }
        }
        if (adjacent && i == first) put_bdims();
    }
    for (; src < N; ++src) put(a.shape[src], a.stride(src));
    return p;
}

// Calls f(n, source offset, result index) for every result element in C
// order.  The innermost result axis runs in a tight loop: a strided step
// when it is a basic axis, one index-array read per element when it is a
// broadcast one.
template <int K, class F> void walk(const Plan<K> &p, F &&fn) {
    int64_t idx[TR_MAX_NDIM] = {};
    int64_t bidx[TR_MAX_NDIM] = {};
    if (p.nd == 0) {
        int64_t off = p.base;
        for (int j = 0; j < p.nf; ++j)
            off += wrap_index(read(p.f[j].data, p.f[j].code, 0), p.f[j].axis, p.f[j].len) * p.f[j].sstride;
        fn(int64_t(0), off, idx);
        return;
    }
    for (int d = 0; d < p.nd; ++d)
        if (p.shape[d] == 0) return;
    const int last = p.nd - 1;
    const int64_t inner = p.shape[last];
    const int lb = p.bpos[last];
    int64_t n = 0;
    for (;;) {
        int64_t off = p.base;
        for (int d = 0; d < last; ++d) {
            off += idx[d] * p.stride[d];
            if (p.bpos[d] >= 0) bidx[p.bpos[d]] = idx[d];
        }
        if (lb >= 0) bidx[lb] = 0;
        int64_t fo[K > 0 ? K : 1] = {};
        for (int j = 0; j < p.nf; ++j) {
            int64_t o = 0;
            for (int b = 0; b < p.B; ++b) o += bidx[b] * p.f[j].st[b];
            fo[j] = o;
        }
        if (lb < 0) {
            for (int j = 0; j < p.nf; ++j)
                off += wrap_index(read(p.f[j].data, p.f[j].code, fo[j]), p.f[j].axis, p.f[j].len) * p.f[j].sstride;
            const int64_t s = p.stride[last];
            for (int64_t i = 0; i < inner; ++i) {
                idx[last] = i;
                fn(n + i, off + i * s, idx);
            }
            n += inner;
        } else if (p.nf == 1) {
            // locals: stores through idx or the output must not force reloads
            const void *data = p.f[0].data;
            const int code = p.f[0].code, axis = p.f[0].axis;
            const int64_t st = p.f[0].st[lb], len = p.f[0].len, ss = p.f[0].sstride, o0 = fo[0];
            switch (code) {
#define TR_FANCY_ROW(CODE, IT)                                                                          \
    case CODE: {                                                                                        \
        const IT *q = static_cast<const IT *>(data) + o0;                                               \
        for (int64_t i = 0; i < inner; ++i) {                                                           \
            idx[last] = i;                                                                              \
            fn(n + i, off + wrap_index(int64_t(q[i * st]), axis, len) * ss, idx);                       \
        }                                                                                               \
        break;                                                                                          \
    }
                TR_FANCY_ROW(0, int8_t)
                TR_FANCY_ROW(1, int16_t)
                TR_FANCY_ROW(2, int32_t)
                TR_FANCY_ROW(3, int64_t)
                TR_FANCY_ROW(4, uint8_t)
                TR_FANCY_ROW(5, uint16_t)
                TR_FANCY_ROW(6, uint32_t)
                TR_FANCY_ROW(7, uint64_t)
#undef TR_FANCY_ROW
            }
            n += inner;
        } else {
            for (int64_t i = 0; i < inner; ++i) {
                int64_t o = off;
                for (int j = 0; j < p.nf; ++j)
                    o += wrap_index(read(p.f[j].data, p.f[j].code, fo[j] + i * p.f[j].st[lb]), p.f[j].axis, p.f[j].len) *
                         p.f[j].sstride;
                idx[last] = i;
                fn(n++, o, idx);
            }
        }
        idx[last] = 0;
        int d = last - 1;
        for (; d >= 0; --d) {
            if (++idx[d] < p.shape[d]) break;
            idx[d] = 0;
        }
        if (d < 0) return;
    }
}

}  // namespace fancy

// a[idx...] with integer arrays among the indices: a new array of type R.
template <class R, class T, int N, int L, class... I> R fancy_get(const Array<T, N, L> &a, const I &...idx) {
    auto p = fancy::plan(a, idx...);
    if (p.nd != R::ndim) raise(TR_ERR_INDEX, "fancy indexing: unexpected number of result dimensions");
    R out = tr::empty<T, R::ndim>(p.shape);
    T *const o = out.data;
    const T *const src = a.data;
    fancy::walk(p, [o, src](int64_t n, int64_t off, const int64_t *) TR_INLINE_LAMBDA { o[n] = src[off]; });
    return out;
}

// a[idx...] = value (a scalar, an array or an expression broadcast to the
// selection's shape).
template <class T, int N, int L, class V, class... I> void fancy_set(const Array<T, N, L> &a, const V &value, const I &...idx) {
    auto p = fancy::plan(a, idx...);
    if constexpr (is_array<V>::value || is_expr<V>::value) {
        // an array source is read from a copy: it may share memory with `a`
        auto v = [&]() {
            if constexpr (is_array<V>::value) return copy_as<typename V::value_type>(value);
            else return eval(value);
        }();
        constexpr int M = decltype(v)::ndim;
        if (M > p.nd) raise(TR_ERR_VALUE, "could not broadcast input array into the indexing result");
        int64_t vs[M > 0 ? M : 1];
        for (int k = 0; k < M; ++k) {
            const int64_t d = v.shape[k], want = p.shape[p.nd - M + k];
            if (d != want && d != 1) {
                char s1[128], s2[128];
                np::detail::format_shape(s1, sizeof s1, v.shape, M);
                np::detail::format_shape(s2, sizeof s2, p.shape, p.nd);
                raise(TR_ERR_VALUE, "shape mismatch: value array of shape %s could not be broadcast to indexing result "
                                    "of shape %s", s1, s2);
            }
            vs[k] = d == 1 ? 0 : v.stride(k);
        }
        const int shift = p.nd - M;
        fancy::walk(p, [&](int64_t, int64_t off, const int64_t *ix) TR_INLINE_LAMBDA {
            int64_t vo = 0;
            for (int k = 0; k < M; ++k) vo += ix[shift + k] * vs[k];
            a.data[off] = cast<T>(v.data[vo]);
        });
    } else {
        const T x = cast<T>(value);
        T *const dst = a.data;
        fancy::walk(p, [dst, x](int64_t, int64_t off, const int64_t *) TR_INLINE_LAMBDA { dst[off] = x; });
    }
}

}  // namespace tr
