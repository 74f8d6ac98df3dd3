// Reading a local variable on a path that did not assign it: CPython's
// UnboundLocalError.  Only variables that a read may find unassigned
// (passes/unbound.py) carry the flag this checks.
#pragma once
#include "error.hpp"

namespace tr {

TR_HD inline void check_bound(bool bound, const char *name) {
    if (!bound)
        raise(TR_ERR_UNBOUND, "cannot access local variable '%s' where it is not associated with a value", name);
}

}  // namespace tr
