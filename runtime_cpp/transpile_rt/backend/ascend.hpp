// backend="ascend": prange loops as Ascend C kernels on the AI Cores of a
// Huawei Ascend NPU, built by the CANN toolkit's bisheng (-xcce) with
// -DTRANSPILE_BACKEND_ASCEND; everything outside prange loops runs on the
// host as it does for backend="cpu".
//
// Status: written against the CANN documentation (AscendCL memory and stream
// calls, the <<<blocks, nullptr, stream>>> kernel launch, GetBlockIdx /
// GetBlockNum, __gm__ global memory and its global variables, scalar access
// to global memory and DataCacheCleanAndInvalid).  It has NOT been compiled
// by bisheng nor run on an NPU: no toolkit and no hardware were available.
// What runs in the tests is this same file compiled by g++ against a host
// emulation of the AscendCL / Ascend C calls it makes (ascend_mock.hpp,
// TRANSPILE_ASCEND_MOCK=1): staging, the launch data in device memory, the
// block partition, reductions, per-block array copies, error records and
// their reading back.  Only the lines under TR_ASCEND_DEVICE (how an error
// reaches its block's record on the AI Core, the data-cache flush's effect,
// the __gm__ global) have never been compiled at all.
//
// Memory: as on CUDA, the arrays the body uses are copied to the device
// before the loop (one copy per overlapping byte span) and the ones it writes
// copied back after it.  Launch: the iterations are split into one
// contiguous, balanced chunk per block (TRANSPILE_ASCEND_BLOCKS, default 8,
// never more than the iterations); the kernel struct travels in device
// memory.  Every per-block area in device memory (reduction partials, error
// records, array copies) starts on a 64-byte boundary and is padded to one,
// so no two blocks ever write the same cache line (each AI Core writes global
// memory through its own data cache, flushed at the end of the block).
//
// Reductions: one partial per block, combined on the host in block order
// (deterministic; no atomics).
//
// Array element updates shared between iterations (histograms, `h[k] += v`):
// the AI Cores have no atomics we use, so only "array reductions" are built
// (passes/parallel.py: the body does nothing else with the array and uses one
// operator family: += and -=, *=, |=, &=, ^=, as the CPU backend's per-thread
// copies).  Each block fills its own copy of the array in device memory,
// started from the operator's identity, and after the kernel the host
// combines the copies into the array in block order (deterministic for a
// given block count).  With one block there is no copy: the block updates
// the array itself.  The copies are bounded: blocks x (bytes of the arrays'
// copies) may not exceed TRANSPILE_ASCEND_COPY_LIMIT bytes (default 64 MiB);
// a launch that would exceed it uses fewer blocks (at least one, which needs
// no copy).  Other shared element updates are rejected at translation.
//
// Errors inside the kernel (IndexError, ZeroDivisionError, ...): each block
// has an error record in device memory.  The first error of a block is
// written there with its iteration, and the block stops after that iteration
// (a CPU thread's share stops the same way); the other blocks run to the end
// of their chunks.  After the kernel the host copies the records back
// (aclrtMemcpy) and raises the error of the lowest iteration, which is the
// error backend="cpu" and CPython raise (same type, message and line note).
// The arrays the kernel wrote are then not copied back, and array reductions
// and scalar reductions are not combined: after such an error the caller's
// arrays hold what they held before the loop (backend="cpu" leaves the
// earlier iterations' writes in place).  How the error reaches the record:
// on the AI Core, tr::raise (error.hpp) formats the message into the calling
// block's record and returns (the iteration goes on with a harmless value);
// in the host emulation tr::raise throws and the kernel's catch writes the
// same record.  Everything around that is one code path.
//
// Not verified without bisheng: whether the device pass accepts the kernel
// body's references to global memory where runtime functions take `const T &`
// parameters (an element reference is TR_GM T &; see tr::at in parallel.hpp);
// that the kernel struct, which travels as bytes, has the same layout in the
// host and device passes; and whether data-cache flushes write only dirty
// bytes (chunks of a user array written by two blocks can meet inside one
// cache line).
#pragma once
#if defined(TR_ASCEND_MOCK)
#include "ascend_mock.hpp"
#else
#include "acl/acl.h"
#include "kernel_operator.h"
#endif
#include <type_traits>
#include "staging.hpp"

namespace tr {
namespace par {

constexpr int64_t round_up64(int64_t n) { return (n + 63) / 64 * 64; }

// One block's first error, in device memory.  64-byte aligned, so its size is
// a multiple of 64 and the records of two blocks never share a cache line.
struct alignas(64) BlockError {
    int64_t index;     // position in the range (0 .. n-1) of the iteration that raised
    int32_t code;      // TR_ERR_*; 0: no error
    int32_t line;      // Python line of the statement that raised (jit_level O0; 0 otherwise)
    int32_t line_now;  // on the AI Core: the line of the statement running (TR_KERNEL_LINE)
    char message[TR_MSG_SIZE];
};

// The message of an error without C varargs: arguments as FmtArgs
// (error.hpp), formatted by format_printf.
template <class Out, class Str>
TR_HD inline void format_message(Out out, int size, Str fmt, const FmtArg *args, int nargs) {
    struct {
        const FmtArg *list;
        int n, next;
        TR_HD FmtArg take() { return next < n ? list[next++] : FmtArg{0, nullptr}; }
        TR_HD long long integer(int) { return take().v; }  // %d, %ld, %lld: a long long either way
        TR_HD TR_GM const char *string() { return take().s; }
    } source{args, nargs, 0};
    format_printf(out, size, fmt, source);
}

#if TR_ASCEND_DEVICE
// The error records of the running launch.  Every block sets this global (in
// global memory: the only kind of global variable device code has) to the
// same value at its start; tr::raise writes the calling block's record.
static __gm__ BlockError *__gm__ tr_block_errors;

__aicore__ inline __gm__ BlockError *block_record() { return tr_block_errors + AscendC::GetBlockIdx(); }
#define TR_KERNEL_LINE(n) (::tr::par::block_record()->line_now = (n))
#else
#define TR_KERNEL_LINE(n) (::tr::current_line() = (n))
#endif

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

// Shared element updates that are not array reductions are rejected for this
// backend at translation; host code (loops run in order) updates directly.
template <class T, class F> TR_HD inline void atomic_update(T &ref, F &&f) { ref = f(ref); }

// The array type of an array reduction.
template <class AR> struct reduced_array;
template <class Op, class K, class M> struct reduced_array<ArrayReduction<Op, K, M>> { using type = M; };

// The launch data in device memory: the kernel struct, then four int64 per
// array reduction (the byte offsets of its array and of its flag in the
// struct, the byte offset of its copies in the copy area, the bytes of one
// block's copy).
template <class K> constexpr int64_t kernel_space() { return round_up64(int64_t(sizeof(K))); }
template <class Acc> constexpr int64_t partial_space() { return round_up64(int64_t(sizeof(Acc))); }

// An array reduction at the start of block b: the block's kernel struct is
// told that its updates need no atomics, and with copies (more than one
// block) its view is pointed at the block's own copy, filled with the
// operator's identity and laid out in C order.
template <class AR>
TR_HD inline void own_copy(uint8_t *kb, __gm__ const int64_t *meta, __gm__ uint8_t *copies, int64_t b) {
    using M = typename reduced_array<AR>::type;
    using T = typename M::value_type;
    M &a = *reinterpret_cast<M *>(kb + meta[0]);
    *reinterpret_cast<bool *>(kb + meta[1]) = true;
    if (copies == nullptr) return;  // one block: it updates the array itself
    __gm__ T *buf = reinterpret_cast<__gm__ T *>(copies + meta[2] + b * meta[3]);
    const T init = identity<typename AR::op, T>();
    const int64_t size = a.size();
    for (int64_t e = 0; e < size; ++e) buf[e] = init;
    a.data = reinterpret_cast<T *>(reinterpret_cast<uintptr_t>(buf));
    int64_t stride = 1;
    for (int d = M::ndim - 1; d >= 0; --d) a.strides[d] = stride, stride *= a.shape[d];
}

template <class Arrays, size_t... I>
TR_HD inline void own_copies(uint8_t *kb, __gm__ const int64_t *meta, __gm__ uint8_t *copies, int64_t b,
                             std::index_sequence<I...>) {
    (own_copy<std::tuple_element_t<I, Arrays>>(kb, meta + 4 * I, copies, b), ...);
}

// Writes a block's first error into its record (the host emulation's path).
inline void write_record(BlockError *rec, int64_t index, int code, int line, const char *message) {
    int i = 0;
    for (; i < TR_MSG_SIZE - 1 && message[i]; ++i) rec->message[i] = message[i];
    rec->message[i] = 0;
    rec->index = index;
    rec->line = line;
    rec->code = code;
}

// One block of the launch: a contiguous chunk of the iterations (balanced:
// the first n % blocks chunks one longer), its reduction partials written to
// its slot of `partials`, its first error to its record in `errors`; `copies`
// holds the blocks' copies of the array reductions (null: one block, no
// copies).
template <class K, class Arrays, class... R>
__global__ __aicore__ void kernel(__gm__ uint8_t *launch, int64_t start, int64_t step, int64_t n,
                                  __gm__ uint8_t *partials, __gm__ uint8_t *errors, __gm__ uint8_t *copies) {
    using Acc = std::tuple<typename R::value_type...>;
#if TR_ASCEND_DEVICE
    tr_block_errors = reinterpret_cast<__gm__ BlockError *>(errors);
#endif
    K k;
    uint8_t *kb = reinterpret_cast<uint8_t *>(&k);
    for (size_t i = 0; i < sizeof(K); ++i) kb[i] = launch[i];
    const int64_t blocks = int64_t(AscendC::GetBlockNum()), b = int64_t(AscendC::GetBlockIdx());
    const int64_t q = n / blocks, r = n % blocks;
    const int64_t lo = b * q + (b < r ? b : r), hi = lo + q + (b < r ? 1 : 0);
    own_copies<Arrays>(kb, reinterpret_cast<__gm__ const int64_t *>(launch + kernel_space<K>()), copies, b,
                       std::make_index_sequence<std::tuple_size<Arrays>::value>{});
    Acc local(identity<typename R::op, typename R::value_type>()...);
    __gm__ BlockError *rec = reinterpret_cast<__gm__ BlockError *>(errors) + b;
#if TR_ASCEND_DEVICE
    for (int64_t j = lo; j < hi; ++j) {
        std::apply([&](auto &...red) { k(start + j * step, red...); }, local);
        if (rec->code != 0) {  // raised in this iteration: the block stops here
            rec->index = j;
            break;
        }
    }
#elif defined(TR_ASCEND_MOCK)
    // Host emulation: tr::raise throws; the record gets what the AI Core's
    // tr::raise writes (the line comes from TR_KERNEL_LINE on this thread).
    int64_t at = lo;
    try {
        for (int64_t j = lo; j < hi; ++j) {
            at = j;
            std::apply([&](auto &...red) { k(start + j * step, red...); }, local);
        }
    } catch (const Error &e) {
        write_record(rec, at, e.code, current_line(), e.message);
    } catch (...) {
        write_record(rec, at, TR_ERR_MEMORY, current_line(), "out of memory or internal error in a prange loop");
    }
#endif
    const uint8_t *lb = reinterpret_cast<const uint8_t *>(&local);
    for (size_t i = 0; i < sizeof(Acc); ++i) partials[b * partial_space<Acc>() + int64_t(i)] = lb[i];
    // Scalar stores to global memory go through this core's data cache: write
    // them all out (partials, record, array copies, the user's arrays).
    AscendC::GlobalTensor<uint8_t> gm;
    gm.SetGlobalBuffer(errors, uint64_t(sizeof(BlockError)));
    AscendC::DataCacheCleanAndInvalid<uint8_t, AscendC::CacheLine::ENTIRE_DATA_CACHE, AscendC::DcciDst::CACHELINE_OUT>(
        gm);
}

inline int64_t env_count(const char *name, int64_t fallback, int64_t most) {
    const char *env = getenv(name);
    if (!env || !*env) return fallback;
    char *end = nullptr;
    long long v = strtoll(env, &end, 10);
    if (*end != 0 || v <= 0 || v > most) raise(TR_ERR_VALUE, "%s must be a positive integer, not '%s'", name, env);
    return int64_t(v);
}

inline int64_t blocks_for(int64_t n) {
    const int64_t blocks = env_count("TRANSPILE_ASCEND_BLOCKS", 8, 65535);
    return blocks < n ? blocks : n;
}

// Device memory the blocks' copies of array reductions may take in one launch.
inline int64_t copy_limit() { return env_count("TRANSPILE_ASCEND_COPY_LIMIT", int64_t(64) << 20, INT64_MAX / 2); }

// Device allocations of one launch, freed however it ends.
struct LaunchMemory {
    void *p[4] = {};
    int n = 0;
    void *alloc(int64_t nbytes) {
        p[n] = device_alloc(nbytes);
        return p[n++];
    }
    ~LaunchMemory() {
        for (int i = 0; i < n; ++i) aclrtFree(p[i]);
    }
};

// Host buffers of one launch (64-byte aligned, like the device's records).
struct HostBuffer {
    void *p = nullptr;
    explicit HostBuffer(int64_t nbytes) {
        p = aligned_alloc(64, size_t(round_up64(nbytes > 0 ? nbytes : 1)));
        if (!p) raise(TR_ERR_MEMORY, "out of memory after a prange loop");
    }
    ~HostBuffer() { free(p); }
    HostBuffer(const HostBuffer &) = delete;
    HostBuffer &operator=(const HostBuffer &) = delete;
};

// After the kernel, array reduction I: the blocks' copies are combined into
// the array in block order.  The array's device copy (which Staging copies
// back after the loop) is read, combined on the host and written back.
template <class AR, class K>
inline void combine_copies(const K &k, const AR &ar, const char *region, int64_t blocks, int64_t block_bytes) {
    using M = typename reduced_array<AR>::type;
    using T = typename M::value_type;
    using Op = typename AR::op;
    const M &a = k.*(ar.member);
    if (a.size() == 0) return;
    int64_t lo = 0, hi = 0, st[M::ndim > 0 ? M::ndim : 1];
    for (int d = 0; d < M::ndim; ++d) {
        st[d] = a.stride(d);
        const int64_t ext = (a.shape[d] - 1) * st[d];
        if (ext < 0) lo += ext; else hi += ext;
    }
    const int64_t nbytes = (hi - lo + 1) * int64_t(sizeof(T));
    HostBuffer span(nbytes);
    to_host(span.p, a.data + lo, nbytes);
    T *base = static_cast<T *>(span.p) - lo;
    for (int64_t b = 0; b < blocks; ++b) {
        const T *copy = reinterpret_cast<const T *>(region + b * block_bytes);
        int64_t e = 0;
        for_each_offset<M::ndim>(a.shape, st, [&](int64_t off) { base[off] = Op::apply(base[off], copy[e++]); });
    }
    to_device(a.data + lo, span.p, nbytes);
}

template <class K, class Arrays, class... R>
inline void run_kernel(const K &k, const Arrays &arrays, int64_t start, int64_t stop, int64_t step, R... reds) {
    const int64_t n = trip_count(start, stop, step);
    if (n <= 0) return;
    Runtime &rt = runtime();
    using Acc = std::tuple<typename R::value_type...>;
    constexpr size_t NA = std::tuple_size<Arrays>::value;
    int64_t blocks = blocks_for(n);

    // The launch data: the kernel struct and where each array reduction is.
    const int64_t meta_at = kernel_space<K>();
    HostBuffer launch_host(meta_at + 32 * int64_t(NA));
    memcpy(launch_host.p, &k, sizeof(K));
    int64_t *meta = reinterpret_cast<int64_t *>(static_cast<char *>(launch_host.p) + meta_at);
    int64_t block_bytes[NA > 0 ? NA : 1] = {}, per_block = 0;
    std::apply(
        [&](const auto &...ar) {
            size_t i = 0;
            ((block_bytes[i] = round_up64((k.*(ar.member)).size() *
                                          int64_t(sizeof(typename reduced_array<std::decay_t<decltype(ar)>>::type::
                                                             value_type))),
              meta[4 * i] = reinterpret_cast<const char *>(&(k.*(ar.member))) - reinterpret_cast<const char *>(&k),
              meta[4 * i + 1] = reinterpret_cast<const char *>(&(k.*(ar.flag))) - reinterpret_cast<const char *>(&k),
              per_block += block_bytes[i], ++i),
             ...);
        },
        arrays);
    // The blocks' copies of the arrays are bounded: when blocks x per_block
    // would exceed the limit, fewer blocks run (one block needs no copy).
    if (NA > 0 && blocks > 1 && per_block > 0) {
        const int64_t most = copy_limit() / per_block;
        if (blocks > most) blocks = most > 1 ? most : 1;
    }
    const bool copies = NA > 0 && blocks > 1;
    int64_t copy_bytes = 0;
    for (size_t i = 0; i < NA; ++i) {
        meta[4 * i + 2] = copy_bytes;
        meta[4 * i + 3] = block_bytes[i];
        copy_bytes += blocks * block_bytes[i];
    }

    LaunchMemory mem;
    void *launch_dev = mem.alloc(meta_at + 32 * int64_t(NA));
    to_device(launch_dev, launch_host.p, meta_at + 32 * int64_t(NA));
    void *partials_dev = mem.alloc(blocks * partial_space<Acc>());
    const int64_t error_bytes = blocks * int64_t(sizeof(BlockError));
    void *errors_dev = mem.alloc(error_bytes);
    acl_check(aclrtMemset(errors_dev, size_t(error_bytes), 0, size_t(error_bytes)), "aclrtMemset");
    void *copies_dev = copies ? mem.alloc(copy_bytes) : nullptr;

    auto *l = static_cast<uint8_t *>(launch_dev), *p = static_cast<uint8_t *>(partials_dev),
         *e = static_cast<uint8_t *>(errors_dev), *c = static_cast<uint8_t *>(copies_dev);
#if defined(TR_ASCEND_MOCK)
    mock::launch(blocks, [&] { kernel<K, Arrays, R...>(l, start, step, n, p, e, c); });
#else
    kernel<K, Arrays, R...><<<uint32_t(blocks), nullptr, rt.stream>>>(l, start, step, n, p, e, c);
#endif
    acl_check(aclrtSynchronizeStream(rt.stream), "running a kernel (aclrtSynchronizeStream)");

    // Errors: the lowest iteration's, as running the loop in order would raise.
    HostBuffer records(error_bytes);
    to_host(records.p, errors_dev, error_bytes);
    const BlockError *rec = static_cast<const BlockError *>(records.p), *first = nullptr;
    for (int64_t b = 0; b < blocks; ++b)
        if (rec[b].code != 0 && (!first || rec[b].index < first->index)) first = &rec[b];
    if (first) {
        ErrorSlot err;
        err.first_ = first->index;
        err.code = first->code;
        err.line = first->line;
        for (int i = 0; i < TR_MSG_SIZE; ++i) err.message[i] = first->message[i];
        err.message[TR_MSG_SIZE - 1] = 0;
        err.rethrow();
    }

    if constexpr (sizeof...(R) > 0) {
        HostBuffer part(blocks * partial_space<Acc>());
        to_host(part.p, partials_dev, blocks * partial_space<Acc>());
        for (int64_t b = 0; b < blocks; ++b) {
            const Acc &acc = *reinterpret_cast<const Acc *>(static_cast<char *>(part.p) + b * partial_space<Acc>());
            std::apply([&](const auto &...v) { (combine<typename R::op>(*reds.target, v), ...); }, acc);
        }
    }
    if constexpr (NA > 0) {
        if (copies) {
            HostBuffer all(copy_bytes);
            to_host(all.p, copies_dev, copy_bytes);
            std::apply(
                [&](const auto &...ar) {
                    size_t i = 0;
                    ((combine_copies(k, ar, static_cast<const char *>(all.p) + meta[4 * i + 2], blocks,
                                     block_bytes[i]),
                      ++i),
                     ...);
                },
                arrays);
        }
    }
}

template <class K, class... R>
inline void for_range(const K &k, int64_t start, int64_t stop, int64_t step, R... reds) {
    run_kernel(k, std::tuple<>(), start, stop, step, reds...);
}

template <class K, class... A, class... R>
inline void for_range(const WithArrays<K, A...> &w, int64_t start, int64_t stop, int64_t step, R... reds) {
    run_kernel(w.k, w.arrays, start, stop, step, reds...);
}

}  // namespace par

#if TR_ASCEND_DEVICE
// tr::raise on the AI Core (declared in error.hpp): the calling block's first
// error only, with the line of the statement that raised.
__aicore__ inline void device_error(int code, __gm__ const char *fmt, const FmtArg *args, int nargs) {
    __gm__ par::BlockError *rec = par::block_record();
    if (rec->code != 0) return;
    par::format_message(rec->message, TR_MSG_SIZE, fmt, args, nargs);
    rec->line = rec->line_now;
    rec->code = code;
}
#endif

}  // namespace tr
