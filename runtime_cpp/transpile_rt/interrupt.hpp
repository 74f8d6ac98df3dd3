// Ctrl-C in a long compiled loop: the bridge's SIGINT handler sets a flag
// (besides running Python's), which `while` loops and loops that hold other
// loops read at each iteration; the main thread then raises
// KeyboardInterrupt through Python's own signal handling.  Innermost `for`
// loops do not read it: a load in them would keep GCC from vectorizing.
#pragma once
#include <sys/syscall.h>
#include <unistd.h>

#include "error.hpp"

extern "C" volatile int *tr_interrupt;  // the bridge's flag (set by the loader: build/loader.py)

namespace tr {

inline volatile int *no_interrupt() {
    static volatile int never = 0;
    return &never;
}

inline bool on_main_thread() {  // CPython raises KeyboardInterrupt in the main thread only
    static thread_local int main = -1;
    if (main < 0) main = syscall(SYS_gettid) == getpid();
    return main == 1;
}

// Raises KeyboardInterrupt; never returns, so no value of the loop that polls
// is live across the call (a call that may return made GCC keep a tight
// loop's floats on the stack: mandelbrot's inner loop 1.8x slower).
[[noreturn]] __attribute__((cold, noinline)) inline void interrupt_now() {
    raise(TR_ERR_INTERRUPT, "KeyboardInterrupt");
}

}  // namespace tr

// `tr_polls` is a local of each function that polls (cxx/lower.py), counting
// down the iterations left until the flag is read: a decrement and a jump the
// CPU fuses into one operation (an increment and a test of its low bits took
// two, in loops as tight as a Collatz step).
// The flag is read inline every TR_POLL_EVERY iterations (its load through
// the GOT at each iteration made tight while loops 2-3x slower); whether
// this is the main thread, where CPython raises KeyboardInterrupt, is known
// from the function's start (TR_POLL_LOCALS).
#define TR_POLL_EVERY 65536u
#define TR_POLL_LOCALS                   \
    unsigned tr_polls = TR_POLL_EVERY;   \
    const bool tr_main_thread = tr::on_main_thread();
// Its arguments run just before KeyboardInterrupt is raised: the loop's
// line noted there (`TR_POLL_INTERRUPT(tr_line = 122)`), not kept current on
// every iteration (a register move per Collatz step, ~10%).
#define TR_POLL_INTERRUPT(...)                                                 \
    do {                                                                       \
        if (__builtin_expect(--tr_polls == 0, 0)) {                            \
            tr_polls = TR_POLL_EVERY;                                          \
            if (__builtin_expect(*tr_interrupt != 0, 0) && tr_main_thread) {  \
                __VA_ARGS__;                                                   \
                tr::interrupt_now();                                           \
            }                                                                  \
        }                                                                      \
    } while (0)
#define TR_INTERRUPT_DEFINITION TR_EXPORT volatile int *tr_interrupt = tr::no_interrupt();
