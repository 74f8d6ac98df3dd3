// Python dicts and sets in compiled code: an insertion-ordered
// open-addressing hash table (CPython's layout: a dense entry array in
// insertion order plus a sparse index of entry numbers), shared by
// reference like Python objects.  Sets are dicts without values (their
// iteration order is insertion order, which CPython does not promise).
// No <vector>/<unordered_map>: malloc'd storage, placement new.
#pragma once
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <new>
#include <tuple>
#include <utility>
#include "array.hpp"
#include "str.hpp"

namespace tr {

inline uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

template <class T> inline uint64_t hash_of(const T &v) {
    if constexpr (is_complex<T>::value) {
        return mix64(hash_of(v.re) * 1000003u ^ hash_of(v.im));
    } else if constexpr (is_float<T>::value) {
        double d = double(v);
        if (d == 0) d = 0;  // -0.0 == 0.0
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        return mix64(bits);
    } else {
        return mix64(uint64_t(v));
    }
}
inline uint64_t hash_of(const Str &s) { return mix64(str_hash(s)); }
inline uint64_t hash_of(const none_t &) { return 0; }
template <class... X> inline uint64_t hash_of(const std::tuple<X...> &t) {
    uint64_t h = 0x345678;
    std::apply([&](const X &...x) { ((h = mix64(h * 1000003u ^ hash_of(x))), ...); }, t);
    return h;
}

// ---- repr() of keys, for KeyError -------------------------------------------

template <class T> inline void repr_into(Str &out, const T &v);
template <class... X> inline Str repr_tuple(const std::tuple<X...> &t) {
    Str out("(", 1);
    int i = 0;
    std::apply([&](const X &...x) {
        ((out = str_concat(out, i++ ? Str(", ", 2) : Str()), repr_into(out, x)), ...);
    }, t);
    return str_concat(out, sizeof...(X) == 1 ? Str(",)", 2) : Str(")", 1));
}
template <class T> inline void repr_into(Str &out, const T &v) {
    if constexpr (is_complex<T>::value) {
        out = str_concat(out, Str("complex", 7));
    } else if constexpr (sizeof(T) == 1 && T(2) == T(1)) {
        out = str_concat(out, str_of(bool(v)));
    } else if constexpr (is_float<T>::value) {
        out = str_concat(out, str_of(double(v)));
    } else {
        out = str_concat(out, str_of(v));
    }
}
inline void repr_into(Str &out, const Str &v) { out = str_concat(out, repr_of(v)); }
template <class... X> inline void repr_into(Str &out, const std::tuple<X...> &t) { out = str_concat(out, repr_tuple(t)); }

template <class K> [[noreturn]] __attribute__((cold, noinline)) inline void key_error(const K &k) {
    Str r;
    repr_into(r, k);
    raise(TR_ERR_KEY, "%.*s", int(r.len < 400 ? r.len : 400), r.data);
}

// ---- the table ------------------------------------------------------------------

template <class K, class V> struct DictImpl {
    struct Entry {
        K key;
        V val;
        uint64_t hash;
        bool alive;
    };
    int64_t refcount = 1;
    Entry *e = nullptr;
    int64_t used = 0, live = 0, cap = 0;  // entries [0, used) are constructed
    int64_t *index = nullptr;              // -1 empty, -2 deleted, else an entry number
    int64_t mask = -1;

    ~DictImpl() {
        for (int64_t i = 0; i < used; ++i) e[i].~Entry();
        free(e);
        free(index);
    }

    // Entry number of k (or -1); *slot: its index slot, or where to insert it.
    int64_t find(const K &k, uint64_t h, int64_t *slot) const {
        if (mask < 0) {
            *slot = -1;
            return -1;
        }
        int64_t i = int64_t(h & uint64_t(mask)), free_slot = -1;
        uint64_t perturb = h;
        while (true) {
            int64_t ix = index[i];
            if (ix == -1) {
                *slot = free_slot >= 0 ? free_slot : i;
                return -1;
            }
            if (ix == -2) {
                if (free_slot < 0) free_slot = i;
            } else if (e[ix].hash == h && e[ix].key == k) {
                *slot = i;
                return ix;
            }
            perturb >>= 5;
            i = int64_t((uint64_t(i) * 5 + perturb + 1) & uint64_t(mask));
        }
    }

    // Compacts the entries and sizes the table for `need` of them.
    void rebuild(int64_t need) {
        int64_t ncap = 8;
        while (ncap < need) ncap *= 2;
        Entry *ne = static_cast<Entry *>(malloc(sizeof(Entry) * size_t(ncap)));
        int64_t isize = 8;
        while (isize * 2 < ncap * 3) isize *= 2;
        int64_t *ni = static_cast<int64_t *>(malloc(sizeof(int64_t) * size_t(isize)));
        if (!ne || !ni) {
            free(ne);
            free(ni);
            raise(TR_ERR_MEMORY, "out of memory for a dict of %lld items", (long long)need);
        }
        int64_t j = 0;
        for (int64_t i = 0; i < used; ++i) {
            if (e[i].alive) new (&ne[j++]) Entry(std::move(e[i]));
            e[i].~Entry();
        }
        free(e);
        free(index);
        e = ne;
        cap = ncap;
        used = live = j;
        index = ni;
        mask = isize - 1;
        for (int64_t i = 0; i < isize; ++i) index[i] = -1;
        for (int64_t k = 0; k < j; ++k) {
            int64_t i = int64_t(e[k].hash & uint64_t(mask));
            uint64_t perturb = e[k].hash;
            while (index[i] != -1) {
                perturb >>= 5;
                i = int64_t((uint64_t(i) * 5 + perturb + 1) & uint64_t(mask));
            }
            index[i] = k;
        }
    }

    // The entry of k, made (with value V{}) when missing; *made says which.
    int64_t insert(const K &k, bool *made) {
        uint64_t h = hash_of(k);
        int64_t slot;
        int64_t ix = find(k, h, &slot);
        if (ix >= 0) {
            *made = false;
            return ix;
        }
        if (used == cap) {
            rebuild(live * 2 + 1 > 8 ? live * 2 + 1 : 8);
            find(k, h, &slot);
        }
        new (&e[used]) Entry{k, V{}, h, true};
        index[slot] = used;
        ++live;
        *made = true;
        return used++;
    }

    bool erase(const K &k) {
        int64_t slot;
        int64_t ix = find(k, hash_of(k), &slot);
        if (ix < 0) return false;
        index[slot] = -2;
        e[ix].alive = false;
        e[ix].key = K{};
        e[ix].val = V{};
        --live;
        return true;
    }
};

template <class K, class V> struct Dict {
    using Impl = DictImpl<K, V>;
    using key_type = K;
    using value_type = V;
    Impl *p = nullptr;

    Dict() = default;
    static Dict make() {
        Dict d;
        d.p = new Impl();
        return d;
    }
    Dict(const Dict &o) : p(o.p) {
        if (p) __atomic_fetch_add(&p->refcount, 1, __ATOMIC_RELAXED);
    }
    Dict(Dict &&o) noexcept : p(o.p) { o.p = nullptr; }
    Dict &operator=(Dict o) noexcept {
        Impl *t = p;
        p = o.p;
        o.p = t;
        return *this;
    }
    ~Dict() {
        if (p && __atomic_sub_fetch(&p->refcount, 1, __ATOMIC_ACQ_REL) == 0) delete p;
    }
    Impl &impl() {
        if (!p) p = new Impl();
        return *p;
    }

    int64_t size() const { return p ? p->live : 0; }
    explicit operator bool() const { return size() > 0; }

    int64_t find(const K &k) const {
        if (!p) return -1;
        int64_t slot;
        return p->find(k, hash_of(k), &slot);
    }
    bool contains(const K &k) const { return find(k) >= 0; }

    // d[k]
    V &at(const K &k) const {
        int64_t ix = find(k);
        if (ix < 0) key_error(k);
        return p->e[ix].val;
    }
    // d[k] = v
    void set(const K &k, V v) {
        bool made;
        int64_t ix = impl().insert(k, &made);
        p->e[ix].val = std::move(v);
    }
    V get(const K &k, V dflt) const {
        int64_t ix = find(k);
        return ix < 0 ? dflt : p->e[ix].val;
    }
    V setdefault(const K &k, V dflt) {
        bool made;
        int64_t ix = impl().insert(k, &made);
        if (made) p->e[ix].val = std::move(dflt);
        return p->e[ix].val;
    }
    V pop(const K &k) {
        int64_t ix = find(k);
        if (ix < 0) key_error(k);
        V v = p->e[ix].val;
        p->erase(k);
        return v;
    }
    V pop(const K &k, V dflt) {
        int64_t ix = find(k);
        if (ix < 0) return dflt;
        V v = p->e[ix].val;
        p->erase(k);
        return v;
    }
    // sets
    void add(const K &k) {
        bool made;
        impl().insert(k, &made);
    }
    void discard(const K &k) {
        if (p) p->erase(k);
    }
    void remove(const K &k) {
        if (!p || !p->erase(k)) key_error(k);
    }
    void clear() {
        if (!p) return;
        for (int64_t i = 0; i < p->used; ++i) p->e[i].~Entry();
        free(p->e);
        free(p->index);
        p->e = nullptr;
        p->index = nullptr;
        p->used = p->live = p->cap = 0;
        p->mask = -1;
    }
    Dict copy() const {
        Dict d = make();
        for (int64_t i = 0; p && i < p->used; ++i)
            if (p->e[i].alive) d.set(p->e[i].key, p->e[i].val);
        return d;
    }
    void update(const Dict &o) {
        for (int64_t i = 0; o.p && i < o.p->used; ++i)
            if (o.p->e[i].alive) set(o.p->e[i].key, o.p->e[i].val);
    }

    // Iteration: `for (i = 0, n = size(); next(i, n); ++i)` visits the live
    // entries in insertion order (RuntimeError when the size changes, as in CPython).
    bool next(int64_t &i, int64_t n0, const char *what) const {
        if (size() != n0) raise(TR_ERR_RUNTIME, "%s changed size during iteration", what);
        if (!p) return false;
        while (i < p->used && !p->e[i].alive) ++i;
        return i < p->used;
    }
    const K &key(int64_t i) const { return p->e[i].key; }
    const V &val(int64_t i) const { return p->e[i].val; }
};

template <class K> using Set = Dict<K, none_t>;

template <class K, class V> inline bool truthy(const Dict<K, V> &d) { return d.size() > 0; }

// Set algebra: new sets (s | t keeps s's order, then t's new items).
template <class K> inline Set<K> set_or(const Set<K> &a, const Set<K> &b) {
    Set<K> out = a.copy();
    for (int64_t i = 0; b.p && i < b.p->used; ++i)
        if (b.p->e[i].alive) out.add(b.p->e[i].key);
    return out;
}
template <class K> inline Set<K> set_and(const Set<K> &a, const Set<K> &b) {
    Set<K> out = Set<K>::make();
    for (int64_t i = 0; a.p && i < a.p->used; ++i)
        if (a.p->e[i].alive && b.contains(a.p->e[i].key)) out.add(a.p->e[i].key);
    return out;
}
template <class K> inline Set<K> set_sub(const Set<K> &a, const Set<K> &b) {
    Set<K> out = Set<K>::make();
    for (int64_t i = 0; a.p && i < a.p->used; ++i)
        if (a.p->e[i].alive && !b.contains(a.p->e[i].key)) out.add(a.p->e[i].key);
    return out;
}
template <class K> inline Set<K> set_xor(const Set<K> &a, const Set<K> &b) {
    Set<K> out = set_sub(a, b);
    for (int64_t i = 0; b.p && i < b.p->used; ++i)
        if (b.p->e[i].alive && !a.contains(b.p->e[i].key)) out.add(b.p->e[i].key);
    return out;
}
template <class K, class V> inline bool dict_equal(const Dict<K, V> &a, const Dict<K, V> &b) {
    if (a.size() != b.size()) return false;
    for (int64_t i = 0; a.p && i < a.p->used; ++i) {
        if (!a.p->e[i].alive) continue;
        int64_t j = b.find(a.p->e[i].key);
        if (j < 0 || !(b.p->e[j].val == a.p->e[i].val)) return false;
    }
    return true;
}

// Sorted keys: insertion sort of entry numbers would be quadratic; a merge
// sort over a malloc'd array (stable, like Python's sort).
template <class K> inline void sort_keys(K *a, int64_t n) {
    if (n < 2) return;
    K *tmp = static_cast<K *>(malloc(sizeof(K) * size_t(n)));
    for (int64_t i = 0; i < n; ++i) new (&tmp[i]) K(a[i]);
    for (int64_t width = 1; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = (a[j] < a[i]) ? a[j++] : a[i++];
            while (i < mid) tmp[k++] = a[i++];
            while (j < hi) tmp[k++] = a[j++];
        }
        for (int64_t i = 0; i < n; ++i) a[i] = tmp[i];
    }
    for (int64_t i = 0; i < n; ++i) tmp[i].~K();
    free(tmp);
}

}  // namespace tr

namespace tr {

// A dict/set of other element types (a literal stored into a wider variable).
template <class D, class K, class V> inline D map_convert(const Dict<K, V> &src) {
    D out = D::make();
    for (int64_t i = 0; src.p && i < src.p->used; ++i) {
        if (!src.p->e[i].alive) continue;
        out.set(typename D::key_type(src.p->e[i].key), typename D::value_type(src.p->e[i].val));
    }
    return out;
}

template <class K, class V, class X> inline bool values_contain(const Dict<K, V> &d, const X &x) {
    for (int64_t i = 0; d.p && i < d.p->used; ++i)
        if (d.p->e[i].alive && eq_any(d.p->e[i].val, x)) return true;
    return false;
}

inline bool str_startswith(const Str &s, const Str &p) { return p.len <= s.len && memcmp(s.data, p.data, size_t(p.len)) == 0; }
inline bool str_endswith(const Str &s, const Str &p) {
    return p.len <= s.len && memcmp(s.data + s.len - p.len, p.data, size_t(p.len)) == 0;
}
template <class K> inline bool set_issubset(const Set<K> &a, const Set<K> &b) { return set_sub(a, b).size() == 0; }

}  // namespace tr
