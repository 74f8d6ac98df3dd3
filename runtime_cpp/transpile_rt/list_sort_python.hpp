// sorted() and list.sort() of a list of floats: where a NaN is among them,
// CPython's sort decides the order (`<` with a NaN is not an order, and the
// result is what timsort makes of it): transpile/listsort.py gives it as a
// permutation.  Without a NaN the order is the one any stable sort gives.
#pragma once
#include "keyfunc.hpp"
#include "list.hpp"
#include "python_calls.hpp"

namespace tr {

namespace detail {
// The order CPython's sort gives `keys` (nullopt-like false: no NaN, any stable sort's order will do).
template <class K> inline bool python_order(const List<K> &keys, bool reverse, Array<int64_t, 1, C> &order) {
    const int64_t n = keys.size();
    bool nan = false;
    for (int64_t i = 0; i < n && !nan; ++i) nan = keys[i] != keys[i];
    if (!nan) return false;
    int64_t shape[1] = {n};
    Array<K, 1, C> values = empty<K, 1>(shape);
    for (int64_t i = 0; i < n; ++i) values.data[i] = keys[i];
    order = call_python<Array<int64_t, 1, C>>("transpile.listsort", "order", {box(values), box(reverse, true)});
    return true;
}
template <class T> inline void permute(const List<T> &l, const Array<int64_t, 1, C> &order) {
    List<T> items = list_copy(l);
    for (int64_t i = 0; i < l.size(); ++i) l[i] = items[order.data[i]];
}
}  // namespace detail

template <class T> inline none_t list_sort_floats(const List<T> &l, bool reverse = false) {
    Array<int64_t, 1, C> order;
    if (!detail::python_order(l, reverse, order)) return list_sort(l, reverse);
    detail::permute(l, order);
    return none_t{};
}

// key= by floats: the keys computed once, in order (keyfunc.hpp), then CPython's order where one is NaN.
template <class T, class F> inline none_t list_sort_key_floats(const List<T> &l, F key, bool reverse = false) {
    if (l.size() == 0) return none_t{};
    auto keys = list_keys(l, key);
    Array<int64_t, 1, C> order;
    if (!detail::python_order(keys, reverse, order)) return list_sort_by_keys(l, keys, reverse);
    detail::permute(l, order);
    return none_t{};
}
template <class T, class F> inline List<T> list_sorted_key_floats(List<T> l, F key, bool reverse = false) {
    list_sort_key_floats(l, key, reverse);
    return l;
}

}  // namespace tr
