// A Python object compiled code holds (a helper's result of no compiled
// type) converted to the type a `# @jit.typing: () -> T` comment names: the
// bridge checks and converts it as it does a fallback statement's values
// (TypeError when it is not one).
#pragma once
#include "fallback.hpp"

namespace tr {

template <class V> V from_object(const Object &o) {
    tr_value v;
    V out{};
    expect(v, out);
    if (host().table->unbox(o.p, &v) != TR_OK) python_error();
    unbox(v, out);
    return out;
}

}  // namespace tr
