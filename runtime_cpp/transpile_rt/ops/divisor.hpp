// `x % m` and `x // m` on int64 where m stays the same through a loop
// (passes/divisors.py picks them): a multiplication by m's reciprocal instead
// of a division.  A division's latency (~12-40 cycles) is the whole cost of a
// loop like fib_mod's `b = (a + b) % m`; two multiplications take ~7.
//
// The reciprocal is Lemire, Kaser and Kurz's (Faster Remainder by Direct
// Computation, 2019): for 32-bit a and d, c = ceil(2^64 / d) gives
// a // d = (c * a) >> 64 (d > 1; c wraps to 0 for d == 1) and
// a % d = ((c * a mod 2^64) * d) >> 64, both exact.  So the fast path takes
// operands in [0, 2^32) as ops/operators.hpp's narrow_division does, and every
// other operand (negative, wide, a zero divisor: ZeroDivisionError) the
// ordinary path.  The cache keeps the last divisor and its c, and is rebuilt
// (one division) when the divisor differs: a divisor that varies costs speed,
// never a wrong value.
#pragma once
#include <stdint.h>

#include "python.hpp"

namespace tr {

struct DivisorCache {
    uint64_t d = 0;  // 0: empty (no divisor is 0 on the fast path)
    uint64_t c = 0;  // ceil(2^64 / d), mod 2^64
};

namespace detail {

TR_HD inline uint64_t mul_high(uint64_t a, uint64_t b) {
#if defined(__CUDA_ARCH__)
    return __umul64hi(a, b);
#else
    return uint64_t((unsigned __int128)a * b >> 64);
#endif
}

// Whether a and d take the fast path; if so, the cache holds d.
TR_HD __attribute__((always_inline)) inline bool narrow_cached(int64_t a, int64_t d, DivisorCache &cache) {
    if (((uint64_t(a) | uint64_t(d)) >> 32) != 0 || d == 0) return false;
    if (__builtin_expect(uint64_t(d) != cache.d, 0)) {
        cache.d = uint64_t(d);
        cache.c = ~uint64_t(0) / uint64_t(d) + 1;
    }
    return true;
}

TR_HD inline int64_t narrow_mod(int64_t a, const DivisorCache &cache) {
    return int64_t(mul_high(cache.c * uint64_t(a), cache.d));
}

TR_HD inline int64_t narrow_floordiv(int64_t a, const DivisorCache &cache) {
    return cache.d == 1 ? a : int64_t(mul_high(cache.c, uint64_t(a)));
}

}  // namespace detail

namespace py {

TR_HD inline int64_t mod(int64_t a, int64_t b, DivisorCache &cache) {
    return detail::narrow_cached(a, b, cache) ? detail::narrow_mod(a, cache) : mod(a, b);
}
TR_HD inline int64_t floordiv(int64_t a, int64_t b, DivisorCache &cache) {
    return detail::narrow_cached(a, b, cache) ? detail::narrow_floordiv(a, cache) : floordiv(a, b);
}

}  // namespace py

namespace op {

// NumPy's int64 scalars (a zero divisor gives 0, as op::mod and op::floordiv do)
TR_HD inline int64_t mod_cached(int64_t a, int64_t b, DivisorCache &cache) {
    return detail::narrow_cached(a, b, cache) ? detail::narrow_mod(a, cache) : mod::apply(a, b);
}
TR_HD inline int64_t floordiv_cached(int64_t a, int64_t b, DivisorCache &cache) {
    return detail::narrow_cached(a, b, cache) ? detail::narrow_floordiv(a, cache) : floordiv::apply(a, b);
}

}  // namespace op
}  // namespace tr
