// np.median, np.quantile and np.percentile with NumPy's default "linear"
// method, over the whole array or along one axis.
//
// The values are NumPy's because the arithmetic is NumPy's, in its order
// and types (lib/_function_base_impl.py):
//  * median: the mean of the middle one or two order statistics, summed
//    from 0 in the result type and divided by their count;
//  * quantile: virtual index vi = (n - 1) * q in double; prev = floor(vi),
//    or -1 when vi >= n - 1 (gamma = vi - prev keeps that -1); then
//    _lerp: d = b - a in the input type, a + d * t, or b - d * (1 - t) where
//    t >= 0.5, in the result type R (t converted to R first, as NumPy does
//    with a weak Python float);
//  * an integer q (0 or 1) takes the order statistic itself, in the input
//    type;
//  * a lane holding NaN gives NaN (NumPy sorts NaN last and returns the last
//    element for such lanes).
// Order statistics come from a quickselect in NumPy's sort order on a copy
// of each lane: any selection algorithm gives the same values.
#pragma once
#include <stdint.h>
#include <stdlib.h>
#include "../array.hpp"
#include "../math/fmath.hpp"
#include "common.hpp"
#include "reduce.hpp"
#include "sorting.hpp"

namespace tr {
namespace np {
namespace detail {

// The k-th smallest of v[0..n), moving elements of v (no NaN: the callers return first for lanes with one).
template <class T> T select_kth(T *v, int64_t n, int64_t k) {
    int64_t lo = 0, hi = n - 1;
    while (hi - lo >= 16) {
        int64_t mid = lo + (hi - lo) / 2;
        if (v[mid] < v[lo]) swap_(v[mid], v[lo]);
        if (v[hi] < v[lo]) swap_(v[hi], v[lo]);
        if (v[hi] < v[mid]) swap_(v[hi], v[mid]);
        const T p = v[mid];
        int64_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < p) ++i;
            while (p < v[j]) --j;
            if (i <= j) swap_(v[i++], v[j--]);
        }
        if (k <= j) hi = j;
        else if (k >= i) lo = i;
        else return v[k];
    }
    insertion_sort(v + lo, hi - lo + 1);
    return v[k];
}

// The smallest of v[from..n) (after select_kth(v, n, from - 1): the next order statistic).
template <class T> T min_from(const T *v, int64_t n, int64_t from) {
    T m = v[from];
    for (int64_t i = from + 1; i < n; ++i)
        if (v[i] < m) m = v[i];
    return m;
}

template <class T> bool lane_has_nan(const T *v, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
        if (v[i] != v[i]) return true;
    return false;
}

template <class R, class T> TR_NO_FP_CONTRACT R median_lane(T *v, int64_t n) {
    if (n == 0) return fm::nan<R>();
    if constexpr (is_float<T>::value) {
        if (lane_has_nan(v, n)) return fm::nan<R>();
    }
    const int64_t h = n / 2;
    if (n % 2 == 1) return R(R(R(0) + cast<R>(select_kth(v, n, h))) / R(1));
    const T a = select_kth(v, n, h - 1);
    const T b = min_from(v, n, h);
    return R(R(R(0) + R(cast<R>(a) + cast<R>(b))) / R(2));
}

// q in [0, 1] (checked by the caller); int_q: q was an int (0 or 1).
template <class R, class T> TR_NO_FP_CONTRACT R quantile_lane(T *v, int64_t n, double q, bool int_q) {
    if (n == 0) raise(TR_ERR_INDEX, "index -1 is out of bounds for axis 0 with size 0");
    if constexpr (is_float<T>::value) {
        if (lane_has_nan(v, n)) return cast<R>(fm::nan<T>());
    }
    if (int_q) return cast<R>(select_kth(v, n, q != 0.0 ? n - 1 : 0));
    const double vi = double(n - 1) * q;
    double prev = fm::floor(vi);
    int64_t ia, ib;
    if (vi >= double(n - 1)) {
        prev = -1.0;
        ia = ib = n - 1;
    } else {
        ia = int64_t(prev);
        ib = ia + 1;
    }
    const double t = vi - prev;
    const T a = select_kth(v, n, ia);
    const T b = ib == ia ? a : min_from(v, n, ib);
    const R d = cast<R>(T(b - a));
    if (t >= 0.5) return R(cast<R>(b) - R(d * R(1.0 - t)));
    return R(cast<R>(a) + R(d * R(t)));
}

inline double checked_q(double q, bool percent) {
    const double f = percent ? q / 100.0 : q;
    if (!(f >= 0.0 && f <= 1.0))
        raise(TR_ERR_VALUE, percent ? "Percentiles must be in the range [0, 100]" : "Quantiles must be in the range [0, 1]");
    return f;
}

// Calls lane(buf, n) on a copy of every lane of `a` along `axis`; the results fill a new array.
template <class R, class T, int N, int L, class Lane>
Array<R, N - 1, C> along_axis(const Array<T, N, L> &a, int64_t axis, Lane &&lane) {
    AxisGeom<N> g = axis_geom(a, axis);
    T *buf = scratch<T>(g.n);
    Array<R, N - 1, C> out = axis_rows<R>(a, g, [&](const T *p, int64_t n, int64_t s) {
        for (int64_t i = 0; i < n; ++i) buf[i] = p[i * s];
        return lane(buf, n);
    });
    free(buf);
    return out;
}

}  // namespace detail

// The whole-array forms select in place in a fresh C-order copy (copy_as always copies).
template <class R, class T, int N, int L> R median(const Array<T, N, L> &a) {
    auto c = tr::copy_as<T>(a);
    return detail::median_lane<R>(c.data, c.size());
}

template <class R, class T, int N, int L> Array<R, N - 1, C> median_axis(const Array<T, N, L> &a, int64_t axis) {
    return detail::along_axis<R>(a, axis, [](T *v, int64_t n) { return detail::median_lane<R>(v, n); });
}

template <class R, class T, int N, int L> R quantile(const Array<T, N, L> &a, double q, bool int_q, bool percent) {
    const double f = detail::checked_q(q, percent);
    auto c = tr::copy_as<T>(a);
    return detail::quantile_lane<R>(c.data, c.size(), f, int_q);
}

// q a list of numbers or a 1-d array: one result per q (all checked first, as NumPy does).
template <class R, class T, int N, int L, class Q> Array<R, 1, C> quantiles(const Array<T, N, L> &a, const Q &q, bool int_q, bool percent) {
    int64_t nq;
    if constexpr (requires { q.shape[0]; }) nq = q.shape[0];
    else nq = q.size();
    auto q_at = [&](int64_t i) {
        if constexpr (requires { q.shape[0]; }) return double(q.data[i * q.stride(0)]);
        else return double(q[i]);
    };
    double *qs = detail::scratch<double>(nq);
    for (int64_t i = 0; i < nq; ++i) qs[i] = detail::checked_q(q_at(i), percent);
    int64_t shape[1] = {nq};
    Array<R, 1, C> out = tr::empty<R, 1>(shape);
    auto c = tr::copy_as<T>(a);
    T *buf = detail::scratch<T>(c.size());
    for (int64_t i = 0; i < nq; ++i) {
        for (int64_t j = 0; j < c.size(); ++j) buf[j] = c.data[j];
        out.data[i] = detail::quantile_lane<R>(buf, c.size(), qs[i], int_q);
    }
    free(buf);
    free(qs);
    return out;
}

template <class R, class T, int N, int L>
Array<R, N - 1, C> quantile_axis(const Array<T, N, L> &a, int64_t axis, double q, bool int_q, bool percent) {
    const double f = detail::checked_q(q, percent);
    return detail::along_axis<R>(a, axis, [&](T *v, int64_t n) { return detail::quantile_lane<R>(v, n, f, int_q); });
}

}  // namespace np
}  // namespace tr
