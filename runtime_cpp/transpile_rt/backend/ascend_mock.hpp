// A host emulation of the few AscendCL / Ascend C calls backend/ascend.hpp
// makes, so that the Ascend code path (staging, the kernel struct in device
// memory, block partitioning, per-block reductions) is compiled by g++ and
// run by the tests on machines without the CANN toolkit
// (TRANSPILE_ASCEND_MOCK=1).  "Device" memory is host memory; blocks run one
// after another.  TRANSPILE_ASCEND_MOCK_DEVICES sets how many NPUs it
// reports (default 1; 0 exercises the "no NPU" error).  Not for real work.
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
#define ACL_ERROR_REPEAT_INITIALIZE 100002
enum aclrtMemMallocPolicy { ACL_MEM_MALLOC_HUGE_FIRST = 0 };
enum aclrtMemcpyKind { ACL_MEMCPY_HOST_TO_DEVICE = 1, ACL_MEMCPY_DEVICE_TO_HOST = 2 };

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
    *p = malloc(n);
    return *p ? ACL_SUCCESS : 207001;
}
inline aclError aclrtFree(void *p) {
    free(p);
    return ACL_SUCCESS;
}
inline aclError aclrtMemcpy(void *dst, size_t dst_max, const void *src, size_t n, aclrtMemcpyKind) {
    if (n > dst_max) return 107000;
    memcpy(dst, src, n);
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
}  // namespace AscendC

namespace tr {
namespace par {
namespace mock {
// kernel<<<blocks, nullptr, stream>>>(...): the blocks one after another.
template <class F> inline void launch(int64_t blocks, F &&f) {
    AscendC::mock::block_num() = blocks;
    for (int64_t b = 0; b < blocks; ++b) {
        AscendC::mock::block_idx() = b;
        f();
    }
}
}  // namespace mock
}  // namespace par
}  // namespace tr
