// JIT Fallback: statements the compiler cannot lower run as Python callbacks
// ("regions") through the bridge's host table; values of unknown type are
// held as Python objects (tr::Object).  Only modules with fallback regions
// include this header, and they export tr_module_init.
#pragma once
#include <tuple>
#include "array.hpp"
#include "optional.hpp"

namespace tr {

struct Host {
    const tr_host *table = nullptr;
    void *regions = nullptr;
};
inline Host &host() {
    static Host h;
    return h;
}

[[noreturn]] inline void python_error() {
    Error e;
    e.code = TR_ERR_PYTHON;
    e.message[0] = 0;
    throw e;
}

inline void check(int rc, const tr_error &err) {
    if (rc == TR_ERR_PYTHON) python_error();
    if (rc != TR_OK) {
        Error e;
        e.code = rc;
        for (int i = 0; i < TR_MSG_SIZE; ++i) e.message[i] = err.message[i];
        throw e;
    }
}

// A Python object held by compiled code: the value of type Any.
struct Object {
    void *p = nullptr;
    Object() = default;
    Object(const Object &o) : p(o.p) {
        if (p) host().table->incref(p);
    }
    Object(Object &&o) noexcept : p(o.p) { o.p = nullptr; }
    Object &operator=(Object o) noexcept {
        void *t = p;
        p = o.p;
        o.p = t;
        return *this;
    }
    ~Object() {
        if (p) host().table->decref(p);
    }
    static Object steal(void *q) {
        Object o;
        o.p = q;
        return o;
    }
};

inline bool truthy(const Object &o) {
    if (!o.p) return false;
    int out = 0;
    tr_error err;
    check(host().table->truthy(o.p, &out, &err), err);
    return out != 0;
}

// float(o) where a value of unknown type meets compiled arithmetic.
inline double to_float(const Object &o, const char *where) {
    double out = 0;
    tr_error err;
    check(host().table->to_float64(o.p, &out, where, &err), err);
    return out;
}

template <class T> struct typenum_of;
#define TR_TYPENUM(T, N) \
    template <> struct typenum_of<T> { static constexpr int value = N; };
TR_TYPENUM(bool, 0) TR_TYPENUM(int8_t, 1) TR_TYPENUM(uint8_t, 2) TR_TYPENUM(int16_t, 3) TR_TYPENUM(uint16_t, 4)
TR_TYPENUM(int32_t, 5) TR_TYPENUM(uint32_t, 6) TR_TYPENUM(int64_t, 7) TR_TYPENUM(uint64_t, 8) TR_TYPENUM(float, 11)
TR_TYPENUM(double, 12) TR_TYPENUM(complex64, 14) TR_TYPENUM(complex128, 15)
#undef TR_TYPENUM

// ---- values into a region ----------------------------------------------

// A scalar; `weak` marks a Python int/float/bool/complex (vs a NumPy scalar).
template <class T> inline tr_value box(const T &v, bool weak = false) {
    tr_value out;
    out.typenum = typenum_of<T>::value;
    out.ndim = 0;
    out.object = nullptr;
    if (weak) {
        if constexpr (sizeof(T) == 1 && T(2) == T(1)) out.kind = TR_V_PYBOOL, out.s.b = v;
        else if constexpr (is_int<T>::value) out.kind = TR_V_PYINT, out.s.i = int64_t(v);
        else if constexpr (is_complex<T>::value) out.kind = TR_V_PYCOMPLEX, out.s.c[0] = v.re, out.s.c[1] = v.im;
        else out.kind = TR_V_PYFLOAT, out.s.d = double(v);
    } else {
        out.kind = TR_V_NPSCALAR;
        __builtin_memcpy(out.s.raw, &v, sizeof(T));
    }
    return out;
}

// readonly: a view NumPy hands out read-only (np.diag of a 2-d array), so Python gets it so too.
template <class T, int N, int L> inline tr_value box(const Array<T, N, L> &a, bool readonly = false) {
    tr_value out;
    out.kind = TR_V_ARRAY;
    out.typenum = typenum_of<T>::value;
    out.ndim = N;
    out.reserved = readonly;
    out.object = nullptr;
    tr_array_out &o = out.array;
    o.data = reinterpret_cast<char *>(a.data);
    for (int k = 0; k < N; ++k) o.shape[k] = a.shape[k], o.strides[k] = a.stride(k) * int64_t(sizeof(T));
    o.buffer = a.owner.heap;
    if (o.buffer) __atomic_fetch_add(&o.buffer->refcount, 1, __ATOMIC_RELAXED);  // handed to the bridge
    o.owner = a.owner.heap ? nullptr : a.owner.ext;
    return out;
}

inline tr_value box(const Object &o, bool = false) {
    tr_value out;
    out.kind = TR_V_OBJECT;
    out.typenum = -1;
    out.ndim = 0;
    out.object = o.p;  // borrowed for the call
    return out;
}

inline tr_value box(const none_t &, bool = false) {
    tr_value out;
    out.kind = TR_V_NONE;
    out.object = nullptr;
    return out;
}

// None or a value (passes/optional.py).
template <class T> inline tr_value box(const Optional<T> &o, bool weak = false) {
    if (!o.has) return box(none_t{});
    return box(o.value, weak);
}

// ---- values out of a region ---------------------------------------------

template <class T> inline void expect(tr_value &v, const T &) {
    v.kind = TR_V_NPSCALAR;
    v.typenum = typenum_of<T>::value;
    v.ndim = 0;
    v.object = nullptr;
}
template <class T, int N, int L> inline void expect(tr_value &v, const Array<T, N, L> &) {
    v.kind = TR_V_ARRAY;
    v.typenum = typenum_of<T>::value;
    v.ndim = N;
    v.reserved = 0;
    v.object = nullptr;
}
inline void expect(tr_value &v, const Object &) {
    v.kind = TR_V_OBJECT;
    v.object = nullptr;
}

template <class T> inline void unbox(tr_value &v, T &out) { __builtin_memcpy(&out, v.s.raw, sizeof(T)); }
template <> inline void unbox<bool>(tr_value &v, bool &out) { out = v.s.b != 0; }
template <class T, int N, int L> inline void unbox(tr_value &v, Array<T, N, L> &out) {
    Array<T, N, L> a;
    const tr_array_out &o = v.array;
    a.data = reinterpret_cast<T *>(o.data);
    for (int k = 0; k < N; ++k) a.shape[k] = o.shape[k], a.strides[k] = o.strides[k] / int64_t(sizeof(T));
    a.owner.ext = v.object;  // the bridge handed us a reference
    a.owner.ext_owned = true;
    out = a;
}
inline void unbox(tr_value &v, Object &out) { out = Object::steal(v.object); }

// Runs fallback region `region`: inputs boxed by the caller, outputs written
// to `outs` (a std::tie of the variables the region assigns).
template <class... Out> inline void call_region(int region, std::tuple<Out &...> outs, tr_value *ins, int nin) {
    constexpr int nout = sizeof...(Out);
    tr_value results[nout > 0 ? nout : 1];
    std::apply([&](auto &...o) {
        int k = 0;
        ((expect(results[k++], o)), ...);
    }, outs);
    tr_error err;
    check(host().table->call_region(host().regions, region, nin, ins, nout, results, &err), err);
    std::apply([&](auto &...o) {
        int k = 0;
        ((unbox(results[k++], o)), ...);
    }, outs);
}

inline void to_result(void *slot, Object o) {
    *static_cast<void **>(slot) = o.p;  // the reference goes to the bridge
    o.p = nullptr;
}

}  // namespace tr

// What else a module does with the services when they arrive (numpy/numpy_loops.hpp).
#ifndef TR_AFTER_MODULE_INIT
#define TR_AFTER_MODULE_INIT(h)
#endif

#define TR_FALLBACK_MODULE_INIT                                                              \
    TR_EXPORT void tr_module_init(const tr_host *h, void *regions) {                          \
        tr::host().table = h;                                                                \
        tr::host().regions = regions;                                                        \
        tr::ext_refs().incref = h->incref;                                                   \
        tr::ext_refs().decref = h->decref;                                                   \
        TR_AFTER_MODULE_INIT(h);                                                             \
    }
