// np.dot and np.matmul (the @ operator) for 1-d and 2-d operands.  R is
// the result dtype chosen by the caller.  A floating-point or complex result
// is NumPy's own (../python_calls.hpp: its BLAS decides the bits); integer and
// bool products are computed here, exactly (wrapping like NumPy), elements
// converted to R before multiplying.  Matrix products use a blocked i-k-j
// loop over a unit-stride copy of the right operand so the inner loop
// vectorizes.
#pragma once
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <type_traits>
#include "../array.hpp"
#include "../expr.hpp"
#include "common.hpp"
#include "../python_calls.hpp"

namespace tr {
namespace np {
namespace detail {

[[noreturn]] __attribute__((cold, noinline)) inline void dot_error(const int64_t *sa, int na, const int64_t *sb, int nb,
                                                                 int da, int db) {
    char a[128], b[128];
    format_shape(a, sizeof a, sa, na);
    format_shape(b, sizeof b, sb, nb);
    raise(TR_ERR_VALUE, "shapes %s and %s not aligned: %lld (dim %d) != %lld (dim %d)", a, b, (long long)sa[da], da,
          (long long)sb[db], db);
}

[[noreturn]] __attribute__((cold, noinline)) inline void matmul_error(int64_t kb, int64_t ka) {
    raise(TR_ERR_VALUE,
          "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
          "(n?,k),(k,m?)->(n?,m?) (size %lld is different from %lld)",
          (long long)kb, (long long)ka);
}

// Right operand as R with unit inner stride: the array itself when it
// already is, otherwise a temporary copy (kept alive by `hold`).
template <class R, class T, int L> const R *unit_rows(const Array<T, 2, L> &b, int64_t &ld, Array<R, 2, C> &hold) {
    if constexpr (std::is_same_v<T, R>) {
        if (b.stride(1) == 1 || b.shape[1] <= 1) {
            ld = b.stride(0);
            return b.data;
        }
    }
    hold = tr::empty<R, 2>(b.shape);
    const int64_t n = b.shape[0], m = b.shape[1];
    for (int64_t k = 0; k < n; ++k)
        for (int64_t j = 0; j < m; ++j) hold.data[k * m + j] = cast<R>(b.data[k * b.stride(0) + j * b.stride(1)]);
    ld = m;
    return hold.data;
}

template <class R, class T1, int L1, class T2, int L2> R vdot(const Array<T1, 1, L1> &a, const Array<T2, 1, L2> &b) {
    const int64_t n = a.shape[0], sa = a.stride(0), sb = b.stride(0);
    R acc[4] = {R(0), R(0), R(0), R(0)};
    int64_t i = 0;
    for (; i + 4 <= n; i += 4)
        for (int k = 0; k < 4; ++k) acc[k] += cast<R>(a.data[(i + k) * sa]) * cast<R>(b.data[(i + k) * sb]);
    for (; i < n; ++i) acc[0] += cast<R>(a.data[i * sa]) * cast<R>(b.data[i * sb]);
    return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

template <class R, class T1, int L1, class T2, int L2>
Array<R, 2, C> mm(const Array<T1, 2, L1> &a, const Array<T2, 2, L2> &b) {
    const int64_t n = a.shape[0], K = a.shape[1], m = b.shape[1];
    const int64_t shape[2] = {n, m};
    Array<R, 2, C> out = tr::empty<R, 2>(shape);
    R *__restrict o = out.data;
    for (int64_t t = 0; t < n * m; ++t) o[t] = R(0);
    if (n == 0 || m == 0 || K == 0) return out;
    Array<R, 2, C> hold;
    int64_t ldb;
    const R *__restrict B = unit_rows<R>(b, ldb, hold);
    const int64_t sa0 = a.stride(0), sa1 = a.stride(1);
    // Blocks: a KB x JB panel of B (256 KiB of float64) stays in L2 while
    // every row of A streams past it.
    constexpr int64_t KB = 128, JB = 256;
    for (int64_t jj = 0; jj < m; jj += JB) {
        const int64_t jn = m - jj < JB ? m - jj : JB;
        for (int64_t kk = 0; kk < K; kk += KB) {
            const int64_t kn = K - kk < KB ? K - kk : KB;
            int64_t i = 0;
            for (; i < n; ++i) {
                R *__restrict crow = o + i * m + jj;
                const T1 *arow = a.data + i * sa0;
                for (int64_t k = kk; k < kk + kn; ++k) {
                    const R aik = cast<R>(arow[k * sa1]);
                    const R *__restrict brow = B + k * ldb + jj;
                    for (int64_t j = 0; j < jn; ++j) crow[j] += aik * brow[j];
                }
            }
        }
    }
    return out;
}

// (n,k) x (k,)
template <class R, class T1, int L1, class T2, int L2> Array<R, 1, C> mv(const Array<T1, 2, L1> &a, const Array<T2, 1, L2> &x) {
    const int64_t n = a.shape[0], K = a.shape[1];
    const int64_t shape[1] = {n};
    Array<R, 1, C> out = tr::empty<R, 1>(shape);
    const int64_t sa0 = a.stride(0), sa1 = a.stride(1), sx = x.stride(0);
    for (int64_t i = 0; i < n; ++i) {
        R acc = R(0);
        const T1 *arow = a.data + i * sa0;
        for (int64_t k = 0; k < K; ++k) acc += cast<R>(arow[k * sa1]) * cast<R>(x.data[k * sx]);
        out.data[i] = acc;
    }
    return out;
}

// (k,) x (k,m)
template <class R, class T1, int L1, class T2, int L2> Array<R, 1, C> vm(const Array<T1, 1, L1> &x, const Array<T2, 2, L2> &b) {
    const int64_t K = b.shape[0], m = b.shape[1];
    const int64_t shape[1] = {m};
    Array<R, 1, C> out = tr::empty<R, 1>(shape);
    R *__restrict o = out.data;
    for (int64_t j = 0; j < m; ++j) o[j] = R(0);
    if (m == 0 || K == 0) return out;
    Array<R, 2, C> hold;
    int64_t ldb;
    const R *__restrict B = unit_rows<R>(b, ldb, hold);
    for (int64_t k = 0; k < K; ++k) {
        const R xk = cast<R>(x.data[k * x.stride(0)]);
        const R *__restrict brow = B + k * ldb;
        for (int64_t j = 0; j < m; ++j) o[j] += xk * brow[j];
    }
    return out;
}

}  // namespace detail

// ---------------------------------------------------------------- dot

template <class R, class T1, int L1, class T2, int L2> R dot(const Array<T1, 1, L1> &a, const Array<T2, 1, L2> &b) {
    if constexpr (computed_by_numpy<R>) return call_python<R>("numpy", "dot", {box(a), box(b)});
    else {
        if (a.shape[0] != b.shape[0]) detail::dot_error(a.shape, 1, b.shape, 1, 0, 0);
        return detail::vdot<R>(a, b);
    }
}
template <class R, class T1, int L1, class T2, int L2>
Array<R, 2, C> dot(const Array<T1, 2, L1> &a, const Array<T2, 2, L2> &b) {
    if constexpr (computed_by_numpy<R>) return call_python<Array<R, 2, C>>("numpy", "dot", {box(a), box(b)});
    else {
        if (a.shape[1] != b.shape[0]) detail::dot_error(a.shape, 2, b.shape, 2, 1, 0);
        return detail::mm<R>(a, b);
    }
}
template <class R, class T1, int L1, class T2, int L2>
Array<R, 1, C> dot(const Array<T1, 2, L1> &a, const Array<T2, 1, L2> &b) {
    if constexpr (computed_by_numpy<R>) return call_python<Array<R, 1, C>>("numpy", "dot", {box(a), box(b)});
    else {
        if (a.shape[1] != b.shape[0]) detail::dot_error(a.shape, 2, b.shape, 1, 1, 0);
        return detail::mv<R>(a, b);
    }
}
template <class R, class T1, int L1, class T2, int L2>
Array<R, 1, C> dot(const Array<T1, 1, L1> &a, const Array<T2, 2, L2> &b) {
    if constexpr (computed_by_numpy<R>) return call_python<Array<R, 1, C>>("numpy", "dot", {box(a), box(b)});
    else {
        if (a.shape[0] != b.shape[0]) detail::dot_error(a.shape, 1, b.shape, 2, 0, 0);
        return detail::vm<R>(a, b);
    }
}

// ------------------------------------------------------------- matmul

template <class R, class T1, int L1, class T2, int L2> R matmul(const Array<T1, 1, L1> &a, const Array<T2, 1, L2> &b) {
    if constexpr (computed_by_numpy<R>) return call_python<R>("numpy", "matmul", {box(a), box(b)});
    else {
        if (a.shape[0] != b.shape[0]) detail::matmul_error(b.shape[0], a.shape[0]);
        return detail::vdot<R>(a, b);
    }
}
template <class R, class T1, int L1, class T2, int L2>
Array<R, 2, C> matmul(const Array<T1, 2, L1> &a, const Array<T2, 2, L2> &b) {
    if constexpr (computed_by_numpy<R>) return call_python<Array<R, 2, C>>("numpy", "matmul", {box(a), box(b)});
    else {
        if (a.shape[1] != b.shape[0]) detail::matmul_error(b.shape[0], a.shape[1]);
        return detail::mm<R>(a, b);
    }
}
template <class R, class T1, int L1, class T2, int L2>
Array<R, 1, C> matmul(const Array<T1, 2, L1> &a, const Array<T2, 1, L2> &b) {
    if constexpr (computed_by_numpy<R>) return call_python<Array<R, 1, C>>("numpy", "matmul", {box(a), box(b)});
    else {
        if (a.shape[1] != b.shape[0]) detail::matmul_error(b.shape[0], a.shape[1]);
        return detail::mv<R>(a, b);
    }
}
template <class R, class T1, int L1, class T2, int L2>
Array<R, 1, C> matmul(const Array<T1, 1, L1> &a, const Array<T2, 2, L2> &b) {
    if constexpr (computed_by_numpy<R>) return call_python<Array<R, 1, C>>("numpy", "matmul", {box(a), box(b)});
    else {
        if (a.shape[0] != b.shape[0]) detail::matmul_error(b.shape[0], a.shape[0]);
        return detail::vm<R>(a, b);
    }
}

// Lazy expression operands are evaluated first.
template <class R, class X, class Y>
    requires(!is_array<X>::value || !is_array<Y>::value)
auto dot(const X &x, const Y &y) {
    return dot<R>(eval(x), eval(y));
}
template <class R, class X, class Y>
    requires(!is_array<X>::value || !is_array<Y>::value)
auto matmul(const X &x, const Y &y) {
    return matmul<R>(eval(x), eval(y));
}

}  // namespace np
}  // namespace tr
