// Shape manipulation: reshape, transpose, flip, squeeze, diag, ravel, flatten.  Views share the
// source's owner (writes through them reach the caller's array, as in
// NumPy); copies are new C-ordered arrays.
//
// reshape returns a C-layout array (innermost stride 1).  NumPy can also
// return a view of some non-contiguous arrays whose innermost stride is not
// 1 (e.g. a[:, ::2].reshape(n, m, 1)); there we copy instead, so writes to
// the result do not reach `a`.  Every other view NumPy makes, we make.
#pragma once
#include <stdint.h>
#include <stdio.h>
#include "../array.hpp"
#include "../expr.hpp"
#include "common.hpp"
#include "creation.hpp"

namespace tr {
namespace np {
namespace detail {

// NumPy's convert_shape_to_string for a requested shape: leading negative
// entries are dropped, later ones print as "newaxis".
inline void format_newshape(char *buf, int size, const int64_t *v, int n) {
    int i = 0;
    while (i < n && v[i] < 0) ++i;
    if (i == n) {
        snprintf(buf, size, "()");
        return;
    }
    int p = snprintf(buf, size, "(%lld", (long long)v[i++]);
    for (; i < n && p < size; ++i)
        p += v[i] < 0 ? snprintf(buf + p, size - p, ",newaxis") : snprintf(buf + p, size - p, ",%lld", (long long)v[i]);
    if (p < size) snprintf(buf + p, size - p, n == 1 ? ",)" : ")");
}

[[noreturn]] __attribute__((cold, noinline)) inline void reshape_error(int64_t size, const int64_t *v, int n) {
    char s[512];
    format_newshape(s, sizeof s, v, n);
    raise(TR_ERR_VALUE, "cannot reshape array of size %lld into shape %s", (long long)size, s);
}

// NumPy's _attempt_nocopy_reshape (C order): strides for viewing `a` with
// the new dims without copying, or false.
template <int N> bool nocopy_reshape(const int64_t *shape, const int64_t *stride, int newnd, const int64_t *newdims,
                                     int64_t *newstrides) {
    int64_t od[N > 0 ? N : 1], os[N > 0 ? N : 1];
    int oldnd = 0;
    for (int k = 0; k < N; ++k)
        if (shape[k] != 1) od[oldnd] = shape[k], os[oldnd] = stride[k], ++oldnd;
    int oi = 0, oj = 1, ni = 0, nj = 1;
    while (ni < newnd && oi < oldnd) {
        int64_t np_ = newdims[ni], op = od[oi];
        while (np_ != op) {
            if (np_ < op) np_ *= newdims[nj++];
            else op *= od[oj++];
        }
        for (int ok = oi; ok < oj - 1; ++ok)
            if (os[ok] != od[ok + 1] * os[ok + 1]) return false;
        newstrides[nj - 1] = os[oj - 1];
        for (int nk = nj - 1; nk > ni; --nk) newstrides[nk - 1] = newstrides[nk] * newdims[nk];
        ni = nj++;
        oi = oj++;
    }
    int64_t last = ni >= 1 ? newstrides[ni - 1] : 1;
    for (int nk = ni; nk < newnd; ++nk) newstrides[nk] = last;
    return true;
}

template <class T, int N, int L> Array<T, 1, C> flat_copy(const Array<T, N, L> &a) {
    Array<T, N, C> c = copy_as<T>(a);
    Array<T, 1, C> r;
    r.data = c.data;
    r.shape[0] = c.size();
    r.strides[0] = 1;
    r.owner = c.owner;
    return r;
}

}  // namespace detail

template <int M, class T, int N, int L> Array<T, M, C> reshape(const Array<T, N, L> &a, const int64_t (&shape)[M]) {
    static_assert(M >= 1, "reshape to a 0-d shape is not supported");
    const int64_t size = a.size();
    int64_t dims[M];
    int unknown = -1;
    int64_t known = 1;
    for (int i = 0; i < M; ++i) {
        dims[i] = shape[i];
        if (shape[i] < 0) {
            if (unknown >= 0) raise(TR_ERR_VALUE, "can only specify one unknown dimension");
            unknown = i;
        } else if (__builtin_mul_overflow(known, shape[i], &known)) {
            detail::reshape_error(size, shape, M);
        }
    }
    if (unknown >= 0) {
        if (known == 0 || size % known != 0) detail::reshape_error(size, shape, M);
        dims[unknown] = size / known;
    } else if (size != known) {
        detail::reshape_error(size, shape, M);
    }

    Array<T, M, C> r;
    int64_t st[M];
    bool view = size == 0 || a.c_contiguous();
    if (view) {
        int64_t s = 1;
        for (int k = M - 1; k >= 0; --k) st[k] = s, s *= dims[k] > 0 ? dims[k] : 1;
    } else {
        int64_t ost[N > 0 ? N : 1];
        for (int k = 0; k < N; ++k) ost[k] = a.stride(k);
        view = detail::nocopy_reshape<N>(a.shape, ost, M, dims, st) && (st[M - 1] == 1 || dims[M - 1] <= 1);
    }
    if (view) {
        r.data = a.data;
        r.owner = a.owner;
        for (int k = 0; k < M; ++k) r.shape[k] = dims[k], r.strides[k] = st[k];
        return r;
    }
    Array<T, 1, C> flat = detail::flat_copy(a);
    r.data = flat.data;
    r.owner = flat.owner;
    int64_t s = 1;
    for (int k = M - 1; k >= 0; --k) r.shape[k] = dims[k], r.strides[k] = s, s *= dims[k] > 0 ? dims[k] : 1;
    return r;
}

// a.T / np.transpose(a): axes reversed, a view.
template <class T, int N, int L> Array<T, N, A> transpose(const Array<T, N, L> &a) {
    Array<T, N, A> t;
    t.data = a.data;
    t.owner = a.owner;
    for (int k = 0; k < N; ++k) t.shape[k] = a.shape[N - 1 - k], t.strides[k] = a.stride(N - 1 - k);
    return t;
}

// np.flip(a, axis) (np.fliplr, np.flipud): the axes whose bit is set in
// `axes` reversed, a view (the first element the last of each such axis).
template <class T, int N, int L> Array<T, N, A> flip(const Array<T, N, L> &a, unsigned axes) {
    Array<T, N, A> f;
    f.data = a.data;
    f.owner = a.owner;
    for (int k = 0; k < N; ++k) {
        f.shape[k] = a.shape[k];
        f.strides[k] = a.stride(k);
        if ((axes >> k) & 1u && a.shape[k] > 0) {
            f.data += (a.shape[k] - 1) * a.stride(k);
            f.strides[k] = -a.stride(k);
        }
    }
    return f;
}

// np.transpose(a, axes): result axis i is input axis axes[i].
template <class T, int N, int L> Array<T, N, A> transpose(const Array<T, N, L> &a, const int64_t (&axes)[N]) {
    int seen[N > 0 ? N : 1];
    for (int k = 0; k < N; ++k) seen[k] = 0;
    Array<T, N, A> t;
    for (int i = 0; i < N; ++i) {
        int ax = detail::normalize_axis(axes[i], N);
        if (seen[ax]) raise(TR_ERR_VALUE, "repeated axis in transpose");
        seen[ax] = 1;
        t.shape[i] = a.shape[ax];
        t.strides[i] = a.stride(ax);
    }
    t.data = a.data;
    t.owner = a.owner;
    return t;
}

// np.squeeze(a, axis): the axes whose bit is set in `axes` dropped, a view; R
// is the result type the compiler inferred.
template <class R, class T, int N, int L> R squeeze(const Array<T, N, L> &a, unsigned axes) {
    R s;
    s.data = a.data;
    s.owner = a.owner;
    for (int k = 0, j = 0; k < N; ++k) {
        if (!((axes >> k) & 1u)) {
            s.shape[j] = a.shape[k], s.strides[j] = a.stride(k), ++j;
        } else if (a.shape[k] != 1) {
            raise(TR_ERR_VALUE, "cannot select an axis to squeeze out which has size not equal to one");
        }
    }
    return s;
}

// np.diag(v, k) of a 1-d v: a new square array, v on its k-th diagonal.
template <class T, int L> Array<T, 2, C> diag(const Array<T, 1, L> &v, int64_t k) {
    const int64_t m = v.shape[0];
    const __int128 side = __int128(m) + (k < 0 ? -__int128(k) : __int128(k));
    if (side > INT64_MAX) raise(TR_ERR_VALUE, "Maximum allowed dimension exceeded");
    const int64_t n = int64_t(side), off = n - m;
    int64_t bytes;
    if (__builtin_mul_overflow(n, n, &bytes) || __builtin_mul_overflow(bytes, int64_t(sizeof(T)), &bytes))
        raise(TR_ERR_VALUE, "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible "
                            "size.");
    const int64_t shape[2] = {n, n};
    Array<T, 2, C> r = zeros<T, 2>(shape);
    T *d = r.data + (k >= 0 ? off : off * n);
    for (int64_t i = 0; i < m; ++i) d[i * (n + 1)] = v.data[i * v.stride(0)];
    return r;
}

// np.diag(a, k) of a 2-d a: its k-th diagonal, a view (NumPy's offsets for a
// k past either edge: an empty diagonal).
template <class T, int L> Array<T, 1, A> diag(const Array<T, 2, L> &a, int64_t k) {
    const int64_t rows = a.shape[0], cols = a.shape[1];
    Array<T, 1, A> d;
    d.owner = a.owner;
    if (k >= 0) {
        const int64_t off = k < cols ? k : cols;
        d.data = a.data + off * a.stride(1);
        d.shape[0] = rows < cols - off ? rows : cols - off;
    } else {
        const int64_t off = k > -rows ? -k : rows;
        d.data = a.data + off * a.stride(0);
        d.shape[0] = rows - off < cols ? rows - off : cols;
    }
    d.strides[0] = a.stride(0) + a.stride(1);
    return d;
}

// np.ravel(a) / a.ravel(): a view when a is C-contiguous, else a copy.
template <class T, int N, int L> Array<T, 1, C> ravel(const Array<T, N, L> &a) {
    if (a.size() == 0 || a.c_contiguous()) {
        Array<T, 1, C> r;
        r.data = a.data;
        r.owner = a.owner;
        r.shape[0] = a.size();
        r.strides[0] = 1;
        return r;
    }
    return detail::flat_copy(a);
}

// a.flatten(): always a copy.
template <class T, int N, int L> Array<T, 1, C> flatten(const Array<T, N, L> &a) { return detail::flat_copy(a); }

// np.expand_dims makes its view by reshaping, which gives a new length-1
// axis the stride of the block it joins (NumPy's _attempt_nocopy_reshape):
// the next axis's stride times its length, or, after the last axis, that
// axis's stride -- where a[None] (newaxis) gives 0.  Bit k of new_axes: axis
// k of the view is new.
template <class R, class A> inline R as_reshaped(R v, const A &a, uint64_t new_axes) {
    const int64_t last = A::ndim > 0 ? a.stride(A::ndim - 1) : 1;
    bool trailing = true;
    for (int k = R::ndim - 1; k >= 0; --k) {
        if (!((new_axes >> k) & 1)) {
            trailing = false;
            continue;
        }
        v.strides[k] = trailing ? last : v.stride(k + 1) * v.shape[k + 1];
    }
    return v;
}

}  // namespace np
}  // namespace tr
