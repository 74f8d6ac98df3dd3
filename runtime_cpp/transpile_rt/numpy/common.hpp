// Helpers shared by the numpy/ headers: NumPy's shape and axis error texts,
// and the order in which NumPy's iterator visits one array's memory (needed
// wherever the order of floating-point operations decides the result).
#pragma once
#include <stdint.h>
#include <stdio.h>
#include "../array.hpp"
#include "../math/fmath.hpp"

namespace tr {
namespace np {
namespace detail {

// "(2,3)", "(3,)", "()": NumPy's tuple formatting of a shape, no spaces.
inline void format_shape(char *buf, int size, const int64_t *shape, int nd) {
    int p = snprintf(buf, size, "(");
    for (int k = 0; k < nd && p < size; ++k)
        p += snprintf(buf + p, size - p, k + 1 < nd ? "%lld," : (nd == 1 ? "%lld,)" : "%lld)"), (long long)shape[k]);
    if (nd == 0 && p < size) snprintf(buf + p, size - p, ")");
}

// numpy.exceptions.AxisError (a ValueError and IndexError subclass);
// negative axes count from the end.
inline int normalize_axis(int64_t axis, int ndim) {
    if (axis < -ndim || axis >= ndim)
        raise(TR_ERR_AXIS, "axis %lld is out of bounds for array of dimension %d", (long long)axis, ndim);
    return int(axis < 0 ? axis + ndim : axis);
}

inline int64_t iabs(int64_t v) { return v < 0 ? -v : v; }

// The axes of one array in the order NumPy's iterator walks them for
// order='K' without negating strides: size-1 axes dropped, the remaining ones
// sorted by decreasing |stride| (stable, so ties keep C order), and axes that
// step through memory contiguously merged.  The last axis is the inner loop.
struct Plan {
    int nd = 0;
    int64_t shape[TR_MAX_NDIM > 0 ? TR_MAX_NDIM : 1];
    int64_t stride[TR_MAX_NDIM > 0 ? TR_MAX_NDIM : 1];
    int axis[TR_MAX_NDIM > 0 ? TR_MAX_NDIM : 1];  // original axis of each entry (innermost merged one)
};

template <int N> inline Plan make_plan(const int64_t *shape, const int64_t *stride, bool merge = true) {
    Plan p;
    int perm[N > 0 ? N : 1];
    int m = 0;
    for (int k = 0; k < N; ++k)
        if (shape[k] != 1) perm[m++] = k;
    for (int i = 1; i < m; ++i)
        for (int j = i; j > 0 && iabs(stride[perm[j - 1]]) < iabs(stride[perm[j]]); --j) {
            int t = perm[j];
            perm[j] = perm[j - 1];
            perm[j - 1] = t;
        }
    for (int i = 0; i < m; ++i) {
        int k = perm[i];
        if (merge && p.nd > 0 && p.stride[p.nd - 1] == stride[k] * shape[k]) {
            p.shape[p.nd - 1] *= shape[k];
            p.stride[p.nd - 1] = stride[k];
            p.axis[p.nd - 1] = k;
        } else {
            p.shape[p.nd] = shape[k];
            p.stride[p.nd] = stride[k];
            p.axis[p.nd] = k;
            ++p.nd;
        }
    }
    return p;
}

template <class T, int N, int L> inline Plan plan_of(const Array<T, N, L> &a, bool merge = true) {
    int64_t st[N > 0 ? N : 1];
    for (int k = 0; k < N; ++k) st[k] = a.stride(k);
    return make_plan<N>(a.shape, st, merge);
}

// Calls f(offset, n, stride) for every inner row of the plan, outer axes in
// order.  A plan of no axes is one row of one element.
template <class F> inline void for_each_row(const Plan &p, F &&f) {
    if (p.nd == 0) {
        f(int64_t(0), int64_t(1), int64_t(1));
        return;
    }
    for (int k = 0; k < p.nd; ++k)
        if (p.shape[k] == 0) return;
    const int outer = p.nd - 1;
    int64_t idx[TR_MAX_NDIM > 0 ? TR_MAX_NDIM : 1] = {};
    int64_t off = 0;
    for (;;) {
        f(off, p.shape[outer], p.stride[outer]);
        int k = outer - 1;
        for (; k >= 0; --k) {
            off += p.stride[k];
            if (++idx[k] < p.shape[k]) break;
            off -= idx[k] * p.stride[k];
            idx[k] = 0;
        }
        if (k < 0) return;
    }
}

// Calls f(off1, off2) over `shape` in C order with two sets of strides.
template <int M, class F> inline void for_each_offset2(const int64_t *shape, const int64_t *s1, const int64_t *s2, F &&f) {
    if constexpr (M == 0) {
        f(int64_t(0), int64_t(0));
    } else {
        for (int k = 0; k < M; ++k)
            if (shape[k] == 0) return;
        int64_t idx[M] = {};
        int64_t o1 = 0, o2 = 0;
        for (;;) {
            for (int64_t j = 0; j < shape[M - 1]; ++j) f(o1 + j * s1[M - 1], o2 + j * s2[M - 1]);
            int k = M - 2;
            for (; k >= 0; --k) {
                o1 += s1[k];
                o2 += s2[k];
                if (++idx[k] < shape[k]) break;
                o1 -= idx[k] * s1[k];
                o2 -= idx[k] * s2[k];
                idx[k] = 0;
            }
            if (k < 0) return;
        }
    }
}

// Calls f(off1, off2) once per lane along axis `ax`: for every index of the
// other axes (C order), the offsets of the lane's first element under two
// sets of strides.  Nothing is called when another axis is empty.
template <int N, class F>
inline void for_each_lane(const int64_t *shape, const int64_t *s1, const int64_t *s2, int ax, F &&f) {
    for (int k = 0; k < N; ++k)
        if (k != ax && shape[k] == 0) return;
    int64_t idx[N > 0 ? N : 1] = {};
    int64_t o1 = 0, o2 = 0;
    for (;;) {
        f(o1, o2);
        int k = N - 1;
        for (; k >= 0; --k) {
            if (k == ax) continue;
            o1 += s1[k];
            o2 += s2[k];
            if (++idx[k] < shape[k]) break;
            o1 -= idx[k] * s1[k];
            o2 -= idx[k] * s2[k];
            idx[k] = 0;
        }
        if (k < 0) return;
    }
}

// Element pointers with a stride; Unit when the stride is known to be 1 so
// the compiler can vectorize.
template <class T> struct Strided {
    const T *p;
    int64_t s;
    T operator[](int64_t i) const { return p[i * s]; }
    Strided at(int64_t i) const { return Strided{p + i * s, s}; }
};
template <class T> struct Unit {
    const T *p;
    T operator[](int64_t i) const { return p[i]; }
    Unit at(int64_t i) const { return Unit{p + i}; }
};

// NumPy's complex true_divide loop (Smith's method with a reciprocal), used
// where NumPy divides a complex result by a count.
template <class T> TR_NO_FP_CONTRACT inline complex_t<T> np_cdiv(complex_t<T> a, complex_t<T> b) {
    T br = b.re < 0 ? -b.re : b.re, bi = b.im < 0 ? -b.im : b.im;
    if (br >= bi) {
        if (br == 0 && bi == 0) return {a.re / br, a.im / br};
        T rat = b.im / b.re, scl = T(1) / (b.re + b.im * rat);
        return {(a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl};
    }
    T rat = b.re / b.im, scl = T(1) / (b.im + b.re * rat);
    return {(a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl};
}

// x / n for a reduction result (mean, var): NumPy divides by the count in
// the result type.
template <class R> inline R div_count(R x, int64_t n) {
    if constexpr (is_complex<R>::value) {
        using F = typename real_of<R>::type;
        return np_cdiv(x, R(F(n), F(0)));
    } else {
        return x / R(n);
    }
}

}  // namespace detail
}  // namespace np
}  // namespace tr
