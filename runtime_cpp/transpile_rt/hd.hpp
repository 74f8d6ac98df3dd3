// Where a runtime function may run.  TR_HD marks the functions a parallel
// loop body (a prange kernel) may call: plain C++ on the CPU backend,
// __host__ __device__ when nvcc compiles the module (backend="cuda"),
// __aicore__ for the Ascend C device pass (backend="ascend").  TR_DEVICE_PASS
// is 1 only while a device compiler pass reads the code, so host-only parts
// (exceptions, vsnprintf, thread_local) stay out of device code.
//
// The Ascend device pass is recognised by the macros the BiSheng compiler
// documents for device code: __CCE_IS_AICORE__ (1 on the device side) and
// __NPU_ARCH__ (defined on the device side only).  TR_ASCEND_DEVICE is 1
// there; TR_GM is then __gm__, the address space of global memory (an
// unqualified pointer on the AI Core points into the core's private stack
// space), and empty everywhere else.
#pragma once

#if defined(TRANSPILE_BACKEND_ASCEND) && \
    ((defined(__CCE_IS_AICORE__) && __CCE_IS_AICORE__ == 1) || defined(__NPU_ARCH__))
#define TR_ASCEND_DEVICE 1
#define TR_GM __gm__
#else
#define TR_ASCEND_DEVICE 0
#define TR_GM
#endif

#if defined(__CUDACC__)
#define TR_HD __host__ __device__
#elif TR_ASCEND_DEVICE
#define TR_HD __aicore__
#else
#define TR_HD
#endif

#if defined(__CUDA_ARCH__) || TR_ASCEND_DEVICE
#define TR_DEVICE_PASS 1
#define TR_NORETURN
#else
#define TR_DEVICE_PASS 0
#define TR_NORETURN [[noreturn]]
#endif

// Functions whose result must not change when the target has FMA (-march=
// native at jit_level O1): GCC would otherwise fuse a*b+c, and NumPy's and
// CPython's results (built for baseline x86-64) are unfused.  GCC 12's SLP
// vectorizer also forms fused complex multiply-adds (vfmaddsub) even with
// fp-contract=off, so TR_NO_FP_CONTRACT turns SLP off too;
// TR_NO_FP_CONTRACT_VEC keeps it for code with no mixed add/sub lanes
// (pairwise summation of reals).  A target without fused multiply-add
// (x86-64's baseline: jit_level O0's builds) has nothing to fuse with, so
// there the functions stay inlinable: GCC does not inline a function whose
// optimize attributes differ from its caller's.
#if defined(__clang__) || !defined(__FP_FAST_FMA)
#define TR_NO_FP_CONTRACT
#define TR_NO_FP_CONTRACT_VEC
#elif defined(__GNUC__)
#define TR_NO_FP_CONTRACT __attribute__((optimize("fp-contract=off", "no-tree-slp-vectorize")))
#define TR_NO_FP_CONTRACT_VEC __attribute__((optimize("fp-contract=off")))
#else
#define TR_NO_FP_CONTRACT
#define TR_NO_FP_CONTRACT_VEC
#endif
