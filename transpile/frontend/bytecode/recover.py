"""A code object -> the `def` statement (Python `ast`) it was compiled from,
using the version's instruction decoding and the shared structure recovery."""
from __future__ import annotations

import ast
import sys

from .structure import Decoder, NotRecovered, _not

if sys.version_info[:2] == (3, 11):
    from . import py311 as version
elif sys.version_info[:2] == (3, 12):
    from . import py312 as version
else:  # the caller reports the version; nothing is guessed
    version = None

COMPREHENSIONS = {"<listcomp>": ast.ListComp, "<setcomp>": ast.SetComp, "<dictcomp>": ast.DictComp,
                  "<genexpr>": ast.GeneratorExp}
# Flags of code objects that are not plain functions: generators, coroutines, async generators.
_NOT_PLAIN = 0x20 | 0x80 | 0x100 | 0x200


def supported() -> bool:
    return version is not None


def body_of(code) -> list:
    """The statements of a code object's body."""
    if code.co_flags & _NOT_PLAIN and code.co_name != "<genexpr>":
        raise NotRecovered("generators and coroutines", code.co_firstlineno)
    ins = version.instructions(code)
    if ins and ins[0].op == "RETURN_GENERATOR":  # a generator expression's prologue
        ins = ins[2:]
    if not ins:
        raise NotRecovered("an empty code object", code.co_firstlineno)
    decoder = Decoder(ins, code, _nested)
    decoder.op_MAKE_FUNCTION = _make_function(decoder.op_MAKE_FUNCTION)
    decoder.make_def = function_def
    return decoder.block(0, len(ins), [], _ctx())


def _ctx():
    from .structure import _Ctx

    return _Ctx()


def _make_function(original):
    """Lambdas become ast.Lambda where they are made (a value like any other)."""
    def op(x, stack):
        original(x, stack)
        code = stack[-1].payload
        if code.co_name == "<lambda>":
            stack[-1] = lambda_of(code)
    return op


def params(code) -> ast.arguments:
    names = code.co_varnames
    npos, nkw, posonly = code.co_argcount, code.co_kwonlyargcount, code.co_posonlyargcount
    arg = lambda n: ast.arg(n)  # noqa: E731
    vararg = kwarg = None
    at = npos + nkw
    if code.co_flags & 0x04:
        vararg, at = arg(names[at]), at + 1
    if code.co_flags & 0x08:
        kwarg = arg(names[at])
    return ast.arguments([arg(n) for n in names[:posonly]], [arg(n) for n in names[posonly:npos]], vararg,
                         [arg(n) for n in names[npos:npos + nkw]], [None] * nkw, kwarg, [])


def lambda_of(code) -> ast.Lambda:
    body = body_of(code)
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        raise NotRecovered("a lambda whose body was not recovered", code.co_firstlineno)
    return ast.Lambda(params(code), body[0].value)


def _nested(code, args):
    """A comprehension: its code object called on the iterator of its first iterable."""
    kind = COMPREHENSIONS.get(code.co_name)
    if kind is None or len(args) != 1 or getattr(args[0], "kind", None) != "iter":
        raise NotRecovered(f"a call of the nested code object {code.co_name}", code.co_firstlineno)
    body = body_of(code)
    if not body or not isinstance(body[0], ast.For) or not (isinstance(body[0].iter, ast.Name)
                                                            and body[0].iter.id == ".0"):
        raise NotRecovered("a comprehension whose loop was not recovered", code.co_firstlineno)
    gens: list = []
    elts = _clauses([body[0]], gens, code)
    gens[0].iter = args[0].payload
    if kind is ast.DictComp:
        if len(elts) != 2:
            raise NotRecovered("a dict comprehension", code.co_firstlineno)
        return ast.DictComp(elts[0], elts[1], gens)
    return kind(elts[0], gens)


def _clauses(body: list, gens: list, code) -> list:
    first = body[0] if body else None
    if len(body) == 1 and isinstance(first, ast.For) and not first.orelse:
        gens.append(ast.comprehension(first.target, first.iter, [], 0))
        return _clauses(first.body, gens, code)
    if gens and isinstance(first, ast.If) and not first.orelse:
        if first.body == [] or len(first.body) == 1 and isinstance(first.body[0], ast.Continue):
            gens[-1].ifs.append(_not(first.test))
            return _clauses(body[1:], gens, code)
        if len(body) == 1:
            gens[-1].ifs.append(first.test)
            return _clauses(first.body, gens, code)
    if len(body) == 1 and isinstance(first, ast.Expr):
        value = first.value
        if isinstance(value, ast.Yield) and value.value is not None:
            return [value.value]
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "__append__":
            return list(value.args)
    raise NotRecovered("a comprehension whose body was not recovered", code.co_firstlineno)


def function_def(code, name: str) -> ast.FunctionDef:
    body = body_of(code)
    if body and isinstance(body[-1], ast.Return) and isinstance(body[-1].value, ast.Constant) \
            and body[-1].value.value is None and len(body) > 1:
        body = body[:-1]  # the implicit `return None` at the end
    node = ast.FunctionDef(name, params(code), body or [ast.Pass()], [], None)
    node.lineno = code.co_firstlineno
    return node
