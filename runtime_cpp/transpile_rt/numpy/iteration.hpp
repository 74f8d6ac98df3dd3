// NumPy's iteration objects as loop cursors: np.ndindex, np.ndenumerate,
// ndarray.flat and np.nditer.  A compiled `for` loop over one of them is
//     for (bool ok = it.begin(); ok; ok = it.next()) { ... it.<element> ... }
// and reads the arrays as it goes, as NumPy's iterators do (a loop body that
// writes ahead in the array sees its writes).
//
// Orders are NumPy's: ndindex, ndenumerate and flat walk C order; nditer
// walks order='K' (memory order): NumPy's iterator flips axes along which no
// operand has a positive stride, then sorts the axes by stride with an
// insertion sort in which C order wins conflicts between operands
// (nditer_constr.c, npyiter_flip_negative_strides and
// npyiter_find_best_axis_ordering).  Visiting order is all that matters
// here: coalescing axes and buffering change no element or order.
#pragma once
#include <stdint.h>
#include "../array.hpp"
#include "../error.hpp"
#include "common.hpp"  // detail::iabs

namespace tr {
namespace np {

template <int N> struct Dims {
    int64_t v[N > 0 ? N : 1];
};

// An index tuple walking `shape` in C order; move(k, n) is told each step
// along axis k (n = 1) and each rewind of it (n = -length), for cursors that
// keep pointers in step.
template <int N> struct Odometer {
    int64_t shape[N > 0 ? N : 1] = {};
    int64_t idx[N > 0 ? N : 1] = {};

    bool start() {
        for (int k = 0; k < N; ++k) {
            idx[k] = 0;
            if (shape[k] == 0) return false;
        }
        return true;
    }
    template <class Move> bool advance(Move &&move) {
        for (int k = N - 1; k >= 0; --k) {
            move(k, int64_t(1));
            if (++idx[k] < shape[k]) return true;
            move(k, -idx[k]);
            idx[k] = 0;
        }
        return false;
    }
};

// np.ndindex(*shape): the index tuples of `shape` in C order.
template <int N> struct NdIndex : Odometer<N> {
    explicit NdIndex(const Dims<N> &s) {
        for (int k = 0; k < N; ++k) {
            if (s.v[k] < 0) raise(TR_ERR_VALUE, "negative dimensions are not allowed");
            this->shape[k] = s.v[k];
        }
    }
    bool begin() { return this->start(); }
    bool next() {
        return this->advance([](int, int64_t) {});
    }
};

// C-order walk of an array: index tuple and element pointer (flat, ndenumerate).
template <class T, int N, int L> struct FlatWalk : Odometer<N> {
    Array<T, N, L> a;
    T *p = nullptr;

    explicit FlatWalk(const Array<T, N, L> &arr) : a(arr) {
        for (int k = 0; k < N; ++k) this->shape[k] = a.shape[k];
    }
    bool begin() {
        p = a.data;
        return this->start();
    }
    bool next() {
        return this->advance([&](int k, int64_t n) { p += a.stride(k) * n; });
    }
    T &cur() const { return *p; }

    // a.flat[i]: the i-th element in C order (negative i counts from the end).
    T &at(int64_t i) const {
        const int64_t n = a.size();
        const int64_t j = i < 0 ? i + n : i;
        if (j < 0 || j >= n) raise(TR_ERR_INDEX, "index %lld is out of bounds for size %lld", (long long)i, (long long)n);
        int64_t off = 0, rest = j;
        for (int k = N - 1; k >= 0; --k) {
            off += (rest % a.shape[k]) * a.stride(k);
            rest /= a.shape[k];
        }
        return a.data[off];
    }
};

template <class T, int N, int L> FlatWalk<T, N, L> flat(const Array<T, N, L> &a) { return FlatWalk<T, N, L>(a); }

// np.nditer over M operands broadcast together, in order='K' (or 'C').
// The element of operand k is a 0-d view of the current element.
template <int M, int N> struct NdIter : Odometer<N> {
    char *base[M];
    int64_t bstride[M][N > 0 ? N : 1];  // strides in bytes along the walk's axes, outer to inner
    char *p[M];
    Owner owner[M];

    bool begin() {
        for (int m = 0; m < M; ++m) p[m] = base[m];
        return this->start();
    }
    bool next() {
        return this->advance([&](int k, int64_t n) {
            for (int m = 0; m < M; ++m) p[m] += bstride[m][k] * n;
        });
    }
    template <int m, class T> Array<T, 0, C> elem() const {
        Array<T, 0, C> v;
        v.data = reinterpret_cast<T *>(p[m]);
        v.owner = owner[m];
        return v;
    }
};

namespace detail {

// Broadcast shape and per-operand byte strides (0 along broadcast axes), C axis order.
template <int M, int N> struct Operands {
    int64_t shape[N > 0 ? N : 1];
    int64_t st[M][N > 0 ? N : 1];
    bool full[M][N > 0 ? N : 1];  // the operand has the axis (length > 1 or not broadcast)
    char *data[M];
    Owner owner[M];
};

template <int M, int N, int K, class T, int NA, int LA>
void add_operand(Operands<M, N> &o, const Array<T, NA, LA> &a) {
    static_assert(NA <= N, "operand with more dimensions than the iteration");
    o.data[K] = reinterpret_cast<char *>(a.data);
    o.owner[K] = a.owner;
    for (int k = 0; k < N; ++k) {
        const int j = k - (N - NA);  // operand axis aligned to iteration axis k (broadcasting from the right)
        if (j < 0) {
            o.st[K][k] = 0;
            o.full[K][k] = false;
            continue;
        }
        const int64_t n = a.shape[j];
        o.full[K][k] = n != 1;
        if (n != 1 && o.shape[k] != 1 && n != o.shape[k])
            raise(TR_ERR_VALUE, "operands could not be broadcast together");
        if (n != 1) o.shape[k] = n;
        o.st[K][k] = n == 1 ? 0 : a.stride(j) * int64_t(sizeof(T));
    }
}

}  // namespace detail

// writable: bit k set when operand k is written through its elements (op_flags readwrite/writeonly).
template <int N, class... Arrays> NdIter<int(sizeof...(Arrays)), N> nditer(bool order_k, int writable, const Arrays &...arrays) {
    constexpr int M = int(sizeof...(Arrays));
    detail::Operands<M, N> o;
    for (int k = 0; k < N; ++k) o.shape[k] = 1;
    [&]<int... K>(std::integer_sequence<int, K...>) {
        (detail::add_operand<M, N, K>(o, arrays), ...);
    }(std::make_integer_sequence<int, M>{});
    // Broadcasting gives an operand stride 0 along an axis; one written to must not broadcast.
    for (int m = 0; m < M; ++m)
        if (writable >> m & 1)
            for (int k = 0; k < N; ++k)
                if (o.st[m][k] == 0 && o.shape[k] > 1 && !o.full[m][k])
                    raise(TR_ERR_VALUE, "non-broadcastable output operand with shape doesn't match the broadcast shape");
    NdIter<M, N> it;
    int perm[N > 0 ? N : 1];  // perm[i]: the C axis walked i-th from the outermost
    for (int k = 0; k < N; ++k) perm[k] = k;
    for (int m = 0; m < M; ++m) it.base[m] = o.data[m];
    if (order_k) {
        // Flip axes along which no operand has a positive stride (and one a negative one).
        for (int k = 0; k < N; ++k) {
            bool any_negative = false, positive = false;
            for (int m = 0; m < M; ++m) {
                if (o.st[m][k] < 0) any_negative = true;
                else if (o.st[m][k] > 0) positive = true;
            }
            if (any_negative && !positive) {
                for (int m = 0; m < M; ++m) {
                    o.data[m] += o.st[m][k] * (o.shape[k] - 1);
                    it.base[m] = o.data[m];
                    o.st[m][k] = -o.st[m][k];
                }
            }
        }
        // Stable insertion sort of the axes, innermost first, by stride; ties and
        // operands that disagree leave C order.
        int inner[N > 0 ? N : 1];  // inner[i]: the i-th innermost C axis
        for (int i = 0; i < N; ++i) inner[i] = N - 1 - i;
        for (int i0 = 1; i0 < N; ++i0) {
            const int ax0 = inner[i0];
            int ipos = i0;
            for (int i1 = i0 - 1; i1 >= 0; --i1) {
                const int ax1 = inner[i1];
                bool ambiguous = true, swap = false;
                for (int m = 0; m < M; ++m) {
                    const int64_t s0 = o.st[m][ax0], s1 = o.st[m][ax1];
                    if (s0 != 0 && s1 != 0) {
                        if (detail::iabs(s1) <= detail::iabs(s0)) swap = false;
                        else if (ambiguous) swap = true;
                        ambiguous = false;
                    }
                }
                if (!ambiguous) {
                    if (swap) ipos = i1;
                    else break;
                }
            }
            if (ipos != i0) {
                for (int i1 = i0; i1 > ipos; --i1) inner[i1] = inner[i1 - 1];
                inner[ipos] = ax0;
            }
        }
        for (int i = 0; i < N; ++i) perm[i] = inner[N - 1 - i];
    }
    for (int i = 0; i < N; ++i) {
        it.shape[i] = o.shape[perm[i]];
        for (int m = 0; m < M; ++m) it.bstride[m][i] = o.st[m][perm[i]];
    }
    for (int m = 0; m < M; ++m) it.owner[m] = o.owner[m];
    bool empty = false;
    for (int k = 0; k < N; ++k) empty = empty || o.shape[k] == 0;
    if (empty) raise(TR_ERR_VALUE, "Iteration of zero-sized operands is not enabled");
    return it;
}

}  // namespace np
}  // namespace tr
