// None or a value: the C++ of T.Optional (passes/optional.py).  A flag and
// the value (default-constructed while the flag is clear), not std::optional:
// <optional> costs ~25 ms of every compile and this needs none of it.
#ifndef TRANSPILE_RT_OPTIONAL_HPP
#define TRANSPILE_RT_OPTIONAL_HPP

#include "array.hpp"
#include "error.hpp"

namespace tr {

template <class T> struct Optional {
    bool has = false;
    T value{};

    Optional() = default;
    Optional(none_t) {}
    Optional(const T &v) : has(true), value(v) {}
    // From a value or an Optional of another type (int -> float widening,
    // C-layout -> strided arrays): the value converted.
    template <class U, class = decltype(T(std::declval<const U &>()))>
    Optional(const U &v) : has(true), value(T(v)) {}
    template <class U>
    Optional(const Optional<U> &o) : has(o.has) {
        if (o.has) value = T(o.value);
    }
};

template <class T> struct is_optional { static constexpr bool value = false; };
template <class T> struct is_optional<Optional<T>> { static constexpr bool value = true; };

// The value of an Optional where a value is needed: TypeError with CPython's
// message (decided while compiling) when it is None.
template <class T> inline T &unwrap(Optional<T> &o, const char *message) {
    if (!o.has) raise(TR_ERR_TYPE, "%s", message);
    return o.value;
}
template <class T> inline const T &unwrap(const Optional<T> &o, const char *message) {
    if (!o.has) raise(TR_ERR_TYPE, "%s", message);
    return o.value;
}
template <class T> inline T unwrap(Optional<T> &&o, const char *message) {
    if (!o.has) raise(TR_ERR_TYPE, "%s", message);
    return static_cast<T &&>(o.value);
}

template <class T> inline bool is_none(const Optional<T> &o) { return !o.has; }

// `x == v` / `x != v` where x may be None: None equals only None.
template <class T, class U, class Eq> inline bool optional_eq(const Optional<T> &o, const U &v, Eq eq) {
    return o.has && eq(o.value, v);
}

template <class T> inline bool truthy(const Optional<T> &o) { return o.has && truthy(o.value); }

// d.get(k) / d.get(k, None) of a compiled dict: None when k is missing.
template <class D, class K> inline auto get_optional(const D &d, const K &k) -> Optional<std::decay_t<decltype(d.p->e[0].val)>> {
    int64_t ix = d.find(k);
    if (ix < 0) return none_t{};
    return d.p->e[ix].val;
}
}  // namespace tr

#endif
