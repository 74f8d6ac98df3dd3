// A host emulation of the few AscendCL / Ascend C calls backend/ascend.hpp
// makes, so that the Ascend code path (staging, the launch data in device
// memory, block partitioning, per-block reductions and array copies, error
// records copied back) is compiled by g++ and run by the tests on machines
// without the CANN toolkit (TRANSPILE_ASCEND_MOCK=1).  It emulates those
// calls and nothing more: "device" memory is host memory, blocks run one
// after another on the calling thread (last block first), data-cache flushes
// do nothing (host caches are coherent).
//
// Knobs (tests only):
//   TRANSPILE_ASCEND_MOCK_DEVICES  how many NPUs aclrtGetDeviceCount reports
//                                  (default 1; 0 exercises the "no NPU" error)
//   TRANSPILE_ASCEND_MOCK_MEMORY   bytes of device memory; aclrtMalloc beyond
//                                  it fails as on a full device (default: no
//                                  limit)
// Not for real work.
#pragma once
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define __global__
#define __aicore__
#define __gm__

typedef int aclError;
typedef void *aclrtStream;
#define ACL_SUCCESS 0
#define ACL_ERROR_INVALID_PARAM 100000
#define ACL_ERROR_REPEAT_INITIALIZE 100002
#define ACL_ERROR_RT_MEMORY_ALLOCATION 207001
enum aclrtMemMallocPolicy { ACL_MEM_MALLOC_HUGE_FIRST = 0 };
enum aclrtMemcpyKind { ACL_MEMCPY_HOST_TO_DEVICE = 1, ACL_MEMCPY_DEVICE_TO_HOST = 2 };

namespace tr_ascend_mock {
// Bytes allocated now; each allocation carries its size in front of it.
inline int64_t &in_use() {
    static int64_t bytes = 0;
    return bytes;
}
inline int64_t capacity() {
    const char *env = getenv("TRANSPILE_ASCEND_MOCK_MEMORY");
    return env && *env ? int64_t(strtoll(env, nullptr, 10)) : INT64_MAX;
}
constexpr size_t header = 64;
}  // namespace tr_ascend_mock

inline aclError aclInit(const char *) { return ACL_SUCCESS; }
inline aclError aclrtGetDeviceCount(uint32_t *count) {
    const char *env = getenv("TRANSPILE_ASCEND_MOCK_DEVICES");
    *count = env && *env ? uint32_t(atoi(env)) : 1u;
    return ACL_SUCCESS;
}
inline aclError aclrtSetDevice(int32_t) { return ACL_SUCCESS; }
inline aclError aclrtCreateStream(aclrtStream *s) {
    *s = nullptr;
    return ACL_SUCCESS;
}
inline aclError aclrtSynchronizeStream(aclrtStream) { return ACL_SUCCESS; }
inline aclError aclrtMalloc(void **p, size_t n, aclrtMemMallocPolicy) {
    *p = nullptr;
    if (int64_t(n) > tr_ascend_mock::capacity() - tr_ascend_mock::in_use()) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    char *block = static_cast<char *>(malloc(n + tr_ascend_mock::header));
    if (!block) return ACL_ERROR_RT_MEMORY_ALLOCATION;
    memcpy(block, &n, sizeof n);
    tr_ascend_mock::in_use() += int64_t(n);
    *p = block + tr_ascend_mock::header;
    return ACL_SUCCESS;
}
inline aclError aclrtFree(void *p) {
    if (!p) return ACL_ERROR_INVALID_PARAM;
    char *block = static_cast<char *>(p) - tr_ascend_mock::header;
    size_t n;
    memcpy(&n, block, sizeof n);
    tr_ascend_mock::in_use() -= int64_t(n);
    free(block);
    return ACL_SUCCESS;
}
inline aclError aclrtMemcpy(void *dst, size_t dst_max, const void *src, size_t n, aclrtMemcpyKind) {
    if (n > dst_max) return ACL_ERROR_INVALID_PARAM;
    memcpy(dst, src, n);
    return ACL_SUCCESS;
}
inline aclError aclrtMemset(void *dev, size_t max_count, int32_t value, size_t count) {
    if (count > max_count) return ACL_ERROR_INVALID_PARAM;
    memset(dev, value, count);
    return ACL_SUCCESS;
}

namespace AscendC {
namespace mock {
inline int64_t &block_idx() {
    static thread_local int64_t b = 0;
    return b;
}
inline int64_t &block_num() {
    static thread_local int64_t n = 1;
    return n;
}
}  // namespace mock
inline int64_t GetBlockIdx() { return mock::block_idx(); }
inline int64_t GetBlockNum() { return mock::block_num(); }

// Scalar access to global memory and the data-cache flush: on the host the
// caches are coherent, so the flush has nothing to do.
template <class T> struct GlobalTensor {
    T *buffer = nullptr;
    uint64_t size = 0;
    void SetGlobalBuffer(T *b, uint64_t n) { buffer = b, size = n; }
};
enum class CacheLine { SINGLE_CACHE_LINE, ENTIRE_DATA_CACHE };
enum class DcciDst { CACHELINE_ALL, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
template <class T, CacheLine entire, DcciDst dst> inline void DataCacheCleanAndInvalid(const GlobalTensor<T> &) {}
}  // namespace AscendC

namespace tr {
namespace par {
namespace mock {
// kernel<<<blocks, nullptr, stream>>>(...): the blocks one after another,
// the last one first: on the NPU they run at the same time in no set order,
// so nothing may depend on block 0 finishing first.
template <class F> inline void launch(int64_t blocks, F &&f) {
    AscendC::mock::block_num() = blocks;
    for (int64_t b = blocks - 1; b >= 0; --b) {
        AscendC::mock::block_idx() = b;
        f();
    }
}
}  // namespace mock
}  // namespace par
}  // namespace tr
