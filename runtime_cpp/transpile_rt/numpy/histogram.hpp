// Counting: np.bincount and np.histogram, reproducing NumPy's arithmetic
// (numpy/lib/_histograms_impl.py) so that every value lands in the same bin:
//
//  * equal-width bins: edges = linspace(first, last, bins + 1) computed in
//    E (float32 when first/last are float32 values, else float64) and stored
//    as T (the edge dtype); each value x (cast to T) goes to bin
//    int((T(x - first) / denom) * bins) with the division in F (float32 only
//    when both T and E are), then is moved by one where the edges say so;
//  * explicit edges: the data is sorted in blocks of 65536 and the edges
//    searched (left, the last edge right), as NumPy does;
//  * weights are summed per block in float64 and added in the weights' dtype.
#pragma once
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <type_traits>
#include "../array.hpp"
#include "../math/fmath.hpp"
#include "common.hpp"
#include "creation.hpp"
#include "sorting.hpp"

namespace tr {
namespace np {
namespace detail {

template <class T, int N, int L> T *flat_values(const Array<T, N, L> &a) {
    T *p = scratch<T>(a.size());
    int64_t i = 0;
    for_each(a, [&](T &v) { p[i++] = v; });
    return p;
}

inline constexpr int64_t kHistBlock = 65536;


// The number of bins np.bincount makes (checking the values as NumPy does).
template <class I, int L> int64_t bincount_size(const Array<I, 1, L> &x, int64_t minlength) {
    if (minlength < 0) raise(TR_ERR_VALUE, "'minlength' must not be negative");
    const int64_t n = x.shape[0], s = x.stride(0);
    int64_t mx = -1;
    for (int64_t i = 0; i < n; ++i) {
        int64_t v = int64_t(x.data[i * s]);
        if (v < 0) raise(TR_ERR_VALUE, "'list' argument must have no negative elements");
        if (v > mx) mx = v;
    }
    return mx + 1 > minlength ? mx + 1 : minlength;
}
}  // namespace detail

// np.bincount(x, minlength=m)
template <class I, int L> Array<int64_t, 1, C> bincount(const Array<I, 1, L> &x, int64_t minlength = 0) {
    const int64_t n = x.shape[0], s = x.stride(0);
    const int64_t shape[1] = {detail::bincount_size(x, minlength)};
    Array<int64_t, 1, C> out = zeros<int64_t, 1>(shape);
    for (int64_t i = 0; i < n; ++i) out.data[int64_t(x.data[i * s])] += 1;
    return out;
}

// np.bincount(x, weights=w, minlength=m): float64 sums.
template <class I, int L, class W, int LW>
Array<double, 1, C> bincount(const Array<I, 1, L> &x, const Array<W, 1, LW> &w, int64_t minlength = 0) {
    const int64_t n = x.shape[0], s = x.stride(0);
    const int64_t shape[1] = {detail::bincount_size(x, minlength)};
    if (w.shape[0] != n) raise(TR_ERR_VALUE, "The weights and list don't have the same length.");
    Array<double, 1, C> out = zeros<double, 1>(shape);
    for (int64_t i = 0; i < n; ++i) out.data[int64_t(x.data[i * s])] += cast<double>(w.data[i * w.stride(0)]);
    return out;
}

template <class H, class T> struct HistResult {
    Array<H, 1, C> hist;
    Array<T, 1, C> edges;
};

namespace detail {

[[noreturn]] __attribute__((cold)) inline void range_error(const char *what, double lo, double hi) {
    raise(TR_ERR_VALUE, "%s range of [%.17g, %.17g] is not finite", what, lo, hi);
}

// Dummy weights type for the unweighted calls.
struct NoWeights {
    using value_type = int64_t;
};

template <class H> inline void add_block(H *hist, const double *blk, int64_t nb) {
    for (int64_t j = 0; j < nb; ++j) hist[j] = H(hist[j] + cast<H>(blk[j]));
}

// n / diff(edges) / n.sum(), in float64.
template <class H, class T> Array<double, 1, C> density(const Array<H, 1, C> &n, const Array<T, 1, C> &edges) {
    const int64_t m = n.shape[0];
    H total = H(0);
    for (int64_t i = 0; i < m; ++i) total = H(total + n.data[i]);
    const int64_t shape[1] = {m};
    Array<double, 1, C> out = tr::empty<double, 1>(shape);
    for (int64_t i = 0; i < m; ++i) {
        double db = cast<double>(T(edges.data[i + 1] - edges.data[i]));
        double v = cast<double>(n.data[i]) / db;
        out.data[i] = v / cast<double>(total);
    }
    return out;
}

}  // namespace detail

// np.histogram(a, bins=nbins, range=(lo, hi) or None, weights=w).
//   X: element type of a;  T: edge dtype;  E: type of the outer edges
//   (float for float32 values, else double);  H: count dtype (int64, or the
//   weights' dtype); W: weights' element type (detail::NoWeights for none).
template <class T, class E, class H, class X, int N, int L, class WA = detail::NoWeights>
HistResult<H, T> histogram_uniform(const Array<X, N, L> &a, int64_t nbins, bool has_range, double range_lo,
                                   double range_hi, const WA &weights = WA{}) {
    constexpr bool weighted = !std::is_same_v<WA, detail::NoWeights>;
    using F = std::conditional_t<std::is_same_v<T, float> && std::is_same_v<E, float>, float, double>;
    if constexpr (weighted) {
        bool same = true;
        for (int k = 0; k < N; ++k) same = same && weights.shape[k] == a.shape[k];
        if (!same) raise(TR_ERR_VALUE, "weights should have the same shape as a.");
    }
    if (nbins < 1) raise(TR_ERR_VALUE, "`bins` must be positive, when an integer");
    const int64_t n = a.size();
    X *v = detail::flat_values(a);
    E first, last;
    if (has_range) {
        if (range_lo > range_hi) raise(TR_ERR_VALUE, "max must be larger than min in range parameter.");
        if (!fm::isfinite(range_lo) || !fm::isfinite(range_hi)) detail::range_error("supplied", range_lo, range_hi);
        first = E(range_lo);
        last = E(range_hi);
    } else if (n == 0) {
        first = E(0);
        last = E(1);
    } else {
        X mn = v[0], mx = v[0];
        bool nan = false;
        for (int64_t i = 0; i < n; ++i) {
            if constexpr (is_float<X>::value) nan = nan || v[i] != v[i];
            if (v[i] < mn) mn = v[i];
            if (v[i] > mx) mx = v[i];
        }
        if (nan) detail::range_error("autodetected", fm::nan<double>(), fm::nan<double>());
        if constexpr (is_float<X>::value)
            if (!fm::isfinite(mn) || !fm::isfinite(mx)) detail::range_error("autodetected", double(mn), double(mx));
        first = E(mn);
        last = E(mx);
    }
    if (first == last) {
        first = E(first - E(0.5));
        last = E(last + E(0.5));
    }
    HistResult<H, T> r;
    r.edges = linspace<T, E>(double(first), double(last), nbins + 1, true);
    for (int64_t i = 0; i < nbins; ++i)
        if (!(r.edges.data[i] < r.edges.data[i + 1]))
            raise(TR_ERR_VALUE, "Too many bins for data range. Cannot create %lld finite-sized bins.", (long long)nbins);
    const int64_t hs[1] = {nbins};
    r.hist = zeros<H, 1>(hs);
    const T *edges = r.edges.data;
    const T tfirst = T(first), tlast = T(last);
    const F denom = F(E(last - first));
    const F numer = F(nbins);
    double *blk = detail::scratch<double>(nbins);
    const typename WA::value_type *w = nullptr;
    typename WA::value_type *wflat = nullptr;
    if constexpr (weighted) wflat = detail::flat_values(weights), w = wflat;
    for (int64_t b0 = 0; b0 < n; b0 += detail::kHistBlock) {
        const int64_t b1 = b0 + detail::kHistBlock < n ? b0 + detail::kHistBlock : n;
        for (int64_t j = 0; j < nbins; ++j) blk[j] = 0;
        for (int64_t i = b0; i < b1; ++i) {
            const T x = cast<T>(v[i]);
            if (!(x >= tfirst && x <= tlast)) continue;
            const T d = T(x - tfirst);
            int64_t k = int64_t(F(F(d) / denom) * numer);
            if (k == nbins) --k;
            if (x < edges[k]) --k;
            if (k != nbins - 1 && x >= edges[k + 1]) ++k;
            if constexpr (weighted) blk[k] += cast<double>(w[i]);
            else blk[k] += 1;
        }
        detail::add_block<H>(r.hist.data, blk, nbins);
    }
    free(blk);
    free(v);
    free(wflat);
    return r;
}

// np.histogram(a, bins=edges_array, weights=w): counts by sorted search.
template <class H, class X, int N, int L, class B, int LB, class WA = detail::NoWeights>
HistResult<H, B> histogram_edges(const Array<X, N, L> &a, const Array<B, 1, LB> &bins, const WA &weights = WA{}) {
    constexpr bool weighted = !std::is_same_v<WA, detail::NoWeights>;
    using K = std::conditional_t<is_float<X>::value || is_float<B>::value, double,
                                 std::conditional_t<std::is_same_v<X, uint64_t> && std::is_same_v<B, uint64_t>,
                                                    uint64_t, int64_t>>;
    if constexpr (weighted) {
        bool same = true;
        for (int k = 0; k < N; ++k) same = same && weights.shape[k] == a.shape[k];
        if (!same) raise(TR_ERR_VALUE, "weights should have the same shape as a.");
    }
    const int64_t ne = bins.shape[0], bs = bins.stride(0);
    for (int64_t i = 0; i + 1 < ne; ++i)
        if (cast<K>(bins.data[i * bs]) > cast<K>(bins.data[(i + 1) * bs]))
            raise(TR_ERR_VALUE, "`bins` must increase monotonically, when an array");
    HistResult<H, B> r;
    r.edges = copy_as<B>(bins);
    const int64_t n = a.size();
    X *v = detail::flat_values(a);
    const int64_t cs[1] = {ne};
    Array<H, 1, C> cum = zeros<H, 1>(cs);
    typename WA::value_type *wflat = nullptr;
    if constexpr (weighted) wflat = detail::flat_values(weights);
    K *sa = detail::scratch<K>(detail::kHistBlock < n ? detail::kHistBlock : n);
    int64_t *perm = detail::scratch<int64_t>(detail::kHistBlock < n ? detail::kHistBlock : n);
    double *cw = detail::scratch<double>((detail::kHistBlock < n ? detail::kHistBlock : n) + 1);
    for (int64_t b0 = 0; b0 < n; b0 += detail::kHistBlock) {
        const int64_t m = (b0 + detail::kHistBlock < n ? b0 + detail::kHistBlock : n) - b0;
        for (int64_t i = 0; i < m; ++i) sa[i] = cast<K>(v[b0 + i]);
        if constexpr (weighted) {
            detail::stable_argsort(sa, perm, m);
            cw[0] = 0;
            using WT = typename WA::value_type;
            WT acc = WT(0);
            for (int64_t i = 0; i < m; ++i) {
                acc = WT(acc + wflat[b0 + perm[i]]);
                cw[i + 1] = cast<double>(acc);
            }
            detail::sort_values(sa, m);
        } else {
            detail::sort_values(sa, m);
        }
        for (int64_t e = 0; e < ne; ++e) {
            const K key = cast<K>(bins.data[e * bs]);
            const bool right = e == ne - 1;
            int64_t lo = 0, hi = m;
            while (lo < hi) {
                int64_t mid = lo + (hi - lo) / 2;
                bool go = right ? !detail::sort_lt(key, sa[mid]) : detail::sort_lt(sa[mid], key);
                if (go) lo = mid + 1;
                else hi = mid;
            }
            if constexpr (weighted) cum.data[e] = H(cum.data[e] + cast<H>(cw[lo]));
            else cum.data[e] = H(cum.data[e] + H(lo));
        }
    }
    const int64_t hs[1] = {ne > 0 ? ne - 1 : 0};
    r.hist = tr::empty<H, 1>(hs);
    for (int64_t i = 0; i + 1 < ne; ++i) r.hist.data[i] = H(cum.data[i + 1] - cum.data[i]);
    free(sa);
    free(perm);
    free(cw);
    free(v);
    free(wflat);
    return r;
}

template <class H, class T> Array<double, 1, C> histogram_density(const HistResult<H, T> &r) {
    return detail::density(r.hist, r.edges);
}

}  // namespace np
}  // namespace tr
