"""Typing of @jit_class instances: field layouts, attributes, method calls,
construction and super().

A layout is found by typing __init__ (and whatever it calls) on an "open"
instance, T.Instance(cls, None), whose fields collect the types assigned to
them; that repeats until the fields settle.  Everything afterwards is typed
on the closed instance, T.Instance(cls, ((name, type), ...)), whose fields
are fixed: assignments elsewhere must fit them.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import TypingError, UnsupportedSyntaxError
from ..hir import nodes as h
from ..hir import types as T
from ..hir.jit_classes import info_of  # noqa: F401  (the typer reads it here: classes.info_of)
from ..hir import promote
from .targets import jit_target

MAX_DISCOVERY = 8


@dataclass(frozen=True, eq=False)
class SuperRef:
    """The value of super() inside a method: attributes of the classes after `after` in the MRO."""

    after: object  # ClassInfo of the class defining the method
    self_type: T.Instance
    self_name: str


def field_type(t: T.Type) -> T.Type:
    """What a field stores for a value of type t: any array of that dtype and ndim."""
    if isinstance(t, T.Array):
        return t.with_layout("A")
    if isinstance(t, T.Tuple):
        return T.Tuple(tuple(field_type(i) for i in t.items))
    return t


def _fits(field: T.Type, value: T.Type) -> bool:
    if field == value:
        return True
    if isinstance(field, T.Scalar) and isinstance(value, T.Scalar):
        # the field keeps the type __init__ gave it: values convert by NumPy's same_kind rule
        return promote.can_cast_same_kind(value.dtype, field.dtype)
    if isinstance(field, T.Array) and isinstance(value, T.Array):
        return (field.dtype, field.ndim) == (value.dtype, value.ndim) and (field.readonly or not value.readonly)
    if isinstance(field, T.Tuple) and isinstance(value, T.Tuple) and len(field.items) == len(value.items):
        return all(_fits(f, v) for f, v in zip(field.items, value.items))
    return False


# ---- layouts -----------------------------------------------------------------


def discover_layout(program, info, arg_types: tuple, loc=None) -> T.Instance:
    """The field layout __init__ gives for these argument types."""
    key = arg_types
    known = info.layouts.get(key)
    if known is not None:
        return known
    if info in _DISCOVERING:
        raise TypingError(f"{info.name}() is constructed while its own fields are being inferred", loc,
                          "construct it outside its own __init__")
    _DISCOVERING.add(info)
    try:
        fields: dict = {}
        for _ in range(MAX_DISCOVERY):
            # errors here surface again, with their lines, when the closed layout is typed
            sub = type(program)(program.options.replace(fullgraph=False), program.frontend)
            sub.discovery = {info: dict(fields)}
            sub.discovery_incomplete = False
            sub.specialize(info.init, (T.Instance(info, None),) + tuple(arg_types))
            found = sub.discovery[info]
            if found == fields and not sub.discovery_incomplete:
                break
            fields = found
        else:
            raise TypingError(f"the field types of {info.name} did not settle", loc)
    finally:
        _DISCOVERING.discard(info)
    info.check_slots(fields, loc)
    layout = T.Instance(info, tuple(fields.items()))
    info.layouts[key] = layout
    return layout


_DISCOVERING: set = set()


# ---- attributes ----------------------------------------------------------------


def read_attribute(typer, node: h.Attribute, base: T.Instance):
    """Type of base.attr for an instance: a field, a property, a class attribute."""
    name = node.attr
    if base.fields is None:  # discovering the layout: fields so far
        collected = typer.program.discovery[base.cls]
        if name in collected:
            return collected[name]
    else:
        t = base.field(name)
        if t is not None:
            return t
    kind, value, _ = base.cls.lookup(name)
    if kind == "property":
        return typer.call_jit(node, value, _py(value), [base], {}, receiver=("expr", node.value))
    if kind == "attribute":
        t = typer.type_of_value(node, value)
        if isinstance(t, T.CompileTimeValue):
            raise typer.error(node, f"class attribute {base.cls.name}.{name} is a {type(value).__name__}",
                              "class attributes used in compiled code must be numbers, tuples or arrays")
        typer.tf.consts[node] = value
        return t
    if kind in ("method", "static"):
        raise UnsupportedSyntaxError(f"a method of {base.cls.name} used as a value is not supported",
                                     node.loc, f"call it: {name}(...)")
    if base.fields is None:
        typer.program.discovery_incomplete = True  # assigned later, or by a method not yet typed
        return None
    raise typer.error(node, f"'{base.cls.name}' object has no attribute '{name}'",
                      f"fields of {base.cls.name} are the attributes its __init__ assigns")


def store_field(typer, target: h.Attribute, t: T.Type, stmt) -> None:
    base = typer.expr(target.value)
    if base is None:
        return
    if not isinstance(base, T.Instance):
        raise UnsupportedSyntaxError(f"assigning attributes of {base} is not supported in compiled code",
                                     target.loc)
    name = target.attr
    kind, _, owner = base.cls.lookup(name)
    if kind == "property" and base.fields is not None:
        return _property_setter(typer, target, base, owner, t, stmt)
    if kind in ("method", "static", "property"):
        raise typer.error(target, f"cannot assign to {kind} '{name}' of {base.cls.name}")
    if isinstance(t, (T.CompileTimeValue, T.Range, T.Enumerate, T.Zip, T.DType, T.Generator, T.LibIter)):
        raise typer.error(target, f"cannot store {t} in a field")
    if base.fields is None:
        collected = typer.program.discovery[base.cls]
        new = field_type(t)
        old = collected.get(name)
        if old is not None and old != new:
            new = field_type(typer.join(stmt, old, new, f"field '{name}' of {base.cls.name}"))
        if old != new:
            collected[name] = new
            typer.changed = True
        typer.record(target, new)
        return
    current = base.field(name)
    if current is None:
        raise typer.error(target, f"'{base.cls.name}' object has no field '{name}'",
                          f"fields are the attributes __init__ assigns; assign '{name}' there first")
    if not _fits(current, t):
        raise typer.error(stmt, f"field '{name}' of {base.cls.name} holds {current} (from __init__); "
                                f"a value of type {t} cannot be stored in it",
                          "assign it a value of the same type in __init__, or convert explicitly")
    typer.record(target, current)


# ---- calls ---------------------------------------------------------------------


def _property_setter(typer, target: h.Attribute, base: T.Instance, owner, t: T.Type, stmt) -> None:
    """obj.prop = value: a call of the property's (compiled) setter with the
    value, recorded on the target (lowered by cxx/lower_stmts.py s_Assign)."""
    setter = owner.cls.__dict__[target.attr].fset
    if setter is None:  # CPython's AttributeError, raised by the statement run as Python
        raise typer.error(target, f"property '{target.attr}' of '{base.cls.name}' object has no setter")
    if not (isinstance(stmt, h.Assign) and stmt.targets == (target,)):
        raise typer.error(target, f"only `obj.{target.attr} = value` calls the setter of property "
                                  f"'{target.attr}' in compiled code")
    typer.call_jit(target, setter, _py(setter), [base, t], {}, receiver=("expr", target.value), operand=stmt.value)


def _py(target):
    return jit_target(target) or target


def method_call(typer, node: h.Call, recv: T.Instance, args, kwargs):
    name = node.func.attr
    kind, value, _ = recv.cls.lookup(name)
    if kind == "method":
        return typer.call_jit(node, value, _py(value), [recv] + args, kwargs, receiver=("expr", node.func.value))
    if kind == "static":
        return typer.call_jit(node, value, _py(value), args, kwargs)
    field = recv.field(name) if recv.fields is not None else None
    if field is not None:
        raise UnsupportedSyntaxError(f"calling field '{name}' of {recv.cls.name} is not supported", node.loc)
    raise typer.error(node.func, f"'{recv.cls.name}' object has no attribute '{name}'")


def call_instance(typer, node: h.Call, recv: T.Instance, args, kwargs):
    kind, value, _ = recv.cls.lookup("__call__")
    if kind != "method":
        raise typer.error(node, f"'{recv.cls.name}' object is not callable: the class defines no __call__",
                          "define __call__(self, ...) or call one of its methods")
    return typer.call_jit(node, value, _py(value), [recv] + args, kwargs, receiver=("expr", node.func))


def construct(typer, node: h.Call, info, args, kwargs):
    if kwargs:
        raise UnsupportedSyntaxError(f"keyword arguments to {info.name}() are not supported in compiled code",
                                     node.loc, "pass them by position")
    layout = discover_layout(typer.program, info, tuple(args), node.loc)
    typer.call_jit(node, info.init, info.init, [layout] + args, {}, receiver=("new", layout))
    return layout


def super_value(typer, node: h.Call):
    """super() in a method: which class's methods it reaches, and `self`."""
    if node.args or node.keywords:
        raise UnsupportedSyntaxError("super() with arguments is not supported in compiled code", node.loc,
                                     "write super().method(...)")
    owner = getattr(typer.tf.pyfunc, "__jit_owner__", None)
    params = typer.tf.params
    self_t = typer.tf.var_types.get(params[0]) if params else None
    if owner is None or not isinstance(self_t, T.Instance):
        raise UnsupportedSyntaxError("super() outside a method of a @jit_class is not supported", node.loc)
    return T.CompileTimeValue(SuperRef(owner, self_t, params[0]))


def super_call(typer, node: h.Call, ref: SuperRef, args, kwargs):
    name = node.func.attr
    kind, value, _ = ref.self_type.cls.lookup(name, after=ref.after)
    if name == "__init__" and kind is None:
        return T.NONE  # object.__init__
    if kind != "method":
        raise typer.error(node.func, f"'super' object has no attribute '{name}'")
    return typer.call_jit(node, value, _py(value), [ref.self_type] + args, kwargs,
                          receiver=("outer", ref.self_name))


def binary_operator(typer, node, op: str, left: T.Type, right: T.Type, left_node, right_node):
    """a + b or a < b where a is an instance: a.__add__(b), a.__lt__(b), compiled."""
    name = OPERATOR_METHODS.get(op)
    if not isinstance(left, T.Instance) or name is None:
        raise typer.error(node, f"unsupported operand types for {op}: {left} and {right}")
    kind, value, _ = left.cls.lookup(name)
    if kind != "method":
        raise typer.error(node, f"unsupported operand types for {op}: '{left.cls.name}' defines no {name}")
    return typer.call_jit(node, value, _py(value), [left, right], {}, receiver=("expr", left_node),
                          operand=right_node)


OPERATOR_METHODS = {"+": "__add__", "-": "__sub__", "*": "__mul__", "/": "__truediv__", "//": "__floordiv__",
                    "%": "__mod__", "**": "__pow__", "@": "__matmul__", "==": "__eq__", "!=": "__ne__",
                    "<": "__lt__", "<=": "__le__", ">": "__gt__", ">=": "__ge__"}


def check_layout_complete(typer, node, t: T.Instance) -> None:
    if t.fields is None:
        raise TypingError(f"{t.cls.name} cannot leave its __init__ before its fields are known", node.loc)
