// backend="ascend": prange loops as Ascend C kernels on the AI Cores of a
// Huawei Ascend NPU, built by the CANN toolkit's bisheng (-xcce) with
// -DTRANSPILE_BACKEND_ASCEND; everything outside prange loops runs on the
// host as it does for backend="cpu".
//
// Status: written against the CANN documentation (AscendCL memory and stream
// calls, the <<<blocks, nullptr, stream>>> kernel launch, scalar access to
// global memory).  It has NOT been compiled by bisheng nor run on an NPU: no
// toolkit or hardware was available.  Its host side is compiled with g++ and
// run against a host emulation of AscendCL (ascend_mock.hpp,
// TRANSPILE_ASCEND_MOCK=1) by the tests.
//
// Memory: as on CUDA, the arrays the body uses are copied to the device
// before the loop (one copy per overlapping byte span) and the ones it writes
// copied back after it.  Launch: the iterations are split into one
// contiguous chunk per block (TRANSPILE_ASCEND_BLOCKS, default 8), the kernel
// struct itself travels in device memory.  Reductions: one partial per
// block, combined on the host in block order (deterministic; no atomics).
// Not yet: atomic element updates (histograms are rejected at translation),
// and errors inside the kernel (an out-of-range index reads element 0 and is
// not reported).
#pragma once
#if defined(TR_ASCEND_MOCK)
#include "ascend_mock.hpp"
#else
#include "acl/acl.h"
#include "kernel_operator.h"
#endif
#include "staging.hpp"

#if TR_DEVICE_PASS
#define TR_KERNEL_LINE(n) ((void)0)
#else
#define TR_KERNEL_LINE(n) (::tr::current_line() = (n))
#endif

namespace tr {
namespace par {

template <class X> struct device_arg { using type = X; };
template <class T, int N, int L> struct device_arg<Array<T, N, L>> { using type = DeviceArray<T, N, L>; };
template <class X> using arg_t = typename device_arg<X>::type;

inline void acl_check(aclError e, const char *what) {
    if (e != ACL_SUCCESS) raise(TR_ERR_RUNTIME, "backend='ascend': %s failed (aclError %d)", what, int(e));
}

struct Runtime {
    aclrtStream stream = nullptr;
    int32_t device = 0;
};

// AscendCL is initialised, and an NPU chosen, at the first prange loop.
inline Runtime &runtime() {
    static Runtime rt;
    static bool ready = false;
    if (!ready) {
        aclError e = aclInit(nullptr);
        if (e != ACL_SUCCESS && e != ACL_ERROR_REPEAT_INITIALIZE) acl_check(e, "aclInit");
        uint32_t count = 0;
        if (aclrtGetDeviceCount(&count) != ACL_SUCCESS || count == 0)
            raise(TR_ERR_RUNTIME,
                  "backend='ascend': no Ascend NPU is visible to this process (aclrtGetDeviceCount); run on a "
                  "machine with an Ascend NPU and its driver, check ASCEND_RT_VISIBLE_DEVICES, or use "
                  "backend='cpu'");
        const char *env = getenv("TRANSPILE_ASCEND_DEVICE");
        rt.device = env && *env ? atoi(env) : 0;
        acl_check(aclrtSetDevice(rt.device), "aclrtSetDevice");
        acl_check(aclrtCreateStream(&rt.stream), "aclrtCreateStream");
        ready = true;
    }
    return rt;
}

inline void *device_alloc(int64_t nbytes) {
    void *p = nullptr;
    acl_check(aclrtMalloc(&p, size_t(nbytes > 64 ? nbytes : 64), ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    return p;
}
inline void to_device(void *dev, const void *host, int64_t nbytes) {
    if (nbytes) acl_check(aclrtMemcpy(dev, size_t(nbytes), host, size_t(nbytes), ACL_MEMCPY_HOST_TO_DEVICE),
                          "aclrtMemcpy to the NPU");
}
inline void to_host(void *host, const void *dev, int64_t nbytes) {
    if (nbytes) acl_check(aclrtMemcpy(host, size_t(nbytes), dev, size_t(nbytes), ACL_MEMCPY_DEVICE_TO_HOST),
                          "aclrtMemcpy from the NPU");
}

struct AscendDevice {
    static constexpr const char *name = "ascend";
    static void ready() { runtime(); }
    static char *alloc(int64_t nbytes) { return static_cast<char *>(device_alloc(nbytes)); }
    static void release(char *p) { aclrtFree(p); }
    static void to_device(char *dev, const char *host, int64_t nbytes) { tr::par::to_device(dev, host, nbytes); }
    static void to_host(char *host, const char *dev, int64_t nbytes) { tr::par::to_host(host, dev, nbytes); }
};
using Staging = StagingFor<AscendDevice>;

// Element updates shared between iterations are rejected for this backend
// at translation; host code (loops run in order) updates directly.
template <class T, class F> TR_HD inline void atomic_update(T &ref, F &&f) { ref = f(ref); }

// One block of the launch: a contiguous chunk of the iterations, its
// reduction partials written to partials[block].
template <class K, class... R>
__global__ __aicore__ void kernel(__gm__ uint8_t *kernel_bytes, int64_t start, int64_t step, int64_t n,
                                  __gm__ uint8_t *partials) {
    using Acc = std::tuple<typename R::value_type...>;
    K k;
    uint8_t *kb = reinterpret_cast<uint8_t *>(&k);
    for (size_t i = 0; i < sizeof(K); ++i) kb[i] = kernel_bytes[i];
    const int64_t blocks = int64_t(AscendC::GetBlockNum()), b = int64_t(AscendC::GetBlockIdx());
    const int64_t chunk = (n + blocks - 1) / blocks;
    const int64_t lo = b * chunk, hi = lo + chunk < n ? lo + chunk : n;
    Acc local(identity<typename R::op, typename R::value_type>()...);
    for (int64_t j = lo; j < hi; ++j) std::apply([&](auto &...r) { k(start + j * step, r...); }, local);
    const uint8_t *lb = reinterpret_cast<const uint8_t *>(&local);
    for (size_t i = 0; i < sizeof(Acc); ++i) partials[b * int64_t(sizeof(Acc)) + int64_t(i)] = lb[i];
}

inline int64_t blocks_for(int64_t n) {
    const char *env = getenv("TRANSPILE_ASCEND_BLOCKS");
    int64_t blocks = 8;
    if (env && *env) {
        char *end = nullptr;
        long v = strtol(env, &end, 10);
        if (*end != 0 || v <= 0 || v > 65535)
            raise(TR_ERR_VALUE, "TRANSPILE_ASCEND_BLOCKS must be a positive integer, not '%s'", env);
        blocks = v;
    }
    return blocks < n ? blocks : n;
}

template <class K, class... R>
inline void for_range(const K &k, int64_t start, int64_t stop, int64_t step, R... reds) {
    const int64_t n = trip_count(start, stop, step);
    if (n <= 0) return;
    Runtime &rt = runtime();
    using Acc = std::tuple<typename R::value_type...>;
    const int64_t blocks = blocks_for(n);
    Staging mem;  // the kernel struct and the partials live in device memory
    void *kdev = device_alloc(int64_t(sizeof(K)));
    mem.spans[mem.n++] = Staging::Span{nullptr, 0, static_cast<char *>(kdev), false};
    to_device(kdev, &k, int64_t(sizeof(K)));
    void *pdev = device_alloc(blocks * int64_t(sizeof(Acc)));
    mem.spans[mem.n++] = Staging::Span{nullptr, 0, static_cast<char *>(pdev), false};
#if defined(TR_ASCEND_MOCK)
    mock::launch(blocks, [&] {
        kernel<K, R...>(static_cast<uint8_t *>(kdev), start, step, n, static_cast<uint8_t *>(pdev));
    });
#else
    kernel<K, R...><<<uint32_t(blocks), nullptr, rt.stream>>>(static_cast<uint8_t *>(kdev), start, step, n,
                                                               static_cast<uint8_t *>(pdev));
#endif
    acl_check(aclrtSynchronizeStream(rt.stream), "running a kernel (aclrtSynchronizeStream)");
    if constexpr (sizeof...(R) > 0) {
        Acc *part = static_cast<Acc *>(malloc(size_t(blocks) * sizeof(Acc)));
        if (!part) raise(TR_ERR_MEMORY, "out of memory after a prange loop");
        to_host(part, pdev, blocks * int64_t(sizeof(Acc)));
        for (int64_t b = 0; b < blocks; ++b)
            std::apply([&](const auto &...p) { (combine<typename R::op>(*reds.target, p), ...); }, part[b]);
        free(part);
    }
}

// Array reductions: never generated: atomics are rejected for Ascend.
template <class K, class... A, class... R>
inline void for_range(const WithArrays<K, A...> &w, int64_t start, int64_t stop, int64_t step, R... reds) {
    for_range(w.k, start, stop, step, reds...);
}

}  // namespace par
}  // namespace tr
