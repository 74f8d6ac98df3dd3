"""Typing of Python lists (and tuples of any length) in compiled code.

A list is homogeneous: T.List(elem).  The typer is flow-insensitive and
iterates to a fixed point, so `xs = []` starts as List(None) and takes its
element type from later `xs.append(v)`, `xs[i] = v`, `xs += [...]` (the
receiver's variable is widened, through subscripts for lists of lists).

Elements keep CPython's types exactly: a list whose elements would have two
types (an int list given a float, a list of Python floats given a NumPy
float64) is a TypingError at that statement, which then runs as Python --
and since compiled lists cannot be shared with Python code inside a call,
the whole function runs in CPython (FunctionNotCompilable).  The one
exception is a literal mixing Python ints and floats passed straight to a
consumer whose result is the same either way (np.array, np.asarray, sum):
there the ints become floats.
"""
from __future__ import annotations

from ..diagnostics import FunctionNotCompilable, TypingError, UnsupportedSyntaxError
from ..hir import nodes as h
from ..hir import types as T
from ..library.base import NOT_CONST
from .index_info import IndexInfo
from .containers import exact_join

# Consumers of a list literal for which int -> float promotion of its items
# gives CPython's values: np.array([1, 2.5]) is float64 either way.
PROMOTING = set()


ARRAY_COERCING: set = set()  # np.array, np.asarray: their list displays meet as NumPy's coercion has them


def _promoting():
    if not PROMOTING:
        import builtins

        import numpy as np

        PROMOTING.update({id(np.array), id(np.asarray), id(builtins.sum)})
        ARRAY_COERCING.update({id(np.array), id(np.asarray)})
    return PROMOTING


def list_displays(nodes) -> set:
    """The list displays among nodes, and those nested in them (np.array's rows)."""
    found = set()
    for n in nodes:
        if isinstance(n, h.ListExpr):
            found.add(n)
            found |= list_displays(n.elts)
    return found


BAD_ELEMS = (T.CompileTimeValue, T.Range, T.Enumerate, T.Zip, T.DType, T.Generator, T.LibIter, T.AnyType, T.NoneType)


def _mixed(node, a, b, what="the list"):
    return TypingError(f"{what} would hold values of two types, {a} and {b}: CPython keeps each element's own type",
                       node.loc, "compiled lists hold one type; convert explicitly, e.g. float(x)")


def elem_join(node, a, b, promote_ok=False):
    """The element type holding both a and b (None: not known yet)."""
    return exact_join(node, a, b, lambda x, y: _mixed(node, x, y), promote_ok, "the list")


def list_join(node, a: T.List, b: T.List, what="the list"):
    return exact_join(node, a, b, lambda x, y: _mixed(node, x, y), False, what)


def join(typer, node, a, b, what):
    """FunctionTyper.join for two list types."""
    try:
        return list_join(node, a, b, what)
    except TypingError as exc:
        raise typer.error(node, f"{what}: {exc.message}", exc.hint) from None


def check_elem(node, t):
    if isinstance(t, BAD_ELEMS):
        raise TypingError(f"cannot put {t} in a list in compiled code", node.loc)
    if isinstance(t, T.Tuple):
        for i in t.items:
            check_elem(node, i)
    if isinstance(t, T.List) and t.elem is not None:
        check_elem(node, t.elem)
    if isinstance(t, T.Array) and t.ndim == 0:
        pass
    if not isinstance(t, (T.Scalar, T.Array, T.Tuple, T.List, T.Str)):
        raise TypingError(f"cannot put {t} in a list in compiled code", node.loc)


# ---- expressions --------------------------------------------------------------

def e_ListExpr(typer, node: h.ListExpr):
    types = [typer.expr(e) for e in node.elts]
    if any(t is None for t in types):
        return None
    if node in typer.library_args and node.elts and all(
            isinstance(e, h.Const) and isinstance(e.value, str) or isinstance(t, T.CompileTimeValue)
            and t.value is e for e, t in zip(node.elts, types)):
        # a display of str literals given to a library call (np.nditer(op_flags=[["readwrite"]])):
        # the call reads it while compiling
        return T.CompileTimeValue(node)
    promote_ok = node in typer.promote_ok if hasattr(typer, "promote_ok") else False
    if promote_ok and node in getattr(typer, "array_coerced", ()):
        promote_ok = "array"
    elem = None
    for e, t in zip(node.elts, types):
        check_elem(e, t)
        elem = elem_join(e, elem, t, promote_ok)
    return T.List(elem)


def e_ListComp(typer, node: h.ListComp):
    if not all(typer.comprehension_clause(clause) for clause in node.clauses):
        return None
    elt = typer.number(node.elt, typer.expr(node.elt))
    if elt is None:
        return None
    check_elem(node.elt, elt)
    return T.List(elt)


def generator_elt_ok(t) -> bool:
    """Generator expressions may make tuples, arrays and lists too (for list(),
    tuple(), sorted()); sum/min/max/any/all check for numbers themselves."""
    return isinstance(t, (T.Scalar, T.Tuple, T.Array, T.List))


# ---- widening the receiver of a mutation -------------------------------------------

def widen(typer, node, new: T.List):
    """The list at `node` must be able to hold `new`'s elements: widens the
    variable it lives in (through subscripts of lists of lists)."""
    old = typer.tf.types.get(node)
    if old == new:
        return
    if isinstance(node, h.Name) and node.id in typer.locals:
        if node.id in typer.tf.params:
            arg = typer.tf.arg_types[typer.tf.params.index(node.id)]
            if list_join(node, arg, new) != arg:
                raise typer.error(node, f"the element type of the list argument '{node.id}' ({arg}) cannot change "
                                        f"to hold {new.elem}")
        typer.set_var(node, node.id, new)
        typer.record(node, typer.tf.var_types[node.id])
        return
    if isinstance(node, h.Subscript):
        base = typer.tf.types.get(node.value)
        if isinstance(base, T.List) and not isinstance(node.index[0], h.Slice):
            widen(typer, node.value, T.List(elem_join(node, base.elem, new), base.frozen))
            return
    if isinstance(old, T.List) and list_join(node, old, new) == old:
        return
    raise typer.error(node, f"cannot change the element type of this list ({old}) to hold {new.elem}",
                      "assign the list to a variable first")


def store_elem(typer, recv_node, recv: T.List, value, node):
    """recv gets an element of type `value` (append, insert, item store)."""
    check_elem(node, value)
    if recv.frozen:
        raise typer.error(node, "'tuple' object does not support item assignment")
    joined = elem_join(node, recv.elem, value)
    if joined != recv.elem:
        widen(typer, recv_node, T.List(joined))


# ---- subscripts -----------------------------------------------------------------------

def _int_index(typer, node, idx):
    t = typer.tf.types.get(idx)
    if not (isinstance(t, T.Scalar) and t.kind in "iub"):
        raise typer.error(node, f"list indices must be integers or slices, not {t}")


def getitem(typer, node: h.Subscript, base: T.List):
    if len(node.index) != 1:
        raise typer.error(node, "list indices must be integers or slices, not tuple")
    idx = node.index[0]
    if isinstance(idx, h.Slice):
        return IndexInfo("list_slice", base, ("slice",))
    _int_index(typer, node, idx)
    if base.elem is None:
        typer.unknown.append(node)
        return IndexInfo("list_item", None, ("int",))
    return IndexInfo("list_item", base.elem, ("int",))


def setitem(typer, target: h.Subscript, base: T.List, value):
    typer.index_types(target)
    if len(target.index) != 1:
        raise typer.error(target, "list indices must be integers or slices, not tuple")
    idx = target.index[0]
    if base.frozen:
        raise typer.error(target, "'tuple' object does not support item assignment")
    if isinstance(idx, h.Slice):
        if not isinstance(value, T.List) or value.frozen:
            raise typer.error(target, f"can only assign a list to a list slice in compiled code, not {value}")
        store_list(typer, target.value, base, value, target)
        return IndexInfo("list_slice", base, ("slice",))
    _int_index(typer, target, idx)
    store_elem(typer, target.value, base, value, target)
    return IndexInfo("list_item", value, ("int",))


def store_list(typer, recv_node, recv: T.List, other: T.List, node):
    """recv gets all the elements of list `other` (extend, +=, slice stores)."""
    if other.elem is not None:
        store_elem(typer, recv_node, recv, other.elem, node)


# ---- methods -------------------------------------------------------------------------

def method_call(typer, node: h.Call, recv: T.List, name: str):
    from ..library import lists as L

    recv_node = node.func.value
    args = [typer.number(a, typer.expr(a)) for a in node.args]
    kwargs = {k.name: typer.expr(k.value) for k in node.keywords}
    if any(t is None for t in args) or any(t is None for t in kwargs.values()):
        return None
    allowed = {"append", "extend", "insert", "pop", "remove", "index", "count", "clear", "copy", "sort", "reverse"}
    if recv.frozen:
        allowed = {"index", "count"}
    if name not in allowed:
        kind = "tuple" if recv.frozen else "list"
        raise typer.error(node, f"'{kind}' object has no attribute '{name}' in compiled code")
    n = len(args)
    arity = {"append": (1, 1), "extend": (1, 1), "insert": (2, 2), "pop": (0, 1), "remove": (1, 1),
             "index": (1, 3), "count": (1, 1), "clear": (0, 0), "copy": (0, 0), "sort": (0, 0),
             "reverse": (0, 0)}[name]
    if not arity[0] <= n <= arity[1]:
        raise typer.error(node, f"{name}() takes {arity[0]} to {arity[1]} arguments ({n} given)")
    if kwargs and not (name == "sort" and set(kwargs) <= {"reverse"}):
        raise typer.error(node, f"{name}() got an unsupported keyword argument")
    result = T.NONE
    if name == "append":
        store_elem(typer, recv_node, recv, args[0], node)
    elif name == "insert":
        _need_int(typer, node, args[0])
        store_elem(typer, recv_node, recv, args[1], node)
    elif name == "extend":
        other = args[0]
        if isinstance(other, T.Tuple) and other.items:
            other = T.List(_tuple_elem(node, other))
        if isinstance(other, T.Array) and other.ndim == 1:
            other = T.List(other.scalar)
        if not isinstance(other, T.List):
            raise typer.error(node, f"list.extend() of {args[0]} is not supported in compiled code",
                              "pass a list")
        store_list(typer, recv_node, recv, other, node)
    elif name == "pop":
        if n:
            _need_int(typer, node, args[0])
        result = recv.elem
        if result is None:
            typer.unknown.append(node)
            return None
    elif name in ("remove", "index", "count"):
        if recv.elem is not None:
            _comparable(typer, node, recv.elem, args[0])
        for extra in args[1:]:
            _need_int(typer, node, extra)
        result = T.NONE if name == "remove" else T.INT
    elif name == "copy":
        result = recv
    elif name == "sort":
        if recv.elem is not None:
            _orderable(typer, node, recv.elem)
        if "reverse" in kwargs and not (isinstance(kwargs["reverse"], T.Scalar) and kwargs["reverse"].kind in "biu"):
            raise typer.error(node, "sort(reverse=) needs a bool")
    floats = name == "sort" and L.float_elements(recv)  # may ask CPython's sort (list_sort_python.hpp)
    typer.tf.calls[node] = ("lib", L.METHODS["sort_floats" if floats else name], name)
    return result


def heap_call(typer, node: h.Call, name: str, args: list):
    """heapq.heappush(heap, x) and the rest on a list: typed as the list
    methods they are made of (a push stores an element, as append does)."""
    from ..library import lists as L

    arity = {"heappush": 2, "heappop": 1, "heapify": 1, "heappushpop": 2, "heapreplace": 2}[name]
    if len(args) != arity or node.keywords or any(isinstance(a, h.Starred) for a in node.args):
        raise typer.error(node, f"{name}() takes {arity} positional argument{'s' if arity > 1 else ''}")
    heap = args[0]
    if not isinstance(heap, T.List) or heap.frozen:
        raise typer.error(node, f"heap argument must be a list, not {heap}")
    if arity == 2:
        store_elem(typer, node.args[0], heap, args[1], node)
        heap = typer.expr(node.args[0])  # widened by the store, where `heap = []` had no element type yet
    if heap.elem is None:
        typer.unknown.append(node)
        return None
    _orderable(typer, node, heap.elem)
    typer.tf.calls[node] = ("lib", L.HEAP_FUNCTIONS[name], name)
    return T.NONE if name in ("heappush", "heapify") else heap.elem


def _tuple_elem(node, t: T.Tuple):
    elem = None
    for i in t.items:
        elem = elem_join(node, elem, i)
    return elem


def _need_int(typer, node, t):
    if not (isinstance(t, T.Scalar) and t.kind in "iub"):
        raise typer.error(node, f"'{t}' object cannot be interpreted as an integer")


def _comparable(typer, node, elem, value):
    """`value in list`, index/count/remove: Python's == between them."""
    if isinstance(elem, T.Array) or isinstance(value, T.Array):
        raise typer.error(node, "comparing arrays inside a list is ambiguous in compiled code")
    if isinstance(elem, T.Scalar) and isinstance(value, T.Scalar) or elem == value == T.STR:
        return
    if isinstance(elem, T.Tuple) and isinstance(value, T.Tuple):
        if len(elem.items) == len(value.items):
            for a, b in zip(elem.items, value.items):
                _comparable(typer, node, a, b)
        return
    if isinstance(elem, T.List) and isinstance(value, T.List):
        if elem.elem is not None and value.elem is not None:
            _comparable(typer, node, elem.elem, value.elem)
        return
    raise typer.error(node, f"comparing {value} with the elements of a list of {elem} is not supported")


def _orderable(typer, node, elem):
    if isinstance(elem, T.Scalar):
        if elem.kind == "c":
            raise typer.error(node, "'<' not supported between instances of 'complex' and 'complex'")
        return
    if isinstance(elem, T.Tuple):
        for i in elem.items:
            _orderable(typer, node, i)
        return
    if isinstance(elem, T.List):
        if elem.elem is not None:
            _orderable(typer, node, elem.elem)
        return
    raise typer.error(node, f"sorting a list of {elem} is not supported in compiled code")


# ---- operators -----------------------------------------------------------------------

def binop(typer, node, op, a, b):
    """list + list, list * int, int * list."""
    if op == "+" and isinstance(a, T.List) and isinstance(b, T.List):
        if a.frozen != b.frozen:
            raise typer.error(node, f'can only concatenate {"tuple" if a.frozen else "list"} (not '
                                    f'"{"tuple" if b.frozen else "list"}") to {"tuple" if a.frozen else "list"}')
        result = list_join(node, a, b)
        typer.tf.ops[node] = ("list", "concat")
        return result
    if op == "*" and isinstance(a, T.List) and isinstance(b, T.Scalar) and b.kind in "iub":
        typer.tf.ops[node] = ("list", "repeat_r")
        return a
    if op == "*" and isinstance(b, T.List) and isinstance(a, T.Scalar) and a.kind in "iub":
        typer.tf.ops[node] = ("list", "repeat_l")
        return b
    raise typer.error(node, f"unsupported operand type(s) for {op}: '{a}' and '{b}'")


def augassign(typer, s: h.AugAssign, cur, val):
    """lst += other (extends in place), lst *= k."""
    if s.op == "+=" or s.op == "+":
        if cur.frozen:
            result = binop(typer, s, "+", cur, val)
            typer.tf.ops[s] = ("list", "concat")
            if isinstance(s.target, h.Name):
                typer.set_var(s.target, s.target.id, result)
            return
        other = val
        if isinstance(other, T.Tuple) and other.items:
            other = T.List(_tuple_elem(s, other))
        if not isinstance(other, T.List):
            raise typer.error(s, f"list += {val} is not supported in compiled code")
        store_list(typer, s.target, cur, other, s)
        typer.tf.ops[s] = ("list", "iadd")
        return
    if s.op in ("*=", "*") and isinstance(val, T.Scalar) and val.kind in "iub":
        typer.tf.ops[s] = ("list", "imul")
        return
    raise typer.error(s, f"unsupported operand type(s) for {s.op}=: '{cur}' and '{val}'")


def compare(typer, node, op, a, b):
    """`x in lst`, `x not in lst`, lst == lst, lst != lst.  Returns the op record."""
    if op in ("in", "not in"):
        if isinstance(b, T.List):
            if b.elem is not None:
                _comparable(typer, node, b.elem, a)
            return ("list", "in")
        if isinstance(b, T.Tuple):
            for item in b.items:
                _comparable(typer, node, item, a)
            return ("tuple", "in")
        return None
    if op in ("==", "!=") and isinstance(a, T.List) and isinstance(b, T.List):
        if a.elem is not None and b.elem is not None:
            _comparable(typer, node, a.elem, b.elem)
        return ("list", "eq")
    if op in ("==", "!=") and (isinstance(a, T.List) or isinstance(b, T.List)):
        raise typer.error(node, f"comparing {a} with {b} is not supported in compiled code")
    if isinstance(a, T.List) or isinstance(b, T.List):
        raise typer.error(node, f"'{op}' between {a} and {b} is not supported in compiled code")
    return None


def unify(typer, value_node, target):
    """`b = a` with a list: both names get one type (one C++ list object, so
    mutations through either are seen through both)."""
    if isinstance(value_node, h.Name) and isinstance(target, h.Name) and value_node.id in typer.locals \
            and value_node.id not in typer.tf.params:
        t = typer.tf.var_types.get(target.id)
        if isinstance(t, T.List):
            typer.set_var(value_node, value_node.id, t)


# ---- fallback interplay -----------------------------------------------------------------

def check_fallback(typer, stmt, names, reason=""):
    """A statement that runs as Python cannot share a compiled list (it is
    copied at the call boundary only): the whole function runs in CPython.
    (Under fullgraph=True the statement's own error is reported instead.)"""
    if typer.fullgraph:
        return
    for n in sorted(names):
        t = typer.tf.var_types.get(n)
        if t is not None and T.has_list(t):
            raise FunctionNotCompilable(f"the list '{n}' is used by a statement that runs as Python ({reason})",
                                        stmt.loc, "the whole function runs in CPython")


_ = (NOT_CONST, UnsupportedSyntaxError)
