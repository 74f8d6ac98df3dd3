// Calls into NumPy itself, through the bridge's host table (abi.h,
// numpy_call), where its result depends on code no loop of ours reproduces
// bit for bit: the BLAS behind np.dot / np.matmul / @ of floating-point
// arrays (its summation order follows the CPU's kernel and blocking) and the
// pairwise sums and BLAS dot products behind np.linalg.norm.  A module that
// calls it holds the GIL (cxx/nogil.py: it receives the host table), and a
// prange loop that calls it runs in order (library Entry.needs_python).
#pragma once
#include "../fallback.hpp"

namespace tr {
namespace np {

enum NumpyFunction : int32_t { kNumpyDot = 0, kNumpyMatmul = 1, kNumpyNorm = 2 };

// A floating-point result: NumPy computes it.
template <class R> inline constexpr bool computed_by_numpy = is_float<R>::value || is_complex<R>::value;

// NumPy's function on the arguments (arrays, numbers as Python numbers, None);
// Out is the result as compiled code holds it (a scalar or a C-ordered array).
template <class Out, class... Args> Out call_numpy(int32_t fn, const Args &...args) {
    const tr_host *h = host().table;
    if (!h) raise(TR_ERR_RUNTIME, "internal error: a module calling NumPy did not receive the bridge's services");
    tr_value ins[sizeof...(Args)] = {box(args, true)...};
    tr_value out;
    Out result{};
    expect(out, result);
    tr_error err;
    check(h->numpy_call(fn, int32_t(sizeof...(Args)), ins, &out, &err), err);
    unbox(out, result);
    return result;
}

}  // namespace np
}  // namespace tr
