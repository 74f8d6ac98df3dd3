// random.random(), random.uniform(), random.randint() and random.randrange()
// in compiled code: Python's own generator (random._inst), drawn by the
// bridge from its state with CPython's algorithms (bridge/pyrandom.c), so
// seeded sequences are Python's.  A module that draws holds the GIL
// (cxx/nogil.py: it receives the host table).
#pragma once
#include "fallback.hpp"
#include "mt19937.h"

namespace tr {
namespace pyrandom {

// random._inst's state as the bridge last handed it over (per module: each
// has its own copy), valid while the version tags it names hold.
inline tr_pyrandom &cached() {
    static tr_pyrandom state{};
    return state;
}

inline bool drawable(const tr_pyrandom &s) {
    return s.state && *s.dict_version == s.dict_expected && *s.class_version == s.class_expected;
}

inline void draw(int32_t op, int64_t a, int64_t b, double *d, int64_t *i) {
    const tr_host *h = host().table;
    if (!h)
        raise(TR_ERR_RUNTIME, "internal error: a module drawing from Python's random has no bridge services");
    tr_error err;
    check(h->python_random(op, a, b, d, i, &err), err);
}

// random.random(): from the state itself where the module is still the
// standard library's (two loads and compares), else through the bridge.
inline double random() {
    tr_pyrandom &s = cached();
    if (__builtin_expect(!drawable(s), 0)) {
        const tr_host *h = host().table;
        tr_error err;
        if (h) check(h->python_random_state(&s), err);
        if (!drawable(s)) {
            double d = 0;
            int64_t i = 0;
            draw(0, 0, 0, &d, &i);
            return d;
        }
    }
    return tr_mt_random(s.index, s.state);
}

// CPython's uniform(a, b): a + (b - a) * random(), for float a and b.
TR_NO_FP_CONTRACT inline double uniform(double a, double b) {
    const double width = b - a;
    return a + width * random();
}

inline int64_t randint(int64_t a, int64_t b) {
    double d = 0;
    int64_t i = 0;
    draw(1, a, b, &d, &i);
    return i;
}

inline int64_t randrange(int64_t a, int64_t b) {
    double d = 0;
    int64_t i = 0;
    draw(2, a, b, &d, &i);
    return i;
}

inline int64_t randrange(int64_t stop) {
    double d = 0;
    int64_t i = 0;
    draw(3, stop, 0, &d, &i);
    return i;
}

}  // namespace pyrandom
}  // namespace tr
