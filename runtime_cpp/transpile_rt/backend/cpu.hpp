// backend="cpu": prange loops, and array expressions at jit_level O1
// (expr.hpp runs their elements as a loop of one share per thread), on
// OpenMP threads.
//
// Modules with a prange loop or (at O1) an array expression are compiled
// with -fopenmp (others are not, so their compiles stay fast); without it
// the pragmas are ignored and the loops run in order.  The thread count is
// TRANSPILE_NUM_THREADS, read at every launch, else OpenMP's default
// (OMP_NUM_THREADS or the core count).
//
// Iterations are split statically.  Reductions keep one partial per thread,
// combined in thread order, so a given thread count always gives the same
// result.  An iteration that raises stops the iterations after it (those
// before it still run, so the error reported is the one of the lowest index,
// as in Python); the error is raised after the loop: C++ exceptions cannot
// leave an OpenMP region.
#pragma once
#include <new>
#include <pthread.h>
#include <type_traits>
#ifdef _OPENMP
#include <omp.h>
#endif

// Python line tracking inside a kernel body (thread_local on the CPU).
#define TR_KERNEL_LINE(n) (::tr::current_line() = (n))

namespace tr {
namespace par {

// OpenMP's thread pool does not survive fork(): a child that starts a
// parallel region on more than one thread hangs (libgomp).  So in a process
// forked after this module was loaded, prange loops run on one thread.
inline bool &forked() {
    static bool f = false;
    return f;
}
inline void note_fork() { forked() = true; }
inline const bool fork_watch = (pthread_atfork(nullptr, nullptr, note_fork), true);

inline int threads_for(int64_t n) {
    if (forked()) return 1;
    int nt = 0;
    const char *env = getenv("TRANSPILE_NUM_THREADS");
    if (env && *env) {
        char *end = nullptr;
        long v = strtol(env, &end, 10);
        if (*end != 0 || v <= 0 || v > 1 << 16)
            raise(TR_ERR_VALUE, "TRANSPILE_NUM_THREADS must be a positive integer, not '%s'", env);
        nt = int(v);
    }
#ifdef _OPENMP
    if (nt == 0) nt = omp_get_max_threads();
#else
    nt = 1;
#endif
    if (nt > n) nt = int(n);
    return nt < 1 ? 1 : nt;
}

// Threads for an array expression of n elements (expr.hpp, jit_level O1):
// at most one per `grain` elements, and none of its own inside a parallel
// region (omp_get_level counts one-thread teams too: a prange body already
// runs on a thread of a team, and nested teams would oversubscribe).
inline int threads_for_elements(int64_t n, int64_t grain) {
#ifdef _OPENMP
    if (omp_get_level() > 0) return 1;
#endif
    if (n < 2 * grain) return 1;
    return threads_for(n / grain);
}

// The CPU needs no staging: the kernel reads the arrays where they are.
struct Staging {
    template <class X> void add(const X &, bool) {}
    void upload() {}
    template <class X> const X &view(const X &x) { return x; }
    void download() {}
};

template <class X> using arg_t = X;

template <class... R, size_t... I>
inline void combine_tuple(std::tuple<typename R::value_type...> &into, const std::tuple<typename R::value_type...> &part,
                          std::index_sequence<I...>) {
    (combine<typename R::op>(std::get<I>(into), std::get<I>(part)), ...);
}

template <class... R> inline void combine_all(const std::tuple<typename R::value_type...> &part, R... reds) {
    std::apply([&](const auto &...p) { (combine<typename R::op>(*reds.target, p), ...); }, part);
}

inline void record(ErrorSlot &err, int64_t j, int code, const char *message) {
#pragma omp critical(tr_par_error)
    {
        if (j < err.first_) {
            err.code = code;
            err.line = current_line();
            int i = 0;
            for (; i < TR_MSG_SIZE - 1 && message[i]; ++i) err.message[i] = message[i];
            err.message[i] = 0;
            __atomic_store_n(&err.first_, j, __ATOMIC_RELAXED);
        }
    }
}

// No array reductions.
struct NoArrays {
    void begin(int, int64_t) {}
    template <class K> void thread(K &, int) {}
    void end() {}
};

// Array reductions (histograms): with one thread the updates go to the
// array itself without atomics; with more, each thread gets its own copy
// when the array is small next to the iteration count (at most n/8
// elements and 8 MiB a copy: many updates land on each element, so
// atomics would fight over them), combined in thread order after the loop;
// otherwise the updates stay atomic.
template <class K, class... A> struct PrivateArrays {
    std::tuple<A...> arrays;
    const K &k;
    int nt = 1;
    bool own[sizeof...(A)] = {};
    void *copies[sizeof...(A)] = {};  // nt buffers per array

    template <size_t I> auto &array() const { return k.*(std::get<I>(arrays).member); }

    void begin(int threads, int64_t n) {
        nt = threads;
        begin_each(n, std::index_sequence_for<A...>{});
    }
    template <size_t... I> void begin_each(int64_t n, std::index_sequence<I...>) {
        ((own[I] = nt == 1 || (array<I>().size() * 8 <= n &&
                               array<I>().size() * int64_t(sizeof(typename std::remove_reference_t<
                                                               decltype(array<I>())>::value_type)) <= (8 << 20))),
         ...);
        ((copies[I] = (nt > 1 && own[I]) ? calloc(size_t(nt), sizeof(void *)) : nullptr), ...);
        for (size_t i = 0; i < sizeof...(A); ++i)
            if (nt > 1 && own[i] && !copies[i]) raise(TR_ERR_MEMORY, "out of memory starting a prange loop");
    }
    void thread(K &kt, int t) { thread_each(kt, t, std::index_sequence_for<A...>{}); }
    template <size_t... I> void thread_each(K &kt, int t, std::index_sequence<I...>) { (thread_one<I>(kt, t), ...); }
    template <size_t I> void thread_one(K &kt, int t) {
        if (!own[I]) return;
        kt.*(std::get<I>(arrays).flag) = true;
        if (nt == 1) return;
        auto &a = kt.*(std::get<I>(arrays).member);
        using T = typename std::remove_reference_t<decltype(a)>::value_type;
        using Op = typename std::tuple_element_t<I, std::tuple<A...>>::op;
        const int64_t size = a.size();
        T *buf = static_cast<T *>(malloc(size_t(size > 0 ? size : 1) * sizeof(T)));
        if (!buf) raise(TR_ERR_MEMORY, "out of memory for a thread's copy of an array in a prange loop");
        static_cast<T **>(copies[I])[t] = buf;
        const T init = identity<Op, T>();
        for (int64_t e = 0; e < size; ++e) buf[e] = init;
        a.data = buf;
        int64_t stride = 1;
        for (int d = std::remove_reference_t<decltype(a)>::ndim - 1; d >= 0; --d) a.strides[d] = stride, stride *= a.shape[d];
    }
    void end() { end_each(std::index_sequence_for<A...>{}); }
    template <size_t... I> void end_each(std::index_sequence<I...>) { (end_one<I>(), ...); }
    template <size_t I> void end_one() {
        if (!copies[I]) return;
        auto &a = array<I>();
        using Arr = std::remove_reference_t<decltype(a)>;
        using T = typename Arr::value_type;
        using Op = typename std::tuple_element_t<I, std::tuple<A...>>::op;
        T **bufs = static_cast<T **>(copies[I]);
        int64_t st[Arr::ndim > 0 ? Arr::ndim : 1];
        for (int d = 0; d < Arr::ndim; ++d) st[d] = a.stride(d);
        for (int t = 0; t < nt; ++t) {  // in thread order: the same result for a given thread count
            if (!bufs[t]) continue;
            int64_t e = 0;
            const T *b = bufs[t];
            for_each_offset<Arr::ndim>(a.shape, st, [&](int64_t off) { a.data[off] = Op::apply(a.data[off], b[e++]); });
            free(bufs[t]);
        }
        free(bufs);
        copies[I] = nullptr;
    }
    ~PrivateArrays() {
        for (size_t i = 0; i < sizeof...(A); ++i)
            if (copies[i]) {
                for (int t = 0; t < nt; ++t) free(static_cast<void **>(copies[i])[t]);
                free(copies[i]);
            }
    }
};

// One thread's share: iterations [lo, hi) in order, in a tight loop whose
// reduction partials stay in registers.  An error ends the share (the
// iterations after it are later ones); every 4096 iterations the share also
// stops if an earlier iteration elsewhere failed.
//
// With reductions, iterations go round-robin to four sets of partials, so a
// sum is four independent chains of additions rather than one (a reduction's
// order is the loop's to choose: prange already splits it between threads);
// the four are combined in order at the end of the share.
template <class K, class Prep, class Acc, class Combine>
inline void run_chunk(const K &k, Prep &prep, int t, int64_t start, int64_t step, int64_t lo, int64_t hi,
                      ErrorSlot &err, Acc &out, Combine combine) {
    K kt = k;  // this thread's copy: its views are known not to change
    int64_t at = lo;  // the iteration running, for the error record
    try {
        prep.thread(kt, t);
        // One flat loop: blocking it (a while around a for) made GCC 12 compile
        // the body 4x slower (a 2-D stencil).
        if constexpr (std::tuple_size<Acc>::value == 0) {
            Acc none;
            for (int64_t j = lo; j < hi; ++j) {
                if (((j - lo) & 4095) == 0 && j > err.first()) break;
                at = j;
                std::apply([&](auto &...r) { kt(start + j * step, r...); }, none);
            }
        } else {
            Acc p0 = out, p1 = out, p2 = out, p3 = out;  // out holds the identities
            int64_t j = lo;
            for (; j + 3 < hi; j += 4) {
                if (((j - lo) & 4092) == 0 && j > err.first()) break;
                at = j;
                std::apply([&](auto &...r) { kt(start + j * step, r...); }, p0);
                at = j + 1;
                std::apply([&](auto &...r) { kt(start + (j + 1) * step, r...); }, p1);
                at = j + 2;
                std::apply([&](auto &...r) { kt(start + (j + 2) * step, r...); }, p2);
                at = j + 3;
                std::apply([&](auto &...r) { kt(start + (j + 3) * step, r...); }, p3);
            }
            for (; j < hi && j <= err.first(); ++j) {
                at = j;
                std::apply([&](auto &...r) { kt(start + j * step, r...); }, p0);
            }
            combine(p0, p1);
            combine(p0, p2);
            combine(p0, p3);
            out = p0;
        }
    } catch (const Error &e) {
        record(err, at, e.code, e.message);
    } catch (...) {
        record(err, at, TR_ERR_MEMORY, "out of memory or internal error in a prange loop");
    }
}

template <class K, class Prep, class... R>
inline void run_loop(const K &k, Prep &prep, int64_t start, int64_t stop, int64_t step, R... reds) {
    const int64_t n = trip_count(start, stop, step);
    if (n <= 0) return;
    const int nt = threads_for(n);
    prep.begin(nt, n);
    using Acc = std::tuple<typename R::value_type...>;
    Acc *partial = static_cast<Acc *>(malloc(sizeof(Acc) * size_t(nt)));
    if (!partial) raise(TR_ERR_MEMORY, "out of memory starting a prange loop");
    for (int t = 0; t < nt; ++t) new (&partial[t]) Acc(identity<typename R::op, typename R::value_type>()...);
    ErrorSlot err;
#pragma omp parallel num_threads(nt)
    {
#ifdef _OPENMP
        const int64_t t = omp_get_thread_num(), team = omp_get_num_threads();
#else
        const int64_t t = 0, team = 1;
#endif
        // The static schedule: contiguous shares, the first n % team one longer.
        const int64_t q = n / team, r = n % team;
        const int64_t lo = t * q + (t < r ? t : r), hi = lo + q + (t < r ? 1 : 0);
        run_chunk(k, prep, int(t), start, step, lo, hi, err, partial[t], [](Acc &into, const Acc &part) {
            combine_tuple<R...>(into, part, std::index_sequence_for<R...>{});
        });
    }
    prep.end();
    for (int t = 0; t < nt; ++t) combine_all<R...>(partial[t], reds...);
    free(partial);
    err.rethrow();
}

template <class K, class... R>
inline void for_range(const K &k, int64_t start, int64_t stop, int64_t step, R... reds) {
    NoArrays prep;
    run_loop(k, prep, start, stop, step, reds...);
}

template <class K, class... A, class... R>
inline void for_range(const WithArrays<K, A...> &w, int64_t start, int64_t stop, int64_t step, R... reds) {
    PrivateArrays<K, A...> prep{w.arrays, w.k};
    run_loop(w.k, prep, start, stop, step, reds...);
}

// ref = f(ref) as one atomic step (h[idx] += 1 where iterations may share
// idx): a compare-and-swap loop on the element; 16-byte complex elements
// take a lock.
template <class T, class F> inline void atomic_update(T &ref, F &&f) {
    if constexpr (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8) {
        T old;
        __atomic_load(&ref, &old, __ATOMIC_RELAXED);
        T desired = f(old);
        while (!__atomic_compare_exchange(&ref, &old, &desired, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            desired = f(old);
    } else {
#pragma omp critical(tr_par_atomic)
        ref = f(ref);
    }
}

}  // namespace par
}  // namespace tr
