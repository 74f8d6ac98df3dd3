// Basic indexing: views for a[1:-1, ::2, i, None] and boolean masks, with
// Python's slice rules and NumPy's error wording.
#pragma once
#include "expr.hpp"

namespace tr {

struct Slice {
    int64_t start, stop, step;
    bool has_start, has_stop;
};
struct All {};
struct NewAxis {};
struct Ellipsis {};
constexpr All all{};
constexpr NewAxis newaxis{};
constexpr Ellipsis ellipsis{};

// A uint64 index beyond int64 (NumPy reads an index through Python's int):
// an array element raises OverflowError, a list or tuple item IndexError, and a
// slice bound, clamped to the length anyway, is the largest int64.
TR_HD inline int64_t u64_element(uint64_t v) {
    if (v > uint64_t(INT64_MAX)) raise(TR_ERR_OVERFLOW, "Python int too large to convert to C long");
    return int64_t(v);
}
TR_HD inline int64_t u64_item(uint64_t v) {
    if (v > uint64_t(INT64_MAX)) raise(TR_ERR_INDEX, "cannot fit 'numpy.uint64' into an index-sized integer");
    return int64_t(v);
}
TR_HD inline int64_t u64_bound(uint64_t v) { return v > uint64_t(INT64_MAX) ? INT64_MAX : int64_t(v); }

// One bound of a slice: a value, or tr::none for an omitted bound.
struct SliceBound {
    bool has;
    int64_t value;
    SliceBound(none_t) : has(false), value(0) {}
    template <class I> SliceBound(I v) : has(true), value(int64_t(v)) {}
};
constexpr none_t none{};

inline Slice slice(SliceBound start, SliceBound stop, int64_t step = 1) {
    return Slice{start.value, stop.value, step, start.has, stop.has};
}

// Python's PySlice_AdjustIndices: start and length of the selection.
inline void adjust_slice(const Slice &s, int64_t n, int64_t &start, int64_t &length) {
    int64_t step = s.step;
    if (step == 0) raise(TR_ERR_VALUE, "slice step cannot be zero");
    int64_t lo, hi;
    if (!s.has_start) {
        lo = step < 0 ? n - 1 : 0;
    } else {
        lo = s.start;
        if (lo < 0) {
            lo += n;
            if (lo < 0) lo = step < 0 ? -1 : 0;
        } else if (lo >= n) {
            lo = step < 0 ? n - 1 : n;
        }
    }
    if (!s.has_stop) {
        hi = step < 0 ? -1 : n;
    } else {
        hi = s.stop;
        if (hi < 0) {
            hi += n;
            if (hi < 0) hi = step < 0 ? -1 : 0;
        } else if (hi >= n) {
            hi = step < 0 ? n - 1 : n;
        }
    }
    if (step < 0)
        length = hi < lo ? (lo - hi - 1) / (-step) + 1 : 0;
    else
        length = lo < hi ? (hi - lo - 1) / step + 1 : 0;
    start = lo;
}

namespace detail {
// `...` and None take no axis of the source: `...` stands for the ones the
// other indices leave (NumPy's rule), so it is sized from the whole index.
template <class I> constexpr int axes_taken = !(std::is_same_v<I, NewAxis> || std::is_same_v<I, Ellipsis>);

struct ViewBuilder {
    int src = 0, dst = 0;
    int spread = 0;  // axes `...` stands for
    int64_t offset = 0;
    template <class Src, class Dst> void apply(const Src &a, Dst &v, int64_t i) {
        offset += wrap_index(i, src, a.shape[src]) * a.stride(src);
        ++src;
    }
    template <class Src, class Dst> void apply(const Src &a, Dst &v, const Slice &s) {
        int64_t start, length;
        adjust_slice(s, a.shape[src], start, length);
        offset += start * a.stride(src);
        v.shape[dst] = length;
        v.strides[dst] = a.stride(src) * s.step;
        ++src, ++dst;
    }
    template <class Src, class Dst> void apply(const Src &a, Dst &v, All) {
        v.shape[dst] = a.shape[src];
        v.strides[dst] = a.stride(src);
        ++src, ++dst;
    }
    template <class Src, class Dst> void apply(const Src &, Dst &v, NewAxis) {
        v.shape[dst] = 1;
        v.strides[dst] = 0;
        ++dst;
    }
    template <class Src, class Dst> void apply(const Src &a, Dst &v, Ellipsis) {
        for (int k = 0; k < spread; ++k) apply(a, v, all);
    }
};
}  // namespace detail

// a[idx...] as a view; R is the result array type the compiler inferred.
template <class R, class T, int N, int L, class... I> R view(const Array<T, N, L> &a, const I &...idx) {
    R v;
    detail::ViewBuilder b;
    b.spread = N - (0 + ... + detail::axes_taken<I>);
    (b.apply(a, v, idx), ...);
    for (; b.src < N; ++b.src, ++b.dst) {
        v.shape[b.dst] = a.shape[b.src];
        v.strides[b.dst] = a.stride(b.src);
    }
    v.data = a.data + b.offset;
    v.owner = a.owner;
    return v;
}

[[noreturn]] __attribute__((cold)) inline void mask_length_error(int axis, int64_t size, int64_t mask_size) {
    raise(TR_ERR_INDEX,
          "boolean index did not match indexed array along axis %d; size of axis is %lld but size of "
          "corresponding boolean axis is %lld",
          axis, (long long)size, (long long)mask_size);
}

template <class T, int N, int L, int LM> void check_mask(const Array<T, N, L> &a, const Array<bool, N, LM> &m) {
    for (int k = 0; k < N; ++k)
        if (a.shape[k] != m.shape[k]) mask_length_error(k, a.shape[k], m.shape[k]);
}

template <class T, int N, int L, int LM> Array<T, 1, C> mask_get(const Array<T, N, L> &a, const Array<bool, N, LM> &m) {
    check_mask(a, m);
    int64_t count = 0;
    for_each(m, [&](bool b) { count += b; });
    int64_t shape[1] = {count};
    Array<T, 1, C> out = empty<T, 1>(shape);
    int64_t as[N > 0 ? N : 1], ms[N > 0 ? N : 1];
    for (int k = 0; k < N; ++k) as[k] = a.stride(k), ms[k] = m.stride(k);
    // Walk both with one odometer: same shape, different strides.
    int64_t idx[N > 0 ? N : 1] = {};
    int64_t j = 0, total = a.size();
    for (int64_t n = 0; n < total; ++n) {
        int64_t ao = 0, mo = 0;
        for (int k = 0; k < N; ++k) ao += idx[k] * as[k], mo += idx[k] * ms[k];
        if (m.data[mo]) out.data[j++] = a.data[ao];
        for (int k = N - 1; k >= 0; --k) {
            if (++idx[k] < a.shape[k]) break;
            idx[k] = 0;
        }
    }
    return out;
}

template <class T, int N, int L, int LM, class V>
void mask_set(const Array<T, N, L> &a, const Array<bool, N, LM> &m, const V &value) {
    check_mask(a, m);
    int64_t idx[N > 0 ? N : 1] = {};
    int64_t total = a.size();
    int64_t count = 0;
    if constexpr (is_array<V>::value || is_expr<V>::value) {
        auto src = eval(value);
        for_each(m, [&](bool b) { count += b; });
        if (decltype(src)::ndim != 1 || (src.shape[0] != count && src.shape[0] != 1))
            raise(TR_ERR_VALUE,
                  "NumPy boolean array indexing assignment cannot assign %lld input values to the %lld output values "
                  "where the mask is true",
                  (long long)src.size(), (long long)count);
        int64_t j = 0;
        const bool one = src.shape[0] == 1;
        for (int64_t n = 0; n < total; ++n) {
            int64_t ao = 0, mo = 0;
            for (int k = 0; k < N; ++k) ao += idx[k] * a.stride(k), mo += idx[k] * m.stride(k);
            if (m.data[mo]) {
                a.data[ao] = cast<T>(src.data[(one ? 0 : j) * src.stride(0)]);
                ++j;
            }
            for (int k = N - 1; k >= 0; --k) {
                if (++idx[k] < a.shape[k]) break;
                idx[k] = 0;
            }
        }
    } else {
        T v = cast<T>(value);
        for (int64_t n = 0; n < total; ++n) {
            int64_t ao = 0, mo = 0;
            for (int k = 0; k < N; ++k) ao += idx[k] * a.stride(k), mo += idx[k] * m.stride(k);
            if (m.data[mo]) a.data[ao] = v;
            for (int k = N - 1; k >= 0; --k) {
                if (++idx[k] < a.shape[k]) break;
                idx[k] = 0;
            }
        }
    }
}

[[noreturn]] inline void readonly_error() { raise(TR_ERR_VALUE, "assignment destination is read-only"); }

// Rows of an array for `for row in a` (a view per iteration).
template <class R, class T, int N, int L> R row(const Array<T, N, L> &a, int64_t i) {
    R v;
    v.data = a.data + i * a.stride(0);
    for (int k = 1; k < N; ++k) v.shape[k - 1] = a.shape[k], v.strides[k - 1] = a.stride(k);
    v.owner = a.owner;
    return v;
}

}  // namespace tr
