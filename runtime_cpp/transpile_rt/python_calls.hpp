// Calls into Python and NumPy themselves, through the bridge's host table
// (abi.h, python_call), where their result depends on code no loop of ours
// reproduces bit for bit (the BLAS behind np.dot / np.matmul / @, LAPACK
// behind np.linalg, NumPy's pairwise sums) or on state only Python holds
// (the random module's generator).  The result's type is the one the
// function gave on sample arguments when the call compiled
// (library/python_calls.py); the bridge checks it exactly.  A module that
// calls it holds the GIL (cxx/nogil.py), and a prange loop that calls it runs
// in order (library Entry.needs_python).
#pragma once
#include <initializer_list>
#include <tuple>

#include "fallback.hpp"

namespace tr {

// A floating-point result of a product or norm: NumPy computes it.
template <class R> inline constexpr bool computed_by_numpy = is_float<R>::value || is_complex<R>::value;

namespace detail {

// What the call must return in `v`: a Python number where `weak`, else a
// NumPy scalar of T's type, an array of its dtype and ndim, or None.
template <class T> inline void expect_exact(tr_value &v, const T &x, bool weak) {
    expect(v, x);
    if constexpr (!__is_class(T) || is_complex<T>::value) {  // a number (a str: topy.hpp's expect says all)
        if (!weak) return;
        if constexpr (sizeof(T) == 1 && T(2) == T(1)) v.kind = TR_V_PYBOOL;
        else if constexpr (is_int<T>::value) v.kind = TR_V_PYINT;
        else if constexpr (is_complex<T>::value) v.kind = TR_V_PYCOMPLEX;
        else v.kind = TR_V_PYFLOAT;
    }
}
template <class T, int N, int L> inline void expect_exact(tr_value &v, const Array<T, N, L> &x, bool) { expect(v, x); }
inline void expect_exact(tr_value &v, const none_t &, bool) {
    v.kind = TR_V_NONE;
    v.object = nullptr;
}
template <class T> struct result_values {
    static constexpr bool is_tuple = false;
    using tuple = std::tuple<T>;
    static T from(tuple &&t) { return std::get<0>(std::move(t)); }
};
template <class... Ts> struct result_values<std::tuple<Ts...>> {
    static constexpr bool is_tuple = true;
    using tuple = std::tuple<Ts...>;
    static tuple from(tuple &&t) { return std::move(t); }
};

}  // namespace detail

inline void unbox(tr_value &, none_t &) {}

// module.name(args..., keywords...) -- `args` boxed by the caller, the last
// kwnames.size() of them passed by those names -- as Python calls it; Out is
// the result as compiled code holds it (a std::tuple for a tuple result),
// `weak` a '1' per result value that is a Python number.
template <class Out>
Out call_python(const char *module, const char *name, std::initializer_list<tr_value> args, const char *weak = "",
                std::initializer_list<const char *> kwnames = {}) {
    const tr_host *h = host().table;
    if (!h) raise(TR_ERR_RUNTIME, "internal error: a module calling Python did not receive the bridge's services");
    using Values = detail::result_values<Out>;
    typename Values::tuple results{};
    constexpr int nout = std::tuple_size_v<typename Values::tuple>;
    tr_value outs[nout];
    const size_t nweak = __builtin_strlen(weak);
    std::apply([&](auto &...r) {
        size_t k = 0;
        ((detail::expect_exact(outs[k], r, k < nweak && weak[k] == '1'), ++k), ...);
    }, results);
    tr_error err;
    check(h->python_call(module, name, int32_t(args.size()), const_cast<tr_value *>(args.begin()),
                         int32_t(kwnames.size()), kwnames.begin(), Values::is_tuple, nout,
                         outs, &err),
          err);
    std::apply([&](auto &...r) {
        int k = 0;
        ((unbox(outs[k++], r)), ...);
    }, results);
    return Values::from(std::move(results));
}

}  // namespace tr
