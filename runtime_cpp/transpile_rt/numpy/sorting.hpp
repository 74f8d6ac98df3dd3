// Sorting and searching: np.sort / ndarray.sort, np.argsort, np.unique,
// np.searchsorted.
//
// Order is NumPy's: NaN sorts after every number, complex values compare
// lexicographically (real part first) with NaNs after all numbers.
// sort() uses an introsort (quicksort, median of three, heapsort when too
// deep, insertion sort for short runs), as NumPy's default kind does: the
// sorted values are the same whichever kind is asked for.  argsort() always
// returns the stable order (equal elements keep their order), which is what
// NumPy gives for kind="stable"/"mergesort"; for the default kind NumPy
// leaves the order of equal elements unspecified.
#pragma once
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../array.hpp"
#include "../expr.hpp"
#include "common.hpp"

namespace tr {
namespace np {
namespace detail {

// NumPy's sort order (npysort_common.h: FLOAT_LT, CFLOAT_LT).
template <class T> inline bool sort_lt(const T &a, const T &b) {
    if constexpr (is_float<T>::value) {
        return a < b || (b != b && a == a);
    } else if constexpr (is_complex<T>::value) {
        if (a.re < b.re) return a.im == a.im || b.im != b.im;
        if (a.re > b.re) return b.im != b.im && a.im == a.im;
        if (a.re == b.re || (a.re != a.re && b.re != b.re)) return a.im < b.im || (b.im != b.im && a.im == a.im);
        return b.re != b.re;
    } else {
        return a < b;
    }
}

template <class T> inline void swap_(T &a, T &b) {
    T t = a;
    a = b;
    b = t;
}

template <class T> void insertion_sort(T *v, int64_t n) {
    for (int64_t i = 1; i < n; ++i) {
        T x = v[i];
        int64_t j = i;
        for (; j > 0 && sort_lt(x, v[j - 1]); --j) v[j] = v[j - 1];
        v[j] = x;
    }
}

template <class T> void sift_down(T *v, int64_t i, int64_t n) {
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= n) return;
        if (c + 1 < n && sort_lt(v[c], v[c + 1])) ++c;
        if (!sort_lt(v[i], v[c])) return;
        swap_(v[i], v[c]);
        i = c;
    }
}

template <class T> void heap_sort(T *v, int64_t n) {
    for (int64_t i = n / 2 - 1; i >= 0; --i) sift_down(v, i, n);
    for (int64_t end = n - 1; end > 0; --end) {
        swap_(v[0], v[end]);
        sift_down(v, 0, end);
    }
}

template <class T> void intro_sort(T *v, int64_t n, int depth) {
    while (n > 16) {
        if (depth-- == 0) {
            heap_sort(v, n);
            return;
        }
        int64_t m = n / 2;
        // median of three into v[m]; v[0] <= v[m] <= v[n-1]
        if (sort_lt(v[m], v[0])) swap_(v[m], v[0]);
        if (sort_lt(v[n - 1], v[m])) {
            swap_(v[n - 1], v[m]);
            if (sort_lt(v[m], v[0])) swap_(v[m], v[0]);
        }
        T pivot = v[m];
        swap_(v[m], v[n - 2]);
        int64_t i = 0, j = n - 2;
        for (;;) {
            do ++i;
            while (sort_lt(v[i], pivot));
            do --j;
            while (sort_lt(pivot, v[j]));
            if (i >= j) break;
            swap_(v[i], v[j]);
        }
        swap_(v[i], v[n - 2]);
        // recurse into the smaller part, loop on the larger
        if (i < n - i - 1) {
            intro_sort(v, i, depth);
            v += i + 1;
            n -= i + 1;
        } else {
            intro_sort(v + i + 1, n - i - 1, depth);
            n = i;
        }
    }
    insertion_sort(v, n);
}

template <class T> void sort_values(T *v, int64_t n) {
    int depth = 0;
    for (int64_t k = n; k > 1; k >>= 1) depth += 2;
    intro_sort(v, n, depth);
}

// Stable merge sort of indices idx[0..n) by key[idx[i]]; tmp has room for n.
template <class T> void merge_sort_idx(int64_t *idx, int64_t *tmp, int64_t n, const T *key) {
    if (n <= 20) {
        for (int64_t i = 1; i < n; ++i) {
            int64_t x = idx[i];
            int64_t j = i;
            for (; j > 0 && sort_lt(key[x], key[idx[j - 1]]); --j) idx[j] = idx[j - 1];
            idx[j] = x;
        }
        return;
    }
    int64_t h = n / 2;
    merge_sort_idx(idx, tmp, h, key);
    merge_sort_idx(idx + h, tmp, n - h, key);
    if (!sort_lt(key[idx[h]], key[idx[h - 1]])) return;  // already in order
    memcpy(tmp, idx, size_t(h) * sizeof(int64_t));
    int64_t i = 0, j = h, o = 0;
    while (i < h && j < n) idx[o++] = sort_lt(key[idx[j]], key[tmp[i]]) ? idx[j++] : tmp[i++];
    while (i < h) idx[o++] = tmp[i++];
}

template <class T> void stable_argsort(const T *key, int64_t *idx, int64_t n) {
    for (int64_t i = 0; i < n; ++i) idx[i] = i;
    if (n < 2) return;
    int64_t *tmp = static_cast<int64_t *>(malloc(sizeof(int64_t) * size_t(n)));
    if (!tmp) raise(TR_ERR_MEMORY, "out of memory");
    merge_sort_idx(idx, tmp, n, key);
    free(tmp);
}

template <class T> T *scratch(int64_t n) {
    T *p = static_cast<T *>(malloc(sizeof(T) * size_t(n > 0 ? n : 1)));
    if (!p) raise(TR_ERR_MEMORY, "out of memory");
    return p;
}

// Sorts every lane of `a` (a writable array) along axis ax in place.
template <class T, int N, int L> void sort_lanes(const Array<T, N, L> &a, int ax) {
    const int64_t n = a.shape[ax], s = a.stride(ax);
    if (n < 2 || a.size() == 0) return;
    int64_t st[N];
    for (int k = 0; k < N; ++k) st[k] = a.stride(k);
    T *buf = s == 1 ? nullptr : scratch<T>(n);
    for_each_lane<N>(a.shape, st, st, ax, [&](int64_t off, int64_t) {
        T *p = a.data + off;
        if (s == 1) {
            sort_values(p, n);
        } else {
            for (int64_t i = 0; i < n; ++i) buf[i] = p[i * s];
            sort_values(buf, n);
            for (int64_t i = 0; i < n; ++i) p[i * s] = buf[i];
        }
    });
    free(buf);
}

}  // namespace detail

// np.sort(a, axis): a sorted copy (C order).
template <class T, int N, int L> Array<T, N, C> sort(const Array<T, N, L> &a, int64_t axis = -1) {
    const int ax = detail::normalize_axis(axis, N);
    Array<T, N, C> out = copy_as<T>(a);
    detail::sort_lanes(out, ax);
    return out;
}

// ndarray.sort(axis): in place.
template <class T, int N, int L> none_t sort_inplace(const Array<T, N, L> &a, int64_t axis = -1) {
    detail::sort_lanes(a, detail::normalize_axis(axis, N));
    return none_t{};
}

// np.argsort(a, axis): int64 indices that sort each lane (stable).
template <class T, int N, int L> Array<int64_t, N, C> argsort(const Array<T, N, L> &a, int64_t axis = -1) {
    const int ax = detail::normalize_axis(axis, N);
    Array<int64_t, N, C> out = tr::empty<int64_t, N>(a.shape);
    const int64_t n = a.shape[ax];
    if (out.size() == 0) return out;
    int64_t ist[N], ost[N];
    for (int k = 0; k < N; ++k) ist[k] = a.stride(k), ost[k] = out.stride(k);
    T *key = detail::scratch<T>(n);
    int64_t *idx = detail::scratch<int64_t>(n);
    const int64_t s = a.stride(ax), os = out.stride(ax);
    detail::for_each_lane<N>(a.shape, ist, ost, ax, [&](int64_t ioff, int64_t ooff) {
        const T *p = a.data + ioff;
        for (int64_t i = 0; i < n; ++i) key[i] = p[i * s];
        detail::stable_argsort(key, idx, n);
        int64_t *o = out.data + ooff;
        for (int64_t i = 0; i < n; ++i) o[i * os] = idx[i];
    });
    free(key);
    free(idx);
    return out;
}

// np.unique(a, return_index, return_inverse, return_counts) of the
// flattened array (equal_nan=True: all NaNs count as one value).
template <class T, int N> struct UniqueResult {
    Array<T, 1, C> values;
    Array<int64_t, 1, C> index;
    Array<int64_t, N, C> inverse;
    Array<int64_t, 1, C> counts;
};

template <class T, int N, int L> UniqueResult<T, N> unique(const Array<T, N, L> &a, bool with_index, bool with_inverse) {
    UniqueResult<T, N> r;
    const int64_t n = a.size();
    const bool need_perm = with_index || with_inverse;
    T *aux = detail::scratch<T>(n);
    int64_t *perm = nullptr;
    if (need_perm) {
        T *flat = detail::scratch<T>(n);
        int64_t i = 0;
        for_each(a, [&](T &v) { flat[i++] = v; });
        perm = detail::scratch<int64_t>(n);
        detail::stable_argsort(flat, perm, n);
        for (int64_t k = 0; k < n; ++k) aux[k] = flat[perm[k]];
        free(flat);
    } else {
        int64_t i = 0;
        for_each(a, [&](T &v) { aux[i++] = v; });
        detail::sort_values(aux, n);
    }
    bool *mask = detail::scratch<bool>(n);
    auto isnan_ = [](const T &v) {
        if constexpr (is_float<T>::value) return v != v;
        else if constexpr (is_complex<T>::value) return v.re != v.re || v.im != v.im;
        else return false;
    };
    if (n > 0) {
        mask[0] = true;
        int64_t firstnan = n;
        if (isnan_(aux[n - 1])) {
            firstnan = 0;
            while (!isnan_(aux[firstnan])) ++firstnan;  // NaNs sort last
        }
        for (int64_t i = 1; i < firstnan && i < n; ++i) mask[i] = aux[i] != aux[i - 1];
        if (firstnan < n) {
            mask[firstnan] = true;
            for (int64_t i = firstnan + 1; i < n; ++i) mask[i] = false;
        }
    }
    int64_t m = 0;
    for (int64_t i = 0; i < n; ++i) m += mask[i];
    const int64_t s1[1] = {m};
    r.values = tr::empty<T, 1>(s1);
    r.index = tr::empty<int64_t, 1>(s1);
    r.counts = tr::empty<int64_t, 1>(s1);
    int64_t j = -1;
    for (int64_t i = 0; i < n; ++i) {
        if (mask[i]) {
            ++j;
            r.values.data[j] = aux[i];
            r.index.data[j] = need_perm ? perm[i] : 0;
            r.counts.data[j] = 0;
        }
        r.counts.data[j] += 1;
    }
    if (with_inverse) {
        r.inverse = tr::empty<int64_t, N>(a.shape);
        int64_t k = -1;
        for (int64_t i = 0; i < n; ++i) {
            k += mask[i];
            r.inverse.data[perm[i]] = k;
        }
    }
    free(perm);
    free(aux);
    free(mask);
    return r;
}

namespace detail {
// First index i in [0, n) with !(a[i] < v) (left) or v < a[i] (right).
template <class CT, class T, class SortIdx>
inline int64_t bsearch_one(const T *a, int64_t s, int64_t n, CT v, bool right, const SortIdx &order) {
    int64_t lo = 0, hi = n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        CT x = cast<CT>(a[order(mid) * s]);
        bool go_right = right ? !sort_lt(v, x) : sort_lt(x, v);
        if (go_right) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}
struct NoSorter {
    int64_t operator()(int64_t i) const { return i; }
};
// Sorter entries are checked as the search reads them (as NumPy does).
template <class I> struct WithSorter {
    const I *p;
    int64_t s, n;
    int64_t operator()(int64_t i) const {
        int64_t k = int64_t(p[i * s]);
        if (k < 0 || k >= n) raise(TR_ERR_VALUE, "Sorter index out of range.");
        return k;
    }
};
template <class T, int L, class I, int LS> void check_sorter(const Array<T, 1, L> &a, const Array<I, 1, LS> &sorter) {
    if (sorter.shape[0] != a.shape[0]) raise(TR_ERR_VALUE, "sorter.size must equal a.size");
}
}  // namespace detail

// np.searchsorted(a, v, side): CT is the dtype both are compared in.
template <class CT, class T, int L, class V> int64_t searchsorted_scalar(const Array<T, 1, L> &a, V v, bool right) {
    return detail::bsearch_one<CT>(a.data, a.stride(0), a.shape[0], cast<CT>(v), right, detail::NoSorter{});
}
template <class CT, class T, int L, class V, int N, int LV>
Array<int64_t, N, C> searchsorted(const Array<T, 1, L> &a, const Array<V, N, LV> &v, bool right) {
    Array<int64_t, N, C> out = tr::empty<int64_t, N>(v.shape);
    int64_t i = 0;
    for_each(v, [&](V &x) {
        out.data[i++] = detail::bsearch_one<CT>(a.data, a.stride(0), a.shape[0], cast<CT>(x), right, detail::NoSorter{});
    });
    return out;
}
template <class CT, class T, int L, class V, class I, int LS>
int64_t searchsorted_scalar(const Array<T, 1, L> &a, V v, bool right, const Array<I, 1, LS> &sorter) {
    detail::check_sorter(a, sorter);
    return detail::bsearch_one<CT>(a.data, a.stride(0), a.shape[0], cast<CT>(v), right,
                                   detail::WithSorter<I>{sorter.data, sorter.stride(0), a.shape[0]});
}
template <class CT, class T, int L, class V, int N, int LV, class I, int LS>
Array<int64_t, N, C> searchsorted(const Array<T, 1, L> &a, const Array<V, N, LV> &v, bool right,
                                  const Array<I, 1, LS> &sorter) {
    detail::check_sorter(a, sorter);
    Array<int64_t, N, C> out = tr::empty<int64_t, N>(v.shape);
    int64_t i = 0;
    detail::WithSorter<I> order{sorter.data, sorter.stride(0), a.shape[0]};
    for_each(v, [&](V &x) {
        out.data[i++] = detail::bsearch_one<CT>(a.data, a.stride(0), a.shape[0], cast<CT>(x), right, order);
    });
    return out;
}

}  // namespace np
}  // namespace tr
