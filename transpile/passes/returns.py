"""Functions whose return sites give a Python number on some paths and a
NumPy scalar on others (`if n == 0: return 0.0` beside `return dot / norm`
with np.float64 operands).  The C++ returns one type, the NumPy one; a flag
set at each return site (tr::ret_weak()) tells the entry which Python type
CPython would have returned, so the result crosses as T.MaybeWeak."""
from __future__ import annotations

from ..hir import nodes as h
from ..hir import types as T
from .path_rules import returns as _returns


def direct_callee(tf, program, value):
    """The TypedFunction a `return f(...)` returns the result of, or None."""
    call = tf.calls.get(value) if isinstance(value, h.Call) else None
    if call is None or call[0] != "jit":
        return None
    return program.functions.get(call[1])


def weak_varies(tf, program) -> bool:
    if not isinstance(tf.return_type, T.Scalar) or tf.return_type.weak:
        return False
    kinds = set()
    for s in _returns(tf.hir.body):
        if s.value is None or s in tf.fallbacks:
            continue
        callee = direct_callee(tf, program, s.value)
        if callee is not None and callee.weak_returns:
            return True
        if tf.path_types is not None and s.value in tf.path_types.weak_calls:
            return True  # max/min returning the argument it picks, a Python float or an np.float64
        t = tf.types.get(s.value)
        if isinstance(t, T.Scalar):
            kinds.add(t.weak)
    return kinds == {True, False}


def site_flag(lowerer, s: h.Return):
    """C++ setting the flag at return site s ("" where a callee sets it)."""
    path_types = lowerer.tf.path_types
    if isinstance(s.value, h.Name) and path_types and s.value.id in path_types.tagged:
        return f"tr::ret_weak() = {lowerer.weak_flag_of(s.value.id)};"
    if path_types and s.value in path_types.weak_calls:
        return f"tr::ret_weak() = {lowerer.weak_code(s.value)};"
    callee = direct_callee(lowerer.tf, lowerer.program, s.value)
    if callee is not None and callee.weak_returns:
        return ""
    t = lowerer.type_of(s.value)
    return f"tr::ret_weak() = {'true' if isinstance(t, T.Scalar) and t.weak else 'false'};"
