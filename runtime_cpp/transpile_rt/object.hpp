// @jit_class instances: a struct per field layout, its first member the
// tr_object header of abi.h, held by counted references (tr::Ref).  The
// header's `box` is the Python object showing the instance (set and cleared
// by the bridge), so an instance keeps one Python identity however often it
// crosses the boundary.
#pragma once
#include "abi.h"
#include "array.hpp"
#include "fallback.hpp"  // the module init that installs reference counting of Python objects

namespace tr {

template <class L> struct Ref {
    L *p = nullptr;

    Ref() = default;
    Ref(L *q, bool add_ref) : p(q) {
        if (p && add_ref) __atomic_fetch_add(&p->head.refcount, 1, __ATOMIC_RELAXED);
    }
    Ref(const Ref &o) : Ref(o.p, true) {}
    Ref(Ref &&o) noexcept : p(o.p) { o.p = nullptr; }
    Ref &operator=(Ref o) noexcept {
        L *t = p;
        p = o.p;
        o.p = t;
        return *this;
    }
    ~Ref() {
        if (p && __atomic_sub_fetch(&p->head.refcount, 1, __ATOMIC_ACQ_REL) == 0) p->head.release(&p->head);
    }
    // A field of instance type that __init__ assigned on some paths only holds
    // no object: reading through it is Python's AttributeError, not a crash.
    L *operator->() const {
        if (__builtin_expect(p == nullptr, 0))
            raise(TR_ERR_ATTRIBUTE, "a @jit_class field that should hold an instance was never assigned");
        return p;
    }
    bool operator==(const Ref &o) const { return p == o.p; }
    bool operator!=(const Ref &o) const { return p != o.p; }
};

template <class L> void destroy_object(tr_object *o) { delete reinterpret_cast<L *>(o); }

// A new instance, fields zero-initialised; `layout` is the layout's key.
template <class L> Ref<L> make_object(const char *layout) {
    L *p = new L();
    p->head.refcount = 1;
    p->head.release = destroy_object<L>;
    p->head.box = nullptr;
    p->head.layout = layout;
    return Ref<L>(p, false);
}

// An instance argument: the bridge lends the object for the call.
template <class L> Ref<L> object_arg(void *slot) {
    return Ref<L>(reinterpret_cast<L *>(*static_cast<tr_object **>(slot)), true);
}

// An instance result: one reference handed to the bridge.
template <class L> void to_result(void *slot, const Ref<L> &r) {
    if (r.p) __atomic_fetch_add(&r.p->head.refcount, 1, __ATOMIC_RELAXED);
    *static_cast<tr_object **>(slot) = r.p ? &r.p->head : nullptr;
}

// An array stored in a field outlives the call: memory borrowed from an
// argument gets a counted reference to the argument's object.
template <class T, int N, int L> Array<T, N, L> kept(Array<T, N, L> a) {
    if (!a.owner.heap && a.owner.ext && !a.owner.ext_owned) {
        ext_refs().incref(a.owner.ext);
        a.owner.ext_owned = true;
    }
    return a;
}
template <class X> X kept(X x) { return x; }

// ---- instances into and out of fallback regions ----------------------------

template <class L> tr_value box(const Ref<L> &r, bool = false) {
    tr_value out;
    out.kind = TR_V_INSTANCE;
    out.typenum = -1;
    out.ndim = 0;
    if (r.p) __atomic_fetch_add(&r.p->head.refcount, 1, __ATOMIC_RELAXED);  // handed to the bridge
    out.object = r.p ? &r.p->head : nullptr;
    return out;
}
template <class L> void expect(tr_value &v, const Ref<L> &) {
    v.kind = TR_V_INSTANCE;
    v.typenum = -1;
    v.ndim = 0;
    v.object = const_cast<char *>(L::layout_key);
}
template <class L> void unbox(tr_value &v, Ref<L> &out) {
    out = Ref<L>(reinterpret_cast<L *>(v.object), false);  // the bridge handed us a reference
}

}  // namespace tr
