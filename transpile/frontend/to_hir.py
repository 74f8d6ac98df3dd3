"""libcst syntax tree -> hir.Function.

Constructs outside the compiled subset are collected as
UnsupportedSyntaxErrors (all of a function's, reported together) rather than
stopping at the first.
"""
from __future__ import annotations

import ast
import sys

import libcst as cst

from ..diagnostics import FunctionNotCompilable, UnsupportedSyntaxError, raise_collected
from ..hir import nodes as h
from .source import FunctionSource
from .str_format import as_fstring

BINOPS = {
    "Add": "+", "Subtract": "-", "Multiply": "*", "Divide": "/", "FloorDivide": "//", "Modulo": "%",
    "Power": "**", "MatrixMultiply": "@", "LeftShift": "<<", "RightShift": ">>", "BitAnd": "&",
    "BitOr": "|", "BitXor": "^",
}
AUGOPS = {k + "Assign": v for k, v in BINOPS.items()}
UNARYOPS = {"Minus": "-", "Plus": "+", "BitInvert": "~", "Not": "not"}
BOOLOPS = {"And": "and", "Or": "or"}
CMPOPS = {
    "LessThan": "<", "LessThanEqual": "<=", "GreaterThan": ">", "GreaterThanEqual": ">=", "Equal": "==",
    "NotEqual": "!=", "Is": "is", "IsNot": "is not", "In": "in", "NotIn": "not in",
}

# What users wrote, named the way the error message should name it.
CONSTRUCT_NAMES = {
    "List": "list display", "Dict": "dict display", "Set": "set display", "ListComp": "list comprehension",
    "DictComp": "dict comprehension", "SetComp": "set comprehension", "GeneratorExp": "generator expression",
    "Lambda": "lambda", "FormattedString": "f-string", "Await": "await", "Yield": "yield",
    "NamedExpr": "assignment expression (:=)", "Ellipsis": "Ellipsis", "Try": "try statement",
    "TryStar": "try statement", "With": "with statement", "Raise": "raise statement", "Del": "del statement",
    "Global": "global statement", "Nonlocal": "nonlocal statement", "Import": "import statement",
    "ImportFrom": "import statement", "ClassDef": "class definition", "FunctionDef": "nested function",
    "Match": "match statement", "StarredElement": "star unpacking", "StarredDictElement": "star unpacking",
}


class _Converter:
    def __init__(self, src: FunctionSource, positions):
        self.src = src
        self.positions = positions
        self.errors: list[UnsupportedSyntaxError] = []
        self.renames: dict = {}  # comprehension variables, renamed apart from the function's
        self.gen_counter = 0
        self.declared_globals: frozenset = frozenset()  # the function's `global` names

    def loc(self, node):
        rng = self.positions[node]
        return self.src.loc(rng.start.line, rng.start.column, rng.end.line, rng.end.column)

    def unsupported(self, node, what: str | None = None, hint: str | None = None):
        name = what or CONSTRUCT_NAMES.get(type(node).__name__, type(node).__name__)
        self.errors.append(UnsupportedSyntaxError(
            f"{name} is not supported in compiled code", self.loc(node),
            hint or "rewrite it with the supported subset (numbers, arrays, tuples, loops), "
                    "or move it out of the @jit function"))
        return None

    # ---- function -------------------------------------------------------

    def function(self, fn: cst.FunctionDef, qualname: str) -> h.Function:
        p = fn.params
        problem = None
        if fn.asynchronous:
            problem = (fn, "async def")
        if isinstance(p.star_kwarg, cst.Param):
            problem = (p.star_kwarg, "**kwargs parameter")
        if problem:
            raise FunctionNotCompilable(f"{problem[1]} is not supported in compiled code", self.loc(problem[0]),
                                        "the whole function runs in CPython")
        params = []
        # In inspect.signature's order, which the dispatcher and calls between @jit functions bind to;
        # *args is a parameter holding a tuple of the extra positional arguments
        star = [p.star_arg] if isinstance(p.star_arg, cst.Param) else []
        for param in list(p.posonly_params) + list(p.params) + star + list(p.kwonly_params):
            ann = self.expr(param.annotation.annotation) if param.annotation else None
            params.append(h.Param(self.loc(param), param.name.value, ann))
        self.declared_globals = frozenset(_declared_globals(fn.body))
        body = self.block(fn.body)
        raise_collected(self.errors)
        return h.Function(self.loc(fn.name), fn.name.value, qualname, tuple(params), body,
                          self.src.filename, self.src.first_line, self.src.text, self.src.file_lines_all,
                          self.declared_globals)

    def block(self, block) -> tuple:
        out = []
        if isinstance(block, cst.SimpleStatementSuite):  # def f(x): return x  (body on the def line)
            for small in block.body:
                out.extend(self.guarded(self.small_stmt, small, many=True))
            return tuple(out)
        for stmt in block.body:
            if isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
                for small in stmt.body:
                    out.extend(self.guarded(self.small_stmt, small, many=True))
            else:
                out.extend(self.guarded(self.compound, stmt))
        if not out:
            out.append(h.Pass(self.src.loc(1, 0)))
        return tuple(out)

    def guarded(self, convert, node, many=False) -> list:
        """Converts one statement; one that holds unsupported constructs
        becomes an Unsupported statement (JIT Fallback) carrying them."""
        before = len(self.errors)
        result = convert(node)
        if len(self.errors) > before:
            errors = tuple(self.errors[before:])
            del self.errors[before:]
            return [h.Unsupported(self.loc(node), errors, self.block_call(node))]
        if many:
            return list(result)
        return [] if result is None else [result]

    def block_call(self, node) -> h.Call | None:
        """f(name=value, ...) of `with f(...):` (one item, no `as`, keywords only), for the typer to ask
        whether f is objmode (passes/fallback.object_mode_types)."""
        if not (isinstance(node, cst.With) and len(node.items) == 1 and node.items[0].asname is None
                and isinstance(node.items[0].item, cst.Call)):
            return None
        call = node.items[0].item
        if any(arg.keyword is None or arg.star for arg in call.args):
            return None
        before = len(self.errors)
        converted = self.expr(call)
        if len(self.errors) > before:  # a keyword's value outside the subset: not an objmode block here
            del self.errors[before:]
            return None
        return converted

    def body_of(self, node) -> tuple:
        if isinstance(node, (cst.IndentedBlock, cst.SimpleStatementSuite)):
            return self.block(node)
        return self.block(node.body)

    # ---- statements -----------------------------------------------------

    def small_stmt(self, s) -> list:
        loc = self.loc(s)
        if isinstance(s, cst.Assign):
            targets = tuple(self.target(t.target) for t in s.targets)
            return [h.Assign(loc, targets, self.expr(s.value))]
        if isinstance(s, cst.AnnAssign):
            if s.value is None:
                return []  # a bare annotation declares nothing at run time
            return [h.Assign(loc, (self.target(s.target),), self.expr(s.value), self.expr(s.annotation.annotation))]
        if isinstance(s, cst.AugAssign):
            op = AUGOPS.get(type(s.operator).__name__)
            return [h.AugAssign(loc, self.target(s.target), op, self.expr(s.value))]
        if isinstance(s, cst.Expr):
            return [h.ExprStmt(loc, self.expr(s.value))]
        if isinstance(s, cst.Return):
            return [h.Return(loc, self.expr(s.value) if s.value is not None else None)]
        if isinstance(s, cst.Pass):
            return [h.Pass(loc)]
        if isinstance(s, cst.Break):
            return [h.Break(loc)]
        if isinstance(s, cst.Continue):
            return [h.Continue(loc)]
        if isinstance(s, cst.Assert):
            if sys.flags.optimize:  # python -O: CPython's compiler drops asserts (the cache key knows)
                return [h.Pass(loc)]
            return [h.Assert(loc, self.expr(s.test), self.expr(s.msg) if s.msg is not None else None)]
        if isinstance(s, cst.Del):
            targets = s.target.elements if isinstance(s.target, (cst.Tuple, cst.List)) else [s.target]
            targets = [t.value if isinstance(t, cst.Element) else t for t in targets]
            if all(isinstance(t, cst.Subscript) for t in targets):
                return [h.Delete(loc, tuple(self.expr(t) for t in targets))]
        if isinstance(s, cst.Raise) and s.exc is not None and s.cause is None:
            return [h.Raise(loc, self.expr(s.exc))]
        if isinstance(s, cst.Global):
            return []  # a declaration: stores to its names run as Python (target), reads are live globals
        self.unsupported(s)
        return []

    def compound(self, s):
        loc = self.loc(s)
        if isinstance(s, cst.If):
            return self.if_stmt(s)
        if isinstance(s, cst.While):
            orelse = self.body_of(s.orelse.body) if s.orelse else ()
            return h.While(loc, self.expr(s.test), self.body_of(s.body), orelse)
        if isinstance(s, cst.Try) and self.try_stmt(s) is not None:
            return self.try_stmt(s)
        if isinstance(s, cst.For):
            if s.asynchronous:
                return self.unsupported(s, "async for")
            orelse = self.body_of(s.orelse.body) if s.orelse else ()
            return h.For(loc, self.target(s.target), self.expr(s.iter), self.body_of(s.body), orelse)
        return self.unsupported(s)

    def try_stmt(self, s: cst.Try) -> h.If | None:
        """`try: body except E1: h1 except E2: h2 ... else: rest` (handlers naming their classes, no `as`
        or `finally`) as `if <body ran to its end>: body; rest elif <E1>: h1 elif ... else: hn`, the
        form the analyses know; anything else stays unsupported (runs as Python)."""
        if not s.handlers or s.finalbody is not None:
            return None
        if any(handler.type is None or handler.name is not None for handler in s.handlers):
            return None
        classes = [tuple(self.expr(k.value) for k in handler.type.elements) if isinstance(handler.type, cst.Tuple)
                   else (self.expr(handler.type),) for handler in s.handlers]
        chosen = self.body_of(s.handlers[-1].body)
        for handler, caught in reversed(list(zip(s.handlers[:-1], classes[:-1]))):
            chosen = (h.If(self.loc(handler), h.TryHandler(self.loc(handler), caught), self.body_of(handler.body),
                           chosen),)
        body = self.body_of(s.body)
        rest = self.body_of(s.orelse.body) if s.orelse is not None else ()
        test = h.TryTest(self.loc(s.handlers[0]), tuple(c for caught in classes for c in caught),
                         len(body) if rest else -1)
        return h.If(self.loc(s), test, body + rest, chosen)

    def if_stmt(self, s: cst.If) -> h.If:
        orelse = ()
        if isinstance(s.orelse, cst.If):
            orelse = (self.if_stmt(s.orelse),)
        elif isinstance(s.orelse, cst.Else):
            orelse = self.body_of(s.orelse.body)
        return h.If(self.loc(s), self.expr(s.test), self.body_of(s.body), orelse)

    def target(self, t):
        if isinstance(t, cst.Name) and t.value in self.declared_globals:
            return self.unsupported(t, "assignment to a variable declared global")
        if isinstance(t, cst.Name):
            return h.Name(self.loc(t), self.renames.get(t.value, t.value))
        if isinstance(t, (cst.Tuple, cst.List)):
            return h.TupleExpr(self.loc(t), self.elements(t, self.target))
        if isinstance(t, cst.Subscript):
            return self.expr(t)
        if isinstance(t, cst.Attribute):
            return self.expr(t)
        return self.unsupported(t, "assignment to this kind of target")

    # ---- expressions ----------------------------------------------------

    def expr(self, e):
        method = getattr(self, "e_" + type(e).__name__, None)
        if method is None:
            return self.unsupported(e)
        return method(e)

    def e_Name(self, e):
        if e.value in ("True", "False", "None"):
            return h.Const(self.loc(e), {"True": True, "False": False, "None": None}[e.value])
        return h.Name(self.loc(e), self.renames.get(e.value, e.value))

    def e_GeneratorExp(self, e):
        if e.for_in.inner_for_in is not None or e.for_in.asynchronous:
            return self.unsupported(e, "generator expression with several for clauses")
        comp = e.for_in
        iter_ = self.expr(comp.iter)  # evaluated in the enclosing scope
        self.gen_counter += 1
        saved = dict(self.renames)
        for name in _target_names(comp.target):
            self.renames[name] = f"gen{self.gen_counter}__{name}"
        target = self.target(comp.target)
        conds = tuple(self.expr(c.test) for c in comp.ifs)
        elt = self.expr(e.elt)
        self.renames = saved
        return h.GenExp(self.loc(e), elt, target, iter_, conds)

    def elements(self, e, read=None) -> tuple:
        """The items of a list or set display, or of a tuple/list target (read =
        self.target); a starred item is unsupported."""
        read = read or self.expr
        elts = []
        for el in e.elements:
            if isinstance(el, cst.StarredElement):
                self.unsupported(el)
                continue
            elts.append(read(el.value))
        return tuple(elts)

    def e_List(self, e):
        return h.ListExpr(self.loc(e), self.elements(e))

    def e_ListComp(self, e):
        saved = dict(self.renames)
        clauses = self._comp_clauses(e)
        elt = self.expr(e.elt) if clauses is not None else None
        self.renames = saved
        return None if clauses is None else h.ListComp(self.loc(e), elt, clauses)

    def e_Dict(self, e):
        keys, values = [], []
        for el in e.elements:
            if not isinstance(el, cst.DictElement):
                self.unsupported(el)
                continue
            keys.append(self.expr(el.key))
            values.append(self.expr(el.value))
        return h.DictExpr(self.loc(e), tuple(keys), tuple(values))

    def e_Set(self, e):
        return h.SetExpr(self.loc(e), self.elements(e))

    def _comp_clauses(self, e):
        """The for clauses of a list/dict/set comprehension, targets renamed apart
        (the first iterable is read in the enclosing scope, later ones see
        earlier targets); None for an async comprehension."""
        clauses = []
        comp = e.for_in
        self.gen_counter += 1
        while comp is not None:
            if comp.asynchronous:
                self.unsupported(e, "async comprehension")
                return None
            iter_ = self.expr(comp.iter)
            for name in _target_names(comp.target):
                self.renames[name] = f"gen{self.gen_counter}__{name}"
            target = self.target(comp.target)
            conds = tuple(self.expr(c.test) for c in comp.ifs)
            clauses.append(h.CompFor(self.loc(comp), target, iter_, conds))
            comp = comp.inner_for_in
        return tuple(clauses)

    def e_DictComp(self, e):
        saved = dict(self.renames)
        clauses = self._comp_clauses(e)
        key, value = self.expr(e.key), self.expr(e.value)
        self.renames = saved
        return None if clauses is None else h.DictComp(self.loc(e), key, value, clauses)

    def e_SetComp(self, e):
        saved = dict(self.renames)
        clauses = self._comp_clauses(e)
        elt = self.expr(e.elt)
        self.renames = saved
        return None if clauses is None else h.SetComp(self.loc(e), elt, clauses)

    def e_FormattedString(self, e):
        prefix = e.start.replace("f", "").replace("F", "")
        parts = []
        for part in e.parts:
            if isinstance(part, cst.FormattedStringText):
                text = part.value.replace("{{", "{").replace("}}", "}")
                parts.append(ast.literal_eval(prefix + text + e.end))
                continue
            if part.equal is not None or part.conversion not in (None, "s", "r"):
                return self.unsupported(part, "this f-string field")
            spec = None
            if part.format_spec:
                if not all(isinstance(p, cst.FormattedStringText) for p in part.format_spec):
                    return self.unsupported(part, "a computed format spec")
                spec = "".join(p.value for p in part.format_spec)
            parts.append(h.FormattedValue(self.loc(part), self.expr(part.expression), part.conversion, spec))
        return h.FString(self.loc(e), tuple(parts))

    def e_Ellipsis(self, e):  # `...`: compiles only as an array index (passes/indexing.py)
        return h.Const(self.loc(e), Ellipsis)

    def _literal(self, e):
        return h.Const(self.loc(e), ast.literal_eval(e.value))

    e_Integer = e_Float = e_Imaginary = _literal

    def e_SimpleString(self, e):
        return h.Const(self.loc(e), e.evaluated_value)

    def e_ConcatenatedString(self, e):
        value = e.evaluated_value
        if value is None:
            return self.unsupported(e, "f-string")
        return h.Const(self.loc(e), value)

    def e_BinaryOperation(self, e):
        return h.BinOp(self.loc(e), BINOPS[type(e.operator).__name__], self.expr(e.left), self.expr(e.right))

    def e_UnaryOperation(self, e):
        return h.UnaryOp(self.loc(e), UNARYOPS[type(e.operator).__name__], self.expr(e.expression))

    def e_BooleanOperation(self, e):
        op = BOOLOPS[type(e.operator).__name__]
        values = []
        for side in (e.left, e.right):
            converted = self.expr(side)
            # Flatten a and b and c into one node, as Python's ast does.
            if isinstance(converted, h.BoolOp) and converted.op == op and not side.lpar:
                values.extend(converted.values)
            else:
                values.append(converted)
        return h.BoolOp(self.loc(e), op, tuple(values))

    def e_Comparison(self, e):
        ops = tuple(CMPOPS[type(c.operator).__name__] for c in e.comparisons)
        comps = tuple(self.expr(c.comparator) for c in e.comparisons)
        return h.Compare(self.loc(e), self.expr(e.left), ops, comps)

    def e_IfExp(self, e):
        return h.IfExp(self.loc(e), self.expr(e.test), self.expr(e.body), self.expr(e.orelse))

    def e_Call(self, e):
        args, kws = [], []
        for arg in e.args:
            if arg.star == "**":
                self.unsupported(arg, "**kwargs arguments in calls")
                continue
            value = self.expr(arg.value)
            if arg.star == "*":
                args.append(h.Starred(self.loc(arg), value))
                continue
            if arg.keyword is not None:
                kws.append(h.Keyword(self.loc(arg), arg.keyword.value, value))
            else:
                args.append(value)
        func = e.func
        if isinstance(func, cst.Attribute) and func.attr.value == "format" \
                and isinstance(func.value, (cst.SimpleString, cst.ConcatenatedString)) \
                and isinstance(func.value.evaluated_value, str):
            fstring = as_fstring(self.loc(e), func.value.evaluated_value, tuple(args), tuple(kws))
            if fstring is not None:
                return fstring
        return h.Call(self.loc(e), self.expr(func), tuple(args), tuple(kws))

    def e_Lambda(self, e):
        p = e.params
        if isinstance(p.star_arg, (cst.Param, cst.ParamStar)) or isinstance(p.star_kwarg, cst.Param) \
                or p.kwonly_params or any(q.default is not None for q in list(p.posonly_params) + list(p.params)):
            return self.unsupported(e, "lambda with default, keyword-only or star parameters")
        names = tuple(q.name.value for q in list(p.posonly_params) + list(p.params))
        saved = dict(self.renames)
        for name in names:  # the parameters shadow comprehension variables around the lambda
            self.renames.pop(name, None)
        body = self.expr(e.body)
        self.renames = saved
        return h.Lambda(self.loc(e), names, body)

    def e_Attribute(self, e):
        return h.Attribute(self.loc(e), self.expr(e.value), e.attr.value)

    def e_Subscript(self, e):
        index = []
        for el in e.slice:
            s = el.slice
            if isinstance(s, cst.Slice):
                index.append(h.Slice(self.loc(s), self._opt(s.lower), self._opt(s.upper), self._opt(s.step)))
            else:
                value = s.value
                if isinstance(value, cst.Tuple) and len(e.slice) == 1:
                    # a[(i, j)] / a[idx] with idx a tuple expression: same as a[i, j]
                    index.extend(self.expr(v.value) for v in value.elements)
                else:
                    index.append(self.expr(value))
        return h.Subscript(self.loc(e), self.expr(e.value), tuple(index))

    def _opt(self, e):
        return None if e is None else self.expr(e)

    def e_Tuple(self, e):
        elts = []
        for el in e.elements:
            if isinstance(el, cst.StarredElement):
                self.unsupported(el)
                continue
            elts.append(self.expr(el.value))
        return h.TupleExpr(self.loc(e), tuple(elts))


def _target_names(t) -> list:
    if isinstance(t, cst.Name):
        return [t.value]
    if isinstance(t, (cst.Tuple, cst.List)):
        return [n for el in t.elements for n in _target_names(el.value)]
    return []


def to_hir(fn_node: cst.FunctionDef, positions, src: FunctionSource, qualname: str) -> h.Function:
    return _Converter(src, positions).function(fn_node, qualname)


def _declared_globals(node):
    """Names of the `global` statements of a function body (not of the
    functions, classes and lambdas nested in it: their own scopes)."""
    for child in node.children:
        if isinstance(child, cst.Global):
            yield from (item.name.value for item in child.names)
        elif not isinstance(child, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            yield from _declared_globals(child)
