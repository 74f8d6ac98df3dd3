// prange loops: what every backend shares, then the backend's own part.
//
// The generated code writes each prange body once, as a kernel struct whose
// const operator()(index, reductions...) runs one iteration (TR_HD, so the
// same text is host code for the CPU and device code for CUDA/Ascend), and
// launches it with
//
//     tr::par::Staging st;                 // device memory for the arrays the body uses
//     st.add(a, /*written=*/false); ...  st.upload();
//     const Kernel k{st.view(a), c, ...};  // arrays as views, scalars by value
//     tr::par::for_range(k, start, stop, step, tr::par::reduce<tr::op::add>(s), ...);
//     st.download();                       // written arrays back to the host
//
// The backend is picked here, by the macro the compiler is given:
//   TRANSPILE_BACKEND_CUDA    backend/cuda.cuh   (nvcc)
//   TRANSPILE_BACKEND_ASCEND  backend/ascend.hpp (CANN bisheng, or the host mock)
//   neither                   backend/cpu.hpp    (OpenMP threads; g++ -fopenmp)
#pragma once
#include <stdlib.h>
#include <tuple>
#include "../array.hpp"
#include "../ops/operators.hpp"

namespace tr {

// An array as device code sees it: data, shape and strides (in elements),
// nothing to count or free.  tr::at works on it as on tr::Array.
template <class T, int N, int L = A> struct DeviceArray {
    using value_type = T;
    static constexpr int ndim = N;
    static constexpr int layout = L;
    T *data = nullptr;
    int64_t shape[N > 0 ? N : 1] = {};
    int64_t strides[N > 0 ? N : 1] = {};
    void *owner = nullptr;  // a device array argument: the Python object it came from (returned as it is)
    TR_HD int64_t stride(int k) const { return (L == C && k == N - 1) ? 1 : strides[k]; }
    TR_HD int64_t size() const {
        int64_t n = 1;
        for (int k = 0; k < N; ++k) n *= shape[k];
        return n;
    }
};

// A device array argument returned: the object it came from (abi.h, tr_device_in).
template <class T, int N, int L> inline void to_result(void *slot, const DeviceArray<T, N, L> &a) {
    *static_cast<void **>(slot) = a.owner;
}

template <class T, int N, int L, class... I> TR_HD inline TR_GM T &at(const DeviceArray<T, N, L> &a, I... idx) {
    static_assert(sizeof...(I) == N, "element access needs one index per dimension");
    const int64_t ix[N > 0 ? N : 1] = {int64_t(idx)...};
    int64_t off = 0;
    for (int k = 0; k < N; ++k) off += wrap_index(ix[k], k, a.shape[k]) * a.stride(k);
#if TR_ASCEND_DEVICE  // the data is in global memory, not in the AI Core's private space
    return reinterpret_cast<TR_GM T *>(reinterpret_cast<uintptr_t>(a.data))[off];
#else
    return a.data[off];
#endif
}

namespace par {

// A variable reduced over the iterations: each thread (or GPU thread, or
// Ascend core) starts from Op's identity, the partial results are combined
// with Op and then into the variable's value before the loop.  `s -= x`
// reduces with add: the partials hold minus the sum.
template <class Op, class T> struct Reduction {
    using op = Op;
    using value_type = T;
    T *target;
};
template <class Op, class T> inline Reduction<Op, T> reduce(T &v) { return Reduction<Op, T>{&v}; }

template <class A, class B> struct same { static constexpr bool value = false; };
template <class A> struct same<A, A> { static constexpr bool value = true; };

template <class Op, class T> TR_HD inline T identity() {
    if constexpr (same<Op, op::mul>::value) return cast<T>(1);
    else if constexpr (same<Op, op::bitand_>::value) return sizeof(T) == 1 && T(2) == T(1) ? T(1) : T(~T(0));
    else return cast<T>(0);
}

template <class Op, class T> TR_HD inline void combine(T &into, const T &part) { into = Op::apply(into, part); }

// A shared array the body only updates with h[k] op= v (a histogram): the
// CPU backend may give each thread its own copy (starting from Op's
// identity), combined into the array after the loop; `flag` tells the
// thread's kernel copy that its updates need no atomics.
template <class Op, class K, class M> struct ArrayReduction {
    using op = Op;
    M K::*member;
    bool K::*flag;
};
template <class Op, class K, class M> inline ArrayReduction<Op, K, M> reduce_array(M K::*member, bool K::*flag) {
    return ArrayReduction<Op, K, M>{member, flag};
}

// A kernel and its array reductions.
template <class K, class... A> struct WithArrays {
    const K &k;
    std::tuple<A...> arrays;
};
template <class K, class... A> inline WithArrays<K, A...> with_arrays(const K &k, A... a) {
    return WithArrays<K, A...>{k, std::tuple<A...>(a...)};
}

// Number of iterations of range(start, stop, step).
inline int64_t trip_count(int64_t start, int64_t stop, int64_t step) { return range_len(start, stop, step); }

// The first error raised by an iteration: the one of the lowest index (as
// running the loop in order would), raised after the loop.
struct ErrorSlot {
    int64_t first_ = INT64_MAX;
    int code = 0;
    int line = 0;
    char message[TR_MSG_SIZE];
    int64_t first() const { return __atomic_load_n(&first_, __ATOMIC_RELAXED); }
    void rethrow() {
        if (first_ == INT64_MAX) return;
        current_line() = line;
        Error e;
        e.code = code;
        e.line = line;
        for (int i = 0; i < TR_MSG_SIZE; ++i) e.message[i] = message[i];
        throw e;
    }
};

}  // namespace par
}  // namespace tr

#if defined(TRANSPILE_BACKEND_CUDA)
#include "cuda.cuh"
#elif defined(TRANSPILE_BACKEND_ASCEND)
#include "ascend.hpp"
#else
#include "cpu.hpp"
#endif

namespace tr {
namespace par {
// An update of an array reduction's element: plain on a thread's own copy,
// atomic on the shared array.
template <class T, class F> TR_HD inline void update(bool own_copy, T &ref, F &&f) {
    if (own_copy) ref = f(ref);
    else atomic_update(ref, f);
}
}  // namespace par
}  // namespace tr
