// TR_IN_ORDER(s): at the end of each iteration of a loop that only adds
// cheap float terms into s (transpile/cxx/reductions.py).  An empty asm
// statement that claims to change s: no instruction, but GCC no longer
// vectorizes the loop as an in-order ("fold-left") reduction, whose per-lane
// shuffles come on top of the same chain of adds the scalar loop has (dot:
// 1.40 ms vectorized, 0.86 ms scalar, -O3 -march=native with AVX-512).
#pragma once

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(__CUDA_ARCH__)
#define TR_IN_ORDER(v) __asm__("" : "+x"(v))
#elif defined(__GNUC__) && defined(__aarch64__) && !defined(__CUDA_ARCH__)
#define TR_IN_ORDER(v) __asm__("" : "+w"(v))
#else
#define TR_IN_ORDER(v) ((void)0)
#endif
