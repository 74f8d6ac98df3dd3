// Structured dtypes: record arrays are tr::Array<rec::Bytes<S>, N, L> (S the
// dtype's itemsize, so strides in elements are NumPy's in bytes over S), a
// single record (np.void) is a 0-d view of one of them, and a field is read
// and written at its byte offset with memcpy (any layout, packed or aligned).
// A field as an array of its own (a['x'], and any subarray field) is a strided view, which the
// compiler makes only where the offsets and itemsize allow it
// (hir/records.py: RecordDtype.viewable) and the bridge found the data aligned.
#pragma once
#include <string.h>
#include "array.hpp"

namespace tr::rec {

template <int S> struct Bytes {
    unsigned char b[S];
};

// a[i, j] of a record array: the record, a view that keeps the array's memory alive.
template <class T, int N, int L, class... I> inline Array<T, 0, A> item(const Array<T, N, L> &a, I... idx) {
    Array<T, 0, A> r;
    r.data = &tr::at(a, idx...);
    r.owner = a.owner;
    return r;
}

template <class F> inline F get(const void *record, int64_t offset) {
    F v;
    memcpy(&v, static_cast<const unsigned char *>(record) + offset, sizeof(F));
    return v;
}
template <class F, class T> inline F get(const Array<T, 0, A> &r, int64_t offset) { return get<F>(r.data, offset); }

template <class F> inline void set(void *record, int64_t offset, F v) {
    memcpy(static_cast<unsigned char *>(record) + offset, &v, sizeof(F));
}
template <class F, class T> inline void set(const Array<T, 0, A> &r, int64_t offset, F v) { set<F>(r.data, offset, v); }

// r['p'] of a field that is itself a structure (S bytes at OFFSET): a record too.
template <int S, int64_t OFFSET, class T> inline Array<Bytes<S>, 0, A> nested(const Array<T, 0, A> &r) {
    Array<Bytes<S>, 0, A> v;
    v.data = reinterpret_cast<Bytes<S> *>(reinterpret_cast<unsigned char *>(r.data) + OFFSET);
    v.owner = r.owner;
    return v;
}

// a[i] = r: a record's bytes into another of the same dtype (memmove: r may be a[i]).
template <class T> inline void copy(T *dst, const T *src) { memmove(dst, src, sizeof(T)); }

// a['x']: the field of every record, as a strided array of the field's type;
// a subarray field ('v', 'f8', (D...)) adds its axes last, C-ordered.
template <class F, int64_t OFFSET, int64_t... D, class T, int N, int L>
inline Array<F, N + int(sizeof...(D)), A> field(const Array<T, N, L> &a) {
    static_assert(sizeof(T) % sizeof(F) == 0, "a field view needs an itemsize that is a multiple of the field's");
    constexpr int K = int(sizeof...(D));
    Array<F, N + K, A> v;
    v.data = reinterpret_cast<F *>(reinterpret_cast<unsigned char *>(a.data) + OFFSET);
    for (int k = 0; k < N; ++k) {
        v.shape[N + K > 0 ? k : 0] = a.shape[k];
        v.strides[N + K > 0 ? k : 0] = a.stride(k) * int64_t(sizeof(T) / sizeof(F));
    }
    if constexpr (K > 0) {
        const int64_t dims[K] = {D...};
        int64_t step = 1;
        for (int k = K - 1; k >= 0; --k) {
            v.shape[N + k] = dims[k];
            v.strides[N + k] = step;
            step *= dims[k];
        }
    }
    v.owner = a.owner;
    return v;
}

}  // namespace tr::rec
