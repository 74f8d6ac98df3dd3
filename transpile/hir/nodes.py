"""The high-level IR: a small, frozen tree of the Python subset we compile.

Nodes compare by identity (eq=False) so analyses can key side tables on
them; each carries the SourceLoc of the Python code it came from.
"""
from __future__ import annotations

from ..diagnostics import SourceLoc
from ..values import value_type

node = value_type(eq=False)  # not a dataclass: making ~45 of them cost every build ~30 ms


@node
class Node:
    loc: SourceLoc


# ---- expressions ---------------------------------------------------------

@node
class Expr(Node):
    pass


@node
class Name(Expr):
    id: str


@node
class Const(Expr):
    value: object  # int, float, complex, bool, None, str


@node
class BinOp(Expr):
    op: str  # Python operator text: "+", "//", "@", ...
    left: Expr
    right: Expr


@node
class UnaryOp(Expr):
    op: str  # "-", "+", "~", "not"
    operand: Expr


@node
class BoolOp(Expr):
    op: str  # "and" / "or"
    values: tuple


@node
class Compare(Expr):
    left: Expr
    ops: tuple  # "<", "<=", "==", "!=", ">", ">=", "is", "is not", "in", "not in"
    comparators: tuple


@node
class IfExp(Expr):
    test: Expr
    body: Expr
    orelse: Expr


@node
class Keyword(Node):
    name: str
    value: Expr


@node
class Call(Expr):
    func: Expr
    args: tuple
    keywords: tuple = ()


@node
class Attribute(Expr):
    value: Expr
    attr: str


@node
class Slice(Expr):
    lower: Expr | None
    upper: Expr | None
    step: Expr | None


@node
class Subscript(Expr):
    value: Expr
    index: tuple  # one entry per comma-separated index (Slice, Expr, Const(None) for np.newaxis)


@node
class TupleExpr(Expr):
    elts: tuple


@node
class Starred(Expr):
    """`*value` among a call's positional arguments: a tuple's items passed one by one."""
    value: Expr


@node
class GenExp(Expr):
    """(elt for target in iter if cond...): consumed by sum/min/max/any/all.
    Its target names are renamed apart (comprehension scope)."""

    elt: Expr
    target: Expr
    iter: Expr
    conds: tuple


@node
class ListExpr(Expr):
    """[a, b, c]"""

    elts: tuple


@node
class CompFor(Node):
    """One `for target in iter if cond...` clause of a comprehension."""

    target: Expr
    iter: Expr
    conds: tuple


@node
class ListComp(Expr):
    """[elt for ... in ... if ... for ...]: clauses outermost first; target
    names renamed apart (comprehension scope)."""

    elt: Expr
    clauses: tuple  # CompFor


@node
class DictExpr(Expr):
    """{k: v, ...}"""

    keys: tuple
    values: tuple


@node
class SetExpr(Expr):
    """{a, b, c}"""

    elts: tuple


@node
class DictComp(Expr):
    """{key: value for ... in ... if ...}: clauses as in ListComp."""

    key: Expr
    value: Expr
    clauses: tuple  # CompFor


@node
class SetComp(Expr):
    elt: Expr
    clauses: tuple  # CompFor


@node
class FormattedValue(Node):
    """{value!conversion:spec} inside an f-string (spec: literal text or None)."""

    value: Expr
    conversion: str | None
    spec: str | None


@node
class FString(Expr):
    """f"...": parts are str (literal text) or FormattedValue."""

    parts: tuple


@node
class TryTest(Expr):
    """The test of the If a `try: body except E: handler` becomes (frontend/to_hir.py): true when the
    body ran to its end, false when it raised one of the classes; passes/trys.py types it and checks
    the statement may compile, cxx/lower_stmts.py writes try/catch."""

    classes: tuple  # the handlers' exception class expressions
    protected: int = -1  # how many statements of the If's body the try protects (the rest: its else), -1 all


@node
class TryHandler(Expr):
    """With several handlers, the test choosing one (in their order) inside the TryTest's else."""

    classes: tuple  # this handler's exception class expressions


# ---- statements ----------------------------------------------------------

@node
class Stmt(Node):
    pass


@node
class Assign(Stmt):
    targets: tuple  # a = b = value: several targets
    value: Expr
    annotation: Expr | None = None


@node
class AugAssign(Stmt):
    target: Expr
    op: str
    value: Expr


@node
class ExprStmt(Stmt):
    value: Expr


@node
class If(Stmt):
    test: Expr
    body: tuple
    orelse: tuple


@node
class While(Stmt):
    test: Expr
    body: tuple
    orelse: tuple


@node
class For(Stmt):
    target: Expr
    iter: Expr
    body: tuple
    orelse: tuple


@node
class Break(Stmt):
    pass


@node
class Continue(Stmt):
    pass


@node
class Return(Stmt):
    value: Expr | None


@node
class Pass(Stmt):
    pass


@node
class Assert(Stmt):
    test: Expr
    msg: Expr | None


@node
class Delete(Stmt):
    targets: tuple  # `del lst[i]`, `del d[k]`; other targets (names, slices, attributes) stay unsupported


@node
class Raise(Stmt):
    exc: Expr  # `raise ValueError("...")`; a bare `raise` and `raise ... from` stay unsupported


@node
class Unsupported(Stmt):
    """A statement outside the compiled subset: it runs as Python (JIT
    Fallback), or is an error under fullgraph=True."""

    errors: tuple  # the UnsupportedSyntaxErrors found in it
    # `with f(name=type, ...):` -- the call, for a block Numba's objmode runs as Python on purpose
    # (passes/fallback.object_mode_types); None for every other statement
    block_call: object = None


@node
class Param(Node):
    name: str
    annotation: Expr | None = None


@value_type(eq=False, hidden=("source", "file_lines"))
class Function(Node):
    name: str
    qualname: str
    params: tuple
    body: tuple
    filename: str = ""
    first_line: int = 1
    source: str = ""
    file_lines: tuple = ()  # the whole file, for fallback regions
    declared_globals: frozenset = frozenset()  # names its `global` statements declare (module variables)


@node
class Lambda(Expr):
    """lambda params: body -- lambda-lifted (passes/lambdas.py): typed and
    compiled as a function of its parameters plus the enclosing locals it reads."""

    params: tuple  # parameter names (str)
    body: Expr


EXPR_NODES = (Name, Const, BinOp, UnaryOp, BoolOp, Compare, IfExp, Call, Attribute, Slice, Subscript, TupleExpr,
              GenExp, ListExpr, ListComp, DictExpr, SetExpr, DictComp, SetComp, FString, Lambda)
STMT_NODES = (Assign, AugAssign, ExprStmt, If, While, For, Break, Continue, Return, Pass, Assert, Unsupported)
