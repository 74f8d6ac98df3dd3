"""Lowering of None-or-a-value (T.Optional, passes/optional.py) to tr::Optional<T>."""
from __future__ import annotations

import json

from ..hir import types as T
from ..passes.optional import OptCompare, Unwrap
from .model import CExpr
from .types import ctype

__all__ = ["OptCompare", "coerced", "compare", "store_result", "uses_optional", "widened_params"]


def _has(t) -> bool:
    if isinstance(t, T.Optional):
        return True
    if isinstance(t, T.Tuple):
        return any(_has(i) for i in t.items)
    if isinstance(t, T.List):
        return t.elem is not None and _has(t.elem)
    return False


def uses_optional(program) -> bool:
    """Whether any function of the program holds a None-or-a-value (the header is included only then)."""
    for tf in program.order:
        if _has(tf.return_type) or any(_has(t) for t in tf.var_types.values()) \
                or any(_has(t) for t in tf.types.values()) or any(_has(t) for t in tf.arg_types):
            return True
    return False


def coerced(lowerer, node, out: CExpr):
    """The checked unwrap of node's value, or None when node is not unwrapped."""
    c = lowerer.tf.coerce.get(node)
    if not isinstance(c, Unwrap):
        return None
    return CExpr(f"tr::unwrap({out.code}, {_c_string(c.message)})")


def _c_string(text: str) -> str:
    return json.dumps(text)  # tr::raise formats it through "%s"


def compare(lowerer, op, ops: OptCompare, a: CExpr, at, b: CExpr, bt) -> CExpr:
    opt, opt_t, other, other_t = (a, at, b, bt) if ops.side == 0 else (b, bt, a, at)
    negate = op in ("is not", "!=")
    if ops.kind == "none":
        # `other` is None: evaluated only for its effects (a name or literal in practice)
        return CExpr(f"({'' if negate else '!'}({opt.code}).has)")
    x, y = ("tr_o.value", "tr_v") if ops.side == 0 else ("tr_v", "tr_o.value")
    xt, yt = (opt_t.inner, other_t) if ops.side == 0 else (other_t, opt_t.inner)
    cmp = lowerer.binop(op, ops.ops, CExpr(x), xt, CExpr(y), yt).code
    test = f"(!tr_o.has || {cmp})" if op == "!=" else f"(tr_o.has && {cmp})"
    return CExpr(f"([&](const auto &tr_o, const auto &tr_v) -> bool {{ return {test}; }}({opt.code}, {other.code}))")


def store_result(t: T.Optional, expr: str, counter: list, out: list, store) -> None:
    flag = counter[0]
    counter[0] += 1
    inner: list = []
    store(t.inner, f"{expr}.value", counter, inner)
    out.append(f"tr::to_result(results[{flag}], bool({expr}.has));")
    out.append(f"if ({expr}.has) {{ {' '.join(inner)} }}")


def received(lowerer, n: str) -> str:
    """The C++ name parameter n arrives under: its variable's, or, where the
    variable holds more than the argument's type, `<name>_arg` (widened_params)."""
    tf = lowerer.tf
    t = tf.arg_types[tf.params.index(n)]
    return lowerer.var(n) + ("_arg" if tf.var_types.get(n, t) != t else "")


def widened_params(lowerer, params: list, locals_: list) -> None:
    """A parameter whose variable holds more than the argument's type (None
    given for `out=None` and an array assigned later; an int argument later
    assigned a float) is received under another name and copied into a local
    of the variable's type."""
    tf = lowerer.tf
    for i, (n, t) in enumerate(zip(tf.params, tf.arg_types)):
        vt = tf.var_types.get(n, t)
        if vt == t:
            continue
        name = lowerer.var(n)
        params[i] = f"{ctype(t)} {received(lowerer, n)}"
        from .model import CExpr as _C

        if vt == T.ANY:  # a held parameter (passes/fallback.py hold): the argument with its own Python type
            from .lower_dicts import H_TOPY, to_py

            lowerer.module.include(H_TOPY)
            lowerer.module.needs_host = True
            locals_.append(f"tr::Object {name} = {to_py(t, received(lowerer, n))};")
            continue
        locals_.append(f"{ctype(vt)} {name} = {lowerer.convert(_C(received(lowerer, n)), t, vt)};")
