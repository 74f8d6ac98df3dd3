/* The Mersenne Twister (MT19937, Matsumoto and Nishimura's reference
 * algorithm) over a state laid out as CPython's _random.Random keeps it: an
 * index and 624 words.  Shared by the bridge (bridge/pyrandom.c) and
 * compiled code (python_random.hpp), which draw from random._inst's own
 * state; C and C++. */
#ifndef TRANSPILE_RT_MT19937_H
#define TRANSPILE_RT_MT19937_H
#include <stdint.h>

#define TR_MT_N 624
#define TR_MT_M 397

/* The next 32-bit output; regenerates the 624 words when they are used up. */
static inline uint32_t tr_mt_next(int *index, uint32_t *mt) {
    uint32_t y;
    if (*index >= TR_MT_N) {
        int k;
        for (k = 0; k < TR_MT_N; ++k) {
            y = (mt[k] & 0x80000000U) | (mt[(k + 1) % TR_MT_N] & 0x7fffffffU);
            mt[k] = mt[(k + TR_MT_M) % TR_MT_N] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        }
        *index = 0;
    }
    y = mt[(*index)++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

/* random.random(): 27 and 26 bits of two outputs as one 53-bit fraction. */
static inline double tr_mt_random(int *index, uint32_t *mt) {
    uint32_t hi = tr_mt_next(index, mt) >> 5, lo = tr_mt_next(index, mt) >> 6;
    return (hi * 67108864.0 + lo) * (1.0 / 9007199254740992.0);
}

#endif
