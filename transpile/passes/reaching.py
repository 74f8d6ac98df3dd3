"""Reaching definitions: for every read of a local variable, the
assignments whose value it may see.

HIR control flow is structured (if/while/for, break/continue/return/raise;
`try` always runs as Python), so the analysis walks the statements once with
an environment `name -> frozenset of definitions`, joining environments
where paths meet and iterating loop bodies until their entry environment
settles.  Expressions bind nothing (comprehension targets and lambda
parameters live in their own scopes), so only statements define.

A definition is the store target node (`h.Name`), the `h.Param`, or the
statement that runs as Python (a fallback region writing the name, and
leaving by break/continue when passes/exits.py says it may); UNDEF
stands for "not assigned on some path".  Per-path typing (passes/paths.py)
reads the result; it does not depend on types, so it runs once per
function after typing.
"""
from __future__ import annotations

import dataclasses

from ..hir import nodes as h
from ..values import fields

UNDEF = "<unassigned>"

_SCOPES = (h.GenExp, h.ListComp, h.DictComp, h.SetComp, h.Lambda)


@dataclasses.dataclass
class Reaching:
    uses: dict  # h.Name (a read) -> frozenset of definitions
    fallback_reads: dict  # statement running as Python -> {name: frozenset of definitions}
    defs: dict  # name -> every definition of it (for the types each assigns)


def analyse(fn: h.Function, local_names, fallbacks, range_is_builtin: bool = True) -> Reaching:
    """`fallbacks`: statements that run as Python, each with .reads,
    .writes and .definite (passes/fallback.FallbackInfo); range_is_builtin:
    the name `range` means the builtin (not rebound by the module)."""
    flow = _Flow(set(local_names), fallbacks)
    flow.range_is_builtin = range_is_builtin and "range" not in flow.locals
    env = {p.name: frozenset((p,)) for p in fn.params}
    for p in fn.params:
        flow.defs.setdefault(p.name, set()).add(p)
    flow.block(fn.body, env)
    return Reaching(flow.uses, flow.fallback_reads, flow.defs)


def _join(*envs):
    envs = [e for e in envs if e is not None]
    if not envs:
        return None
    out = dict(envs[0])
    for env in envs[1:]:
        for name in out.keys() | env.keys():
            out[name] = out.get(name, frozenset((UNDEF,))) | env.get(name, frozenset((UNDEF,)))
    return out


class _Flow:
    def __init__(self, local_names: set, fallbacks):
        self.locals = local_names
        self.fallbacks = fallbacks
        self.uses: dict = {}
        self.fallback_reads: dict = {}
        self.defs: dict = {}
        self.loop_exits: list = []  # per enclosing loop: (break environments, continue environments)

    # ---- statements --------------------------------------------------------

    def block(self, stmts, env):
        for s in stmts:
            if env is None:
                return None  # the rest is unreachable
            env = self.stmt(s, env)
        return env

    def define(self, env, name, definition, certain=True):
        if name not in self.locals:
            return
        self.defs.setdefault(name, set()).add(definition)
        env[name] = frozenset((definition,)) if certain else env.get(name, frozenset((UNDEF,))) | {definition}

    def store(self, target, env, definition=None):
        if isinstance(target, h.Name):
            self.define(env, target.id, definition or target)
        elif isinstance(target, h.TupleExpr):
            for sub in target.elts:
                self.store(sub, env)
        else:  # a subscript or attribute target reads its base and index
            self.expr(target, env)

    def stmt(self, s, env):
        info = self.fallbacks.get(s)
        if info is not None:
            # a name the statement may leave alone passes its old value through (and its unboundness)
            passed = info.reads | (info.writes - info.definite)
            self.fallback_reads[s] = {n: env.get(n, frozenset((UNDEF,))) for n in passed if n in self.locals}
            env = dict(env)
            for name in info.writes:
                self.define(env, name, s, certain=name in info.definite)
            if self.loop_exits:  # leaving by break/continue (passes/exits.py): the loop's exit or head sees env
                for kind, where in (("break", 0), ("continue", 1)):
                    if kind in info.exits:
                        self.loop_exits[-1][where].append(dict(env))
            return None if isinstance(s, h.Return) else env
        method = getattr(self, "s_" + type(s).__name__, None)
        if method is None:
            self.expr(s, env)
            return env
        return method(s, env)

    def s_Assign(self, s, env):
        self.expr(s.value, env)
        env = dict(env)
        for target in s.targets:
            self.store(target, env)
        return env

    def s_AugAssign(self, s, env):
        self.expr(s.target, env)
        self.expr(s.value, env)
        env = dict(env)
        if isinstance(s.target, h.Name):
            self.define(env, s.target.id, s.target)
        return env

    def s_If(self, s, env):
        info = self.fallbacks.get(s.test)
        if info is not None:  # the test runs as Python on its own (fallback.python_test)
            self.fallback_reads[s.test] = {n: env.get(n, frozenset((UNDEF,))) for n in info.reads}
        else:
            self.expr(s.test, env)
        return _join(self.block(s.body, dict(env)), self.block(s.orelse, dict(env)))

    def s_While(self, s, env):
        return self.loop(s, env, None)

    def s_For(self, s, env):
        self.expr(s.iter, env)
        return self.loop(s, env, s.target)

    def loop(self, s, entry, target):
        head = entry
        while True:
            self.loop_exits.append(([], []))
            if target is None:
                self.expr(s.test, head)
            body_env = dict(head)
            if target is not None:
                self.store(target, body_env)
            end = self.block(s.body, body_env)
            breaks, continues = self.loop_exits.pop()
            new_head = _join(entry, end, *continues)
            if new_head == head:
                break
            head = new_head
        # the loop ends when the test is false or the iterator is exhausted,
        # in the head's environment; `else` runs then, not after a break.  A
        # `for` over a constant, non-empty range ends after an iteration.
        once = self.range_is_builtin and _runs_at_least_once(s) and (end is not None or continues)
        exit_env = _join(end, *continues) if once else head
        return _join(self.block(s.orelse, dict(exit_env)), *breaks)

    def s_Break(self, s, env):
        self.loop_exits[-1][0].append(env)
        return None

    def s_Continue(self, s, env):
        self.loop_exits[-1][1].append(env)
        return None

    def s_Return(self, s, env):
        if s.value is not None:
            self.expr(s.value, env)
        return None

    def s_Raise(self, s, env):
        self.expr(s.exc, env)
        return None

    # ---- expressions -------------------------------------------------------

    def expr(self, node, env, shadowed=frozenset()):
        if isinstance(node, h.Name):
            if node.id in self.locals and node.id not in shadowed:
                self.uses[node] = env.get(node.id, frozenset((UNDEF,)))
            return
        if isinstance(node, _SCOPES):
            shadowed = shadowed | _scope_names(node)
        for field_name in fields(node):
            if field_name == "loc":
                continue
            value = getattr(node, field_name)
            for child in value if isinstance(value, tuple) else (value,):
                if isinstance(child, h.Node):
                    self.expr(child, env, shadowed)


def _runs_at_least_once(s) -> bool:
    """`for ... in range(a[, b[, step]])` with integer constants and at least one value."""
    it = getattr(s, "iter", None)
    if not (isinstance(s, h.For) and isinstance(it, h.Call) and isinstance(it.func, h.Name)
            and it.func.id == "range" and not it.keywords and 1 <= len(it.args) <= 3):
        return False
    bounds = []
    for a in it.args:
        negative = isinstance(a, h.UnaryOp) and a.op == "-"
        a = a.operand if negative else a
        if not (isinstance(a, h.Const) and type(a.value) is int):
            return False
        bounds.append(-a.value if negative else a.value)
    return len(range(*bounds)) > 0 if (len(bounds) < 3 or bounds[2] != 0) else False


def _scope_names(node) -> frozenset:
    if isinstance(node, h.Lambda):
        return frozenset(node.params)
    targets = [node.target] if isinstance(node, h.GenExp) else [c.target for c in node.clauses]
    names = set()
    for t in targets:
        names |= {n.id for n in _walk_names(t)}
    return frozenset(names)


def _walk_names(t):
    if isinstance(t, h.Name):
        yield t
    elif isinstance(t, h.TupleExpr):
        for e in t.elts:
            yield from _walk_names(e)
