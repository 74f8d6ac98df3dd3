"""Typing of dicts, sets and strs in compiled code (and itertools iterables).

A dict is T.Dict(key, value), a set T.Set(elt): one key and one value type,
like compiled lists (passes/lists.py), with CPython's types kept exactly (an
int value and a float value in one dict is a TypingError at that
statement).  An empty `{}` / `set()` starts as Dict(UNKNOWN, UNKNOWN): the
typer is flow-insensitive and iterates to a fixed point, so later stores
(`d[k] = v`, `d.setdefault(k, v)`, `s.add(x)`) widen the variable that
holds it.  Strings are T.STR (string literals included: library calls
still read literal keyword values such as kind="stable" as constants).

The C++ side is runtime_cpp/transpile_rt/dict.hpp and str.hpp; lowering is
cxx/lower_dicts.py.
"""
from __future__ import annotations

from ..diagnostics import TypingError
from ..hir import nodes as h
from ..hir import types as T
from ..library import dicts as L
from ..library.container_rules import SET_ORDER_HINT, check_key, check_value, formattable, set_order_problem
from ..frontend.str_format import PercentField, percent_fields
from .containers import exact_join
from . import strs
from .index_info import IndexInfo
from .lists import setitem as list_setitem

MAPS = (T.Dict, T.Set)
MINE = (T.Dict, T.Set, T.DictView, T.Str)


@__import__("dataclasses").dataclass(frozen=True)
class Op:
    """The typing record of an operator on strs/dicts/sets (tf.ops); the
    lowering reads `kind`."""

    kind: str
    result: T.Type
    left: T.Type = None
    right: T.Type = None
    compute: str = "bool"
    python_semantics: bool = False


# ---- element types ----------------------------------------------------------------

def ejoin(node, a, b, what="the dict"):
    """The element type holding both a and b (CPython's types kept exactly)."""
    def mixed(x, y):
        return TypingError(f"{what} would hold values of two types, {x} and {y}: CPython keeps each value's own "
                           "type", node.loc, "compiled dicts and sets hold one key and one value type; convert "
                           "explicitly")

    return exact_join(node, a, b, mixed, False, what)


def join(typer, node, a, b, what):
    """FunctionTyper.join for two dicts or two sets."""
    if type(a) is not type(b):
        raise typer.error(node, f"{what} holds values of two incompatible types: {a} and {b}")
    try:
        return ejoin(node, a, b, what)
    except TypingError as exc:
        raise typer.error(node, exc.message, exc.hint) from None


def widen(typer, node, new):
    """The dict/set at `node` must be able to hold `new`'s items: widens the
    variable it lives in."""
    old = typer.tf.types.get(node)
    if old == new:
        return
    if isinstance(node, h.Name) and node.id in typer.locals:
        if node.id in typer.tf.params:
            raise typer.error(node, f"the dict/set argument '{node.id}' cannot change type")
        typer.set_var(node, node.id, new)
        typer.record(node, typer.tf.var_types[node.id])
        return
    if ejoin(node, old, new) != old:
        raise typer.error(node, f"cannot store {new} here (the container holds {old})",
                          "keep the dict/set in a local variable")


def store(typer, recv_node, recv, key=None, value=None, node=None):
    node = node or recv_node
    if key is not None:
        check_key(node, key)
    if value is not None:
        check_value(node, value)
    if isinstance(recv, T.Set):
        new = T.Set(ejoin(node, recv.elt, key))
    else:
        new = T.Dict(ejoin(node, recv.key, key) if key is not None else recv.key,
                     ejoin(node, recv.value, value) if value is not None else recv.value)
    if new != recv:
        widen(typer, recv_node, new)


def lookup_key(typer, node, container_key, key):
    """A key used to look up a container of keys `container_key`: Python's ==."""
    if container_key == T.UNKNOWN or key == container_key:
        return
    if isinstance(key, T.Scalar) and isinstance(container_key, T.Scalar):
        if key.kind in "iub" or container_key.kind not in "iub":
            return  # converts exactly enough (int -> float); a float key in an int dict does not
    if isinstance(key, T.Tuple) and isinstance(container_key, T.Tuple) and len(key.items) == len(container_key.items):
        for a, b in zip(container_key.items, key.items):
            lookup_key(typer, node, a, b)
        return
    raise typer.error(node, f"looking up a {key} key in a container of {container_key} keys is not supported "
                            "in compiled code")


# ---- literals and comprehensions ----------------------------------------------------

def e_DictExpr(typer, node: h.DictExpr):
    keys = [typer.expr(k) for k in node.keys]
    values = [typer.expr(v) for v in node.values]
    if any(t is None for t in keys + values):
        return None
    kt = vt = T.UNKNOWN
    for kn, k, vn, v in zip(node.keys, keys, node.values, values):
        check_key(kn, k)
        check_value(vn, v)
        kt = ejoin(kn, kt, k)
        vt = ejoin(vn, vt, v)
    return T.Dict(kt, vt)


def e_SetExpr(typer, node: h.SetExpr):
    elts = [typer.expr(e) for e in node.elts]
    if any(t is None for t in elts):
        return None
    et = T.UNKNOWN
    for en, e in zip(node.elts, elts):
        check_key(en, e)
        et = ejoin(en, et, e)
    return T.Set(et)


def _clauses(typer, clauses) -> bool:
    return all(typer.comprehension_clause(clause) for clause in clauses)


def e_DictComp(typer, node: h.DictComp):
    if not _clauses(typer, node.clauses):
        return None
    k = typer.expr(node.key)
    v = typer.expr(node.value)
    if k is None or v is None:
        return None
    check_key(node.key, k)
    check_value(node.value, v)
    return T.Dict(k, v)


def e_SetComp(typer, node: h.SetComp):
    if not _clauses(typer, node.clauses):
        return None
    e = typer.expr(node.elt)
    if e is None:
        return None
    check_key(node.elt, e)
    return T.Set(e)


# ---- str formatting ----------------------------------------------------------------------

def e_FString(typer, node: h.FString):
    ok = True
    for part in node.parts:
        if isinstance(part, h.FormattedValue):
            t = typer.expr(part.value)
            if t is None:
                ok = False
                continue
            formattable(part, t, part.spec)
            if part.conversion == "r" and t == T.STR:
                _calls_python_for_text(typer, part)
            if part.conversion == "r" and isinstance(t, T.Scalar) and not t.weak:
                raise TypingError(f"repr() of a NumPy scalar ({t}) is not supported in compiled code: its text "
                                  "follows NumPy's print options (np.float64(1.5) or 1.5)", part.loc)
    return T.STR if ok else None


# ---- operators --------------------------------------------------------------------------

def _percent(typer, node, a, b):
    """"literal" % (values): each conversion as the f-string field that
    gives CPython's text (frontend/str_format.py), the values' types checked
    here; other formats, and argument counts CPython rejects, run as Python."""
    fields = percent_fields(node.left.value)
    if fields is None:
        raise typer.error(node, "this %-format is not supported in compiled code",
                          "compiled %-formats use %d %i %u %f %e %g %s %r %% with the - + space 0 flags, width and "
                          "precision")
    conversions = [f for f in fields if isinstance(f, PercentField)]
    values = b.items if isinstance(b, T.Tuple) else (b,)
    if len(values) != len(conversions):
        raise typer.error(node, f"the %-format takes {len(conversions)} value(s), not {len(values)}: CPython's "
                          "TypeError is raised in Python")
    for field, t in zip(conversions, values):
        number = isinstance(t, T.Scalar) and t.kind != "c"
        if field.conversion == "d" and not (number and (t.kind != "u" or t.np_dtype.itemsize < 8)):
            raise typer.error(node, f"%d of {t} is not supported in compiled code")
        if field.conversion == "f" and not number:
            raise typer.error(node, f"%{field.spec[-1]} of {t} is not supported in compiled code")
        if field.conversion == "s":
            formattable(node, t, None)
        if field.conversion == "r" and not (t == T.STR or (number and t.weak)):
            raise typer.error(node, f"%r of {t} is not supported in compiled code")
        if field.conversion == "r" and t == T.STR:
            _calls_python_for_text(typer, node)
    return Op("str_percent", T.STR, a, b)


def _calls_python_for_text(typer, node) -> None:
    """repr() of a str at `node`: text that is not ASCII is written by Python (str_case.hpp str_repr)."""
    typer.tf.calls[node] = ("lib", L.STR_REPR, None)


def binop(typer, node, op, a, b):
    """str + str, "literal" % values, set | & - ^ set.  None: not ours."""
    if isinstance(a, T.Str) or isinstance(b, T.Str):
        if op == "+" and a == T.STR and b == T.STR:
            return Op("str_concat", T.STR, a, b)
        count = b if a == T.STR else a
        if op == "*" and T.STR in (a, b) and isinstance(count, T.Scalar) and count.kind in "biu":
            return Op("str_repeat", T.STR, a, b)  # "-" * n: empty for n <= 0
        if op == "%" and isinstance(node, h.BinOp) and isinstance(node.left, h.Const) \
                and isinstance(node.left.value, str):
            return _percent(typer, node, a, b)
        raise typer.error(node, f"unsupported operand type(s) for {op}: '{a}' and '{b}' in compiled code")
    if isinstance(a, T.Set) or isinstance(b, T.Set):
        if isinstance(a, T.Set) and isinstance(b, T.Set) and op in ("|", "&", "-", "^"):
            if isinstance(node, h.AugAssign):
                raise typer.error(node, f"in-place set operator {op}= is not supported in compiled code",
                                  "write s = s " + op + " t, or use add()/discard()")
            elt = ejoin(node, a.elt, b.elt, "the set")
            return Op("set_" + {"|": "or", "&": "and", "-": "sub", "^": "xor"}[op], T.Set(elt), a, b)
        raise typer.error(node, f"unsupported operand type(s) for {op}: '{a}' and '{b}'")
    if isinstance(a, (T.Dict, T.DictView)) or isinstance(b, (T.Dict, T.DictView)):
        raise typer.error(node, f"unsupported operand type(s) for {op}: '{a}' and '{b}'")
    return None


def compare(typer, node, op, a, b):
    """== != < <= > >= in / not in with strs, dicts, sets.  None: not ours."""
    if op in ("<", "<=", ">", ">=") and a == T.STR and b == T.STR:
        return Op("str_order", T.BOOL, a, b)
    if op in ("==", "!="):
        if a == T.STR and b == T.STR:
            return Op("str_eq", T.BOOL, a, b)
        if isinstance(a, MAPS) and type(a) is type(b):
            ejoin(node, a, b)
            return Op("map_eq", T.BOOL, a, b)
        if a == T.STR or b == T.STR or isinstance(a, MAPS) or isinstance(b, MAPS):
            if isinstance(a, T.Array) or isinstance(b, T.Array):
                raise typer.error(node, f"comparing {a} with {b} is not supported in compiled code")
            return Op("const_false", T.BOOL, a, b)  # different types are never equal (== of str and int)
        return None
    if op in ("in", "not in"):
        if b == T.STR:
            if a != T.STR:
                raise typer.error(node, f"'in <string>' requires string as left operand, not {a}")
            return Op("str_in", T.BOOL, a, b)
        if isinstance(b, T.Tuple) and (a == T.STR or any(i == T.STR for i in b.items)):
            return Op("tuple_in", T.BOOL, a, b)
        if isinstance(b, T.Dict) or isinstance(b, T.Set) or (isinstance(b, T.DictView) and b.kind == "keys"):
            keys = b.elt if isinstance(b, T.Set) else (b.key if isinstance(b, T.Dict) else b.dict.key)
            check_key(node, a)
            lookup_key(typer, node, keys, a)
            return Op("map_in", T.BOOL, a, b)
        if isinstance(b, T.DictView) and b.kind == "values":
            if not (isinstance(a, (T.Scalar, T.Str, T.Tuple))):
                raise typer.error(node, f"'{a}' in dict values is not supported in compiled code")
            return Op("values_in", T.BOOL, a, b)
        if isinstance(b, T.DictView):
            raise typer.error(node, "'in' on dict items is not supported in compiled code")
    return None


# ---- subscripts --------------------------------------------------------------------------

def _key_type(typer, node):
    types = [typer.tf.types.get(i) for i in node.index]
    if any(isinstance(i, h.Slice) for i in node.index):
        raise typer.error(node, "slicing a dict is not supported (unhashable type: 'slice')")
    if any(t is None for t in types):
        return None
    return types[0] if len(types) == 1 else T.Tuple(tuple(types))


def getitem(typer, node: h.Subscript, base):
    if isinstance(base, T.Str):
        return strs.subscript(typer, node)
    if not isinstance(base, T.Dict):
        raise typer.error(node, f"'{base}' object is not subscriptable")
    key = _key_type(typer, node)
    if key is None:
        return IndexInfo("dict", None)
    lookup_key(typer, node, base.key, key)
    if base.value == T.UNKNOWN:
        typer.unknown.append(node)
        return IndexInfo("dict", None)
    return IndexInfo("dict", base.value, const_index=key)


def setitem(typer, target: h.Subscript, base, value):
    for idx in target.index:
        if not isinstance(idx, h.Slice):
            typer.expr(idx)
    if not isinstance(base, T.Dict):
        raise typer.error(target, f"'{base}' object does not support item assignment")
    key = _key_type(typer, target)
    if key is None or value is None:
        return IndexInfo("dict", value)
    if base.key != T.UNKNOWN:
        lookup_key(typer, target, base.key, key)
        if isinstance(key, T.Scalar) and isinstance(base.key, T.Scalar):
            key = base.key  # an int key stored in a float-keyed dict: converted
    store(typer, target.value, base, key, value, target)
    return IndexInfo("dict", value, const_index=key)


# ---- methods ---------------------------------------------------------------------------

DICT_METHODS = {"get": (1, 2), "keys": (0, 0), "values": (0, 0), "items": (0, 0), "pop": (1, 2),
                "setdefault": (1, 2), "clear": (0, 0), "copy": (0, 0), "update": (1, 1)}
SET_METHODS = {"add": (1, 1), "discard": (1, 1), "remove": (1, 1), "clear": (0, 0), "copy": (0, 0),
               "union": (1, 1), "intersection": (1, 1), "difference": (1, 1), "issubset": (1, 1)}
def method_call(typer, node: h.Call, recv, name: str):
    recv_node = node.func.value
    args = [typer.expr(a) for a in node.args]
    if node.keywords:
        raise typer.error(node, f"{name}() takes no keyword arguments in compiled code")
    if any(t is None for t in args):
        return None
    table = DICT_METHODS if isinstance(recv, T.Dict) else SET_METHODS if isinstance(recv, T.Set) else \
        strs.METHODS if recv == T.STR else {}
    if name not in table:
        raise typer.error(node, f"'{recv}' object has no method '{name}' in compiled code")
    lo, hi = table[name]
    if not lo <= len(args) <= hi:
        raise typer.error(node, f"{name}() takes {lo} to {hi} arguments ({len(args)} given)")
    result = T.NONE
    if recv == T.STR:
        result = strs.method_result(typer, node, name, args)
    elif isinstance(recv, T.Dict):
        if name in ("keys", "values", "items"):
            result = T.DictView(recv, name)
        elif name in ("get", "pop"):
            check_key(node, args[0])
            lookup_key(typer, node, recv.key, args[0])
            from . import optional

            if name == "get" and (len(args) == 1 or args[1] == T.NONE) and optional.allowed(recv.value):
                typer.tf.calls[node] = ("lib", L.METHODS[name], (name, recv))
                return T.Optional(recv.value)  # None or the value (passes/optional.py)
            if len(args) == 2:
                if name == "get" and args[1] == T.NONE and recv.value != T.NONE:
                    raise typer.error(node, "d.get(k, None) gives None or a value: not supported in compiled "
                                            "code", "pass a default of the values' type, or test `k in d`")
                if recv.value == T.UNKNOWN:
                    store(typer, recv_node, recv, None, args[1], node)
                else:
                    ejoin(node, recv.value, args[1])
            elif name == "get":
                raise typer.error(node, "d.get(k) without a default may give None: not supported in compiled "
                                        "code", "pass a default of the values' type, or test `k in d`")
            result = recv.value
        elif name == "setdefault":
            if len(args) != 2:
                raise typer.error(node, "setdefault(k) without a default is not supported in compiled code")
            store(typer, recv_node, recv, args[0], args[1], node)
            result = ejoin(node, recv.value, args[1])
        elif name == "copy":
            result = recv
        elif name == "update":
            if not isinstance(args[0], T.Dict):
                raise typer.error(node, "update() takes a dict in compiled code")
            store(typer, recv_node, recv, args[0].key if args[0].key != T.UNKNOWN else None,
                  args[0].value if args[0].value != T.UNKNOWN else None, node)
        if result == T.UNKNOWN:
            typer.unknown.append(node)
            return None
    else:  # set
        if name in ("add",):
            store(typer, recv_node, recv, args[0], None, node)
        elif name in ("discard", "remove"):
            check_key(node, args[0])
            lookup_key(typer, node, recv.elt, args[0])
        elif name == "copy":
            result = recv
        elif name in ("union", "intersection", "difference", "issubset"):
            if not isinstance(args[0], T.Set):
                raise typer.error(node, f"{name}() takes a set in compiled code")
            result = T.BOOL if name == "issubset" else T.Set(ejoin(node, recv.elt, args[0].elt, "the set"))
    typer.tf.calls[node] = ("lib", L.METHODS[name], (name, recv))
    return result


# ---- iteration -------------------------------------------------------------------------------

def element_type(typer, node, it):
    if isinstance(it, T.Dict):
        it = T.DictView(it, "keys")
    if isinstance(it, T.Set):
        raise typer.error(node, set_order_problem(it, None), SET_ORDER_HINT)
    if isinstance(it, T.DictView):
        d = it.dict
        elem = {"keys": d.key, "values": d.value, "items": T.Tuple((d.key, d.value))}[it.kind]
        if it.kind == "items" and (d.key == T.UNKNOWN or d.value == T.UNKNOWN):
            elem = T.UNKNOWN
    elif isinstance(it, T.IterTools):
        items = [typer.element_type(node, i) for i in it.inners]
        if it.kind == "product":
            elem = T.Tuple(tuple(items) * it.repeat)
        else:
            elem = T.Tuple((items[0],) * it.repeat)
    elif it == T.STR:  # its code points, each a str (transpile_rt/str_methods.hpp StrChars)
        elem = T.STR
    else:
        return None
    if elem == T.UNKNOWN:
        typer.unknown.append(node)
        return None
    return elem


def iterable_in_zip(typer, node, it):
    """enumerate()/zip() of a dict, set or itertools iterable: not compiled."""
    inners = (it.inner,) if isinstance(it, T.Enumerate) else it.inners
    for i in inners:
        if isinstance(i, (T.Dict, T.Set, T.DictView, T.IterTools, T.LibIter)):
            raise typer.error(node, f"enumerate()/zip() over {i} is not supported in compiled code")


def augassign(typer, s: h.AugAssign, cur, val):
    """s += "x" (a new str), d[k] += v where the values are strs."""
    ops = binop(typer, s, s.op, cur, val)
    if ops is None:
        raise typer.error(s, f"unsupported operand type(s) for {s.op}=: '{cur}' and '{val}'")
    typer.tf.ops[s] = ops
    target = s.target
    if isinstance(target, h.Name):
        typer.set_var(target, target.id, ops.result)
    elif isinstance(target, h.Subscript):
        base = typer.expr(target.value)
        if isinstance(base, T.List):  # an item of a list of strs
            typer.tf.subscripts[target] = list_setitem(typer, target, base, ops.result)
        elif isinstance(base, (T.Dict, T.Str)):
            typer.tf.subscripts[target] = setitem(typer, target, base, ops.result)
        else:
            raise typer.error(target, f"'{base}' object does not support item assignment")
    else:
        raise typer.error(s, "augmented assignment to this target is not supported")
