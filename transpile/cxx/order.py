"""Python's evaluation order where C++ leaves it unspecified.

CPython evaluates a call's arguments and a binary operator's operands left
to right; C++ does not order function arguments or the operands of `+`, `*`,
... . The order is visible only when two of them can raise (the first
exception wins: `atan2(sqrt(-1.0), x[5])` is sqrt's ValueError, not
IndexError), so only then are the operands evaluated into temporaries, in a
lambda so that the expression stays one expression (it may sit in a
condition or a short-circuited operand). Names, literals and arithmetic
that cannot raise need nothing.

Array operands are lazy expressions, computed where the result is stored;
an operand with effects (a compiled call, a value from Python, a.sort(), a
draw) after an array expression in Python's order would change what that
expression reads (`(x * 2) + bump(x)`, where bump writes x[0]). There the
array operands before it, and those that may raise (whose exception comes
first), are evaluated first, arrays into arrays, in order, and so is the
result (a lazy result would refer to the temporaries)."""
from __future__ import annotations

from ..hir import nodes as h
from ..hir import types as T
from ..passes.hir_walk import walk
from .model import CExpr

# Operators on scalars that never raise (ints wrap as NumPy's do; float
# results are IEEE values); the rest (/, //, %, **, <<, >>, @) may.
_QUIET_OPS = {"+", "-", "*", "&", "|", "^"}


def may_raise(tf, node, unbound=frozenset()) -> bool:
    """Whether evaluating node can raise (conservative: unknown means yes);
    `unbound`: the reads that may find their variable unassigned."""
    if node in tf.coerce or node in tf.calls:  # a fallback value converted; a @jit_class method or property
        return True
    if isinstance(node, (h.Name, h.Const)):
        return node in unbound  # UnboundLocalError
    t = tf.types.get(node)
    if isinstance(t, T.Array):  # array operations may raise on shapes (broadcasting)
        return True
    if isinstance(node, h.Attribute):
        return may_raise(tf, node.value, unbound)
    if isinstance(node, h.UnaryOp):
        return may_raise(tf, node.operand, unbound)
    if isinstance(node, h.BinOp):
        return node.op not in _QUIET_OPS or may_raise(tf, node.left, unbound) or may_raise(tf, node.right, unbound)
    if isinstance(node, h.Compare):
        return any(may_raise(tf, n, unbound) for n in (node.left, *node.comparators))
    if isinstance(node, h.BoolOp):
        return any(may_raise(tf, n, unbound) for n in node.values)
    if isinstance(node, h.IfExp):
        return any(may_raise(tf, n, unbound) for n in (node.test, node.body, node.orelse))
    if isinstance(node, h.TupleExpr):
        return any(may_raise(tf, n, unbound) for n in node.elts)
    return True  # calls, subscripts (index checks), containers, ...


def has_effects(tf, node) -> bool:
    """Whether evaluating node does something another operand can see: a
    call of compiled user code (a @jit function, a method, a function value),
    a value computed by Python, a library call that writes an argument or
    runs Python or draws (print, np.random: the order of draws is the
    sequence's order)."""
    for n in walk(node):
        if n in tf.coerce:
            return True
        call = tf.calls.get(n)
        if call is None:
            continue
        if call[0] != "lib" or getattr(call[1], "writes_arguments", False) or getattr(call[1], "needs_python", False):
            return True
        if isinstance(n, h.Call) and any(k.name == "out" for k in n.keywords):
            return True
    return False


def _lazy(tf, node) -> bool:
    """An array expression computed when used (a variable names its array)."""
    return isinstance(tf.types.get(node), T.Array) and not isinstance(node, (h.Name, h.Const))


def needs_order(lower, nodes, arrays_computed: bool = False) -> list[int]:
    """Positions among nodes (in Python's evaluation order) to evaluate into
    temporaries: those that may raise, when there are two or more; and, before
    an operand with effects, the array expressions and the operands that may
    raise, with the effectful operands.  arrays_computed: the caller computes
    array operands where they stand (a boxed tuple's items), so none stays lazy."""
    tf = lower.tf
    raising = [i for i, n in enumerate(nodes) if may_raise(tf, n, lower.unbound.reads)]
    computed = [i for i in raising if arrays_computed or not _lazy(tf, nodes[i])]
    ordered = set()
    if len(raising) >= 2 and computed:
        # Every operand that may raise, up to the last one that is computed
        # where it stands (a scalar, an object, a list, a variable that may be
        # unassigned: any type), goes into a temporary; an array expression
        # among them is evaluated first.  The array expressions after it stay
        # lazy (the result holds the temporaries by value).
        ordered = {i for i in raising if i <= max(computed)}
    effectful = [j for j, n in enumerate(nodes) if has_effects(tf, n)]
    early = [i for i in range(max(effectful, default=0)) if _lazy(tf, nodes[i]) or i in raising]
    if early:
        ordered |= set(early) | set(effectful)
    return sorted(ordered)


def in_order(lower, codes: list[CExpr], positions: list[int], build, nodes=(), result=None) -> CExpr:
    """build(codes) with codes[positions] evaluated first, left to right
    (array expressions among nodes into arrays, and then the result too).
    Statements the lowering hoists while building go inside the lambda, after
    the temporaries they may use."""
    codes = list(codes)
    decls = []
    materialized = False
    for i in positions:
        name = lower.tmp("o")
        code = codes[i].code
        if i < len(nodes) and _lazy(lower.tf, nodes[i]):
            code, materialized = f"tr::eval({code})", True
        decls.append(f"auto {name} = {code};")
        codes[i] = CExpr(name)
    outer, lower.pre = lower.pre, []
    try:
        out = build(codes)
        inner = lower.pre
    finally:
        lower.pre = outer
    # a lazy result would point into the arrays evaluated here, gone after the lambda
    evaluated = materialized and isinstance(result, T.Array)
    value = f"tr::eval({out.code})" if evaluated else out.code
    return CExpr("([&]() { " + " ".join(decls + inner) + f" return {value}; }}())", out.lazy and not evaluated)


def simple_code(code: str) -> bool:
    """A C++ expression with no side effects whose order could matter: a name or a number."""
    return code.isidentifier() or code.lstrip("-").replace(".", "", 1).isdigit() or code in ("true", "false")


def star_holder(lw, starred, holders: dict) -> str:
    """C++ naming the tuple a `*value` argument unpacks: the variable, or a
    temporary the call evaluates once, in order (holders, for call_in_order)."""
    if isinstance(starred.value, h.Name):
        return lw.expr(starred.value).code
    if starred not in holders:
        holders[starred] = (lw.tmp("s"), lw.expr(starred.value).code)
    return holders[starred][0]


def call_in_order(lw, function: str, args: list, sources: list, positional, keywords, holders: dict) -> CExpr:
    """The call `function(args)` of a compiled function, its arguments
    evaluated in Python's order: positional ones (a `*tuple` where it stands,
    the tuple once, before its items: holders), then keywords.  sources says
    where each argument comes from (passes/infer_calls.py call_jit)."""
    leaves = [x for src in sources for x in (src[1] if src[0] == "pack" else (src,))]
    order = {("pos", i): (i, 0) for i in range(len(positional))}
    order.update({src: (src[1][0], src[1][1] + 1) for src in leaves if src[0] == "star"})
    order.update({("kw", name): (len(positional) + i, 0) for i, name in enumerate(keywords)})
    # *args: the tuple of extra positional arguments is made where its first item stands
    order.update({src: order[src[1][0]] for src in sources if src[0] == "pack" and src[1]})
    pending = [(order[src], n) for n, (src, code) in enumerate(zip(sources, args))
               if src in order and (holders or not simple_code(code))]
    pending += [((positional.index(starred), 0), holder) for starred, holder in holders.items()]
    if len(pending) < 2 and not holders:
        return CExpr(f"{function}({', '.join(args)})")
    body = []
    for _, n in sorted(pending, key=lambda p: p[0]):
        if isinstance(n, tuple):  # a starred tuple, evaluated once before its items are read
            body.append(f"auto {n[0]} = {n[1]};")
            continue
        name = lw.tmp("a")
        body.append(f"auto {name} = {args[n]};")
        args[n] = name
    return CExpr(f"([&]() {{ {' '.join(body)} return {function}({', '.join(args)}); }}())")
