// Function values (issue 13, transpile/hir/functions.py).  A function passed,
// stored or returned as a value is part of its callee's type: compiled code
// calls its own specialization of it directly, so at run time the value only
// carries the Python object, for statements that run as Python.
#pragma once
#include "fallback.hpp"

namespace tr {

// p: the function object, borrowed from the caller's arguments for the call.
// A module-level function named in compiled code has no object here: region
// `global` reads it by name (as Python would) when Python code needs it.
struct Fn {
    void *p = nullptr;
    int global = -1;
};

inline Fn fn_arg(void *slot) { return Fn{*static_cast<void **>(slot), -1}; }

inline tr_value box(const Fn &f, bool = false) {
    void *p = f.p;
    if (!p && f.global >= 0) {
        Object o;
        call_region(f.global, std::tie(o), nullptr, 0);
        p = o.p;  // borrowed from here on: the module's binding keeps it alive
    }
    if (!p) {  // the typer lets no other function value reach Python code
        Error e;
        e.code = TR_ERR_RUNTIME;
        __builtin_strcpy(e.message, "internal error: a function value made by compiled code reached Python code");
        throw e;
    }
    tr_value out;
    out.kind = TR_V_OBJECT;
    out.typenum = -1;
    out.ndim = 0;
    out.object = p;
    return out;
}

}  // namespace tr
