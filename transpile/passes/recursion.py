"""Which compiled functions can call themselves (directly or through other
compiled functions): those count their depth (runtime_cpp/.../recursion.hpp),
so deep recursion raises RecursionError instead of overflowing the C stack."""
from __future__ import annotations


def _callees(tf, program):
    for call in tf.calls.values():
        if isinstance(call, tuple) and call and call[0] == "jit":
            callee = program.functions.get(call[1])
            if callee is not None:
                yield callee


def recursive(program) -> set:
    """The cxx names of the functions on a cycle of the call graph."""
    found = set()
    for tf in program.order:
        seen, stack = set(), list(_callees(tf, program))
        while stack:
            g = stack.pop()
            if g is tf:
                found.add(tf.cxx_name)
                break
            if g.cxx_name in seen:
                continue
            seen.add(g.cxx_name)
            stack.extend(_callees(g, program))
    return found
