// Python's sum/min/max over iterables: arrays (first axis) and tuples.
// Python iterates element by element, so these accumulate sequentially
// (unlike np.sum's pairwise summation) to give CPython's exact results.
#pragma once
#include <tuple>
#include "../array.hpp"

namespace tr {
namespace builtins {

template <class R, class T, int L> R iter_sum(const Array<T, 1, L> &a, R start) {
    R acc = start;
    const int64_t n = a.shape[0];
    for (int64_t i = 0; i < n; ++i) acc = R(acc + R(a.data[i * a.stride(0)]));
    return acc;
}

template <class T, int L> T iter_min(const Array<T, 1, L> &a) {
    if (a.shape[0] == 0) raise(TR_ERR_VALUE, TR_MSG_MIN_EMPTY);
    T best = a.data[0];
    for (int64_t i = 1; i < a.shape[0]; ++i) {
        T v = a.data[i * a.stride(0)];
        if (v < best) best = v;
    }
    return best;
}

template <class T, int L> T iter_max(const Array<T, 1, L> &a) {
    if (a.shape[0] == 0) raise(TR_ERR_VALUE, TR_MSG_MAX_EMPTY);
    T best = a.data[0];
    for (int64_t i = 1; i < a.shape[0]; ++i) {
        T v = a.data[i * a.stride(0)];
        if (v > best) best = v;
    }
    return best;
}

template <class R, class... X> R tuple_sum(const std::tuple<X...> &t, R start) {
    return std::apply([&](const X &...x) { R acc = start; ((acc = R(acc + R(x))), ...); return acc; }, t);
}

template <class T, class... X> T tuple_min_impl(const T &first, const X &...rest) {
    T best = first;
    ((best = (T(rest) < best ? T(rest) : best)), ...);
    return best;
}
template <class T, class... X> T tuple_max_impl(const T &first, const X &...rest) {
    T best = first;
    ((best = (T(rest) > best ? T(rest) : best)), ...);
    return best;
}
template <class... X> auto tuple_min(const std::tuple<X...> &t) {
    return std::apply([](const auto &...x) { return tuple_min_impl(x...); }, t);
}
template <class... X> auto tuple_max(const std::tuple<X...> &t) {
    return std::apply([](const auto &...x) { return tuple_max_impl(x...); }, t);
}

}  // namespace builtins
}  // namespace tr
