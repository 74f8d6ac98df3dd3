// Errors raised by generated code.  A tr::Error carries an ABI error code
// and NumPy/CPython's wording; the entry wrapper copies it into tr_error and
// the bridge raises the matching Python exception.  No <string>/<stdexcept>:
// those headers alone cost 0.2 s of every compile.
#pragma once
#include <stdarg.h>
#include <stdio.h>
#include "abi.h"

namespace tr {

struct Error {
    int code;
    char message[TR_MSG_SIZE];
};

// Python line of the statement being run (only maintained at jit_level O0).
inline int &current_line() {
    static thread_local int line = 0;
    return line;
}

[[noreturn]] __attribute__((format(printf, 2, 3), cold, noinline)) inline void
raise(int code, const char *fmt, ...) {
    Error e;
    e.code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e.message, sizeof e.message, fmt, ap);
    va_end(ap);
    throw e;
}

[[noreturn]] __attribute__((cold, noinline)) inline void index_error(int64_t index, int axis, int64_t size) {
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
        err->line = current_line();
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
