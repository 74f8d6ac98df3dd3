"""The instructions that only move values on the stack: loads, operators,
calls, displays, f-strings (the expression half of structure.py)."""
from __future__ import annotations

import ast


class NotRecovered(Exception):
    def __init__(self, message: str, line: int | None):
        super().__init__(message)
        self.line = line


class _Marker:
    """A stack entry no expression stands for: a for loop's iterator, the
    value FOR_ITER hands the loop's target, a comprehension's accumulator."""

    def __init__(self, kind, payload=None):
        self.kind, self.payload = kind, payload


_CMP_NODES = {"<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE, "==": ast.Eq, "!=": ast.NotEq}
_BIN_NODES = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "/": ast.Div, "//": ast.FloorDiv, "%": ast.Mod,
              "**": ast.Pow, "@": ast.MatMult, "<<": ast.LShift, ">>": ast.RShift, "&": ast.BitAnd,
              "|": ast.BitOr, "^": ast.BitXor}

class StackOps:
    def op_LOAD_FAST(self, x, stack):
        stack.append(ast.Name(x.arg, ast.Load()))

    op_LOAD_DEREF = op_LOAD_CLOSURE = op_LOAD_NAME = op_LOAD_FAST

    def op_LOAD_GLOBAL(self, x, stack):
        if x.null:
            stack.append(_Marker("null"))
        stack.append(ast.Name(x.arg, ast.Load()))

    def op_PUSH_NULL(self, x, stack):
        stack.append(_Marker("null"))

    def op_LOAD_CONST(self, x, stack):
        if hasattr(x.arg, "co_code"):
            stack.append(_Marker("code", x.arg))
        else:
            stack.append(ast.Constant(x.arg))

    def op_LOAD_ATTR(self, x, stack):
        value = ast.Attribute(stack.pop(), x.arg, ast.Load())
        if x.null:  # a method load: (NULL, bound method) as the call sees it
            stack.append(_Marker("null"))
        stack.append(value)

    def op_LOAD_ASSERTION_ERROR(self, x, stack):
        stack.append(_Marker("assert"))

    def op_BINARY_OP(self, x, stack):
        right, left = stack.pop(), stack.pop()
        node = ast.BinOp(left, _BIN_NODES[x.arg.rstrip("=")](), right)
        node.inplace = x.arg.endswith("=")
        stack.append(node)

    def op_BINARY_SUBSCR(self, x, stack):
        index = stack.pop()
        stack.append(ast.Subscript(stack.pop(), index, ast.Load()))

    def op_BUILD_SLICE(self, x, stack):
        parts = [stack.pop() for _ in range(x.arg)][::-1]
        parts = [None if isinstance(p, ast.Constant) and p.value is None else p for p in parts]
        stack.append(ast.Slice(*parts))

    def op_COMPARE_OP(self, x, stack):
        right, left = stack.pop(), stack.pop()
        stack.append(ast.Compare(left, [_CMP_NODES[x.arg]()], [right]))

    def op_IS_OP(self, x, stack):
        right, left = stack.pop(), stack.pop()
        stack.append(ast.Compare(left, [ast.IsNot() if x.arg else ast.Is()], [right]))

    def op_CONTAINS_OP(self, x, stack):
        right, left = stack.pop(), stack.pop()
        stack.append(ast.Compare(left, [ast.NotIn() if x.arg else ast.In()], [right]))

    def _build(self, x, stack):
        items = [stack.pop() for _ in range(x.arg)][::-1]
        if any(isinstance(i, _Marker) for i in items):
            raise NotRecovered("a display of special values", x.line)
        return items

    def op_BUILD_TUPLE(self, x, stack):
        stack.append(ast.Tuple(self._build(x, stack), ast.Load()))

    def op_BUILD_LIST(self, x, stack):
        if x.arg == 0 and not stack and self.code.co_name == "<listcomp>":
            stack.append(_Marker("acc"))
            return
        stack.append(ast.List(self._build(x, stack), ast.Load()))

    def op_BUILD_SET(self, x, stack):
        if x.arg == 0 and not stack and self.code.co_name == "<setcomp>":
            stack.append(_Marker("acc"))
            return
        stack.append(ast.Set(self._build(x, stack)) if x.arg else ast.Call(ast.Name("set"), [], []))

    def op_BUILD_MAP(self, x, stack):
        if x.arg == 0 and not stack and self.code.co_name == "<dictcomp>":
            stack.append(_Marker("acc"))
            return
        items = [stack.pop() for _ in range(2 * x.arg)][::-1]
        stack.append(ast.Dict(items[0::2], items[1::2]))

    def op_BUILD_CONST_KEY_MAP(self, x, stack):
        keys = stack.pop()
        values = [stack.pop() for _ in range(x.arg)][::-1]
        stack.append(ast.Dict([ast.Constant(k) for k in keys.value], values))

    def op_LIST_EXTEND(self, x, stack):  # [1, 2, 3]: BUILD_LIST 0 + LIST_EXTEND of a constant tuple
        items = stack.pop()
        target = stack[-x.arg]
        if not (isinstance(target, ast.List) and not target.elts and isinstance(items, ast.Constant)):
            raise NotRecovered("list unpacking", x.line)
        target.elts = [ast.Constant(v) for v in items.value]

    def op_LIST_TO_TUPLE(self, x, stack):  # a long tuple display, built as a list
        items = stack.pop()
        if not isinstance(items, ast.List):
            raise NotRecovered("a tuple built from a list", x.line)
        stack.append(ast.Tuple(items.elts, ast.Load()))

    def op_SET_UPDATE(self, x, stack):
        items = stack.pop()
        target = stack[-x.arg]
        if not (isinstance(target, ast.Call) and isinstance(items, ast.Constant)):
            raise NotRecovered("set unpacking", x.line)
        stack[-x.arg] = ast.Set([ast.Constant(v) for v in items.value])

    def op_COPY(self, x, stack):
        stack.append(stack[-x.arg])

    def op_SWAP(self, x, stack):
        stack[-1], stack[-x.arg] = stack[-x.arg], stack[-1]

    def op_YIELD_VALUE(self, x, stack):
        stack.append(ast.Yield(stack.pop()))

    def op_GET_ITER(self, x, stack):
        stack.append(_Marker("iter", stack.pop()))

    def op_FORMAT_VALUE(self, x, stack):
        conv, has_spec = x.arg if isinstance(x.arg, tuple) else (x.arg, False)
        spec = stack.pop() if has_spec else None
        value = stack.pop()
        code = {None: -1, str: 115, repr: 114, ascii: 97}.get(conv, -1)
        if spec is not None:
            spec = ast.JoinedStr([spec] if isinstance(spec, ast.Constant) else spec.values)
        stack.append(ast.JoinedStr([ast.FormattedValue(value, code, spec)]))

    def op_BUILD_STRING(self, x, stack):
        parts = [stack.pop() for _ in range(x.arg)][::-1]
        values = []
        for p in parts:
            values.extend(p.values if isinstance(p, ast.JoinedStr) else [p])
        stack.append(ast.JoinedStr(values))

    def op_MAKE_FUNCTION(self, x, stack):
        code = stack.pop()
        flags = x.arg if isinstance(x.arg, int) else 0
        if not isinstance(code, _Marker) or code.kind != "code" or flags & ~8:
            raise NotRecovered("a function definition with defaults or annotations", x.line)
        if flags & 8:
            stack.pop()  # the closure tuple: the nested code names its free variables
        stack.append(_Marker("func", code.payload))

    def op_CALL(self, x, stack):
        args = [stack.pop() for _ in range(x.arg)][::-1]
        second, first = stack.pop(), stack.pop()
        if isinstance(first, _Marker) and first.kind == "null":
            func = second
        else:  # (callable, self): a comprehension's code called on its iterator
            func, args = first, [second] + args
        if isinstance(func, _Marker) and func.kind == "func":
            stack.append(self.nested(func.payload, args))
            return
        if isinstance(func, _Marker) and func.kind == "assert":
            stack.append(ast.Call(ast.Name("AssertionError"), args, []))
            stack[-1].assertion = True
            return
        if isinstance(func, _Marker) or any(isinstance(a, _Marker) for a in args):
            raise NotRecovered("a call of special values", x.line)
        n = len(x.kw)
        positional, named = (args[:-n], args[-n:]) if n else (args, [])
        stack.append(ast.Call(func, positional, [ast.keyword(k, v) for k, v in zip(x.kw, named)]))

