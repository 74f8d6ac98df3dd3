// Compiled dicts, sets and strs as Python objects (results, fallback
// inputs), built through the bridge's host table; strs written by fallback
// code.  Included by modules that return such values or have fallback regions.
#pragma once
#include "fallback.hpp"
#include "str.hpp"
#include "dict.hpp"

namespace tr {

inline tr_value box(const Str &s, bool = false) {
    tr_value v;
    v.kind = TR_V_STR;
    v.typenum = -1;
    v.ndim = 0;
    v.object = nullptr;
    v.array.data = const_cast<char *>(s.data);  // borrowed for the call
    v.s.i = s.len;
    return v;
}
inline void expect(tr_value &v, const Str &) {
    v.kind = TR_V_STR;
    v.typenum = -1;
    v.ndim = 0;
    v.object = nullptr;
}
inline void unbox(tr_value &v, Str &out) {
    out = Str::copy(v.array.data, v.s.i);
    host().table->decref(v.object);
}

namespace topy {

inline Object build(int kind, int64_t n, tr_value *items) {
    void *o = host().table->make_container(kind, n, items);
    if (!o) python_error();
    return Object::steal(o);
}
template <class T> inline Object one(const T &x, bool weak = false) {
    tr_value v = tr::box(x, weak);
    return build(4, 1, &v);
}
inline Object one(const Object &o, bool = false) { return o; }
template <class... O> inline Object tuple(const O &...objs) {
    tr_value items[sizeof...(O) > 0 ? sizeof...(O) : 1] = {tr::box(objs)...};
    return build(0, int64_t(sizeof...(O)), items);
}
// A dict (or set) whose keys and values `kf`/`vf` turn into Objects.
template <class K, class V, class KF, class VF> inline Object dict(const Dict<K, V> &d, KF kf, VF vf, bool is_set) {
    const int64_t n = d.size(), per = is_set ? 1 : 2;
    Object *objs = static_cast<Object *>(malloc(sizeof(Object) * size_t(n * per + 1)));
    tr_value *items = static_cast<tr_value *>(malloc(sizeof(tr_value) * size_t(n * per + 1)));
    int64_t m = 0;
    for (int64_t i = 0; d.p && i < d.p->used; ++i) {
        if (!d.p->e[i].alive) continue;
        new (&objs[m]) Object(kf(d.p->e[i].key));
        items[m] = tr::box(objs[m]);
        ++m;
        if (!is_set) {
            new (&objs[m]) Object(vf(d.p->e[i].val));
            items[m] = tr::box(objs[m]);
            ++m;
        }
    }
    void *o = host().table->make_container(is_set ? 3 : 2, m, items);
    for (int64_t i = 0; i < m; ++i) objs[i].~Object();
    free(objs);
    free(items);
    if (!o) python_error();
    return Object::steal(o);
}

}  // namespace topy
}  // namespace tr
