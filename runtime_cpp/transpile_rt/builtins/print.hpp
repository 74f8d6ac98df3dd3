// print() in compiled code.  The compiler turns each argument into its text
// (CPython's str(); repr() for the items of a tuple): numbers, bools, None
// and strs are spelled here (floats with repr's shortest digits, str.hpp),
// every other value (arrays, float32 and complex scalars, lists, dicts,
// instances) is boxed and asked for its str() through the bridge, so NumPy
// formats its own arrays.  The line is written through the Python file object
// (sys.stdout or sys.stderr, looked up at each call, as print() does), so
// compiled output and Python's own prints interleave in program order and
// redirections (contextlib.redirect_stdout, pytest's capture) see it.
#pragma once
#include "../topy.hpp"

namespace tr {
namespace print {

enum { STDOUT = 1, STDERR = 2 };

// str(o), or repr(o), of a Python object, as compiled text.
inline void need_host() {
    if (!host().table) raise(TR_ERR_RUNTIME, "%s", "print(): this module was not given the bridge's host table");
}

inline Str text_of(const Object &o, bool repr = false) {
    need_host();
    const char *data = nullptr;
    int64_t len = 0;
    void *s = host().table->text_of(o.p, repr ? 1 : 0, &data, &len);
    if (!s) python_error();
    Str out = Str::copy(data, len);
    host().table->decref(s);
    return out;
}

inline Str none_text() { return Str("None", 4); }

// The text of a tuple from its items' reprs: "(a, b)", and "(a,)" for one item.
template <class... S> inline Str tuple_text(const S &...items) {
    constexpr int n = int(sizeof...(S));
    if constexpr (n == 0) {
        return Str("()", 2);
    } else {
        Str parts[2 * n + 1];
        int k = 0;
        parts[k++] = Str("(", 1);
        ((parts[k++] = items, parts[k++] = Str(", ", 2)), ...);
        parts[k - 1] = n == 1 ? Str(",)", 2) : Str(")", 1);
        int64_t len = 0;
        for (int i = 0; i < k; ++i) len += parts[i].len;
        char *p;
        Str out = Str::make(len, &p);
        for (int i = 0; i < k; ++i) memcpy(p, parts[i].data, size_t(parts[i].len)), p += parts[i].len;
        return out;
    }
}

// Writes pieces[0] sep pieces[1] ... end to `file`; flush calls its flush().
inline none_t write(int file, bool flush, const Str &sep, const Str &end, const Str *pieces, int n) {
    need_host();
    int64_t len = end.len;
    for (int i = 0; i < n; ++i) len += pieces[i].len + (i ? sep.len : 0);
    char *p;
    Str line = Str::make(len, &p);
    for (int i = 0; i < n; ++i) {
        if (i) memcpy(p, sep.data, size_t(sep.len)), p += sep.len;
        memcpy(p, pieces[i].data, size_t(pieces[i].len)), p += pieces[i].len;
    }
    memcpy(p, end.data, size_t(end.len));
    if (host().table->write_text(file, line.data, line.len, flush ? 1 : 0) != TR_OK) python_error();
    return none_t{};
}

}  // namespace print
}  // namespace tr
