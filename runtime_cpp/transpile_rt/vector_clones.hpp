// Per-CPU copies of a generated function (cxx/vector_clones.py says which):
// GCC compiles it for AVX-512 (x86-64-v4), AVX2 (x86-64-v3) and the x86-64
// baseline, and the dynamic loader picks one by the CPU the library is loaded
// on (an ifunc: glibc), so a library or an artifact built on one machine runs
// on another.  The clones compute the same values: only the vector width
// differs (generated code is built with -ffp-contract=off).
//
// Callers reach the clones through TR_CLONES_CALL: GCC 12 takes a call of a
// target_clones function for one that cannot throw (the caller gets no
// unwind entry for it, so a tr::Error raised inside ended in
// std::terminate); called through a pointer it cannot see into, it may throw.
//
// Empty where it would buy nothing or cannot work: a build that already
// targets the machine (-march=native at jit_level O1 defines __AVX2__), the
// quick build of tiered compilation (-O1 does not vectorize), compilers other
// than GCC 12 or later (__builtin_cpu_supports("x86-64-v3") came in 12), C
// libraries without ifuncs, device compilers.
#pragma once
#include <stdint.h>  // defines __GLIBC__ where it is glibc

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12 && defined(__GLIBC__) && \
    !defined(__AVX2__) && !defined(TR_QUICK_BUILD) && !defined(__CUDACC__)
#define TR_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#define TR_CLONES_CALL(f) (tr::may_throw(&f))

namespace tr {
template <class F> inline F may_throw(F f) {
    __asm__("" : "+r"(f));
    return f;
}
}  // namespace tr
#else
#define TR_VECTOR_CLONES
#define TR_CLONES_CALL(f) f
#endif
