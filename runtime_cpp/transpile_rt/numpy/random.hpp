// np.random draws in compiled code, from NumPy's own bit generator state.
//
// The bridge hands out the bitgen_t the global RandomState
// (np.random.mtrand._rand) draws through, together with its cached second
// Gaussian, with its lock held (host random_hold; bridge/random.c).  Each
// draw advances that same state with the legacy algorithm NumPy's
// RandomState method uses, so a seeded sequence is NumPy's
// whichever side draws, and Python draws before, between and after compiled
// ones continue the same stream.  The bounded-integer algorithm is NumPy's
// own (libnpyrandom.a, linked into modules that include this header:
// build/toolchain.py).  Draws need the interpreter's lock: modules that draw
// keep the GIL and never run draws on prange threads.
#pragma once
#include <stdint.h>
#include "../fallback.hpp"

extern "C" {
#include "numpy/random/bitgen.h"
// from numpy/random/distributions.h, which includes Python.h: declared here instead
void random_bounded_uint64_fill(bitgen_t *bitgen_state, uint64_t off, uint64_t rng, intptr_t cnt, bool use_masked,
                                uint64_t *out);
}

namespace tr {
namespace random {

// The global RandomState's state, its lock held by this thread until the entry's CallScope ends (or the
// bridge is called for anything else): taken at the first draw of a call, not at each.
struct Drawing {
    tr_random *r;
    Drawing() {
        if (!host().table) raise(TR_ERR_RUNTIME, "%s", "np.random: this module was not given the bridge's host table");
        r = host().table->random_hold(nullptr);
        if (!r) python_error();
    }
    bitgen_t *bg() const { return static_cast<bitgen_t *>(r->bitgen); }
    double next_double() const { return bg()->next_double(bg()->state); }
};

// In each entry of a module that draws: gives the lock back when the call returns or raises.
struct CallScope {
    CallScope() = default;
    CallScope(const CallScope &) = delete;
    CallScope &operator=(const CallScope &) = delete;
    ~CallScope() {
        if (host().table) host().table->random_release();
    }
};

// RandomState's Gaussian: the polar Box-Muller method, which makes two values
// and keeps the second in the RandomState for the next call (legacy_gauss).
inline double legacy_gauss(const Drawing &l) {
    if (*l.r->has_gauss) {
        const double kept = *l.r->gauss;
        *l.r->has_gauss = 0;
        *l.r->gauss = 0.0;
        return kept;
    }
    double x1, x2, r2;
    do {
        x1 = 2.0 * l.next_double() - 1.0;
        x2 = 2.0 * l.next_double() - 1.0;
        r2 = x1 * x1 + x2 * x2;
    } while (r2 >= 1.0 || r2 == 0.0);
    const double f = __builtin_sqrt(-2.0 * __builtin_log(r2) / r2);  // libm's log, as NumPy's
    *l.r->gauss = f * x1;
    *l.r->has_gauss = 1;
    return f * x2;
}

// NumPy's checks before a draw, shared by the one-value and the size= forms.
inline double checked_range(double low, double high) {
    const double range = high - low;
    if (!__builtin_isfinite(range)) raise(TR_ERR_OVERFLOW, "%s", "Range exceeds valid bounds");
    return range;
}

// NumPy refuses a scale whose sign bit is set (-0.0 too), not NaN.
inline void check_scale(double scale) {
    if (!__builtin_isnan(scale) && __builtin_signbit(scale)) raise(TR_ERR_VALUE, "%s", "scale < 0");
}

// n int64 values on [low, high) by masked rejection, as RandomState draws them (libnpyrandom.a).
inline void bounded_fill(int64_t low, int64_t high, int64_t n, int64_t *out) {
    if (low >= high) raise(TR_ERR_VALUE, "%s", "low >= high");
    const uint64_t rng = uint64_t(high) - 1u - uint64_t(low), off = uint64_t(low);
    random_bounded_uint64_fill(Drawing().bg(), off, rng, n, true, reinterpret_cast<uint64_t *>(out));
}

// np.random.random() / random_sample() / rand()
inline double random_sample() {
    Drawing l;
    return l.next_double();
}

// np.random.uniform(low, high): low + (high - low) * U; NumPy checks the range first.
inline double uniform(double low, double high) {
    const double range = checked_range(low, high);
    Drawing l;
    return low + range * l.next_double();
}

// np.random.standard_normal() / randn()
inline double standard_normal() {
    Drawing l;
    return legacy_gauss(l);
}

// np.random.normal(loc, scale)
inline double normal(double loc, double scale) {
    check_scale(scale);
    Drawing l;
    return loc + scale * legacy_gauss(l);
}

// np.random.randint(low, high): int64 on [low, high), by masked rejection as RandomState draws it.
inline int64_t randint(int64_t low, int64_t high) {
    int64_t out;
    bounded_fill(low, high, 1, &out);
    return out;
}

// np.random.randint(high): [0, high)
inline int64_t randint_high(int64_t high) {
    if (high <= 0) raise(TR_ERR_VALUE, "%s", "high <= 0");
    return randint(0, high);
}

// size= / dims: the same draws in C order, one lock for the fill, after the same checks as one draw.
template <class T, int N, class Draw> Array<T, N, C> fill(const int64_t (&shape)[N], Draw draw) {
    Array<T, N, C> out = tr::empty<T, N>(shape);  // negative dimensions: NumPy's ValueError
    const int64_t n = out.size();
    if (n) {
        Drawing l;
        for (int64_t i = 0; i < n; ++i) out.data[i] = draw(l);
    }
    return out;
}

template <int N> Array<double, N, C> random_sample_n(const int64_t (&shape)[N]) {
    return fill<double, N>(shape, [](const Drawing &l) { return l.next_double(); });
}

template <int N> Array<double, N, C> standard_normal_n(const int64_t (&shape)[N]) {
    return fill<double, N>(shape, [](const Drawing &l) { return legacy_gauss(l); });
}

template <int N> Array<double, N, C> uniform_n(double low, double high, const int64_t (&shape)[N]) {
    const double range = checked_range(low, high);
    return fill<double, N>(shape, [=](const Drawing &l) { return low + range * l.next_double(); });
}

template <int N> Array<double, N, C> normal_n(double loc, double scale, const int64_t (&shape)[N]) {
    check_scale(scale);
    return fill<double, N>(shape, [=](const Drawing &l) { return loc + scale * legacy_gauss(l); });
}

// NumPy returns an empty array for an empty shape before it checks the bounds, and fills the rest in one
// call of the bounded fill (its 32-bit draws for narrow ranges are those of single draws).
template <int N>
Array<int64_t, N, C> randint_n(int64_t low, int64_t high, const int64_t (&shape)[N], bool one = false) {
    int64_t n = 1;
    for (int k = 0; k < N; ++k) n *= shape[k];
    if (n == 0) return tr::empty<int64_t, N>(shape);
    if (one && high <= 0) raise(TR_ERR_VALUE, "%s", "high <= 0");
    if (low >= high) raise(TR_ERR_VALUE, "%s", "low >= high");  // before the array: NumPy allocates nothing
    Array<int64_t, N, C> out = tr::empty<int64_t, N>(shape);
    bounded_fill(low, high, n, out.data);
    return out;
}

template <int N> Array<int64_t, N, C> randint_high_n(int64_t high, const int64_t (&shape)[N]) {
    return randint_n<N>(0, high, shape, true);
}

}  // namespace random
}  // namespace tr
