// Reductions: np.sum/prod/mean/min/max/argmin/argmax/var/std/any/all over a
// whole array or expression, and sum/prod/mean/min/max/argmin/argmax along
// one axis.  The caller names the result type R (NumPy's result dtype).
//
// Floating-point sums follow NumPy's order of operations so results match
// bit for bit:
//  * the array is walked in memory order (numpy/common.hpp Plan) and every
//    inner row is added with NumPy's pairwise summation (loops_utils.h.src:
//    8 partial sums, blocks of 128), starting from the identity 0;
//  * when a cast is needed (int -> float64 for mean, float32 summed as
//    float64) or the array's axes do not merge into one strided run, NumPy's
//    iterator copies the data through buffers of at most 8192 elements and
//    sums each buffer pairwise; numpy_chunking() reproduces how it cuts them;
//  * along an axis, the sum is pairwise when that axis is the innermost in
//    memory and sequential otherwise (NumPy's buffering of cast rows longer
//    than 8192 elements is not reproduced there);
//  * a lazy expression of 2+ dimensions is materialized first (NumPy sums a
//    contiguous temporary); 0/1-d expressions are summed as they are read.
// Products are sequential in memory order.  min/max only differ by order in
// which of 0.0 and -0.0 they return; NaN propagates (argmin/argmax: the
// first NaN wins).  Pairwise sums are compiled without FMA contraction:
// NumPy sums a*b after rounding the products.
#pragma once
#include <stdint.h>
#include <stdlib.h>
#include <type_traits>
#include "../array.hpp"
#include "../expr.hpp"
#include "../math/fmath.hpp"
#include "common.hpp"

namespace tr {
namespace np {
namespace detail {

inline constexpr int64_t kBufSize = 8192;  // NumPy's default ufunc buffer size (np.getbufsize())

template <class T> inline constexpr bool is_fp = is_float<T>::value;
template <class T> inline constexpr bool is_fpc = is_float<T>::value || is_complex<T>::value;

// ---- pairwise summation (NumPy loops_utils.h.src) ----

template <class R, class P> TR_NO_FP_CONTRACT_VEC R pairwise_real(const P &a, int64_t n) {
    if (n < 8) {
        R res = R(-0.0);
        for (int64_t i = 0; i < n; ++i) res += cast<R>(a[i]);
        return res;
    }
    if (n <= 128) {
        R r[8];
        for (int k = 0; k < 8; ++k) r[k] = cast<R>(a[k]);
        int64_t i = 8;
        for (; i < n - (n % 8); i += 8)
            for (int k = 0; k < 8; ++k) r[k] += cast<R>(a[i + k]);
        R res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; ++i) res += cast<R>(a[i]);
        return res;
    }
    int64_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwise_real<R>(a, n2) + pairwise_real<R>(a.at(n2), n - n2);
}

// The complex version works on the interleaved (re, im) stream of 2n reals,
// so its thresholds are halved in elements.
template <class R, class P> TR_NO_FP_CONTRACT R pairwise_complex(const P &a, int64_t n) {
    using F = typename real_of<R>::type;
    if (n < 4) {
        F rr = F(-0.0), ri = F(-0.0);
        for (int64_t i = 0; i < n; ++i) {
            R v = cast<R>(a[i]);
            rr += v.re;
            ri += v.im;
        }
        return R(rr, ri);
    }
    if (n <= 64) {
        F r[8];
        for (int k = 0; k < 4; ++k) {
            R v = cast<R>(a[k]);
            r[2 * k] = v.re;
            r[2 * k + 1] = v.im;
        }
        int64_t i = 4;
        for (; i < n - (n % 4); i += 4)
            for (int k = 0; k < 4; ++k) {
                R v = cast<R>(a[i + k]);
                r[2 * k] += v.re;
                r[2 * k + 1] += v.im;
            }
        F rr = (r[0] + r[2]) + (r[4] + r[6]);
        F ri = (r[1] + r[3]) + (r[5] + r[7]);
        for (; i < n; ++i) {
            R v = cast<R>(a[i]);
            rr += v.re;
            ri += v.im;
        }
        return R(rr, ri);
    }
    int64_t n2 = n;  // in reals: n2 = (2n)/2 rounded down to a multiple of 8
    n2 -= n2 % 8;
    int64_t e2 = n2 / 2;
    R x = pairwise_complex<R>(a, e2), y = pairwise_complex<R>(a.at(e2), n - e2);
    return R(x.re + y.re, x.im + y.im);
}

template <class R, class P> inline R pairwise(const P &a, int64_t n) {
    if constexpr (is_complex<R>::value) return pairwise_complex<R>(a, n);
    else return pairwise_real<R>(a, n);
}

template <class R, class T> inline R pairwise_row(const T *p, int64_t n, int64_t s) {
    if (s == 1) return pairwise<R>(Unit<T>{p}, n);
    return pairwise<R>(Strided<T>{p, s}, n);
}

// How NumPy's buffered reduction iterator (nditer_constr.c,
// npyiter_find_buffering_setup, NumPy >= 2.3) cuts a whole-array reduction
// into inner-loop calls.  Axes innermost first (d[0] is the plan's last):
// it picks an "outer" axis best_dim whose "core" (the product of the axes
// below it) is cheapest to buffer.  When the operand must be buffered (a
// cast, or axes that do not collapse), each call gets a contiguous buffer
// of up to `chunk` elements that never crosses a block of
// core * d[best_dim] elements; otherwise each call gets one inner row.
struct Chunking {
    bool buffered;
    int64_t chunk, block;
};
inline Chunking numpy_chunking(const Plan &p, bool cast) {
    const int nd = p.nd;
    auto dshape = [&](int i) { return p.shape[nd - 1 - i]; };
    const int64_t maxsz = kBufSize;
    int cost = 1 + (cast ? 1 : 0), single = 1;
    int64_t size = dshape(0);
    int best_cost = cost, best_dim = 0;
    int64_t best_size = size, best_core = 1;
    for (int idim = 1; idim < nd; ++idim) {
        if (size >= maxsz && cost > 1) break;
        if (single == idim && !cast) ++cost;  // plan axes never collapse further
        int64_t core = size;
        size *= dshape(idim);
        int64_t bufsize = size > maxsz && cost > 1 ? maxsz : size;
        if (double(cost) * double(best_size) <= double(best_cost) * double(bufsize)) {
            best_cost = cost;
            best_core = core;
            best_size = size;
            best_dim = idim;
        }
    }
    Chunking c;
    c.buffered = cast || single <= best_dim;
    if (c.buffered && maxsz < best_size) best_size = best_core * (maxsz / best_core);
    c.chunk = best_size;
    c.block = best_core * dshape(best_dim);
    return c;
}

// Sum of a whole array, NumPy's way (see the header comment).
template <class R, class T, int N, int L> R sum_array(const Array<T, N, L> &a) {
    if (a.size() == 0) return R(0);
    Plan p = plan_of(a);
    const T *d = a.data;
    R acc = R(0);
    if constexpr (is_fpc<R>) {
        if (p.nd == 0) return R(acc + cast<R>(d[0]));
        const Chunking ck = numpy_chunking(p, !std::is_same_v<T, R>);
        if (!ck.buffered) {
            for_each_row(p, [&](int64_t off, int64_t n, int64_t s) { acc += pairwise_row<R>(d + off, n, s); });
        } else {
            R *buf = static_cast<R *>(malloc(sizeof(R) * size_t(ck.chunk)));
            if (!buf) raise(TR_ERR_MEMORY, "out of memory");
            int64_t fill = 0, in_block = 0;
            for_each_row(p, [&](int64_t off, int64_t n, int64_t s) {
                const T *q = d + off;
                for (int64_t j = 0; j < n; ++j) {
                    buf[fill++] = cast<R>(q[j * s]);
                    if (fill == ck.chunk) {
                        acc += pairwise<R>(Unit<R>{buf}, fill);
                        fill = 0;
                    }
                }
                in_block += n;
                if (in_block == ck.block) {  // buffers never span two blocks
                    if (fill) acc += pairwise<R>(Unit<R>{buf}, fill);
                    fill = 0;
                    in_block = 0;
                }
            });
            if (fill) acc += pairwise<R>(Unit<R>{buf}, fill);
            free(buf);
        }
    } else {
        for_each_row(p, [&](int64_t off, int64_t n, int64_t s) {
            const T *q = d + off;
            R r = R(0);
            if (s == 1)
                for (int64_t j = 0; j < n; ++j) r += cast<R>(q[j]);
            else
                for (int64_t j = 0; j < n; ++j) r += cast<R>(q[j * s]);
            acc += r;
        });
    }
    return acc;
}

template <class X> using expr_t = std::remove_cvref_t<decltype(as_expr(*static_cast<const X *>(nullptr)))>;

// The NumPy value of a reduction's operand: arrays as they are, 2+-d
// expressions materialized.
template <class R, class X> R sum_any(const X &x) {
    if constexpr (is_array<X>::value) {
        return sum_array<R>(x);
    } else {
        using E = expr_t<X>;
        using V = typename E::value_type;
        if constexpr (E::ndim == 0) {
            R acc = R(0);
            for_each_value(as_expr(x), [&](V v) { acc += cast<R>(v); });
            return acc;
        } else if constexpr (E::ndim == 1 && (std::is_same_v<V, R> || !is_fpc<R>)) {
            E e = as_expr(x);
            int64_t shape[1] = {e.dim(0)};
            if (shape[0] == 0) return R(0);
            e.bind(shape, 1);
            int64_t idx[1] = {0};
            auto cur = e.template row<false>(idx, 1);
            if constexpr (is_fpc<R>) {
                struct P {
                    decltype(cur) c;
                    int64_t base;
                    V operator[](int64_t i) const { return c[base + i]; }
                    P at(int64_t i) const { return P{c, base + i}; }
                };
                return R(0) + pairwise<R>(P{cur, 0}, shape[0]);
            } else {
                R acc = R(0);
                for (int64_t i = 0; i < shape[0]; ++i) acc += cast<R>(cur[i]);
                return acc;
            }
        } else if constexpr (!is_fpc<R>) {
            R acc = R(0);
            for_each_value(as_expr(x), [&](V v) { acc += cast<R>(v); });
            return acc;
        } else {
            return sum_array<R>(eval(as_expr(x)));
        }
    }
}

// Calls f(value) for every element in memory order (arrays) or C order.
template <class X, class F> void visit(const X &x, F &&f) {
    if constexpr (is_array<X>::value) {
        using T = typename X::value_type;
        if (x.size() == 0) return;
        Plan p = plan_of(x);
        const T *d = x.data;
        for_each_row(p, [&](int64_t off, int64_t n, int64_t s) {
            const T *q = d + off;
            if (s == 1)
                for (int64_t j = 0; j < n; ++j) f(q[j]);
            else
                for (int64_t j = 0; j < n; ++j) f(q[j * s]);
        });
    } else {
        for_each_value(as_expr(x), f);
    }
}

template <class X> int64_t count_of(const X &x) {
    using E = expr_t<X>;
    const E &e = as_expr(x);
    int64_t n = 1;
    for (int k = 0; k < E::ndim; ++k) n *= e.dim(k);
    return n;
}

// re*re + im*im with both products rounded (NumPy squares in place, then adds).
template <class R> TR_NO_FP_CONTRACT __attribute__((noinline)) R abs2(R re, R im) { return re * re + im * im; }

[[noreturn]] inline void no_identity(const char *op) {
    raise(TR_ERR_VALUE, "zero-size array to reduction operation %s which has no identity", op);
}

// max/min step: NaN sticks; of equal values the later one is kept (NumPy).
template <bool Max, class R> inline void minmax_step(R &acc, R v) {
    if constexpr (is_fp<R>) {
        if (fm::isnan(acc)) return;
        if (fm::isnan(v)) {
            acc = v;
            return;
        }
    }
    if constexpr (Max) acc = acc > v ? acc : v;
    else acc = acc < v ? acc : v;
}

// One row of an array into acc; returns true once a NaN is seen (NaN
// propagates, so the caller stops).  Unit-stride rows use eight running
// extremes and a NaN flag, which vectorizes.
template <bool Max, class R> inline R pick(R a, R v) {
    if constexpr (Max) return a > v ? a : v;
    else return a < v ? a : v;
}
template <bool Max, class R, class T> inline bool minmax_row(R &acc, const T *q, int64_t n, int64_t s) {
    int64_t j = 0;
    if (s == 1 && n >= 16) {
        R m[8];
        bool nan = false;
        for (int k = 0; k < 8; ++k) {
            m[k] = cast<R>(q[k]);
            if constexpr (is_fp<R>) nan |= m[k] != m[k];
        }
        for (j = 8; j + 8 <= n; j += 8)
            for (int k = 0; k < 8; ++k) {
                R v = cast<R>(q[j + k]);
                if constexpr (is_fp<R>) nan |= v != v;
                m[k] = pick<Max>(m[k], v);
            }
        if constexpr (is_fp<R>) {
            if (nan) {
                acc = fm::nan<R>();
                return true;
            }
        }
        for (int k = 0; k < 8; ++k) acc = pick<Max>(acc, m[k]);
    }
    for (; j < n; ++j) {
        R v = cast<R>(q[j * s]);
        if constexpr (is_fp<R>) {
            if (v != v) {
                acc = v;
                return true;
            }
        }
        acc = pick<Max>(acc, v);
    }
    return false;
}

template <bool Max, class R, class X> R minmax(const X &x) {
    static_assert(!is_complex<R>::value, "complex min/max is not supported");
    if constexpr (is_array<X>::value) {
        if (x.size() == 0) no_identity(Max ? "maximum" : "minimum");
        Plan p = plan_of(x);
        const auto *d = x.data;
        R acc = cast<R>(d[0]);
        if constexpr (is_fp<R>)
            if (acc != acc) return acc;
        bool nan = false;
        for_each_row(p, [&](int64_t off, int64_t n, int64_t s) {
            if (nan) return;
            nan = s == 1 ? minmax_row<Max>(acc, d + off, n, 1) : minmax_row<Max>(acc, d + off, n, s);
        });
        return acc;
    }
    using V = typename expr_t<X>::value_type;
    bool first = true;
    R acc = R(0);
    visit(x, [&](V v) {
        R r = cast<R>(v);
        if (first) {
            acc = r;
            first = false;
        } else {
            minmax_step<Max>(acc, r);
        }
    });
    if (first) no_identity(Max ? "maximum" : "minimum");
    return acc;
}

// argmax/argmin step at flat index i: first extreme wins, first NaN wins.
template <bool Max, class V> inline bool arg_better(V v, V best) {
    if constexpr (is_fp<V>) {
        if (fm::isnan(best)) return false;
        if (fm::isnan(v)) return true;
    }
    if constexpr (Max) return v > best;
    else return v < best;
}

template <bool Max, class X> int64_t argminmax(const X &x) {
    using E = expr_t<X>;
    using V = typename E::value_type;
    static_assert(!is_complex<V>::value, "complex argmin/argmax is not supported");
    if constexpr (is_array<X>::value) {
        // C-contiguous: find the extreme with the vectorized scan, then the
        // first position holding it (or the first NaN).
        if (x.size() > 0 && x.c_contiguous()) {
            const V *d = x.data;
            const int64_t n = x.size();
            V best = d[0];
            if constexpr (!is_fp<V>) {
                minmax_row<Max>(best, d, n, 1);
                for (int64_t i = 0; i < n; ++i)
                    if (d[i] == best) return i;
            } else {
                if (minmax_row<Max>(best, d, n, 1)) {
                    for (int64_t i = 0; i < n; ++i)
                        if (d[i] != d[i]) return i;
                }
                for (int64_t i = 0; i < n; ++i)
                    if (d[i] == best) return i;
            }
        }
    }
    int64_t i = 0, best_i = -1;
    V best = V(0);
    auto step = [&](V v) {
        if (best_i < 0 || arg_better<Max>(v, best)) {
            best = v;
            best_i = i;
        }
        ++i;
    };
    if constexpr (is_array<X>::value) {
        for_each(x, step);  // C order: NumPy returns the index into a.ravel()
    } else {
        for_each_value(as_expr(x), step);
    }
    if (best_i < 0) raise(TR_ERR_VALUE, "attempt to get %s of an empty sequence", Max ? "argmax" : "argmin");
    return best_i;
}

// ---- along one axis ----

// The output (all axes but `ax`) and, for each output element, where its
// input row starts.
template <int N> struct AxisGeom {
    int ax;
    int64_t n, s;                                  // reduced axis: length, stride
    int64_t oshape[N > 1 ? N - 1 : 1];
    int64_t istride[N > 1 ? N - 1 : 1];            // input strides of the output axes
    int64_t ostride[N > 1 ? N - 1 : 1];            // C strides of the output
    bool inner;                                    // reduced axis innermost in memory
};

template <class T, int N, int L> AxisGeom<N> axis_geom(const Array<T, N, L> &a, int64_t axis) {
    static_assert(N >= 1, "axis reductions need at least one dimension");
    AxisGeom<N> g;
    g.ax = normalize_axis(axis, N);
    g.n = a.shape[g.ax];
    g.s = a.stride(g.ax);
    int m = 0;
    for (int k = 0; k < N; ++k)
        if (k != g.ax) {
            g.oshape[m] = a.shape[k];
            g.istride[m] = a.stride(k);
            ++m;
        }
    int64_t st = 1;
    for (int k = N - 2; k >= 0; --k) {
        g.ostride[k] = st;
        st *= g.oshape[k] > 0 ? g.oshape[k] : 1;
    }
    Plan p = plan_of(a, false);
    g.inner = p.nd > 0 && p.axis[p.nd - 1] == g.ax;
    return g;
}

template <class R, int N> Array<R, (N > 1 ? N - 1 : 0), C> axis_out(const AxisGeom<N> &g) {
    return tr::empty<R, (N > 1 ? N - 1 : 0)>(g.oshape);
}

// out[o] = row(ptr, n, s) for each output element o.
template <class R, class T, int N, int L, class Row>
Array<R, N - 1, C> axis_rows(const Array<T, N, L> &a, const AxisGeom<N> &g, Row &&row) {
    Array<R, N - 1, C> out = axis_out<R>(g);
    R *o = out.data;
    const T *d = a.data;
    for_each_offset2<N - 1>(g.oshape, g.istride, g.ostride,
                            [&](int64_t ioff, int64_t ooff) { o[ooff] = row(d + ioff, g.n, g.s); });
    return out;
}

// Slice at a time: init(out_elem, first_value) for slice 0 (or identity
// when `from` is 0), then step(out_elem, value, i) for the next slices.
template <class R, class T, int N, int L, class Step>
void axis_slices(const Array<T, N, L> &a, const AxisGeom<N> &g, R *o, int64_t from, Step &&step) {
    const T *d = a.data;
    for (int64_t i = from; i < g.n; ++i) {
        const T *base = d + i * g.s;
        for_each_offset2<N - 1>(g.oshape, g.istride, g.ostride,
                                [&](int64_t ioff, int64_t ooff) { step(o[ooff], base[ioff], i); });
    }
}

template <class R, class T, int N, int L> Array<R, N - 1, C> sum_axis_impl(const Array<T, N, L> &a, int64_t axis) {
    AxisGeom<N> g = axis_geom(a, axis);
    if (g.inner)
        return axis_rows<R>(a, g, [](const T *p, int64_t n, int64_t s) {
            if constexpr (is_fpc<R>) {
                return R(R(0) + pairwise_row<R>(p, n, s));
            } else {
                R acc = R(0);
                for (int64_t i = 0; i < n; ++i) acc += cast<R>(p[i * s]);
                return acc;
            }
        });
    Array<R, N - 1, C> out = axis_out<R>(g);
    const int64_t m = out.size();
    for (int64_t j = 0; j < m; ++j) out.data[j] = R(0);
    axis_slices<R>(a, g, out.data, 0, [](R &acc, T v, int64_t) { acc += cast<R>(v); });
    return out;
}

template <class R, class T, int N, int L> Array<R, N - 1, C> prod_axis_impl(const Array<T, N, L> &a, int64_t axis) {
    AxisGeom<N> g = axis_geom(a, axis);
    if (g.inner)
        return axis_rows<R>(a, g, [](const T *p, int64_t n, int64_t s) {
            R acc = R(1);
            for (int64_t i = 0; i < n; ++i) acc = R(acc * cast<R>(p[i * s]));
            return acc;
        });
    Array<R, N - 1, C> out = axis_out<R>(g);
    const int64_t m = out.size();
    for (int64_t j = 0; j < m; ++j) out.data[j] = R(1);
    axis_slices<R>(a, g, out.data, 0, [](R &acc, T v, int64_t) { acc = R(acc * cast<R>(v)); });
    return out;
}

template <bool Max, class R, class T, int N, int L>
Array<R, N - 1, C> minmax_axis_impl(const Array<T, N, L> &a, int64_t axis) {
    static_assert(!is_complex<R>::value, "complex min/max is not supported");
    AxisGeom<N> g = axis_geom(a, axis);
    if (g.n == 0) no_identity(Max ? "maximum" : "minimum");
    if (g.inner)
        return axis_rows<R>(a, g, [](const T *p, int64_t n, int64_t s) {
            R acc = cast<R>(p[0]);
            for (int64_t i = 1; i < n; ++i) minmax_step<Max>(acc, cast<R>(p[i * s]));
            return acc;
        });
    Array<R, N - 1, C> out = axis_out<R>(g);
    axis_slices<R>(a, g, out.data, 0, [](R &acc, T v, int64_t i) {
        if (i == 0) acc = cast<R>(v);
        else minmax_step<Max>(acc, cast<R>(v));
    });
    return out;
}

template <bool Max, class T, int N, int L> Array<int64_t, N - 1, C> argminmax_axis_impl(const Array<T, N, L> &a, int64_t axis) {
    static_assert(!is_complex<T>::value, "complex argmin/argmax is not supported");
    AxisGeom<N> g = axis_geom(a, axis);
    if (g.n == 0) raise(TR_ERR_VALUE, "attempt to get %s of an empty sequence", Max ? "argmax" : "argmin");
    if (g.inner)
        return axis_rows<int64_t>(a, g, [](const T *p, int64_t n, int64_t s) {
            int64_t bi = 0;
            T best = p[0];
            for (int64_t i = 1; i < n; ++i)
                if (arg_better<Max>(p[i * s], best)) best = p[i * s], bi = i;
            return bi;
        });
    Array<int64_t, N - 1, C> out = axis_out<int64_t>(g);
    Array<T, N - 1, C> best = axis_out<T>(g);
    // Slice 0 initializes; the running best lives in `best` at the same offset.
    const T *d = a.data;
    int64_t *o = out.data;
    T *b = best.data;
    for (int64_t i = 0; i < g.n; ++i) {
        const T *base = d + i * g.s;
        for_each_offset2<N - 1>(g.oshape, g.istride, g.ostride, [&](int64_t ioff, int64_t ooff) {
            T v = base[ioff];
            if (i == 0 || arg_better<Max>(v, b[ooff])) b[ooff] = v, o[ooff] = i;
        });
    }
    return out;
}

}  // namespace detail

// ------------------------------------------------------- whole array

template <class R, class X> R sum(const X &x) { return detail::sum_any<R>(x); }

template <class R, class X> R prod(const X &x) {
    using V = typename detail::expr_t<X>::value_type;
    R acc = R(1);
    detail::visit(x, [&](V v) { acc = R(acc * cast<R>(v)); });
    return acc;
}

// R is float64 for integer input, the input's float type otherwise.
template <class R, class X> R mean(const X &x) {
    return detail::div_count(detail::sum_any<R>(x), detail::count_of(x));
}

template <class R, class X> R min(const X &x) { return detail::minmax<false, R>(x); }
template <class R, class X> R max(const X &x) { return detail::minmax<true, R>(x); }
template <class X> int64_t argmin(const X &x) { return detail::argminmax<false>(x); }
template <class X> int64_t argmax(const X &x) { return detail::argminmax<true>(x); }

template <class X> bool any(const X &x) {
    using V = typename detail::expr_t<X>::value_type;
    bool r = false;
    detail::visit(x, [&](V v) { r = r || bool(v); });
    return r;
}
template <class X> bool all(const X &x) {
    using V = typename detail::expr_t<X>::value_type;
    bool r = true;
    detail::visit(x, [&](V v) { r = r && bool(v); });
    return r;
}

// np.var(x, ddof=ddof): mean in R, then the pairwise sum of |x - mean|^2 over
// a temporary laid out like x, divided by max(n - ddof, 0).  R is the real
// result type (float64 for ints and complex128, float32 for float32 and
// complex64).
template <class R, class X> R var(const X &x, int64_t ddof = 0) {
    if constexpr (!is_array<X>::value) {
        return var<R>(eval(as_expr(x)), ddof);
    } else {
        using T = typename X::value_type;
        using M = std::conditional_t<is_complex<T>::value, complex_t<R>, R>;  // type of the mean
        const int64_t n = x.size();
        const M mu = detail::div_count(detail::sum_array<M>(x), n);
        R *buf = static_cast<R *>(malloc(sizeof(R) * size_t(n > 0 ? n : 1)));
        if (!buf) raise(TR_ERR_MEMORY, "Unable to allocate %lld bytes for an array", (long long)(sizeof(R) * n));
        int64_t i = 0;
        detail::visit(x, [&](T v) {
            M dv = M(cast<M>(v) - mu);
            if constexpr (is_complex<T>::value) buf[i++] = detail::abs2<R>(dv.re, dv.im);
            else buf[i++] = R(dv * dv);
        });
        R ss = R(0) + detail::pairwise<R>(detail::Unit<R>{buf}, n);
        free(buf);
        int64_t dof = n - ddof;
        return ss / R(dof > 0 ? dof : 0);
    }
}
template <class R, class X> R std(const X &x, int64_t ddof = 0) { return fm::sqrt(var<R>(x, ddof)); }

// ------------------------------------------------------- along an axis
// For a 1-d input the result is 0-d (the code generator reads element 0).

template <class R, class T, int N, int L> Array<R, N - 1, C> sum_axis(const Array<T, N, L> &a, int64_t axis) {
    return detail::sum_axis_impl<R>(a, axis);
}
template <class R, class T, int N, int L> Array<R, N - 1, C> prod_axis(const Array<T, N, L> &a, int64_t axis) {
    return detail::prod_axis_impl<R>(a, axis);
}
template <class R, class T, int N, int L> Array<R, N - 1, C> mean_axis(const Array<T, N, L> &a, int64_t axis) {
    Array<R, N - 1, C> out = detail::sum_axis_impl<R>(a, axis);
    const int64_t cnt = a.shape[detail::normalize_axis(axis, N)], m = out.size();
    for (int64_t j = 0; j < m; ++j) out.data[j] = detail::div_count(out.data[j], cnt);
    return out;
}
template <class R, class T, int N, int L> Array<R, N - 1, C> min_axis(const Array<T, N, L> &a, int64_t axis) {
    return detail::minmax_axis_impl<false, R>(a, axis);
}
template <class R, class T, int N, int L> Array<R, N - 1, C> max_axis(const Array<T, N, L> &a, int64_t axis) {
    return detail::minmax_axis_impl<true, R>(a, axis);
}
template <class T, int N, int L> Array<int64_t, N - 1, C> argmin_axis(const Array<T, N, L> &a, int64_t axis) {
    return detail::argminmax_axis_impl<false>(a, axis);
}
template <class T, int N, int L> Array<int64_t, N - 1, C> argmax_axis(const Array<T, N, L> &a, int64_t axis) {
    return detail::argminmax_axis_impl<true>(a, axis);
}


// np.var(a, axis, ddof) / np.std: NumPy's two passes along the axis.  The
// mean is summed like mean_axis; the squared deviations go to a temporary
// laid out like `a` (NumPy's order='K' temporaries), so the second sum runs
// in the same order as NumPy's.
template <class R, class T, int N, int L>
Array<R, N - 1, C> var_axis(const Array<T, N, L> &a, int64_t axis, int64_t ddof = 0) {
    using M = std::conditional_t<is_complex<T>::value, complex_t<R>, R>;
    const int ax = detail::normalize_axis(axis, N);
    Array<M, N - 1, C> mu = detail::sum_axis_impl<M>(a, ax);
    const int64_t cnt = a.shape[ax], m = mu.size();
    for (int64_t j = 0; j < m; ++j) mu.data[j] = detail::div_count(mu.data[j], cnt);
    // strides of the temporary: a's axes by decreasing |stride|, contiguous
    int perm[N];
    for (int k = 0; k < N; ++k) perm[k] = k;
    for (int i = 1; i < N; ++i)
        for (int j = i; j > 0 && detail::iabs(a.stride(perm[j - 1])) < detail::iabs(a.stride(perm[j])); --j) {
            int t = perm[j];
            perm[j] = perm[j - 1];
            perm[j - 1] = t;
        }
    Array<R, N, A> x;
    {
        Array<R, 1, C> buf;
        const int64_t total[1] = {a.size()};
        buf = tr::empty<R, 1>(total);
        x.data = buf.data;
        x.owner = buf.owner;
        int64_t st = 1;
        for (int i = N - 1; i >= 0; --i) {
            const int k = perm[i];
            x.shape[k] = a.shape[k];
            x.strides[k] = st;
            st *= a.shape[k] > 0 ? a.shape[k] : 1;
        }
    }
    if (a.size() > 0) {
        int64_t idx[N] = {};
        const int64_t total = a.size();
        for (int64_t n = 0; n < total; ++n) {
            int64_t ao = 0, xo = 0, mo = 0;
            for (int k = 0, j = 0; k < N; ++k) {
                ao += idx[k] * a.stride(k);
                xo += idx[k] * x.strides[k];
                if (k != ax) mo += idx[k] * mu.stride(j++);
            }
            M dv = M(cast<M>(a.data[ao]) - mu.data[mo]);
            if constexpr (is_complex<T>::value) x.data[xo] = detail::abs2<R>(dv.re, dv.im);
            else x.data[xo] = R(dv * dv);
            for (int k = N - 1; k >= 0; --k) {
                if (++idx[k] < a.shape[k]) break;
                idx[k] = 0;
            }
        }
    }
    Array<R, N - 1, C> out = detail::sum_axis_impl<R>(x, ax);
    const int64_t dof = cnt - ddof;
    const R div = R(dof > 0 ? dof : 0);
    for (int64_t j = 0; j < m; ++j) out.data[j] = out.data[j] / div;
    return out;
}
template <class R, class T, int N, int L>
Array<R, N - 1, C> std_axis(const Array<T, N, L> &a, int64_t axis, int64_t ddof = 0) {
    Array<R, N - 1, C> out = var_axis<R>(a, axis, ddof);
    const int64_t m = out.size();
    for (int64_t j = 0; j < m; ++j) out.data[j] = fm::sqrt(out.data[j]);
    return out;
}

// np.any / np.all along one axis.
template <bool All, class T, int N, int L> Array<bool, N - 1, C> anyall_axis(const Array<T, N, L> &a, int64_t axis) {
    detail::AxisGeom<N> g = detail::axis_geom(a, axis);
    Array<bool, N - 1, C> out = detail::axis_out<bool>(g);
    const int64_t m = out.size();
    for (int64_t j = 0; j < m; ++j) out.data[j] = All;
    detail::axis_slices<bool>(a, g, out.data, 0, [](bool &acc, T v, int64_t) {
        if constexpr (All) acc = acc && bool(v);
        else acc = acc || bool(v);
    });
    return out;
}
template <class T, int N, int L> Array<bool, N - 1, C> any_axis(const Array<T, N, L> &a, int64_t axis) {
    return anyall_axis<false>(a, axis);
}
template <class T, int N, int L> Array<bool, N - 1, C> all_axis(const Array<T, N, L> &a, int64_t axis) {
    return anyall_axis<true>(a, axis);
}

// keepdims=True: a reduction's result with the reduced axis back, length 1
// (a view of the result), or a whole-array result as an array of ones' shape.
template <class T, int M> Array<T, M + 1, C> keep_axis(const Array<T, M, C> &r, int64_t axis) {
    const int ax = detail::normalize_axis(axis, M + 1);
    Array<T, M + 1, C> v;
    v.data = r.data;
    v.owner = r.owner;
    for (int k = 0, j = 0; k < M + 1; ++k) {
        if (k == ax) {
            v.shape[k] = 1;
            v.strides[k] = 1;
        } else {
            v.shape[k] = r.shape[j];
            v.strides[k] = r.stride(j);
            ++j;
        }
    }
    return v;
}
template <int N, class T> Array<T, N, C> keep_all(T value) {
    static_assert(N >= 1, "keepdims of a 0-d array");
    int64_t shape[N];
    for (int k = 0; k < N; ++k) shape[k] = 1;
    Array<T, N, C> a = tr::empty<T, N>(shape);
    a.data[0] = value;
    return a;
}

}  // namespace np
}  // namespace tr
