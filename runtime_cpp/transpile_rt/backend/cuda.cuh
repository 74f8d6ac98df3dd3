// backend="cuda": prange loops as CUDA kernels (the module is compiled by
// nvcc with -DTRANSPILE_BACKEND_CUDA; everything outside prange loops runs
// on the host as it does for backend="cpu", except array expressions of at
// least TR_CUDA_EXPR_MIN elements, which expr.hpp stages and launches
// through Staging and for_range below, one GPU thread per element).
//
// Memory: before a loop, Staging copies every array the body uses to the
// GPU (the byte span its view covers; views of one buffer share one device
// copy) and, after the kernel, copies back the arrays the body writes.
// Launch: a grid-stride loop, 256 threads a block.  Reductions: each GPU
// thread keeps a partial and combines it atomically into one device value,
// which is then combined into the host variable.  Errors (IndexError,
// ZeroDivisionError...) are recorded on the device (the first to claim the
// slot wins) and raised on the host after the kernel.  No visible GPU is a
// RuntimeError at the first loop that needs one.
#pragma once
#include <cuda_runtime.h>
#include "staging.hpp"

#if defined(__CUDA_ARCH__)
#define TR_KERNEL_LINE(n) ((void)0)
#else
#define TR_KERNEL_LINE(n) (::tr::current_line() = (n))
#endif

namespace tr {
namespace par {

inline void check(cudaError_t e, const char *what) {
    if (e != cudaSuccess)
        raise(TR_ERR_RUNTIME, "backend='cuda': %s failed: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

// A GPU must be visible when the first kernel is launched.
inline void require_device() {
    static bool seen = false;
    if (seen) return;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0)
        raise(TR_ERR_RUNTIME,
              "backend='cuda': no CUDA GPU is visible to this process (cudaGetDeviceCount: %s); run on a machine "
              "with an NVIDIA GPU and driver, check CUDA_VISIBLE_DEVICES, or use backend='cpu'",
              e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    seen = true;
}

// A device array argument (an object with __cuda_array_interface__), used
// in place: Staging leaves it alone and kernels get it as it is.  Its
// pointer must be memory the current GPU can address, and the stream its
// producer ordered work on is waited for, as the protocol asks of a consumer.
template <class T, int N> inline DeviceArray<T, N, A> device_array_arg(void *slot, const char *name) {
    const tr_device_in *in = static_cast<const tr_device_in *>(slot);
    require_device();
    DeviceArray<T, N, A> d;
    d.data = reinterpret_cast<T *>(in->data);
    d.owner = in->owner;
    for (int k = 0; k < N; ++k) d.shape[k] = in->shape[k], d.strides[k] = in->strides[k] / int64_t(sizeof(T));
    if (d.size() > 0) {
        cudaPointerAttributes attr;
        cudaError_t e = cudaPointerGetAttributes(&attr, in->data);
        if (e != cudaSuccess) cudaGetLastError();  // clears the sticky error of a bad pointer
        if (e != cudaSuccess || (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged))
            raise(TR_ERR_VALUE,
                  "argument '%s': its __cuda_array_interface__ pointer %p is not CUDA device memory; pass a CuPy "
                  "array, a PyTorch CUDA tensor or a NumPy array (copied to the GPU and back)",
                  name, static_cast<void *>(in->data));
        int current = 0;
        check(cudaGetDevice(&current), "cudaGetDevice");
        if (attr.type == cudaMemoryTypeDevice && attr.device != current)
            raise(TR_ERR_VALUE,
                  "argument '%s' lives on GPU %d but kernels run on GPU %d; move it (e.g. cupy: with "
                  "cupy.cuda.Device(%d): a.copy()) or set CUDA_VISIBLE_DEVICES",
                  name, attr.device, current, current);
    }
    if (in->stream)
        check(cudaStreamSynchronize(static_cast<cudaStream_t>(in->stream)),
              "waiting for the stream of a device array argument (cudaStreamSynchronize)");
    return d;
}

struct CudaDevice {
    static constexpr const char *name = "cuda";
    static void ready() { require_device(); }
    static char *alloc(int64_t nbytes) {
        void *p = nullptr;
        check(cudaMalloc(&p, size_t(nbytes)), "cudaMalloc");
        return static_cast<char *>(p);
    }
    static void release(char *p) { cudaFree(p); }
    static void to_device(char *dev, const char *host, int64_t nbytes) {
        check(cudaMemcpy(dev, host, size_t(nbytes), cudaMemcpyHostToDevice), "cudaMemcpy to the GPU");
    }
    static void to_host(char *host, const char *dev, int64_t nbytes) {
        check(cudaMemcpy(host, dev, size_t(nbytes), cudaMemcpyDeviceToHost), "cudaMemcpy from the GPU");
    }
};
using Staging = StagingFor<CudaDevice>;

// Bits of a value as an unsigned word of its size.
template <int S> struct word_of;
template <> struct word_of<4> { using type = unsigned int; };
template <> struct word_of<8> { using type = unsigned long long; };

// ref = f(ref) as one atomic step on the device: compare-and-swap on the
// element (elements of 1 or 2 bytes: on the 4-byte word that holds them).
template <class T, class F> __device__ inline void atomic_update_device(T &ref, F f) {
    if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
        using W = typename word_of<sizeof(T)>::type;
        W *p = reinterpret_cast<W *>(&ref);
        W old = *p, assumed;
        do {
            assumed = old;
            T cur, next;
            memcpy(&cur, &assumed, sizeof(T));
            next = f(cur);
            W desired;
            memcpy(&desired, &next, sizeof(T));
            old = atomicCAS(p, assumed, desired);
        } while (old != assumed);
    } else if constexpr (sizeof(T) < 4) {
        const size_t addr = reinterpret_cast<size_t>(&ref);
        unsigned int *p = reinterpret_cast<unsigned int *>(addr & ~size_t(3));
        const unsigned shift = unsigned(addr & 3) * 8;
        const unsigned mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << shift;
        unsigned int old = *p, assumed;
        do {
            assumed = old;
            T cur, next;
            unsigned bits = (assumed & mask) >> shift;
            memcpy(&cur, &bits, sizeof(T));
            next = f(cur);
            unsigned nbits = 0;
            memcpy(&nbits, &next, sizeof(T));
            old = atomicCAS(p, assumed, (assumed & ~mask) | ((nbits << shift) & mask));
        } while (old != assumed);
    } else {
        static_assert(sizeof(T) <= 8, "backend='cuda': atomic updates of 16-byte (complex128) elements");
    }
}

template <class T, class F> TR_HD inline void atomic_update(T &ref, F &&f) {
#if defined(__CUDA_ARCH__)
    atomic_update_device(ref, f);
#else
    ref = f(ref);  // host code runs loops in order
#endif
}

template <class Op, class T> __device__ inline void atomic_combine(T *into, T part) {
    if constexpr (same<Op, op::add>::value && (same<T, float>::value || same<T, double>::value ||
                                                 same<T, int>::value || same<T, unsigned int>::value)) {
        atomicAdd(into, part);
    } else if constexpr (same<Op, op::add>::value && sizeof(T) == 8 && is_int<T>::value) {
        atomicAdd(reinterpret_cast<unsigned long long *>(into), (unsigned long long)part);  // two's complement
    } else if constexpr (same<Op, op::add>::value && is_complex<T>::value) {
        atomicAdd(&into->re, part.re);
        atomicAdd(&into->im, part.im);
    } else {
        atomic_update_device(*into, [&](const T &cur) { return Op::apply(cur, part); });
    }
}

template <class K, class... R>
__global__ void kernel(K k, int64_t start, int64_t step, int64_t n, typename R::value_type *...acc) {
    std::tuple<typename R::value_type...> local(identity<typename R::op, typename R::value_type>()...);
    const int64_t stride = int64_t(gridDim.x) * blockDim.x;
    for (int64_t j = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; j < n; j += stride)
        std::apply([&](auto &...r) { k(start + j * step, r...); }, local);
    std::apply([&](const auto &...r) { (atomic_combine<typename R::op>(acc, r), ...); }, local);
}

template <class K, class... R, size_t... I>
inline void launch(const K &k, int64_t start, int64_t step, int64_t n, void **acc, std::index_sequence<I...>) {
    const int block = 256;
    int64_t grid = (n + block - 1) / block;
    if (grid > (1 << 20)) grid = 1 << 20;  // a grid-stride loop covers the rest
    kernel<K, R...><<<unsigned(grid), block>>>(k, start, step, n, static_cast<typename R::value_type *>(acc[I])...);
}

template <class K, class... R>
inline void for_range(const K &k, int64_t start, int64_t stop, int64_t step, R... reds) {
    const int64_t n = trip_count(start, stop, step);
    if (n <= 0) return;
    require_device();
    DeviceError clean = {};
    check(cudaMemcpyToSymbol(device_error, &clean, sizeof clean), "resetting the device error slot");
    void *acc[sizeof...(R) > 0 ? sizeof...(R) : 1] = {};
    int i = 0;
    (
        [&] {
            using T = typename R::value_type;
            T init = identity<typename R::op, T>();
            check(cudaMalloc(&acc[i], sizeof(T)), "cudaMalloc");
            check(cudaMemcpy(acc[i], &init, sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy to the GPU");
            ++i;
        }(),
        ...);
    launch<K, R...>(k, start, step, n, acc, std::index_sequence_for<R...>{});
    cudaError_t launch = cudaGetLastError();
    cudaError_t run = cudaDeviceSynchronize();
    DeviceError seen = {};
    cudaMemcpyFromSymbol(&seen, device_error, sizeof seen);
    i = 0;
    (
        [&] {
            using T = typename R::value_type;
            T part;
            cudaMemcpy(&part, acc[i], sizeof(T), cudaMemcpyDeviceToHost);
            cudaFree(acc[i]);
            combine<typename R::op>(*reds.target, part);
            ++i;
        }(),
        ...);
    check(launch, "launching a kernel");
    check(run, "running a kernel");
    if (seen.code) raise(seen.code, "%s", seen.message);
}

// Array reductions: the GPU's updates stay atomic.
template <class K, class... A, class... R>
inline void for_range(const WithArrays<K, A...> &w, int64_t start, int64_t stop, int64_t step, R... reds) {
    for_range(w.k, start, stop, step, reds...);
}

}  // namespace par
}  // namespace tr
