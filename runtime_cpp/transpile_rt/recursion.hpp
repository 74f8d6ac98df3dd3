// Recursion between compiled functions raises RecursionError, as CPython
// does, instead of overflowing the C stack: each function of a call cycle
// counts its depth against Python's recursion limit (read when the module
// is loaded: transpile/build/loader.py) and checks that the thread's stack
// keeps a margin, whatever the limit is.
#pragma once
#include <pthread.h>
#include <stdint.h>

#include "error.hpp"

extern "C" int tr_recursion_limit;  // defined by the module (TR_RECURSION_LIMIT_DEFINITION)

namespace tr {

inline int &recursion_depth() {
    static thread_local int depth = 0;
    return depth;
}

// The lowest address a frame may use: the thread's stack less a margin for
// the frames of library code called at the deepest level.
inline uintptr_t stack_floor() {
    static thread_local uintptr_t floor = 0;
    if (!floor) {
        pthread_attr_t attr;
        void *addr = nullptr;
        size_t size = 0;
        floor = 1;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            if (pthread_attr_getstack(&attr, &addr, &size) == 0 && addr)
                floor = reinterpret_cast<uintptr_t>(addr) + (size > (1u << 20) ? (256u << 10) : size / 4);
            pthread_attr_destroy(&attr);
        }
    }
    return floor;
}

struct RecursionGuard {
    RecursionGuard() {
        int depth = ++recursion_depth();
        if (depth > tr_recursion_limit ||
            reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) < stack_floor()) {
            --recursion_depth();
            raise(TR_ERR_RECURSION, "maximum recursion depth exceeded");
        }
    }
    ~RecursionGuard() { --recursion_depth(); }
    RecursionGuard(const RecursionGuard &) = delete;
    RecursionGuard &operator=(const RecursionGuard &) = delete;
};

}  // namespace tr

#define TR_RECURSION_LIMIT_DEFINITION TR_EXPORT int tr_recursion_limit = 1000;
