// Errors raised by generated code.  A tr::Error carries an ABI error code
// and NumPy/CPython's wording; the entry wrapper copies it into tr_error and
// the bridge raises the matching Python exception.  No <string>/<stdexcept>:
// those headers alone cost 0.2 s of every compile.
#pragma once
#include <stdarg.h>
#include <stdio.h>
#include "abi.h"
#include "hd.hpp"

namespace tr {

struct Error {
    int code;
    char message[TR_MSG_SIZE];
    int line = 0;  // Python line it was raised at; 0 until a function's handler notes it (note_line)
};

// The catch clause of a generated function (O0) calls this with the line of
// the statement it was running (a local the statements set, so the line costs
// nothing on the fast path): the innermost compiled function an error leaves
// names the line, as CPython's traceback does.
inline void note_line(Error &e, int line) {
    if (!e.line) e.line = line;
}

// Python line of the statement being run, where no function handler is
// there to note it: prange bodies on worker threads (TR_KERNEL_LINE).
inline int &current_line() {
    static thread_local int line = 0;
    return line;
}

// CPython's messages that changed between versions: generated modules define
// them for the running Python (cxx/prelude.py); these are 3.12's.
#ifndef TR_MSG_INT_MOD_ZERO
#define TR_MSG_INT_MOD_ZERO "integer modulo by zero"
#endif
#ifndef TR_MSG_MIN_EMPTY
#define TR_MSG_MIN_EMPTY "min() iterable argument is empty"
#define TR_MSG_MAX_EMPTY "max() iterable argument is empty"
#endif

// Set at each return site of a function that CPython would return a Python
// number from on some paths and a NumPy scalar on others (passes/returns.py).
inline bool &ret_weak() {
    static thread_local bool weak = false;
    return weak;
}

// The same for the items of a returned tuple: bit i set when item i is a
// Python number on this path (passes/paths.py).
inline uint64_t &ret_weak_bits() {
    static thread_local uint64_t bits = 0;
    return bits;
}

// The printf subset raise()'s formats use (%d, %ld, %lld, %s, %%), for device
// code, which has no vsnprintf: `args` supplies the values (integer(number of
// 'l's), string()).  Out and Str are plain pointers, or global-memory
// pointers on an Ascend AI Core.
template <class Out, class Str, class Args> TR_HD inline void format_printf(Out out, int size, Str fmt, Args &args) {
    int n = 0;
    auto put = [&](char c) {
        if (n < size - 1) out[n++] = c;
    };
    for (Str p = fmt; *p; ++p) {
        if (*p != '%') {
            put(*p);
            continue;
        }
        ++p;
        if (*p == '%') {
            put('%');
            continue;
        }
        if (*p == 's') {
            auto s = args.string();
            if (s)
                for (; *s; ++s) put(*s);
            continue;
        }
        int longs = 0;
        for (; *p == 'l'; ++p) ++longs;
        if (!*p) break;
        const long long v = args.integer(longs);
        char digits[24];
        int k = 0;
        unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
        do digits[k++] = char('0' + u % 10);
        while (u /= 10);
        if (v < 0) put('-');
        while (k) put(digits[--k]);
    }
    out[n] = 0;
}

// raise()'s message on a CUDA device, where there is no vsnprintf (host code
// too, so that tests can compare it with vsnprintf).
TR_HD inline void format_va(char *out, const char *fmt, va_list ap) {
    struct {
        decltype(ap) list;  // the caller's va_list (a parameter of array type is a pointer to it)
        TR_HD long long integer(int longs) {
            return longs >= 2 ? va_arg(list, long long) : longs == 1 ? (long long)va_arg(list, long)
                                                                    : va_arg(list, int);
        }
        TR_HD const char *string() { return va_arg(list, const char *); }
    } args{ap};
    format_printf(out, TR_MSG_SIZE, fmt, args);
}

#if defined(__CUDACC__)
// An error raised inside a CUDA kernel cannot unwind: the first one is kept
// here (message formatted on the device) and raised on the host after the
// kernel by backend/cuda.cuh; the failing thread carries on with a harmless
// value (an out-of-range index reads element 0).
struct DeviceError {
    int claimed;
    int code;
    char message[TR_MSG_SIZE];
};
static __device__ DeviceError device_error;

#endif

// One argument of a message formatted without C varargs (Ascend device code).
struct FmtArg {
    long long v;
    TR_GM const char *s;
};
TR_HD inline FmtArg fmt_arg(long long v) { return FmtArg{v, nullptr}; }
TR_HD inline FmtArg fmt_arg(TR_GM const char *s) { return FmtArg{0, s}; }

#if TR_ASCEND_DEVICE
// An error raised on an Ascend AI Core cannot unwind either.  The AI Core has
// no C varargs (AscendC's own printf is a variadic template), so raise() is a
// template here: its arguments become FmtArgs (integers, strings), and
// device_error() (backend/ascend.hpp) formats the message (%d, %lld, %s, %%)
// into the calling block's error record in device memory and returns; the
// block carries on with a harmless value (an out-of-range index reads element
// 0), stops after the iteration, and the host raises the error after the
// kernel.  String literals are in global memory on the device (TR_GM).
TR_HD inline void device_error(int code, TR_GM const char *fmt, const FmtArg *args, int nargs);

template <class... Args> __attribute__((cold, noinline)) TR_HD inline void raise(int code, TR_GM const char *fmt,
                                                                                Args... args) {
    const FmtArg list[sizeof...(Args) + 1] = {fmt_arg(args)..., FmtArg{0, nullptr}};
    device_error(code, fmt, list, int(sizeof...(Args)));
}
#else
TR_NORETURN __attribute__((format(printf, 2, 3), cold, noinline)) TR_HD inline void
raise(int code, const char *fmt, ...) {
#if TR_DEVICE_PASS
#if defined(__CUDA_ARCH__)
    if (atomicCAS(&device_error.claimed, 0, 1) == 0) {
        va_list ap;
        va_start(ap, fmt);
        format_va(device_error.message, fmt, ap);
        va_end(ap);
        __threadfence();
        atomicExch(&device_error.code, code);
    }
#endif
#else
    Error e;
    e.code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e.message, sizeof e.message, fmt, ap);
    va_end(ap);
    throw e;
#endif
}
#endif  // TR_ASCEND_DEVICE

TR_NORETURN __attribute__((cold, noinline)) TR_HD inline void index_error(int64_t index, int axis, int64_t size) {
    raise(TR_ERR_INDEX, "index %lld is out of bounds for axis %d with size %lld", (long long)index, axis,
          (long long)size);
}

// Runs `body`, turning a tr::Error into the ABI's error slot.
template <class Body> inline int guarded(tr_error *err, Body &&body) {
    try {
        body();
        return TR_OK;
    } catch (const Error &e) {
        err->code = e.code;
        err->line = e.line ? e.line : current_line();
        for (int i = 0; i < TR_MSG_SIZE; ++i) {
            err->message[i] = e.message[i];
            if (!e.message[i]) break;
        }
        return e.code;
    } catch (...) {
        err->code = TR_ERR_MEMORY;
        err->line = current_line();
        snprintf(err->message, TR_MSG_SIZE, "out of memory or internal error in generated code");
        return TR_ERR_MEMORY;
    }
}

}  // namespace tr
