// NumPy's own ufunc inner loops, called from compiled code.  NumPy picks a
// loop per CPU when it is imported (AVX-512 builds of exp, log, tanh, the
// SVML-based trigonometric and hyperbolic loops, ...); their results differ
// from the C library's in the last bits, and no loop of ours could follow
// every CPU and NumPy version.  So a transcendental ufunc of floats or
// complex numbers calls the very loop NumPy would (one element per call, as
// NumPy does for a scalar: an element's result does not depend on its
// neighbours in these loops), and the bits are NumPy's.
//
// The module's loops are listed in a table (TR_NUMPY_LOOPS in the generated
// code); the bridge resolves them when it loads the module (the host
// table's ufunc_loop, with the GIL held), so calls need no Python at all
// and the module may still release the GIL.
#pragma once
#include <stdint.h>
#include "../abi.h"
#include "../error.hpp"
#include "../scalar.hpp"
#include "../expr.hpp"  // copy_as, empty: whole arrays

namespace tr {
namespace np {

typedef void (*ufunc_inner_loop)(char **args, const int64_t *dimensions, const int64_t *steps, void *data);

struct NumpyLoop {
    const char *ufunc;    // numpy.<ufunc>
    int32_t nargs;        // operands, inputs then outputs
    int32_t types[3];     // NumPy type numbers
    ufunc_inner_loop fn;  // resolved at load time
    void *data;
};

// The generated module's table (TR_NUMPY_LOOPS) registers itself here.
struct NumpyLoopTable {
    NumpyLoop *loops = nullptr;
    int count = 0;
};
inline NumpyLoopTable &numpy_loop_table() {
    static NumpyLoopTable t;
    return t;
}

// Called by tr_module_init (the bridge, GIL held): every loop of the table.
inline void resolve_numpy_loops(const tr_host *h) {
    NumpyLoopTable &t = numpy_loop_table();
    for (int i = 0; i < t.count; ++i) {
        NumpyLoop &l = t.loops[i];
        void *fn = nullptr, *data = nullptr;
        if (h->ufunc_loop(l.ufunc, l.nargs, l.types, &fn, &data) == TR_OK) {
            l.fn = reinterpret_cast<ufunc_inner_loop>(fn);
            l.data = data;
        }
    }
}

[[noreturn]] __attribute__((cold, noinline)) inline void loop_missing(const NumpyLoop &l) {
    raise(TR_ERR_RUNTIME, "internal error: NumPy's loop for numpy.%s was not resolved when the module loaded", l.ufunc);
}

// One element through loop K of the table (its operands x..., the result of
// the same type): NumPy's result for it.
template <int K, class T, class... More> inline T numpy_loop_1(T x, More... more) {
    const NumpyLoop &l = numpy_loop_table().loops[K];
    if (__builtin_expect(!l.fn, 0)) loop_missing(l);
    T in[] = {x, T(more)...}, out;
    constexpr int nin = 1 + int(sizeof...(More));
    char *args[nin + 1];
    int64_t steps[nin + 1];
    for (int i = 0; i < nin; ++i) args[i] = reinterpret_cast<char *>(&in[i]), steps[i] = int64_t(sizeof(T));
    args[nin] = reinterpret_cast<char *>(&out), steps[nin] = int64_t(sizeof(T));
    const int64_t n = 1;
    l.fn(args, &n, steps, l.data);
    return out;
}

// A whole array through loop K in one call, as NumPy runs a contiguous
// operand (a new C-ordered result): one call per element costs ~60 ns in
// NumPy's SIMD loops, one call per array about 1 ns an element.
template <int K, class T, class X> auto numpy_loop_array(const X &x) {
    // C order, unit stride: what NumPy's loop sees for a contiguous operand (an array of T in C order as it is)
    auto in = [&] {
        if constexpr (is_array<X>::value) {  // (a lazy expression has no layout: nested, not &&)
            if constexpr (std::is_same_v<typename X::value_type, T> && X::layout == C) return x;
            else return copy_as<T>(x);
        } else {
            return copy_as<T>(x);
        }
    }();
    using A = decltype(in);
    int64_t shape[A::ndim > 0 ? A::ndim : 1];
    int64_t n = 1;
    for (int k = 0; k < A::ndim; ++k) n *= (shape[k] = in.shape[k]);
    auto out = empty<T, A::ndim>(shape);
    const NumpyLoop &l = numpy_loop_table().loops[K];
    if (__builtin_expect(!l.fn, 0)) loop_missing(l);
    if (n > 0) {
        char *args[2] = {reinterpret_cast<char *>(in.data), reinterpret_cast<char *>(out.data)};
        const int64_t steps[2] = {int64_t(sizeof(T)), int64_t(sizeof(T))};
        l.fn(args, &n, steps, l.data);
    }
    return out;
}

}  // namespace np

namespace uf {
// The functor a transcendental ufunc lowers to: loop K of the module's table.
template <int K> struct numpy_loop {
    template <class T> static T apply(T x) { return np::numpy_loop_1<K>(x); }
    template <class T> static T apply(T x, T y) { return np::numpy_loop_1<K>(x, y); }
};
}  // namespace uf
}  // namespace tr

// The module's loops, resolved by tr_module_init: TR_NUMPY_LOOPS({"exp", 2, {12, 12}}, ...).
#define TR_NUMPY_LOOPS(...)                                                                \
    namespace {                                                                            \
    tr::np::NumpyLoop tr_numpy_loops[] = {__VA_ARGS__};                                    \
    const bool tr_numpy_loops_listed = (tr::np::numpy_loop_table() = {                     \
                                            tr_numpy_loops,                                \
                                            int(sizeof tr_numpy_loops / sizeof *tr_numpy_loops)}, \
                                        true);                                             \
    }
#undef TR_AFTER_MODULE_INIT
#define TR_AFTER_MODULE_INIT(h) tr::np::resolve_numpy_loops(h)
// For a module whose only use of the bridge's services is resolving them
// (it may run without the GIL: cxx/nogil.py looks for TR_FALLBACK_MODULE_INIT).
#define TR_NUMPY_LOOPS_INIT \
    TR_EXPORT void tr_module_init(const tr_host *h, void *) { tr::np::resolve_numpy_loops(h); }
