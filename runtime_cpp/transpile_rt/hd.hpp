// Where a runtime function may run.  TR_HD marks the functions a parallel
// loop body (a prange kernel) may call: plain C++ on the CPU backend,
// __host__ __device__ when nvcc compiles the module (backend="cuda"),
// __aicore__ for the Ascend C device pass (backend="ascend").  TR_DEVICE_PASS
// is 1 only while a device compiler pass reads the code, so host-only parts
// (exceptions, vsnprintf, thread_local) stay out of device code.
#pragma once

#if defined(__CUDACC__)
#define TR_HD __host__ __device__
#elif defined(TRANSPILE_BACKEND_ASCEND) && defined(__CCE_AICORE__)
#define TR_HD __aicore__
#else
#define TR_HD
#endif

#if defined(__CUDA_ARCH__) || (defined(TRANSPILE_BACKEND_ASCEND) && defined(__CCE_AICORE__))
#define TR_DEVICE_PASS 1
#define TR_NORETURN
#else
#define TR_DEVICE_PASS 0
#define TR_NORETURN [[noreturn]]
#endif
