// Lazy elementwise array expressions with NumPy broadcasting.  An
// expression is evaluated in one loop nest with no temporaries (jit_level O1
// keeps whole statements lazy; O0 evaluates each operation on its own).
// Every node offers:
//   ndim, value_type, dim(k), bind(out_shape, M), row<Unit>(idx, M),
//   unit(), leaves(f), overlaps(lo, hi)
// where row() returns a cursor whose operator[](j) yields element j of the
// innermost axis for the outer index idx; row() and the cursors are TR_HD
// because GPU kernels evaluate expressions too.
//
// assign_expr is the one loop that evaluates an expression into a
// destination (eval, copy_as and library code go through it).  Where the
// module defines TR_PARALLEL_EXPR, a large expression runs as one contiguous
// share of its elements per OpenMP thread (backend="cpu" at O1: elementwise,
// so the bits are those of the sequential loop whatever the thread count),
// or as a GPU kernel over device copies of its arrays (backend="cuda").
// Broadcast checks and the overlap copy happen first, on the host, either
// way.  Reductions (numpy/reduce.hpp) add in order and stay sequential.
#pragma once
#include <type_traits>
#include "array.hpp"
#include "ops/operators.hpp"

// Where assign_expr may evaluate.  The generated module defines
// TR_PARALLEL_EXPR 1 when it evaluates array expressions and either runs on
// the CPU at jit_level O1 or is built for CUDA (cxx/lower.py decides; the
// toolchain then adds -fopenmp on the CPU).  Ascend keeps them on the host.
#ifndef TR_PARALLEL_EXPR
#define TR_PARALLEL_EXPR 0
#endif
#if TR_PARALLEL_EXPR
#include "backend/parallel.hpp"
#if defined(TRANSPILE_BACKEND_CUDA)
#define TR_EXPR_ON_GPU 1
#elif !defined(TRANSPILE_BACKEND_ASCEND)
#define TR_EXPR_ON_THREADS 1
#endif
#endif

// Elements each OpenMP thread gets at least; fewer than twice this run on
// the calling thread.  benchmarks/bench_expr_grain.py (2 cores, medians of 5
// runs): `a + b` in float64, the cheapest expression, is slower on 2 threads
// up to 8,192 elements (0.77x) and gains 1.76x at 32,768 (1.21x when the idle
// thread must first be woken); sqrt(a*a + b*b) * exp(-c) gains from ~2,048.
// An element count cannot tell the two apart, so the cheap one sets it.
#ifndef TR_EXPR_GRAIN
#define TR_EXPR_GRAIN 16384
#endif
// Elements from which an expression is evaluated on the GPU (backend="cuda"):
// below it the host copy-in, launch and copy-out cost more than the host loop.
#ifndef TR_CUDA_EXPR_MIN
#define TR_CUDA_EXPR_MIN 65536
#endif

namespace tr {

struct ExprTag {};

template <class T, int N> struct Leaf : ExprTag {
    using value_type = T;
    static constexpr int ndim = N;
    T *data;
    int64_t shape[N > 0 ? N : 1];
    int64_t strides[N > 0 ? N : 1];

    template <int L> explicit Leaf(const Array<T, N, L> &a) : data(a.data) {
        for (int k = 0; k < N; ++k) shape[k] = a.shape[k], strides[k] = a.stride(k);
    }
    int64_t dim(int k) const { return shape[k]; }
    void bind(const int64_t *out, int M) {
        for (int k = 0; k < N; ++k)
            if (shape[k] == 1 && out[M - N + k] != 1) strides[k] = 0;
    }
    struct Cursor {
        const T *p;
        int64_t s;
        TR_HD T operator[](int64_t j) const { return p[j * s]; }
    };
    struct UnitCursor {
        const T *p;
        TR_HD T operator[](int64_t j) const { return p[j]; }
    };
    template <bool Unit> TR_HD auto row(const int64_t *idx, int M) const {
        const T *p = data;
        for (int k = 0; k + 1 < N; ++k) p += idx[M - N + k] * strides[k];
        if constexpr (Unit) return UnitCursor{p};
        else return Cursor{p, N > 0 ? strides[N - 1] : 0};
    }
    // Called after bind(): an inner axis of length 1 broadcast along the
    // destination's row has stride 0 then, and is not unit-stride.
    bool unit() const { return N == 0 || strides[N - 1] == 1 || (shape[N - 1] <= 1 && strides[N - 1] != 0); }
    template <class F> void leaves(F &&f) { f(*this); }
    // The leaf as a borrowed array view (what device staging copies).
    Array<T, N, A> as_array() const {
        Array<T, N, A> a;
        a.data = data;
        for (int k = 0; k < N; ++k) a.shape[k] = shape[k], a.strides[k] = strides[k];
        return a;
    }
    // Address range [lo, hi) this leaf reads.
    void extent(const char *&lo, const char *&hi) const {
        const T *a = data, *b = data;
        for (int k = 0; k < N; ++k) {
            if (shape[k] == 0) {
                lo = hi = nullptr;
                return;
            }
            int64_t d = (shape[k] - 1) * strides[k];
            if (d < 0) a += d;
            else b += d;
        }
        lo = reinterpret_cast<const char *>(a);
        hi = reinterpret_cast<const char *>(b + 1);
    }
    // True when reading this leaf while writing `dst` in the same loop
    // could see already-written elements (NumPy evaluates the right side
    // first; we copy to a temporary in that case).
    template <class D> bool overlaps(const D &dst) const {
        const char *lo, *hi, *dlo, *dhi;
        extent(lo, hi);
        dst.extent(dlo, dhi);
        if (!lo || !dlo || hi <= dlo || dhi <= lo) return false;
        if (reinterpret_cast<const void *>(data) != reinterpret_cast<const void *>(dst.data) ||
            sizeof(T) != sizeof(typename D::value_type))
            return true;
        if (N != D::ndim) return true;
        for (int k = 0; k < N; ++k)
            if (shape[k] != dst.shape[k] || strides[k] != dst.strides[k]) return true;
        return false;
    }
};

template <class T> struct ScalarLeaf : ExprTag {
    using value_type = T;
    static constexpr int ndim = 0;
    T v;
    explicit ScalarLeaf(T x) : v(x) {}
    int64_t dim(int) const { return 1; }
    void bind(const int64_t *, int) {}
    struct Cursor {
        T v;
        TR_HD T operator[](int64_t) const { return v; }
    };
    template <bool Unit> TR_HD Cursor row(const int64_t *, int) const { return Cursor{v}; }
    bool unit() const { return true; }
    template <class F> void leaves(F &&) {}
    template <class D> bool overlaps(const D &) const { return false; }
};

template <class X> struct is_expr { static constexpr bool value = __is_base_of(ExprTag, X); };

template <class T, int N, int L> Leaf<T, N> as_expr(const Array<T, N, L> &a) { return Leaf<T, N>(a); }
template <class X, class = typename X::value_type, int = X::ndim> const X &as_expr(const X &x) { return x; }
template <class T>
    requires(!is_array<T>::value && !is_expr<T>::value)
ScalarLeaf<T> as_expr(const T &v) {
    return ScalarLeaf<T>(v);
}

[[noreturn]] __attribute__((cold, noinline)) inline void broadcast_error(const int64_t *a, int na, const int64_t *b,
                                                                       int nb, bool assign) {
    char sa[256], sb[256];
    auto fmt = [](char *s, const int64_t *d, int n) {
        int p = snprintf(s, 256, "(");
        for (int k = 0; k < n && p < 240; ++k) p += snprintf(s + p, 256 - p, k + 1 < n || n == 1 ? "%lld," : "%lld", (long long)d[k]);
        snprintf(s + p, 256 - p, ")");
    };
    fmt(sa, a, na);
    fmt(sb, b, nb);
    if (assign) raise(TR_ERR_VALUE, "could not broadcast input array from shape %s into shape %s", sa, sb);
    for (char *c = sa; *c; ++c)
        if (*c == ',' && c[1] == ')' && na > 1) c[0] = ')', c[1] = 0;
    for (char *c = sb; *c; ++c)
        if (*c == ',' && c[1] == ')' && nb > 1) c[0] = ')', c[1] = 0;
    raise(TR_ERR_VALUE, "operands could not be broadcast together with shapes %s %s ", sa, sb);
}

template <class E> inline void shape_of(const E &e, int64_t *out) {
    for (int k = 0; k < E::ndim; ++k) out[k] = e.dim(k);
}

template <class Op, class CT, class X, class Y> struct Binary : ExprTag {
    using value_type = decltype(Op::apply(CT(), CT()));
    static constexpr int ndim = X::ndim > Y::ndim ? X::ndim : Y::ndim;
    X x;
    Y y;
    Binary(const X &a, const Y &b) : x(a), y(b) {}
    int64_t dim(int k) const {
        int kx = k - (ndim - X::ndim), ky = k - (ndim - Y::ndim);
        int64_t a = kx >= 0 ? x.dim(kx) : 1, b = ky >= 0 ? y.dim(ky) : 1;
        if (a == b || b == 1) return a;
        if (a == 1) return b;
        int64_t sa[X::ndim > 0 ? X::ndim : 1], sb[Y::ndim > 0 ? Y::ndim : 1];
        shape_of(x, sa);
        shape_of(y, sb);
        broadcast_error(sa, X::ndim, sb, Y::ndim, false);
    }
    void bind(const int64_t *out, int M) {
        x.bind(out, M);
        y.bind(out, M);
    }
    template <class CX, class CY> struct Cursor {
        CX cx;
        CY cy;
        TR_HD value_type operator[](int64_t j) const { return Op::apply(cast<CT>(cx[j]), cast<CT>(cy[j])); }
    };
    template <bool Unit> TR_HD auto row(const int64_t *idx, int M) const {
        auto cx = x.template row<Unit>(idx, M);
        auto cy = y.template row<Unit>(idx, M);
        return Cursor<decltype(cx), decltype(cy)>{cx, cy};
    }
    bool unit() const { return x.unit() && y.unit(); }
    template <class F> void leaves(F &&f) {
        x.leaves(f);
        y.leaves(f);
    }
    template <class D> bool overlaps(const D &d) const { return x.overlaps(d) || y.overlaps(d); }
};

template <class Op, class CT, class X> struct Unary : ExprTag {
    using value_type = decltype(Op::apply(CT()));
    static constexpr int ndim = X::ndim;
    X x;
    explicit Unary(const X &a) : x(a) {}
    int64_t dim(int k) const { return x.dim(k); }
    void bind(const int64_t *out, int M) { x.bind(out, M); }
    template <class CX> struct Cursor {
        CX cx;
        TR_HD value_type operator[](int64_t j) const { return Op::apply(cast<CT>(cx[j])); }
    };
    template <bool Unit> TR_HD auto row(const int64_t *idx, int M) const {
        auto cx = x.template row<Unit>(idx, M);
        return Cursor<decltype(cx)>{cx};
    }
    bool unit() const { return x.unit(); }
    template <class F> void leaves(F &&f) { x.leaves(f); }
    template <class D> bool overlaps(const D &d) const { return x.overlaps(d); }
};

// np.where(c, x, y): both branches are evaluated (they are elementwise and
// cannot fail), as NumPy does.
template <class CT, class Cond, class X, class Y> struct Select : ExprTag {
    using value_type = CT;
    static constexpr int ndim = Cond::ndim > X::ndim ? (Cond::ndim > Y::ndim ? Cond::ndim : Y::ndim)
                                                     : (X::ndim > Y::ndim ? X::ndim : Y::ndim);
    Binary<op::eq, int, Cond, Binary<op::eq, int, X, Y>> shape_probe;  // broadcast checking only
    Cond c;
    X x;
    Y y;
    Select(const Cond &c_, const X &x_, const Y &y_) : shape_probe(c_, Binary<op::eq, int, X, Y>(x_, y_)), c(c_), x(x_), y(y_) {}
    int64_t dim(int k) const { return shape_probe.dim(k); }
    void bind(const int64_t *out, int M) {
        c.bind(out, M);
        x.bind(out, M);
        y.bind(out, M);
    }
    template <class CC, class CX, class CY> struct Cursor {
        CC cc;
        CX cx;
        CY cy;
        TR_HD CT operator[](int64_t j) const { return bool(cc[j]) ? cast<CT>(cx[j]) : cast<CT>(cy[j]); }
    };
    template <bool Unit> TR_HD auto row(const int64_t *idx, int M) const {
        auto cc = c.template row<Unit>(idx, M);
        auto cx = x.template row<Unit>(idx, M);
        auto cy = y.template row<Unit>(idx, M);
        return Cursor<decltype(cc), decltype(cx), decltype(cy)>{cc, cx, cy};
    }
    bool unit() const { return c.unit() && x.unit() && y.unit(); }
    template <class F> void leaves(F &&f) {  // shape_probe's copies are only read on the host
        c.leaves(f);
        x.leaves(f);
        y.leaves(f);
    }
    template <class D> bool overlaps(const D &d) const { return c.overlaps(d) || x.overlaps(d) || y.overlaps(d); }
};

template <class Op, class CT, class X, class Y> auto binary(const X &x, const Y &y) {
    using EX = std::remove_cvref_t<decltype(as_expr(x))>;
    using EY = std::remove_cvref_t<decltype(as_expr(y))>;
    return Binary<Op, CT, EX, EY>(as_expr(x), as_expr(y));
}
template <class Op, class CT, class X> auto unary(const X &x) {
    using EX = std::remove_cvref_t<decltype(as_expr(x))>;
    return Unary<Op, CT, EX>(as_expr(x));
}
template <class CT, class Cond, class X, class Y> auto select(const Cond &c, const X &x, const Y &y) {
    using EC = std::remove_cvref_t<decltype(as_expr(c))>;
    using EX = std::remove_cvref_t<decltype(as_expr(x))>;
    using EY = std::remove_cvref_t<decltype(as_expr(y))>;
    return Select<CT, EC, EX, EY>(as_expr(c), as_expr(x), as_expr(y));
}

// With threads, assign_span has two callers (the sequential path and each
// thread's share): out of line, each expression's loop nest is compiled once
// (inlined into both, a module of 13 expressions took 0.5 s more to build).
#if TR_EXPR_ON_THREADS
#define TR_EXPR_SPAN __attribute__((noinline))
#else
#define TR_EXPR_SPAN inline
#endif

// Elements [lo, hi) of dst, counted in C order of its shape, from `e`
// (already bound to that shape): the whole loop nest of a sequential
// evaluation, or one thread's share of a parallel one.
template <class D, class E> TR_EXPR_SPAN void assign_span(const D &dst, const E &e, bool unit, int64_t lo, int64_t hi) {
    using T = typename D::value_type;
    constexpr int N = D::ndim;
    const int64_t inner = N > 0 ? dst.shape[N - 1] : 1;
    const int64_t ds = N > 0 ? dst.stride(N - 1) : 1;
    int64_t idx[N > 1 ? N - 1 : 1] = {};
    T *base = dst.data;
    int64_t j0 = 0;
    if (lo != 0) {  // a share that starts inside the array: find its row
        int64_t outer = lo / inner;
        j0 = lo - outer * inner;
        for (int k = N - 2; k >= 0; --k) {
            idx[k] = outer % dst.shape[k];
            outer /= dst.shape[k];
            base += idx[k] * dst.stride(k);
        }
    }
    int64_t left = hi - lo;
    (void)unit;  // read only with TR_UNIT_PATHS
    for (;;) {
        const int64_t j1 = inner - j0 < left ? inner : j0 + left;
        left -= j1 - j0;
#if TR_UNIT_PATHS
        if (unit) {
            auto cur = e.template row<true>(idx, N);
            for (int64_t j = j0; j < j1; ++j) base[j] = cast<T>(cur[j]);
        } else
#endif
        {
            auto cur = e.template row<false>(idx, N);
            for (int64_t j = j0; j < j1; ++j) base[j * ds] = cast<T>(cur[j]);
        }
        if (left == 0) return;
        j0 = 0;
        for (int k = N - 2; k >= 0; --k) {
            base += dst.stride(k);
            if (++idx[k] < dst.shape[k]) break;
            base -= idx[k] * dst.stride(k);
            idx[k] = 0;
        }
    }
}

#if TR_EXPR_ON_GPU
// backend="cuda": one GPU thread per element.  dst and the leaves point
// into device copies made by par::Staging.
template <class D, class E> struct ExprElements {
    D dst;
    E e;
    TR_HD void operator()(int64_t i) const {
        constexpr int N = D::ndim;
        int64_t idx[N > 1 ? N - 1 : 1] = {};
        int64_t off = 0, j = 0;
        if constexpr (N > 0) {
            int64_t outer = i / dst.shape[N - 1];
            j = i - outer * dst.shape[N - 1];
            off = j * dst.stride(N - 1);
            for (int k = N - 2; k >= 0; --k) {
                idx[k] = outer % dst.shape[k];
                outer /= dst.shape[k];
                off += idx[k] * dst.stride(k);
            }
        }
        dst.data[off] = cast<typename D::value_type>(e.template row<false>(idx, N)[j]);
    }
};

// Evaluates on the GPU when there are enough elements to pay for the copies
// and a launch, and some leaf is an array (a fill stays on the host);
// returns false to leave the work to the host loop.
template <class T, int N, int L, class E> bool assign_on_device(const Array<T, N, L> &dst, const E &e, int64_t total) {
    using K = ExprElements<DeviceArray<T, N, L>, E>;
    if constexpr (sizeof(K) > 4000) return false;  // over the 4 KiB a kernel's parameters may take
    if (total < TR_CUDA_EXPR_MIN) return false;
    int leaves = 0;
    E de = e;
    de.leaves([&](auto &) { ++leaves; });
    if (leaves == 0 || leaves >= TR_MAX_STAGED) return false;
    par::Staging st;
    de.leaves([&](auto &leaf) { st.add(leaf.as_array(), false); });
    st.add(dst, true);
    st.upload();
    de.leaves([&](auto &leaf) { leaf.data = st.view(leaf.as_array()).data; });
    par::for_range(K{st.view(dst), de}, 0, total, 1);
    st.download();
    return true;
}
#elif TR_EXPR_ON_THREADS
// backend="cpu" at jit_level O1: one contiguous share of the elements per
// OpenMP thread, run by par::for_range, which brings the prange loops' error
// slot (an error is caught on its thread and raised after the region), fork
// safety and thread count.  ExprShares is not a template, so that region is
// compiled once per module; each expression adds only its expr_share.
template <class D, class E> struct ExprJob {
    const D *dst;
    E e;
    bool unit;
};
template <class D, class E> void expr_share(const void *job, int64_t lo, int64_t hi) {
    const ExprJob<D, E> &j = *static_cast<const ExprJob<D, E> *>(job);
    assign_span(*j.dst, j.e, j.unit, lo, hi);
}
// Share boundaries are rounded down to multiples of 16 elements: threads
// writing an aligned float64 destination never share a cache line.
struct ExprShares {
    void (*run)(const void *, int64_t, int64_t);
    const void *job;
    int64_t total, shares;
    int line;  // the statement's line, for an error raised on another thread
    int64_t bound(int64_t t) const { return t >= shares ? total : (total * t / shares) & ~int64_t(15); }
    void operator()(int64_t t) const {
        current_line() = line;
        run(job, bound(t), bound(t + 1));
    }
};
#endif

// Writes `e` into `dst`, memory that no leaf of `e` reads, of a shape `e`
// broadcasts to: eval's and copy_as's new arrays, and assign_expr once it has
// checked both.  Those callers need neither check again, so each eval
// instantiates no broadcast check and no overlap copy of its own (a * b + c on
// three 2x3 arrays: ~29% fewer compiler instructions at the quick tier).
template <class T, int N, int L, class E> void assign_fresh(const Array<T, N, L> &dst, E e) {
    for (int k = 0; k < N; ++k)
        if (dst.shape[k] == 0) return;
    e.bind(dst.shape, N);
    const bool unit = (N == 0 || dst.stride(N - 1) == 1) && e.unit();
#if TR_EXPR_ON_GPU
    if (assign_on_device(dst, e, dst.size())) return;
#elif TR_EXPR_ON_THREADS
    const int64_t total = dst.size();
    if (total >= 2 * TR_EXPR_GRAIN) {  // small arrays pay nothing more than this test
        // A destination that repeats an element (a zero stride) is written in order.
        bool distinct = true;
        for (int k = 0; k < N; ++k) distinct = distinct && (dst.stride(k) != 0 || dst.shape[k] == 1);
        const int nt = distinct ? par::threads_for_elements(total, TR_EXPR_GRAIN) : 1;
        if (nt > 1) {
            const ExprJob<Array<T, N, L>, E> job{&dst, e, unit};
            par::for_range(ExprShares{expr_share<Array<T, N, L>, E>, &job, total, nt, current_line()}, 0, nt, 1);
            return;
        }
    }
#endif
    assign_span(dst, e, unit, 0, dst.size());
}

// Writes expression `e` into `dst`, broadcasting it to dst's shape.
template <class T, int N, int L, class E> void assign_expr(const Array<T, N, L> &dst, E e) {
    static_assert(E::ndim <= N, "cannot assign an array of more dimensions");
    for (int k = 0; k < E::ndim; ++k) {
        int64_t d = e.dim(k), o = dst.shape[N - E::ndim + k];
        if (d != o && d != 1) {
            int64_t se[E::ndim > 0 ? E::ndim : 1];
            shape_of(e, se);
            broadcast_error(se, E::ndim, dst.shape, N, true);
        }
    }
    if (e.overlaps(Leaf<T, N>(dst))) {  // false for an empty dst (no extent)
        using V = typename E::value_type;
        int64_t se[E::ndim > 0 ? E::ndim : 1];
        shape_of(e, se);
        Array<V, E::ndim, C> tmp = empty<V, E::ndim>(se);
        assign_fresh(tmp, e);
        assign_fresh(dst, Leaf<V, E::ndim>(tmp));
        return;
    }
    assign_fresh(dst, e);
}

template <class T, int N, int L, class X> void assign(const Array<T, N, L> &dst, const X &x) {
    assign_expr(dst, as_expr(x));
}

// Evaluates an expression into a new C-contiguous array; arrays pass through.
template <class E> auto eval(const E &e) {
    if constexpr (is_array<E>::value) {
        return e;
    } else {
        using V = typename E::value_type;
        int64_t s[E::ndim > 0 ? E::ndim : 1];
        shape_of(e, s);
        Array<V, E::ndim, C> out = empty<V, E::ndim>(s);
        assign_fresh(out, e);
        return out;
    }
}

// A copy with its own memory (np.copy, ndarray.copy, astype).
template <class V, class X> auto copy_as(const X &x) {
    auto e = as_expr(x);
    using E = decltype(e);
    int64_t s[E::ndim > 0 ? E::ndim : 1];
    shape_of(e, s);
    Array<V, E::ndim, C> out = empty<V, E::ndim>(s);
    assign_fresh(out, e);
    return out;
}

// Calls f(value) for each element of an expression in C order.
template <class E, class F> void for_each_value(E e, F &&f) {
    constexpr int N = E::ndim;
    int64_t shape[N > 0 ? N : 1];
    shape_of(e, shape);
    for (int k = 0; k < N; ++k)
        if (shape[k] == 0) return;
    e.bind(shape, N);
    const int64_t inner = N > 0 ? shape[N - 1] : 1;
    int64_t idx[N > 1 ? N - 1 : 1] = {};
    for (;;) {
        auto cur = e.template row<false>(idx, N);
        for (int64_t j = 0; j < inner; ++j) f(cur[j]);
        int k = N - 2;
        for (; k >= 0; --k) {
            if (++idx[k] < shape[k]) break;
            idx[k] = 0;
        }
        if (k < 0) return;
    }
}

}  // namespace tr
