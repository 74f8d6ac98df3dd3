// Strided N-d arrays over reference-counted heap buffers or borrowed NumPy
// memory.  Strides are kept in elements; layout C means "innermost stride is
// 1" (known at compile time so inner loops vectorize), A means any stride.
#pragma once
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <utility>
#include "abi.h"
#include "error.hpp"
#include "scalar.hpp"

#ifndef TR_BOUNDSCHECK
#define TR_BOUNDSCHECK 1
#endif

namespace tr {

enum Layout : int { C = 0, A = 1 };

// Header and data in one block from malloc, the header at the first 64-byte
// boundary in it and the data 64 bytes after, so the data is 64-byte
// aligned; the block's own address is kept in the header's last word.  Not
// aligned_alloc: glibc serves a large one with a new mmap every time (its
// dynamic mmap threshold never covers the padded request), so each call
// faulted in fresh pages (prefix_sum's 8 MB result: 59 page faults and
// +0.13 ms per call) where malloc reuses the heap's.
static_assert(sizeof(tr_buffer) <= 56, "the header's last word holds the block's address");

inline void buffer_free(tr_buffer *b) { free(reinterpret_cast<void **>(b)[7]); }

inline tr_buffer *buffer_new(int64_t nbytes) {
    const int64_t head = 64;
    void *block = malloc(size_t(head + (nbytes > 0 ? nbytes : 1) + 63));
    if (!block) raise(TR_ERR_MEMORY, "Unable to allocate %lld bytes for an array", (long long)nbytes);
    void **p = reinterpret_cast<void **>((reinterpret_cast<uintptr_t>(block) + 63) & ~uintptr_t(63));
    p[7] = block;
    tr_buffer *b = reinterpret_cast<tr_buffer *>(p);
    b->refcount = 1;
    b->release = buffer_free;
    b->data = reinterpret_cast<char *>(p) + head;
    return b;
}

// Reference counting of Python objects, installed by fallback modules
// (array.hpp itself knows nothing of Python).
struct ExtRefs {
    void (*incref)(void *) = nullptr;
    void (*decref)(void *) = nullptr;
};
inline ExtRefs &ext_refs() {
    static ExtRefs r;
    return r;
}

// Keeps an array's memory alive: a heap buffer (counted), a borrowed
// argument object (the caller holds it for the whole call), or an object
// fallback code returned (ext_owned: we hold a reference).
struct Owner {
    tr_buffer *heap = nullptr;
    void *ext = nullptr;
    bool ext_owned = false;
    Owner() = default;
    Owner(const Owner &o) : heap(o.heap), ext(o.ext), ext_owned(o.ext_owned) {
        if (heap) __atomic_fetch_add(&heap->refcount, 1, __ATOMIC_RELAXED);
        if (ext_owned) ext_refs().incref(ext);
    }
    Owner(Owner &&o) noexcept : heap(o.heap), ext(o.ext), ext_owned(o.ext_owned) {
        o.heap = nullptr;
        o.ext_owned = false;
    }
    Owner &operator=(const Owner &o) {
        Owner tmp(o);
        swap(tmp);
        return *this;
    }
    Owner &operator=(Owner &&o) noexcept {
        swap(o);
        return *this;
    }
    ~Owner() {
        if (heap && __atomic_sub_fetch(&heap->refcount, 1, __ATOMIC_ACQ_REL) == 0) heap->release(heap);
        if (ext_owned) ext_refs().decref(ext);
    }
    void swap(Owner &o) noexcept {
        tr_buffer *h = heap;
        heap = o.heap;
        o.heap = h;
        void *e = ext;
        ext = o.ext;
        o.ext = e;
        bool w = ext_owned;
        ext_owned = o.ext_owned;
        o.ext_owned = w;
    }
};

template <class T, int N, int L = A> struct Array {
    static_assert(N >= 0 && N <= TR_MAX_NDIM, "unsupported number of dimensions");
    using value_type = T;
    static constexpr int ndim = N;
    static constexpr int layout = L;

    T *data = nullptr;
    int64_t shape[N > 0 ? N : 1] = {};
    int64_t strides[N > 0 ? N : 1] = {};
    Owner owner;

    Array() = default;
    template <int L2> Array(const Array<T, N, L2> &o) : data(o.data), owner(o.owner) {
        static_assert(L == A || L2 == L, "a strided array cannot become a unit-stride one");
        for (int k = 0; k < N; ++k) shape[k] = o.shape[k], strides[k] = o.strides[k];
    }
    int64_t stride(int k) const { return (L == C && k == N - 1) ? 1 : strides[k]; }
    int64_t size() const {
        int64_t n = 1;
        for (int k = 0; k < N; ++k) n *= shape[k];
        return n;
    }
    bool c_contiguous() const {
        int64_t expect = 1;
        for (int k = N - 1; k >= 0; --k) {
            if (shape[k] != 1 && stride(k) != expect) return false;
            expect *= shape[k];
        }
        return true;
    }
};

template <class X> struct is_array { static constexpr bool value = false; };
template <class T, int N, int L> struct is_array<Array<T, N, L>> { static constexpr bool value = true; };

// A new C-contiguous array; contents uninitialised.
template <class T, int N> Array<T, N, C> empty(const int64_t *shape) {
    Array<T, N, C> a;
    int64_t n = 1;
    for (int k = 0; k < N; ++k) {
        if (shape[k] < 0) raise(TR_ERR_VALUE, "negative dimensions are not allowed");
        a.shape[k] = shape[k];
        n *= shape[k];
    }
    int64_t s = 1;
    for (int k = N - 1; k >= 0; --k) a.strides[k] = s, s *= (a.shape[k] > 0 ? a.shape[k] : 1);
    a.owner.heap = buffer_new(n * (int64_t)sizeof(T));
    a.data = static_cast<T *>(a.owner.heap->data);
    return a;
}

template <class T, int N, int L> Array<T, N, L> from_arg(void *slot) {
    const tr_array_in *in = static_cast<const tr_array_in *>(slot);
    Array<T, N, L> a;
    a.data = reinterpret_cast<T *>(in->data);
    for (int k = 0; k < N; ++k) {
        a.shape[k] = in->shape[k];
        a.strides[k] = in->strides[k] / (int64_t)sizeof(T);
    }
    a.owner.ext = in->owner;
    return a;
}

// An array that fallback code or NumPy returned (ext_owned) crosses as its
// owner object, which the bridge takes a reference to while boxing the
// result, after the entry has returned: our reference is kept a while
// longer, in a ring as long as the most slots one result has (the bridge's
// MAX_LEAVES), so no item of a tuple result is let go before the bridge has
// boxed them all (one slot kept the previous item alone).
inline void keep_until_next_result(void *ext) {
    static thread_local void *kept[TR_RESULT_SLOTS_MAX] = {};
    static thread_local int next = 0;
    if (kept[next]) ext_refs().decref(kept[next]);
    kept[next] = ext;
    next = (next + 1) % TR_RESULT_SLOTS_MAX;
}

template <class T, int N, int L> void to_result(void *slot, Array<T, N, L> a) {
    tr_array_out *out = static_cast<tr_array_out *>(slot);
    if (!a.owner.heap && a.owner.ext_owned) {
        keep_until_next_result(a.owner.ext);
        a.owner.ext_owned = false;
    }
    out->data = reinterpret_cast<char *>(a.data);
    for (int k = 0; k < N; ++k) {
        out->shape[k] = a.shape[k];
        out->strides[k] = a.stride(k) * (int64_t)sizeof(T);
    }
    out->buffer = a.owner.heap;
    out->owner = a.owner.heap ? nullptr : a.owner.ext;
    a.owner.heap = nullptr;  // the reference now belongs to the bridge
}

template <class T> void to_result(void *slot, T v) { *static_cast<T *>(slot) = v; }
inline void to_result(void *slot, bool v) { *static_cast<uint8_t *>(slot) = v; }

template <class T> T scalar_arg(void *slot) { return *static_cast<T *>(slot); }
template <> inline bool scalar_arg<bool>(void *slot) { return *static_cast<uint8_t *>(slot) != 0; }

// Wraps a negative index and checks bounds (NumPy's wording).
TR_HD inline int64_t wrap_index(int64_t i, int axis, int64_t n) {
    int64_t j = i < 0 ? i + n : i;
#if TR_BOUNDSCHECK
    if ((uint64_t)j >= (uint64_t)n) {
        index_error(i, axis, n);
#if TR_DEVICE_PASS
        return 0;  // device code cannot unwind: the error is reported after the kernel
#endif
    }
#endif
    return j;
}

// An index the compiler proved to lie in [0, size) of its axis
// (passes/bounds.py): no wrapping, no check.  Anywhere else it is a plain
// index, checked as usual.
struct proven {
    int64_t i;
    TR_HD operator int64_t() const { return i; }
};

template <class I> TR_HD inline int64_t axis_index(I i, int axis, int64_t n) { return wrap_index(int64_t(i), axis, n); }
TR_HD inline int64_t axis_index(proven p, int, int64_t) { return p.i; }

template <class T, int N, int L, class... I, size_t... K>
inline T &at_axes(const Array<T, N, L> &a, std::index_sequence<K...>, I... idx) {
    return a.data[(int64_t(0) + ... + (axis_index(idx, int(K), a.shape[K]) * a.stride(int(K))))];
}

template <class T, int N, int L, class... I> inline T &at(const Array<T, N, L> &a, I... idx) {
    static_assert(sizeof...(I) == N, "element access needs one index per dimension");
    return at_axes(a, std::make_index_sequence<sizeof...(I)>(), idx...);
}

// Calls f(offset) for every element of `shape` in C order, offset computed
// from `strides`.
template <int N, class F> inline void for_each_offset(const int64_t *shape, const int64_t *strides, F &&f) {
    if constexpr (N == 0) {
        f(int64_t(0));
    } else {
        for (int k = 0; k < N; ++k)
            if (shape[k] == 0) return;
        int64_t idx[N] = {};
        int64_t off = 0;
        for (;;) {
            for (int64_t j = 0; j < shape[N - 1]; ++j) f(off + j * strides[N - 1]);
            int k = N - 2;
            for (; k >= 0; --k) {
                off += strides[k];
                if (++idx[k] < shape[k]) break;
                off -= idx[k] * strides[k];
                idx[k] = 0;
            }
            if (k < 0) return;
        }
    }
}

template <class T, int N, int L, class F> inline void for_each(const Array<T, N, L> &a, F &&f) {
    int64_t st[N > 0 ? N : 1];
    for (int k = 0; k < N; ++k) st[k] = a.stride(k);
    T *d = a.data;
    for_each_offset<N>(a.shape, st, [&](int64_t off) { f(d[off]); });
}

}  // namespace tr

namespace tr {
// The value of a Python None in compiled code.
struct none_t {
    bool operator==(none_t) const { return true; }
    explicit operator bool() const { return false; }
};
}  // namespace tr

#include <tuple>
namespace tr {
// Python truthiness of compiled scalars and tuples.
template <class T> inline bool truthy(const T &v) { return bool(v); }
template <class... X> inline bool truthy(const std::tuple<X...> &) { return sizeof...(X) > 0; }

// t[i] for a tuple whose items share one type.
template <class T0, class... X> inline T0 tuple_get(const std::tuple<T0, X...> &t, int64_t i) {
    constexpr int64_t n = 1 + sizeof...(X);
    int64_t j = i < 0 ? i + n : i;
    if (j < 0 || j >= n) raise(TR_ERR_INDEX, "tuple index out of range");
    T0 out{};
    int64_t k = 0;
    std::apply([&](const auto &...x) { ((k++ == j ? (void)(out = x) : (void)0), ...); }, t);
    return out;
}
}  // namespace tr

namespace tr {
inline int64_t imin(int64_t a, int64_t b) { return a < b ? a : b; }
// Number of values of range(start, stop, step): below 2**64.
inline unsigned __int128 range_count(int64_t start, int64_t stop, int64_t step) {
    if (step == 0) raise(TR_ERR_VALUE, "range() arg 3 must not be zero");
    __int128 s = start, e = stop, d = step;  // stop - start may not fit in 64 bits
    if (d > 0) return s < e ? (e - s - 1) / d + 1 : 0;
    return s > e ? (s - e - 1) / (-d) + 1 : 0;
}
inline int64_t range_len(int64_t start, int64_t stop, int64_t step) { return int64_t(range_count(start, stop, step)); }

// range(start, stop, step)'s arguments, for reversed() and the reductions
// below (a for loop over range(...) itself counts in place, cxx/lower_loops.py).
struct RangeArgs {
    int64_t start, stop, step;
};

// len(), sum(), min() and max() of a range in closed form, as CPython's
// range object answers them: len() an OverflowError past sys.maxsize; sum()
// the exact sum modulo 2**64, as this code's int arithmetic wraps; min() and
// max() the first or last value, ValueError for an empty range.
inline int64_t range_length(const RangeArgs &r) {
    unsigned __int128 n = range_count(r.start, r.stop, r.step);
    if (n > INT64_MAX) raise(TR_ERR_OVERFLOW, "Python int too large to convert to C ssize_t");
    return int64_t(n);
}
inline int64_t range_sum(const RangeArgs &r, int64_t initial) {
    unsigned __int128 n = range_count(r.start, r.stop, r.step);
    uint64_t pairs = uint64_t(n * (n - (n > 0)) / 2);  // n(n-1)/2 < 2**127: exact, then modulo 2**64
    return int64_t(uint64_t(initial) + uint64_t(n) * uint64_t(r.start) + pairs * uint64_t(r.step));
}
inline int64_t range_extreme(const RangeArgs &r, bool greatest) {
    unsigned __int128 n = range_count(r.start, r.stop, r.step);
    if (n == 0) raise(TR_ERR_VALUE, greatest ? TR_MSG_MAX_EMPTY : TR_MSG_MIN_EMPTY);
    const int64_t last = int64_t(uint64_t(r.start) + uint64_t(n - 1) * uint64_t(r.step));
    return (r.step > 0) == greatest ? last : r.start;
}

// reversed(range(...)): a cursor over the range's values, last first.  The
// value is start + k * step, exact in wrapping 64-bit arithmetic (it is in
// the range, so it fits).
struct ReversedRange {
    int64_t start, step, left, value = 0;
    explicit ReversedRange(const RangeArgs &r)
        : start(r.start), step(r.step), left(range_len(r.start, r.stop, r.step)) {}
    bool begin() { return next(); }
    bool next() {
        if (left == 0) return false;
        --left;
        value = int64_t(uint64_t(start) + uint64_t(left) * uint64_t(step));
        return true;
    }
};
}  // namespace tr
