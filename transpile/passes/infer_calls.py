"""Type inference of calls: library callables and methods, closures, and calls of other @jit functions (specialized)."""
from __future__ import annotations

import builtins
import heapq

import numpy as np

from ..diagnostics import (FunctionNotCompilable, PathTypeConflict, UnsupportedSyntaxError)
from ..hir import nodes as h
from ..hir import types as T
from ..library import lookup_callable, lookup_method
from ..library.base import CallSite, Handoff, NotYetKnown
from . import classes, lists
from . import dicts  # dicts, sets, strs, itertools
from . import lambdas  # lambdas, key= functions
from . import optional  # None-or-a-value
from . import function_values  # functions passed, stored and returned as values
from .targets import is_user_function, jit_target

HEAPQ = {id(getattr(heapq, name)): name for name in ("heappush", "heappop", "heapify", "heappushpop", "heapreplace")}


class CallTyping:
    """FunctionTyper's rules for calls: which target a call reaches and the type it returns."""

    def e_Call(self, node: h.Call):
        func = node.func
        if any(isinstance(a, h.Starred) for a in node.args):
            return self.star_call(node)
        handled = lambdas.call(self, node)  # lambdas, key= functions
        if handled is not lambdas.PASS:
            return handled
        if isinstance(func, h.Name) and func.id in self.local_defs:
            typed = self.call_arguments(node)
            if typed is None:
                return None
            args, kwargs = typed
            return self.call_closure(node, self.local_defs[func.id][1], args, kwargs)
        if isinstance(func, h.Name) and func.id == "super" and func.id not in self.locals \
                and self.global_value("super") is builtins.super:
            return classes.super_value(self, node)
        if isinstance(func, h.Attribute):
            recv = self.expr(func.value)
            if recv is None:
                return None
            recv = optional.attribute_base(self, func.value, recv, func.attr)
            if recv is None:
                return None
            if isinstance(recv, T.Instance) or (isinstance(recv, T.CompileTimeValue)
                                                and isinstance(recv.value, classes.SuperRef)):
                typed = self.call_arguments(node)
                if typed is None:
                    return None
                args, kwargs = typed
                if isinstance(recv, T.Instance):
                    return classes.method_call(self, node, recv, args, kwargs)
                return classes.super_call(self, node, recv.value, args, kwargs)
            if isinstance(recv, T.List):
                return lists.method_call(self, node, recv, func.attr)
            if isinstance(recv, (T.Dict, T.Set, T.Str)):
                return dicts.method_call(self, node, recv, func.attr)
            if not isinstance(recv, T.CompileTimeValue):
                entry = lookup_method(recv, func.attr)
                if entry is None:
                    raise self.error(func, f"'{recv}' has no method '{func.attr}' in compiled code")
                self.library_args |= _displays(node)
                typed = self.call_arguments(node)
                if typed is None:
                    return None
                args, kwargs = [recv] + typed[0], typed[1]
                return self.run_entry(node, entry, args, kwargs, [func.value] + list(node.args),
                                      {k.name: k.value for k in node.keywords}, f"{func.attr}")
        callee_t = self.expr(func)
        if callee_t is None:
            return None
        if callee_t == T.ANY:
            raise UnsupportedSyntaxError("calling a value made by fallback code is not supported in compiled code",
                                         node.loc)
        if isinstance(callee_t, T.CompileTimeValue) and lookup_callable(callee_t.value) is not None:
            self.library_args |= _displays(node)  # read while compiling
        if isinstance(callee_t, T.CompileTimeValue) and id(callee_t.value) in lists._promoting():
            self.promote_ok = getattr(self, "promote_ok", set()) | {a for a in node.args if isinstance(a, h.ListExpr)}
            if id(callee_t.value) in lists.ARRAY_COERCING and node.args:
                rows = lists.list_displays(node.args[:1])
                self.promote_ok |= rows
                self.array_coerced = getattr(self, "array_coerced", set()) | rows
        typed = self.call_arguments(node)
        if typed is None:
            return None
        args, kwargs = typed
        if isinstance(callee_t, T.Instance):
            return classes.call_instance(self, node, callee_t, args, kwargs)
        if isinstance(callee_t, T.Function):  # a function value: calls the function it is
            return function_values.call(self, node, callee_t.fn, args, kwargs)
        if isinstance(callee_t, T.CompileTimeValue) and classes.info_of(callee_t.value) is not None:
            return classes.construct(self, node, classes.info_of(callee_t.value), args, kwargs)
        if isinstance(callee_t, T.DType):
            return self.call_entry(node, np.dtype(callee_t.dtype).type, args, kwargs, list(node.args),
                                   {k.name: k.value for k in node.keywords})
        if not isinstance(callee_t, T.CompileTimeValue):
            raise self.error(func, f"'{callee_t}' is not callable")
        target = callee_t.value
        pyfunc = jit_target(target)
        if pyfunc is None and is_user_function(target):
            pyfunc = target  # a plain helper of the user's project: compiled with its caller
        if pyfunc is not None:
            return self.call_jit(node, target, pyfunc, args, kwargs)
        if id(target) in HEAPQ:  # list operations by another name (passes/lists.py)
            return lists.heap_call(self, node, HEAPQ[id(target)], args)
        return self.call_entry(node, target, args, kwargs, list(node.args),
                               {k.name: k.value for k in node.keywords})

    def star_call(self, node: h.Call):
        """A call with `*t` among its arguments, t a tuple: a @jit or plain
        Python function's parameters take the items one by one (`f(t, y,
        *params)`); a library function or an array method gets them written
        out (unpacked_call)."""
        func = node.func
        if isinstance(func, h.Name) and func.id in self.local_defs:
            typed = self.call_arguments(node)
            return None if typed is None else self.call_closure(node, self.local_defs[func.id][1], *typed)
        if isinstance(func, h.Attribute):
            recv = self.expr(func.value)
            if recv is None:
                return None
            if isinstance(recv, (T.Array, T.Scalar)):  # a.reshape(*shape): the method gets the items
                return self.unpacked_call(node)
            if not isinstance(recv, T.CompileTimeValue):
                raise UnsupportedSyntaxError(f"`*` unpacking into a method of {recv} is not compiled", node.loc,
                                             "pass the tuple's items one by one, e.g. f(t[0], t[1])")
        callee_t = self.expr(func)
        if callee_t is None:
            return None
        target = callee_t.fn if isinstance(callee_t, T.Function) else \
            callee_t.value if isinstance(callee_t, T.CompileTimeValue) else None
        pyfunc = jit_target(target) if target is not None else None
        if pyfunc is None and target is not None and is_user_function(target):
            pyfunc = target
        if pyfunc is not None and target not in self.program.synthetic:
            typed = self.call_arguments(node)
            return None if typed is None else self.call_jit(node, target, pyfunc, *typed)
        if target is not None and lookup_callable(target) is not None:  # print(*t), math.hypot(*t), np.zeros(*t)
            return self.unpacked_call(node)
        raise UnsupportedSyntaxError("`*` unpacking into this call's arguments is not compiled", node.loc,
                                     "pass the tuple's items one by one, e.g. f(t[0], t[1])")

    def unpacked_call(self, node: h.Call):
        """A library function or an array's method called with `*t`: typed
        (and lowered) as the call with t's items written out, `t[0], t[1]`
        for a tuple variable, the items of a tuple display as they are."""
        call = self.tf.unpacked.get(node)
        if call is None:
            args = []
            for a in node.args:
                if not isinstance(a, h.Starred):
                    args.append(a)
                    continue
                t = self.unpacked_tuple(a)
                if t is None:
                    return None
                if isinstance(a.value, h.TupleExpr):
                    args.extend(a.value.elts)
                elif isinstance(a.value, h.Name):  # reading a variable again has no effect: once per item
                    args.extend(h.Subscript(a.loc, a.value, (h.Const(a.loc, k),)) for k in range(len(t.items)))
                else:
                    raise self.error(a, "`*` into a library call unpacks a tuple variable or display in compiled "
                                        "code", "assign the tuple to a variable first")
            call = self.tf.unpacked[node] = h.Call(node.loc, node.func, tuple(args), node.keywords)
        t = self.expr(call)
        if call in self.tf.calls:  # what the analyses ask of a call (its effects, its entry) holds for both
            self.tf.calls[node] = self.tf.calls[call]
        return t

    def unpacked_tuple(self, a: h.Starred):
        """The tuple type `*value` unpacks (recorded as the Starred node's
        type), or None while it is not known."""
        t = self.expr(a.value)
        if t is not None and not isinstance(t, T.Tuple):
            raise self.error(a, f"only a tuple can be unpacked with `*` into a call's arguments in compiled code, "
                                f"not {t}", "convert it with tuple(...), or pass its items one by one")
        return self.record(a, t)

    def e_Starred(self, node: h.Starred):
        raise UnsupportedSyntaxError("`*` unpacking is compiled only among the arguments of a call", node.loc)

    def positional_sources(self, node: h.Call) -> list:
        """Where each positional argument of a call comes from, after `*t`
        unpacking: ("pos", i) for node.args[i], ("star", (i, k)) for item k of
        the tuple node.args[i] unpacks."""
        out = []
        for i, a in enumerate(node.args):
            if isinstance(a, h.Starred):
                out += [("star", (i, k)) for k in range(len(self.tf.types[a].items))]
            else:
                out.append(("pos", i))
        return out

    def call_arguments(self, node: h.Call):
        """Types of a call's positional and keyword arguments, or None while one
        is unknown; a tuple unpacked with `*` gives its items' types."""
        args = []
        for a in list(node.args) + [k.value for k in node.keywords]:
            if isinstance(a, h.Name) and a.id in self.local_defs:  # made by Python at run time: no type here
                # (the whole function: a statement run as Python would call it with cells compiled stores
                # do not reach)
                raise FunctionNotCompilable(
                    f"passing the nested function '{a.id}' to a function is not supported in compiled code", a.loc,
                    "define it at module level (a function of the module is passed as a compiled value), or write "
                    "it as a lambda that reads no local variables")
        for a in node.args:
            if not isinstance(a, h.Starred):
                args.append(self.number(a, self.expr(a)))
                continue
            t = self.unpacked_tuple(a)
            args.extend(t.items if t is not None else [None])
        kwargs = {k.name: self.number(k.value, self.expr(k.value)) for k in node.keywords}
        if any(t is None for t in args) or any(t is None for t in kwargs.values()):
            return None
        return args, kwargs

    def call_entry(self, node, target, args, kwargs, arg_nodes, kw_nodes):
        entry = lookup_callable(target)
        if entry is None:
            name = getattr(target, "__qualname__", None) or getattr(target, "__name__", repr(target))
            module = getattr(target, "__module__", None) or ""
            raise UnsupportedSyntaxError(
                f"call to {module + '.' if module and module != 'builtins' else ''}{name} is not supported in "
                "compiled code", node.loc,
                "decorate it with @jit if it is your function, or use a supported NumPy/math function")
        return self.run_entry(node, entry, args, kwargs, arg_nodes, kw_nodes, entry.name, target)

    def run_entry(self, node, entry, args, kwargs, arg_nodes, kw_nodes, name, target=None):
        args, kwargs = optional.call_args(self, node, target, name, args, kwargs, arg_nodes,
                                          kw_nodes)
        site = CallSite(node, args, kwargs, arg_nodes, kw_nodes, self.const, name=name,
                        taken_apart=node in self.taken_apart)
        try:
            result, info = entry.infer(site)
        except NotYetKnown:
            self.unknown.append(node)
            return None
        if isinstance(info, Handoff):  # another entry lowers this call (library/base.py)
            entry, info = info.entry, info.info
        self.tf.calls[node] = ("lib", entry, info)
        return result

    def call_jit(self, node, dispatcher, pyfunc, args, kwargs, free_names=(), free_types=(), receiver=None,
                 operand=None):
        """receiver: where the lowering finds args[0], the instance a method is
        called on (("expr", hir node), ("outer", variable) or ("new", layout));
        operand: the hir node of args[1] for an operator method."""
        import inspect

        positions = self.positional_sources(node) if isinstance(node, h.Call) and receiver is None else []
        if isinstance(node, h.Call) and receiver is None and len(args) == len(positions):
            args = [function_values.as_value(self, node.args[where], t) if kind == "pos" else t
                    for (kind, where), t in zip(positions, args)]
            kw_nodes = {k.name: k.value for k in node.keywords}
            kwargs = {k: function_values.as_value(self, kw_nodes[k], t) if k in kw_nodes else t
                      for k, t in kwargs.items()}
        sig = inspect.signature(pyfunc)
        if any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values()):
            raise UnsupportedSyntaxError(f"{pyfunc.__qualname__}() takes **kwargs, which compiled code "
                                         "does not: its call runs as Python", node.loc)
        try:
            bound = sig.bind(*range(len(args)), **{k: ("kw", k) for k in kwargs})
        except TypeError as exc:
            raise self.error(node, f"{pyfunc.__name__}(): {exc}") from None
        arg_types, sources = [], []
        for pname, param in sig.parameters.items():
            if pname in bound.arguments:
                marker = bound.arguments[pname]
                if param.kind == param.VAR_POSITIONAL:  # *args: a tuple of the extra positional arguments
                    arg_types.append(T.Tuple(tuple(args[m] for m in marker)))
                    sources.append(("pack", tuple(positions[m] if positions else ("pos", m) for m in marker)))
                elif isinstance(marker, tuple):
                    arg_types.append(kwargs[marker[1]])
                    sources.append(("kw", marker[1]))
                else:
                    arg_types.append(args[marker])
                    sources.append(positions[marker] if positions else ("pos", marker))
            elif param.kind == param.VAR_POSITIONAL:  # no extra positional arguments: an empty tuple
                arg_types.append(T.Tuple(()))
                sources.append(("pack", ()))
            else:
                default = param.default
                arg_types.append(self.type_of_value(node, default))
                sources.append(("default", default))
        arg_types = tuple(arg_types) + tuple(free_types)
        sources += [("outer", name) for name in free_names]
        if receiver is not None:
            def shifted(s):
                if s[0] == "pack":
                    return "pack", tuple(map(shifted, s[1]))
                return receiver if s == ("pos", 0) else ("expr", operand) if operand is not None and s[0] == "pos" \
                    else ("pos", s[1] - 1) if s[0] == "pos" else s
            sources = list(map(shifted, sources))
        for t in arg_types:
            if isinstance(t, (T.CompileTimeValue, T.Range, T.Enumerate, T.Zip, T.DType, T.IterTools, T.LibIter, T.DictView)):
                raise self.error(node, f"cannot pass {t} to a @jit function")
        try:
            callee = self.program.specialize(pyfunc, arg_types, tuple(free_names))
        except PathTypeConflict:
            raise  # its result would cross as an untyped object: this function runs in CPython too
        except FunctionNotCompilable as exc:
            # The helper cannot be compiled at all: this call runs as Python.
            raise UnsupportedSyntaxError(f"{pyfunc.__qualname__}() cannot be compiled: {exc.message}", node.loc,
                                         exc.hint) from None
        if callee is None:
            ret = self.program.provisional_return(pyfunc, arg_types)
            self.tf.calls[node] = ("jit", (pyfunc, arg_types), sources)
            if ret is None:
                self.unknown.append(node)
            return ret
        if callee.path_types and callee.path_types.boxes_returns:
            # Its result would reach this function as an untyped Python object, which the
            # "unknown is float64" rule could give the wrong type: all of it runs in CPython.
            raise PathTypeConflict(f"{pyfunc.__qualname__}() returns values of different types on different "
                                   "paths, so compiled code cannot type its result", node.loc,
                                   f"give {pyfunc.__name__}'s results one type on every path (e.g. 0.0, "
                                   "not 0), or convert them here")
        self.tf.calls[node] = ("jit", (pyfunc, arg_types), sources)
        return callee.return_type


def _displays(node: h.Call) -> set:
    """The list displays among a call's arguments (nested ones too)."""
    return lists.list_displays([*node.args, *(k.value for k in node.keywords)])
