"""The rules per-path typing (passes/paths.py) applies, as plain functions
over types and HIR nodes, and the result it hands to lowering."""
from __future__ import annotations

import dataclasses

import numpy as np

from ..hir import nodes as h
from ..hir import promote
from ..hir import types as T
from ..values import fields
from . import reaching


@dataclasses.dataclass
class PathTypes:
    """What lowering needs: variables that carry a flag or a kind beside
    their value, and whether results cross as Python objects."""

    tagged: frozenset  # names whose C++ variable has a Python-number flag beside it
    dynamic: dict  # assignment target (h.Name) -> value node (or the h.AugAssign) whose weakness is known at run time
    weak_exprs: frozenset  # +, -, * nodes giving a Python float or an np.float64 by path
    boxed: dict  # name -> the types other than its C++ type it may hold (each kept in its own slot)
    boxes_returns: bool  # return sites give different types: each boxes its own value (T.ANY result)
    weak_items: frozenset = frozenset()  # items of the returned tuple that carry a flag (tr::ret_weak_bits)
    flag_ops: dict = dataclasses.field(default_factory=dict)  # /, //, %, ** node -> CPython's OpTypes when both are Python floats
    weak_calls: dict = dataclasses.field(default_factory=dict)  # max/min/abs call -> its name: an argument's flag
    dispatch: dict = dataclasses.field(default_factory=dict)  # call -> (argument, callee key for its other type)
    weak_choices: frozenset = frozenset()  # and/or/conditional expressions whose flag is the chosen operand's
    call_flags: frozenset = frozenset()  # compiled calls, operands of +, -, *, whose callee's flag is caught


class Hold(Exception):
    """A local variable with a conflict: typing restarts with it held as a
    Python object (fallback.hold), rather than the function running in CPython."""

    def __init__(self, name: str, conflict):
        super().__init__(name)
        self.name = name
        self.conflict = conflict  # the PathTypeConflict otherwise raised


class RunAsPython(Exception):
    """An expression with a conflict (`x if c else 0` of an int and a
    float): typing restarts with the statement holding it running as
    Python (fallback.run_as_python), rather than the whole function."""

    def __init__(self, stmt, conflict):
        super().__init__(conflict.message)
        self.stmt = stmt
        self.conflict = conflict


def weakness_only(ops, recorded, op) -> bool:
    """The same computation, giving a Python float (int) where the compiled
    operation gives an np.float64 (np.int64) of the same value: +, -, * round
    alike in CPython and NumPy and raise nothing, and int64 wraps alike for
    both (README: compiled Python ints are int64)."""
    return op in ("+", "-", "*") and isinstance(ops.result, T.Scalar) and isinstance(recorded.result, T.Scalar) \
        and ops.compute == recorded.compute and ops.result.dtype == recorded.result.dtype \
        and (T.Scalar(ops.compute).kind in "fc" or ops.compute == "int64")


def semantics_by_flags(ops, recorded, op, a, b) -> bool:
    """/, //, %, ** of two Python floats follow CPython (ZeroDivisionError,
    OverflowError), of an np.float64 NumPy (inf, nan): the same computation
    type either way, so compiled code picks the rules by the operands' flags."""
    return ops is not None and op in ("/", "//", "%", "**") and a.weak and b.weak \
        and isinstance(ops.result, T.Scalar) and isinstance(recorded.result, T.Scalar) \
        and ops.compute == recorded.compute and ops.result.dtype == recorded.result.dtype \
        and T.Scalar(ops.compute).kind == "f" and not recorded.python_semantics


def differs(a, b) -> bool:
    """Whether values of types a and b can be told apart by a Python program
    (other differences, such as array layouts, are representation only)."""
    if (a == T.ANY) != (b == T.ANY):
        return True  # a Python object of any type beside a typed value
    if isinstance(a, T.Scalar) and isinstance(b, T.Scalar):
        return a != b
    if isinstance(a, T.Tuple) and isinstance(b, T.Tuple) and len(a.items) == len(b.items):
        return any(differs(x, y) for x, y in zip(a.items, b.items))
    return False


def same_storage(a, b) -> bool:
    """Types whose values have one C++ representation (they differ at most in
    being Python numbers or NumPy scalars of one dtype)."""
    if isinstance(a, T.Scalar) and isinstance(b, T.Scalar):
        return a.dtype == b.dtype
    if isinstance(a, T.Tuple) and isinstance(b, T.Tuple):
        return len(a.items) == len(b.items) and all(same_storage(x, y) for x, y in zip(a.items, b.items))
    return a == b


def flagged_items(found) -> frozenset:
    """Items of a call's tuple result whose type is known at run time only,
    given the compiled functions the call may run ([(argument, callee)])."""
    if not found or not isinstance(found[-1][1].return_type, T.Tuple):
        return frozenset()
    items = set()
    for i, t in enumerate(found[-1][1].return_type.items):
        static = {isinstance(f.return_type.items[i], T.Scalar) and f.return_type.items[i].weak for _, f in found}
        if len(static) > 1 or any(f.path_types and i in f.path_types.weak_items for _, f in found):
            items.add(i)
    return frozenset(items)


def weak_only(types, joined) -> bool:
    """Values that differ from `joined` only in being Python numbers of the
    same dtype (a flag tells them apart without losing a bit)."""
    return isinstance(joined, T.Scalar) and not joined.weak and all(
        isinstance(t, T.Scalar) and t.dtype == joined.dtype for t in types)


def chain_types(checker, node):
    """The types `a < b < c` may have (its first false comparison's result, or its
    last), where they differ: a bool or an np.bool_ by path, a C++ bool either way."""
    found = {o.result if isinstance(o, promote.OpTypes) else T.BOOL for o in checker.tf.ops.get(node) or ()}
    return found if len(found) > 1 else None


def spelled(t) -> str:
    """A type in a conflict's message: np.bool_ apart from Python's bool."""
    return "np.bool_" if isinstance(t, T.Scalar) and t.dtype == "bool" and not t.weak else str(t)


def conflict_subject(node, name) -> str:
    """How a conflict's message names what has two types."""
    if name:
        return f"'{name}'"
    if isinstance(node, h.BoolOp):
        return f"the '{node.op}' expression"
    if isinstance(node, h.Compare):
        return "the chained comparison"
    return "the call's result" if isinstance(node, h.Call) else "the conditional expression"


def what(parent, node) -> str:
    if isinstance(parent, h.Return):
        return "the return"
    if isinstance(parent, h.Call):
        return "the call"
    if isinstance(parent, h.Subscript):
        return "the subscript"
    if isinstance(parent, h.Assign):
        return "the assignment"
    return f"the {type(parent).__name__.lower()}"


def pure(node) -> bool:
    """An expression evaluated twice gives the same value and does nothing else."""
    if isinstance(node, (h.Name, h.Const)):
        return True
    if isinstance(node, h.BinOp):
        return pure(node.left) and pure(node.right)
    if isinstance(node, h.UnaryOp):
        return pure(node.operand)
    if isinstance(node, h.Subscript):
        return pure(node.value) and all(pure(i) for i in node.index)
    if isinstance(node, h.Call):
        return isinstance(node.func, h.Name) and node.func.id in ("abs", "max", "min") and all(pure(a) for a in node.args)
    return False


def names(node):
    if isinstance(node, h.Name):
        yield node
    elif isinstance(node, h.Node):
        for field_name in fields(node):
            value = getattr(node, field_name)
            for child in value if isinstance(value, tuple) else (value,):
                if isinstance(child, h.Node) and field_name != "loc":
                    yield from names(child)


def statements(stmts):
    for s in stmts:
        yield s
        for sub in ("body", "orelse"):
            yield from statements(getattr(s, sub, ()))


def returns(stmts):
    return (s for s in statements(stmts) if isinstance(s, h.Return))


def link(node, parent: dict) -> None:
    for field_name in fields(node):
        if field_name in ("loc", "body", "orelse"):
            continue
        value = getattr(node, field_name)
        for child in value if isinstance(value, tuple) else (value,):
            if isinstance(child, h.Node):
                parent[child] = node
                link(child, parent)

EXACT_INT_IN_FLOAT = 2 ** 53


def keeps_truth(types, static) -> bool:
    """Whether a value of each type, held as `static`, is true exactly when
    CPython's is: a widening conversion keeps zero zero and the rest nonzero,
    but a float 0.5 held as an int is 0, 1e-300 held as float32 is 0.0, and
    a value from Python (Any) may not convert at all."""
    for t in types:
        if t == T.ANY:
            return False
        if isinstance(t, (T.Scalar, T.Array)) and isinstance(static, (T.Scalar, T.Array)) \
                and not (t.dtype == "bool" or promote.can_cast_safe(t.dtype, static.dtype)):
            return False
    return True


def converts_exactly(checker, t, node, compute: str) -> bool:
    """Whether every value of type t is exactly representable in dtype
    `compute` (Python compares an int with a float exactly; compiled code
    converts, which is exact for ints up to 2**53: known constants only)."""
    if t.dtype == compute or t.kind == "b":
        return True
    target = T.Scalar(compute)
    if t.kind in "iu":
        if target.kind in "iu":
            return bool(promote.can_cast_safe(t.dtype, compute))
        return small_int(checker, node) or promote.int_fits_mantissa(t.dtype, compute)
    return target.kind in "fc" and promote.can_cast_safe(t.dtype, compute)


def small_int(checker, node) -> bool:
    """An int constant, or a variable whose int values all come from
    constants (passes/paths.py's checker: reaching definitions), within 2**53."""
    if isinstance(node, h.Const):
        return isinstance(node.value, int) and abs(node.value) <= EXACT_INT_IN_FLOAT
    if not isinstance(node, h.Name) or node not in checker.reach.uses:
        return False
    for d in checker.reach.uses[node]:
        t = checker.def_type(d, node.id)
        if isinstance(t, T.Scalar) and t.kind in "iu":
            v = checker.typer.def_consts.get(d)
            if not isinstance(v, int) or abs(v) > EXACT_INT_IN_FLOAT:
                return False
    return True


def ints_fit(checker, node, dtype: str) -> bool:
    """An int constant, or a variable whose int values all come from
    constants, within the range of integer dtype `dtype`."""
    info = np.iinfo(dtype)
    if isinstance(node, h.Const):
        return isinstance(node.value, int) and info.min <= node.value <= info.max
    if not isinstance(node, h.Name) or node not in checker.reach.uses:
        return False
    for d in checker.reach.uses[node]:
        t = checker.def_type(d, node.id)
        if isinstance(t, T.Scalar) and t.kind in "iu" and t.dtype != dtype:
            v = checker.typer.def_consts.get(d)
            if not isinstance(v, int) or not info.min <= v <= info.max:
                return False
    return True


def cannot_raise(checker, node) -> bool:
    """A scalar test evaluated again gives the same truth and raises
    nothing: constants, assigned variables, comparisons and `not` of them."""
    if isinstance(node, h.Const):
        return True
    if not isinstance(checker.tf.types.get(node), T.Scalar):
        return False
    if isinstance(node, h.Name):
        return node in checker.reach.uses and reaching.UNDEF not in checker.reach.uses[node] \
            and node.id not in checker.boxed  # a boxed variable's value may sit in another slot
    if isinstance(node, h.Compare):
        return all(cannot_raise(checker, n) for n in (node.left, *node.comparators))
    if isinstance(node, h.UnaryOp) and node.op == "not":
        return cannot_raise(checker, node.operand)
    if isinstance(node, h.BoolOp):
        return all(cannot_raise(checker, n) for n in node.values)
    return False


def same_value_use(checker, node, parent) -> bool:
    """A Python float and an np.float64 of one value give the same result
    here: an argument of a `math` function, float() or print() (NumPy's
    str() of a float64 or complex128 scalar is Python's), the one argument of
    a NumPy ufunc (np.sqrt(0.0) is an np.float64 too), or a value stored
    into an array element or view (converted to the array's dtype)."""
    types = checker.types_of(node)
    static = checker.tf.types.get(node)
    if stored_once(checker, node, parent, types, static) or indexes_alike(checker, node, parent, types, static):
        return True
    if not (weak_only(types, static) and static.kind in "fc"):
        return False
    if isinstance(parent, h.Call) and node in parent.args:
        fn = checker.typer.const(parent.func)
        return getattr(fn, "__module__", None) == "math" or fn is float or fn is print or \
            isinstance(fn, np.ufunc) and fn.nin == 1 and len(parent.args) == 1 and not parent.keywords
    return False


def indexes_alike(checker, node, parent, types, static) -> bool:
    """`a[j]` with j an int or an np.int64 by path (`j = max(0, np.argmax(a))`):
    an index picks the same item whatever int type holds it, as long as every
    one converts exactly to the type compiled code holds it in."""
    if not (isinstance(parent, h.Subscript) and node in parent.index and isinstance(static, T.Scalar)
            and static.kind in "iu" and types):
        return False
    base = checker.tf.types.get(parent.value)
    if not isinstance(base, (T.Array, T.List, T.Tuple, T.Str)):
        return False
    return all(isinstance(t, T.Scalar) and t.kind in "iu" and np.can_cast(t.dtype, static.dtype, "safe")
               for t in types)


def stored_once(checker, node, parent, types, static) -> bool:
    """`out[i] = acc` where acc is a Python float or a NumPy float of the
    array's dtype by path (`acc = 0.0`, then `acc += x[j]` of float32 x):
    held in that dtype, the Python float is rounded once, where CPython's
    store rounds it -- the same stored value."""
    if not (isinstance(parent, h.Assign) and parent.value is node and len(parent.targets) == 1
            and isinstance(parent.targets[0], h.Subscript) and isinstance(static, T.Scalar) and static.kind in "fc"):
        return False
    info = checker.tf.subscripts.get(parent.targets[0])
    target = checker.tf.types.get(parent.targets[0].value)
    if getattr(info, "kind", None) not in ("element", "view", "mask", "fancy") or not isinstance(target, T.Array):
        return False
    return all(isinstance(t, T.Scalar) and (t.dtype == static.dtype and weak_only(types, static)
                                           or t.dtype == static.dtype == target.dtype
                                           or t.weak and t.kind == static.kind and static.dtype == target.dtype)
               for t in types)


def picked_argument(checker, node, parent) -> bool:
    """max(a, b) / min(a, b) of numbers of one dtype, Python's or NumPy's by
    path: the result is one of the arguments, with its own type."""
    fn = checker.typer.const(parent.func) if isinstance(parent, h.Call) else None
    if not (isinstance(parent, h.Call) and node in parent.args and not parent.keywords and (
            len(parent.args) == 2 and fn in (max, min) or len(parent.args) == 1 and fn is abs)):
        return False
    result = checker.tf.types.get(parent)
    return all(weak_only(checker.types_of(a) or {checker.tf.types.get(a)}, result) for a in parent.args)


def picked_types(checker, node, static):
    """The types max(a, b, ...) / min(...) may have, where they differ from its
    static type: max(3, 2.5) is 3, an int; max(0.0, np.float64(x)) is 0.0, a
    Python float, when it picks it (two arguments: a flag says which)."""
    found = set()
    for a in node.args:
        found |= checker.types_of(a) or ({checker.tf.types[a]} if a in checker.tf.types else set())
    if not (all(isinstance(t, T.Scalar) for t in found) and any(differs(t, static) for t in found)):
        return None
    if weak_only(found, static) and len(node.args) == 2:
        checker.weak_calls[node] = checker.typer.const(node.func).__name__
    return found


def statement_of(parent: dict, node):
    """The statement whose own code evaluates node (an `if`: its test)."""
    while node is not None and not isinstance(node, h.Stmt):
        node = parent.get(node)
    if isinstance(node, h.If):
        return node.test
    return node


def unpacked_into(parents: dict, parent, node):
    """The name `node` is assigned to in `a, b = x, y` (a display of names
    unpacking a display of as many values), or None."""
    assign = parents.get(parent)
    if not (isinstance(parent, h.TupleExpr) and isinstance(assign, h.Assign) and assign.value is parent
            and len(assign.targets) == 1 and isinstance(assign.targets[0], h.TupleExpr)):
        return None
    names = assign.targets[0].elts
    if len(names) != len(parent.elts) or not all(isinstance(n, h.Name) for n in names):
        return None
    return names[parent.elts.index(node)]
