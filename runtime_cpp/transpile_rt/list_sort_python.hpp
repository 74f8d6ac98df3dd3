// sorted() and list.sort() of a list of floats: where a NaN is among them,
// CPython's sort decides the order (`<` with a NaN is not an order, and the
// result is what timsort makes of it): transpile/listsort.py gives it as a
// permutation.  Without a NaN the order is the one any stable sort gives.
#pragma once
#include "list.hpp"
#include "python_calls.hpp"

namespace tr {

template <class T> inline none_t list_sort_floats(const List<T> &l, bool reverse = false) {
    const int64_t n = l.size();
    bool nan = false;
    for (int64_t i = 0; i < n && !nan; ++i) nan = l[i] != l[i];
    if (!nan) return list_sort(l, reverse);
    int64_t shape[1] = {n};
    Array<T, 1, C> values = empty<T, 1>(shape);
    for (int64_t i = 0; i < n; ++i) values.data[i] = l[i];
    auto order = call_python<Array<int64_t, 1, C>>("transpile.listsort", "order", {box(values), box(reverse, true)});
    for (int64_t i = 0; i < n; ++i) l[i] = values.data[order.data[i]];
    return none_t{};
}

}  // namespace tr
