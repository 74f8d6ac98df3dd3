// key= functions of sorted(), min(), max() and list.sort(), with CPython's
// semantics: the key is computed once per element, in order, before any
// comparison (a key that raises leaves the list unchanged); the sort is
// stable, reverse=True keeps equal items in their original order; min/max
// return the first minimal/maximal element.  The key is any callable (the
// generated code passes a C++ lambda): no std::function.
#pragma once
#include "list.hpp"

namespace tr {

template <class T, class F> inline auto list_keys(const List<T> &l, F &key) {
    using K = decltype(key(l[0]));
    const int64_t n = l.size();
    List<K> keys = List<K>::make(n);
    for (int64_t i = 0; i < n; ++i) keys.push(key(l[i]));
    return keys;
}

// l ordered by keys (keys[i] is l[i]'s), stably.
template <class T, class K> inline none_t list_sort_by_keys(const List<T> &l, const List<K> &keys, bool reverse) {
    const int64_t n = l.size();
    if (n < 2) return none_t{};
    List<int64_t> order = List<int64_t>::make(n);
    for (int64_t i = 0; i < n; ++i) order.push(i);
    List<int64_t> scratch = List<int64_t>::make(n / 2 + 1);
    for (int64_t i = 0; i < n / 2 + 1; ++i) scratch.push(0);
    if (reverse)
        merge_sort(order.data(), scratch.data(), n, [&](int64_t a, int64_t b) { return py_lt(keys[b], keys[a]); });
    else
        merge_sort(order.data(), scratch.data(), n, [&](int64_t a, int64_t b) { return py_lt(keys[a], keys[b]); });
    List<T> items = list_copy(l);
    for (int64_t i = 0; i < n; ++i) l[i] = items[order[i]];
    return none_t{};
}

template <class T, class F> inline none_t list_sort_key(const List<T> &l, F key, bool reverse = false) {
    if (l.size() == 0) return none_t{};
    return list_sort_by_keys(l, list_keys(l, key), reverse);
}

// sorted(xs, key=...): `l` is a new list already (the caller copies).
template <class T, class F> inline List<T> list_sorted_key(List<T> l, F key, bool reverse = false) {
    list_sort_key(l, key, reverse);
    return l;
}

// min()/max() with key=: the first element whose key no other beats, as
// CPython keeps it (min: k < best; max: k > best, i.e. best < k).
template <bool Max, class T, class F> inline T list_extreme_key(const List<T> &l, F key) {
    if (l.size() == 0) raise(TR_ERR_VALUE, Max ? TR_MSG_MAX_EMPTY : TR_MSG_MIN_EMPTY);
    int64_t best = 0;
    auto best_key = key(l[0]);
    for (int64_t i = 1; i < l.size(); ++i) {
        auto k = key(l[i]);
        if (Max ? py_lt(best_key, k) : py_lt(k, best_key)) {
            best = i;
            best_key = static_cast<decltype(k) &&>(k);
        }
    }
    return l[best];
}
template <class T, class F> inline T list_min_key(const List<T> &l, F key) { return list_extreme_key<false>(l, key); }
template <class T, class F> inline T list_max_key(const List<T> &l, F key) { return list_extreme_key<true>(l, key); }

}  // namespace tr
