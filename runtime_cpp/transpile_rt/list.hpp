// Python lists in compiled code.  tr::List<T> is a reference to one shared,
// reference-counted, growable buffer: names bound to the same list see each
// other's mutations, as in Python.  Elements are scalars, arrays, tuples or
// lists (list of lists).  Errors use CPython's wording.
//
// The second half converts lists to and from Python objects through the
// bridge's host table (tr_host): a list argument is copied in when the entry
// starts and its contents are written back into the same Python list when
// the entry ends (also when it raises); see docs/architecture.md.
#pragma once
#include <new>
#include <tuple>
#include <utility>
#include "index.hpp"
#include "fallback.hpp"
#include "str.hpp"

namespace tr {

template <class T> struct ListBody {
    int64_t refcount;
    int64_t size;
    int64_t cap;
    T *items;
    void *origin;  // the Python list this one was copied from (a reference we hold), or null
};

template <class T> struct List {
    using value_type = T;
    mutable ListBody<T> *b = nullptr;  // mutable: const handles mutate the shared list

    List() = default;
    List(const List &o) : b(o.b) {
        if (b) ++b->refcount;
    }
    List(List &&o) noexcept : b(o.b) { o.b = nullptr; }
    // A new list of converted elements (an empty literal `[]` typed before
    // later appends told its element type, arrays of another layout).
    template <class U> explicit List(const List<U> &o) {
        const int64_t n = o.size();
        *this = make(n);
        for (int64_t i = 0; i < n; ++i) {
            if constexpr (__is_constructible(T, const U &))
                push(T(o[i]));
            else  // only lists typed before their elements were known (always empty) convert so
                raise(TR_ERR_RUNTIME, "internal error: list element conversion");
        }
    }
    List &operator=(List o) noexcept {
        ListBody<T> *t = b;
        b = o.b;
        o.b = t;
        return *this;
    }
    ~List() { release(); }

    static List make(int64_t cap = 0) {
        List l;
        l.b = static_cast<ListBody<T> *>(malloc(sizeof(ListBody<T>)));
        if (!l.b) raise(TR_ERR_MEMORY, "out of memory for a list");
        l.b->refcount = 1;
        l.b->size = 0;
        l.b->cap = 0;
        l.b->items = nullptr;
        l.b->origin = nullptr;
        if (cap > 0) l.reserve(cap);
        return l;
    }
    void release() {
        if (b && --b->refcount == 0) {
            for (int64_t i = 0; i < b->size; ++i) b->items[i].~T();
            free(b->items);
            if (b->origin && ext_refs().decref) ext_refs().decref(b->origin);
            free(b);
        }
        b = nullptr;
    }
    void ensure() const {
        if (!b) {
            List t = make();
            b = t.b;
            t.b = nullptr;
        }
    }
    int64_t size() const { return b ? b->size : 0; }
    T *data() const { return b ? b->items : nullptr; }
    T &operator[](int64_t i) const { return b->items[i]; }

    void reserve(int64_t n) const {
        ensure();
        if (n <= b->cap) return;
        int64_t cap = b->cap < 4 ? 4 : b->cap;
        while (cap < n) cap += cap / 2 + 1;
        T *fresh = static_cast<T *>(malloc(size_t(cap) * sizeof(T)));
        if (!fresh) raise(TR_ERR_MEMORY, "out of memory for a list of %lld items", (long long)cap);
        for (int64_t i = 0; i < b->size; ++i) {
            new (&fresh[i]) T(static_cast<T &&>(b->items[i]));
            b->items[i].~T();
        }
        free(b->items);
        b->items = fresh;
        b->cap = cap;
    }
    void push(T v) const {  // by value: v may be an element of this list
        reserve(size() + 1);
        new (&b->items[b->size]) T(static_cast<T &&>(v));
        ++b->size;
    }
    void truncate(int64_t n) const {
        if (!b) return;
        for (int64_t i = n; i < b->size; ++i) b->items[i].~T();
        if (n < b->size) b->size = n;
    }
};

template <class X> struct is_list { static constexpr bool value = false; };
template <class T> struct is_list<List<T>> { static constexpr bool value = true; };

template <class T> inline bool truthy(const List<T> &l) { return l.size() > 0; }

// ---- construction -----------------------------------------------------------

template <class T, class... X> inline List<T> list_of(X &&...x) {
    List<T> l = List<T>::make(int64_t(sizeof...(X)));
    (l.push(T(static_cast<X &&>(x))), ...);
    return l;
}

template <class T> inline List<T> list_range(int64_t start, int64_t stop, int64_t step) {
    const int64_t n = range_len(start, stop, step);
    List<T> l = List<T>::make(n);
    for (int64_t i = 0; i < n; ++i) l.push(T(start + i * step));
    return l;
}

template <class T, class S, int L> inline List<T> list_from_array(const Array<S, 1, L> &a) {
    List<T> l = List<T>::make(a.shape[0]);
    for (int64_t i = 0; i < a.shape[0]; ++i) l.push(T(a.data[i * a.stride(0)]));
    return l;
}
template <class T, class S, int N, int L> inline List<T> list_from_array(const Array<S, N, L> &a) {
    List<T> l = List<T>::make(a.shape[0]);
    for (int64_t i = 0; i < a.shape[0]; ++i) l.push(row<T>(a, i));
    return l;
}

template <class T, class... X> inline List<T> list_from_tuple(const std::tuple<X...> &t) {
    List<T> l = List<T>::make(int64_t(sizeof...(X)));
    std::apply([&](const auto &...x) { (l.push(T(x)), ...); }, t);
    return l;
}

template <class T> inline List<T> list_copy(const List<T> &src) {
    const int64_t n = src.size();
    List<T> l = List<T>::make(n);
    for (int64_t i = 0; i < n; ++i) l.push(src[i]);
    return l;
}

// ---- element access -----------------------------------------------------------

inline int64_t list_index(int64_t i, int64_t n, const char *what) {
    int64_t j = i < 0 ? i + n : i;
    if ((uint64_t)j >= (uint64_t)n) raise(TR_ERR_INDEX, "%s", what);
    return j;
}

template <class T> inline T &list_at(const List<T> &l, int64_t i) {
    return l.b->items[list_index(i, l.size(), "list index out of range")];
}
template <class T> inline T &list_store_at(const List<T> &l, int64_t i) {
    return l.b->items[list_index(i, l.size(), "list assignment index out of range")];
}

template <class T> inline List<T> list_slice(const List<T> &l, const Slice &s) {
    int64_t start, len;
    adjust_slice(s, l.size(), start, len);
    List<T> out = List<T>::make(len);
    for (int64_t k = 0; k < len; ++k) out.push(l[start + k * s.step]);
    return out;
}

// l[s] = values (a list; copied first, so l[:] = l works)
template <class T> inline void list_set_slice(const List<T> &l, const Slice &s, const List<T> &values) {
    l.ensure();
    List<T> v = list_copy(values);
    const int64_t n = l.size(), m = v.size();
    int64_t start, len;
    adjust_slice(s, n, start, len);
    if (s.step != 1) {
        if (len != m)
            raise(TR_ERR_VALUE, "attempt to assign sequence of size %lld to extended slice of size %lld",
                  (long long)m, (long long)len);
        for (int64_t k = 0; k < m; ++k) l[start + k * s.step] = v[k];
        return;
    }
    int64_t stop = start + len;
    // Python: for step 1 an empty selection still inserts at start
    if (s.has_stop) {
        int64_t hi = s.stop < 0 ? s.stop + n : s.stop;
        if (hi < start) stop = start;
    }
    const int64_t removed = stop - start, grow = m - removed, total = n + grow;
    if (grow > 0) {
        l.reserve(total);
        for (int64_t i = 0; i < grow; ++i) new (&l.b->items[n + i]) T();
        l.b->size = total;
        for (int64_t i = total - 1; i >= stop + grow; --i) l[i] = static_cast<T &&>(l[i - grow]);
    } else if (grow < 0) {
        for (int64_t i = stop + grow; i < total; ++i) l[i] = static_cast<T &&>(l[i - grow]);
        l.truncate(total);
    }
    for (int64_t k = 0; k < m; ++k) l[start + k] = v[k];
}

// del l[i]
template <class T> inline void list_delete(const List<T> &l, int64_t i) {
    const int64_t n = l.size();
    const int64_t j = list_index(i, n, "list assignment index out of range");
    for (int64_t k = j; k + 1 < n; ++k) l[k] = static_cast<T &&>(l[k + 1]);
    l.truncate(n - 1);
}

// ---- methods --------------------------------------------------------------------

template <class T, class V> inline none_t list_append(const List<T> &l, V &&v) {
    l.push(T(static_cast<V &&>(v)));
    return none_t{};
}

template <class T> inline none_t list_extend(const List<T> &l, const List<T> &other) {
    const int64_t m = other.size();  // a.extend(a): the items there were before
    l.reserve(l.size() + m);
    for (int64_t i = 0; i < m; ++i) l.push(other[i]);
    return none_t{};
}

template <class T> inline none_t list_insert(const List<T> &l, int64_t i, T v) {
    const int64_t n = l.size();
    if (i < 0) {
        i += n;
        if (i < 0) i = 0;
    }
    if (i > n) i = n;
    l.push(v);
    for (int64_t k = n; k > i; --k) l[k] = static_cast<T &&>(l[k - 1]);
    l[i] = static_cast<T &&>(v);
    return none_t{};
}

template <class T> inline T list_pop(const List<T> &l) {
    const int64_t n = l.size();
    if (n == 0) raise(TR_ERR_INDEX, "pop from empty list");
    T out = static_cast<T &&>(l[n - 1]);
    l.truncate(n - 1);
    return out;
}

// Removes item j (already in range), moving the later items down.
template <class T> inline void list_remove_at(const List<T> &l, int64_t j) {
    const int64_t n = l.size();
    for (int64_t k = j; k + 1 < n; ++k) l[k] = static_cast<T &&>(l[k + 1]);
    l.truncate(n - 1);
}

template <class T> inline T list_pop(const List<T> &l, int64_t i) {
    const int64_t n = l.size();
    if (n == 0) raise(TR_ERR_INDEX, "pop from empty list");
    const int64_t j = list_index(i, n, "pop index out of range");
    T out = static_cast<T &&>(l[j]);
    list_remove_at(l, j);
    return out;
}

// del l[i]
template <class T> inline none_t list_del(const List<T> &l, int64_t i) {
    list_remove_at(l, list_index(i, l.size(), "list assignment index out of range"));
    return none_t{};
}

// Python's == between elements: numbers by value, tuples and lists item by item.
template <class A, class B> inline bool py_eq(const A &a, const B &b) { return a == b; }
template <class A, class B> inline bool py_eq(const List<A> &a, const List<B> &b) {
    if (a.size() != b.size()) return false;
    for (int64_t i = 0; i < a.size(); ++i)
        if (!py_eq(a[i], b[i])) return false;
    return true;
}
template <class... A, class... B> inline bool py_eq(const std::tuple<A...> &a, const std::tuple<B...> &b) {
    if constexpr (sizeof...(A) != sizeof...(B)) {
        return false;
    } else {
        return std::apply([&](const auto &...x) {
            return std::apply([&](const auto &...y) { return (py_eq(x, y) && ...); }, b);
        }, a);
    }
}

template <class T, class V> inline bool list_contains(const List<T> &l, const V &v) {
    for (int64_t i = 0; i < l.size(); ++i)
        if (py_eq(l[i], v)) return true;
    return false;
}

template <class T, class V> inline int64_t list_count(const List<T> &l, const V &v) {
    int64_t c = 0;
    for (int64_t i = 0; i < l.size(); ++i) c += py_eq(l[i], v) ? 1 : 0;
    return c;
}

// ValueError: <the value's repr> is not in list.  numpy_type says whose repr
// that is: null for a Python value, "np.int64" (...) for a NumPy scalar's
// np.int64(5), "" where compiled code cannot write it as Python would.
template <class V> inline void not_in_list(const V &v, const char *numpy_type) {
    if constexpr (__is_same(V, Str)) {  // 'bb' is not in list
        Str text = repr_of(v);
        raise(TR_ERR_VALUE, "%.*s is not in list", int(text.len), text.data);
    } else if constexpr (__is_same(V, bool) || is_int<V>::value || __is_same(V, double)) {
        if (numpy_type && !*numpy_type) raise(TR_ERR_VALUE, "value is not in list");
        if (numpy_type && __is_same(V, bool)) raise(TR_ERR_VALUE, "np.%s_ is not in list", v ? "True" : "False");
        Str text = str_of(v);
        if (numpy_type) raise(TR_ERR_VALUE, "%s(%.*s) is not in list", numpy_type, int(text.len), text.data);
        raise(TR_ERR_VALUE, "%.*s is not in list", int(text.len), text.data);
    } else {
        raise(TR_ERR_VALUE, "value is not in list");
    }
}

template <class T, class V>
inline int64_t list_find(const List<T> &l, const V &v, int64_t lo, int64_t hi, const char *numpy_type) {
    const int64_t n = l.size();
    if (lo < 0) lo = lo + n < 0 ? 0 : lo + n;
    if (hi < 0) hi = hi + n < 0 ? 0 : hi + n;
    if (hi > n) hi = n;
    for (int64_t i = lo; i < hi; ++i)
        if (py_eq(l[i], v)) return i;
    not_in_list(v, numpy_type);
    return -1;
}

template <class T, class V> inline none_t list_remove(const List<T> &l, const V &v) {
    const int64_t n = l.size();
    for (int64_t i = 0; i < n; ++i)
        if (py_eq(l[i], v)) {
            for (int64_t k = i; k + 1 < n; ++k) l[k] = static_cast<T &&>(l[k + 1]);
            l.truncate(n - 1);
            return none_t{};
        }
    raise(TR_ERR_VALUE, "list.remove(x): x not in list");
    return none_t{};
}

template <class T> inline none_t list_clear(const List<T> &l) {
    l.truncate(0);
    return none_t{};
}

template <class T> inline none_t list_reverse(const List<T> &l) {
    const int64_t n = l.size();
    for (int64_t i = 0, j = n - 1; i < j; ++i, --j) {
        T t = static_cast<T &&>(l[i]);
        l[i] = static_cast<T &&>(l[j]);
        l[j] = static_cast<T &&>(t);
    }
    return none_t{};
}

// Python's ordering of elements: `<` (tuples and lists item by item, as
// CPython compares them: the first unequal pair decides).
template <class A> inline bool py_lt(const A &a, const A &b) { return a < b; }
template <class A> inline bool py_lt(const List<A> &a, const List<A> &b);
template <size_t I = 0, class... X> inline bool tuple_lt(const std::tuple<X...> &a, const std::tuple<X...> &b) {
    if constexpr (I == sizeof...(X)) {
        return false;
    } else {
        if (!py_eq(std::get<I>(a), std::get<I>(b))) return py_lt(std::get<I>(a), std::get<I>(b));
        return tuple_lt<I + 1>(a, b);
    }
}
template <class... X> inline bool py_lt(const std::tuple<X...> &a, const std::tuple<X...> &b) { return tuple_lt(a, b); }
template <class A> inline bool py_lt(const List<A> &a, const List<A> &b) {
    const int64_t n = a.size() < b.size() ? a.size() : b.size();
    for (int64_t i = 0; i < n; ++i)
        if (!py_eq(a[i], b[i])) return py_lt(a[i], b[i]);
    return a.size() < b.size();
}

// heapq's functions on a list, as CPython's _heapq moves items (siftdown,
// siftup with py_lt): the same list after every call, so ties and the order
// pops return them in are CPython's.
template <class T> inline void heap_sift_down(const List<T> &h, int64_t start, int64_t pos) {
    T item = h[pos];
    while (pos > start) {
        const int64_t parent = (pos - 1) >> 1;
        if (!py_lt(item, h[parent])) break;
        h[pos] = h[parent];
        pos = parent;
    }
    h[pos] = static_cast<T &&>(item);
}
template <class T> inline void heap_sift_up(const List<T> &h, int64_t pos) {
    const int64_t end = h.size(), start = pos;
    T item = h[pos];
    for (int64_t child = 2 * pos + 1; child < end; child = 2 * pos + 1) {
        if (child + 1 < end && !py_lt(h[child], h[child + 1])) ++child;  // the smaller child, the right on ties
        h[pos] = h[child];
        pos = child;
    }
    h[pos] = static_cast<T &&>(item);
    heap_sift_down(h, start, pos);
}
template <class T> inline none_t heap_push(const List<T> &h, T item) {
    h.push(static_cast<T &&>(item));
    heap_sift_down(h, 0, h.size() - 1);
    return none_t{};
}
template <class T> inline T heap_pop(const List<T> &h) {
    if (h.size() == 0) raise(TR_ERR_INDEX, "index out of range");  // heapq's words, not list.pop's
    T last = list_pop(h);
    if (h.size() == 0) return last;
    T top = static_cast<T &&>(h[0]);
    h[0] = static_cast<T &&>(last);
    heap_sift_up(h, 0);
    return top;
}
template <class T> inline T heap_replace(const List<T> &h, T item) {
    if (h.size() == 0) raise(TR_ERR_INDEX, "index out of range");
    T top = static_cast<T &&>(h[0]);
    h[0] = static_cast<T &&>(item);
    heap_sift_up(h, 0);
    return top;
}
template <class T> inline T heap_pushpop(const List<T> &h, T item) {
    if (h.size() == 0 || !py_lt(h[0], item)) return item;
    return heap_replace(h, static_cast<T &&>(item));
}
template <class T> inline none_t heapify(const List<T> &h) {
    for (int64_t i = (h.size() >> 1) - 1; i >= 0; --i) heap_sift_up(h, i);  // CPython's cache-friendly order
    return none_t{};                                                         // sifts the same nodes alike
}

// Stable merge sort (Python's sort is stable; reverse=True keeps equal items
// in their original order too).
template <class T, class Less> inline void merge_sort(T *a, T *tmp, int64_t n, Less less) {
    if (n < 16) {
        for (int64_t i = 1; i < n; ++i) {
            T v = static_cast<T &&>(a[i]);
            int64_t j = i;
            while (j > 0 && less(v, a[j - 1])) {
                a[j] = static_cast<T &&>(a[j - 1]);
                --j;
            }
            a[j] = static_cast<T &&>(v);
        }
        return;
    }
    const int64_t h = n / 2;
    merge_sort(a, tmp, h, less);
    merge_sort(a + h, tmp, n - h, less);
    if (!less(a[h], a[h - 1])) return;
    for (int64_t i = 0; i < h; ++i) tmp[i] = static_cast<T &&>(a[i]);
    int64_t i = 0, j = h, k = 0;
    while (i < h && j < n) a[k++] = less(a[j], tmp[i]) ? static_cast<T &&>(a[j++]) : static_cast<T &&>(tmp[i++]);
    while (i < h) a[k++] = static_cast<T &&>(tmp[i++]);
}

template <class T> inline none_t list_sort(const List<T> &l, bool reverse = false) {
    const int64_t n = l.size();
    if (n < 2) return none_t{};
    List<T> scratch = List<T>::make(n / 2 + 1);
    for (int64_t i = 0; i < n / 2 + 1; ++i) scratch.push(T());
    if (reverse)
        merge_sort(l.data(), scratch.data(), n, [](const T &a, const T &b) { return py_lt(b, a); });
    else
        merge_sort(l.data(), scratch.data(), n, [](const T &a, const T &b) { return py_lt(a, b); });
    return none_t{};
}

template <class T> inline List<T> list_sorted(const List<T> &l, bool reverse = false) {
    List<T> out = list_copy(l);
    list_sort(out, reverse);
    return out;
}

template <class T> inline List<T> list_reversed(const List<T> &l) {
    List<T> out = list_copy(l);
    list_reverse(out);
    return out;
}

// ---- operators ---------------------------------------------------------------------

template <class T> inline List<T> list_concat(const List<T> &a, const List<T> &b) {
    List<T> out = List<T>::make(a.size() + b.size());
    for (int64_t i = 0; i < a.size(); ++i) out.push(a[i]);
    for (int64_t i = 0; i < b.size(); ++i) out.push(b[i]);
    return out;
}

template <class T> inline List<T> list_repeat(const List<T> &a, int64_t k) {
    const int64_t n = a.size();
    List<T> out = List<T>::make(k > 0 ? n * k : 0);
    for (int64_t r = 0; r < k; ++r)
        for (int64_t i = 0; i < n; ++i) out.push(a[i]);
    return out;
}

template <class T> inline const List<T> &list_iadd(const List<T> &a, const List<T> &b) {
    list_extend(a, b);
    return a;
}
template <class T> inline const List<T> &list_imul(List<T> &a, int64_t k) {
    const int64_t n = a.size();
    if (k <= 0) {
        a.truncate(0);
        return a;
    }
    a.reserve(n * k);
    for (int64_t r = 1; r < k; ++r)
        for (int64_t i = 0; i < n; ++i) a.push(a[i]);
    return a;
}

// ---- reductions (Python's sequential order) ---------------------------------------

template <class R, class T> inline R list_sum(const List<T> &l, R start) {
    R acc = start;
    for (int64_t i = 0; i < l.size(); ++i) acc = R(acc + R(l[i]));
    return acc;
}
template <class T> inline T list_min(const List<T> &l) {
    if (l.size() == 0) raise(TR_ERR_VALUE, TR_MSG_MIN_EMPTY);
    int64_t best = 0;
    for (int64_t i = 1; i < l.size(); ++i)
        if (py_lt(l[i], l[best])) best = i;
    return l[best];
}
template <class T> inline T list_max(const List<T> &l) {
    if (l.size() == 0) raise(TR_ERR_VALUE, TR_MSG_MAX_EMPTY);
    int64_t best = 0;
    for (int64_t i = 1; i < l.size(); ++i)
        if (py_lt(l[best], l[i])) best = i;
    return l[best];
}

// ---- to NumPy arrays (np.array / np.asarray of a list) -----------------------------

template <class X> struct nested_depth { static constexpr int value = 0; };
template <class T> struct nested_depth<List<T>> { static constexpr int value = 1 + nested_depth<T>::value; };
template <class T, int N, int L> struct nested_depth<Array<T, N, L>> { static constexpr int value = N; };
template <class T0, class... X> struct nested_depth<std::tuple<T0, X...>> {
    static constexpr int value = 1 + nested_depth<T0>::value;
};

[[noreturn]] inline void inhomogeneous(int dim) {
    raise(TR_ERR_VALUE, "setting an array element with a sequence. The requested array has an inhomogeneous shape "
                        "after %d dimensions.", dim);
}

template <class X> inline void shape_of(const X &, int64_t *, int, bool) {}
template <class T, int N, int L> inline void shape_of(const Array<T, N, L> &a, int64_t *shape, int d, bool first) {
    for (int k = 0; k < N; ++k) {
        if (first) shape[d + k] = a.shape[k];
        else if (shape[d + k] != a.shape[k]) inhomogeneous(d + k);
    }
}
template <class... X> inline void shape_of(const std::tuple<X...> &t, int64_t *shape, int d, bool first) {
    if (first) shape[d] = int64_t(sizeof...(X));
    std::apply([&](const auto &...x) { (shape_of(x, shape, d + 1, first), ...); }, t);
}
template <class T> inline void shape_of(const List<T> &l, int64_t *shape, int d, bool first) {
    if (first) shape[d] = l.size();
    else if (shape[d] != l.size()) inhomogeneous(d);
    for (int64_t i = 0; i < l.size(); ++i) shape_of(l[i], shape, d + 1, first && i == 0);
}

template <class E, class X> inline void fill_from(E *&out, const X &v) { *out++ = E(v); }
template <class E, class T, int N, int L> inline void fill_from(E *&out, const Array<T, N, L> &a) {
    for_each(a, [&](const T &v) { *out++ = E(v); });
}
template <class E, class... X> inline void fill_from(E *&out, const std::tuple<X...> &t) {
    std::apply([&](const auto &...x) { (fill_from(out, x), ...); }, t);
}
template <class E, class T> inline void fill_from(E *&out, const List<T> &l) {
    for (int64_t i = 0; i < l.size(); ++i) fill_from(out, l[i]);
}

template <class E, int N, class T> inline Array<E, N, C> list_to_array(const List<T> &l) {
    static_assert(N == nested_depth<List<T>>::value, "depth");
    int64_t shape[N];
    for (int k = 0; k < N; ++k) shape[k] = 0;
    shape_of(l, shape, 0, true);
    shape_of(l, shape, 0, false);  // every item must have the first item's shape
    Array<E, N, C> a = empty<E, N>(shape);
    E *p = a.data;
    fill_from(p, l);
    return a;
}

// ---- iteration helper: for x in reversed(l) -------------------------------------

// ---- sequences of arrays for np.concatenate/np.stack ------------------------------

// ============================================================================
// Conversions between Python objects and compiled values, element by element
// through the bridge's host table.  A converter type describes one type
// (Python scalar or NumPy scalar, array, tuple, list) with
//   type from_py(void *object)      (the object is borrowed)
//   void *to_py(const type &)       (a new reference)
//   void sync(const type &)         (writes lists back into their Python lists)
// ============================================================================

inline const tr_host *&list_host() {
    static const tr_host *h = nullptr;
    return h;
}
inline void install_host(const tr_host *h) {
    if (!list_host()) {
        list_host() = h;
        if (!host().table) host().table = h;
        ext_refs().incref = h->incref;
        ext_refs().decref = h->decref;
    }
}

namespace cv {

template <class T, bool Weak> struct Scalar {
    using type = T;
    static T from_py(void *o) {
        tr_value v;
        T out{};
        expect(v, out);
        if (list_host()->unbox(o, &v) != TR_OK) python_error();
        unbox(v, out);
        return out;
    }
    static void *to_py(const T &x) {
        tr_value v = box(x, Weak);
        void *o = list_host()->box(&v);
        if (!o) python_error();
        return o;
    }
    static void sync(const T &) {}
};

template <class T, int N, int L> struct Arr {
    using type = Array<T, N, L>;
    static type from_py(void *o) {
        tr_value v;
        type out;
        expect(v, out);
        if (list_host()->unbox(o, &v) != TR_OK) python_error();
        Array<T, N, A> a;
        unbox(v, a);
        if constexpr (L == C) {
            if (N > 0 && a.strides[N - 1] != 1 && a.shape[N - 1] > 1)
                raise(TR_ERR_TYPE, "an array in a list has another layout than compiled code expects");
        }
        out.data = a.data;
        for (int k = 0; k < N; ++k) out.shape[k] = a.shape[k], out.strides[k] = a.strides[k];
        out.owner = a.owner;
        return out;
    }
    static void *to_py(const type &x) {
        tr_value v = box(x);
        void *o = list_host()->box(&v);
        if (!o) python_error();
        return o;
    }
    static void sync(const type &) {}
};

template <class... C> struct Tup {
    using type = std::tuple<typename C::type...>;
    template <size_t... I> static type from_py_impl(void *o, std::index_sequence<I...>) {
        return type{C::from_py(list_host()->seq_item(o, int64_t(I)))...};
    }
    static type from_py(void *o) { return from_py_impl(o, std::index_sequence_for<C...>{}); }
    template <size_t... I> static void *to_py_impl(const type &t, std::index_sequence<I...>) {
        void *items[sizeof...(C) > 0 ? sizeof...(C) : 1] = {C::to_py(std::get<I>(t))...};
        void *o = list_host()->make_seq(0, int64_t(sizeof...(C)), items);
        if (!o) python_error();
        return o;
    }
    static void *to_py(const type &t) { return to_py_impl(t, std::index_sequence_for<C...>{}); }
    template <size_t... I> static void sync_impl(const type &t, std::index_sequence<I...>) {
        (C::sync(std::get<I>(t)), ...);
    }
    static void sync(const type &t) { sync_impl(t, std::index_sequence_for<C...>{}); }
};

// AsTuple: a tuple of any length (tuple(genexp)): returned as a Python tuple.
template <class E, bool AsTuple = false> struct Lst {
    using type = List<typename E::type>;
    static type from_py(void *o) {
        const int64_t n = list_host()->seq_size(o);
        type l = type::make(n);
        for (int64_t i = 0; i < n; ++i) l.push(E::from_py(list_host()->seq_item(o, i)));
        if (!AsTuple) {
            list_host()->incref(o);
            l.b->origin = o;
        }
        return l;
    }
    static void *items_to_py(const type &l) {
        const int64_t n = l.size();
        void *stack[16];
        void **items = n <= 16 ? stack : static_cast<void **>(malloc(size_t(n) * sizeof(void *)));
        if (!items) raise(TR_ERR_MEMORY, "out of memory");
        int64_t made = 0;
        struct Guard {
            void **items, **stack;
            int64_t *made;
            bool done = false;
            ~Guard() {
                if (!done)
                    for (int64_t i = 0; i < *made; ++i) list_host()->decref(items[i]);
                if (items != stack) free(items);
            }
        } g{items, stack, &made};
        for (; made < n; ++made) items[made] = E::to_py(l[made]);
        g.done = true;
        void *o = list_host()->make_seq(AsTuple ? 0 : 1, n, items);  // steals the items
        if (!o) python_error();
        return o;
    }
    static void sync(const type &l) {
        if (!l.b || !l.b->origin) {
            for (int64_t i = 0; i < l.size(); ++i) E::sync(l[i]);
            return;
        }
        void *fresh = items_to_py(l);
        int rc = list_host()->list_assign(l.b->origin, fresh);
        list_host()->decref(fresh);
        if (rc != TR_OK) python_error();
    }
    static void *to_py(const type &l) {
        if (l.b && l.b->origin) {
            sync(l);
            list_host()->incref(l.b->origin);
            return l.b->origin;
        }
        return items_to_py(l);
    }
};

// A compiled value as a new Python object (print): through the host table
// the module received at load.
template <class Conv> inline Object to_object(const typename Conv::type &v) {
    install_host(host().table);
    return Object::steal(Conv::to_py(v));
}

// Entry arguments and results: the slot holds a tr_list_slot.
template <class Conv> inline typename Conv::type from_arg(void *slot) {
    tr_list_slot *s = static_cast<tr_list_slot *>(slot);
    install_host(s->host);
    return Conv::from_py(s->object);
}
template <class Conv> inline void to_result(void *slot, const typename Conv::type &v) {
    tr_list_slot *s = static_cast<tr_list_slot *>(slot);
    install_host(s->host);
    s->object = Conv::to_py(v);
}

}  // namespace cv

// Runs f when the scope ends, errors included (list arguments are written
// back to Python then); a failure there is dropped.
template <class F> struct OnExit {
    F f;
    ~OnExit() {
        try {
            f();
        } catch (...) {
        }
    }
};
template <class F> inline OnExit<F> on_exit(F f) { return OnExit<F>{f}; }

}  // namespace tr
