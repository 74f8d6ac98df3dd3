"""The seeded program generator: one random numeric function per (seed, index).

Every program is a `Program`: its source (what @jit compiles), the source of
its checked twin (int64 overflow detection, see exprs.py), its parameters'
kinds and the module globals it reads and writes. The same seed, index and
features always give the same program and inputs.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from . import kinds as K
from .exprs import ARITH, DIVISION, Expr, ExprGen, combine

# Every switch of the generator; tests/fuzz/README.md says what each one makes.
FEATURES = frozenset({
    "numpy_scalars", "arrays", "division", "pow", "math", "np_calls", "if", "while", "for",
    "boolops_cond", "boolops_value", "ternary", "augassign", "early_return", "partial_vars",
    "retype", "special_floats", "fallback", "mixed_minmax", "np_cast_array", "big_ints",
    "small_ints", "unsigned", "bool_arrays", "complex", "chained_compare", "try",
})


@dataclass
class Program:
    name: str
    source: str
    checked_source: str
    params: list  # [(name, kind)]
    globals: dict = field(default_factory=dict)  # module global -> initial value
    array_length: tuple = (1, 6)


def make_rng(seed: int, index: int, salt: str = "") -> random.Random:
    return random.Random(f"{seed}:{index}:{salt}")


def inputs(program: Program, seed: int, index: int, count: int, features: frozenset) -> list[tuple]:
    """`count` argument tuples for the program (one length shared by its arrays)."""
    rng = make_rng(seed, index, "inputs")
    special = "special_floats" in features
    out = []
    for _ in range(count):
        length = rng.randint(*program.array_length)
        out.append(tuple(K.value(rng, kind, length, special, "big_ints" in features) for _, kind in program.params))
    return out


class _Scope:
    """What the statements generated so far leave readable."""

    def __init__(self, env: dict, maybe: dict):
        self.env = dict(env)      # assigned on every path: name -> kind
        self.maybe = dict(maybe)  # assigned on some paths only

    def copy(self) -> "_Scope":
        return _Scope(self.env, self.maybe)


class _Gen:
    def __init__(self, seed: int, index: int, features: frozenset):
        self.rng = make_rng(seed, index)
        self.features = features
        self.ex = ExprGen(self.rng, features)
        self.name = f"f{index}"
        self.declared: dict = {}  # every name ever assigned -> its first kind
        self.counter = 0
        self.budget = self.rng.randint(5, 12)
        self.lines: list = []  # (indent, plain, checked)
        self.globals: dict = {}
        self.containers: list = []  # (name, how it is filled)
        self.loop_depth = 0

    def has(self, feature: str) -> bool:
        return feature in self.features

    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def emit(self, indent: int, plain: str, checked: str | None = None) -> None:
        self.lines.append((indent, plain, plain if checked is None else checked))

    def readable(self, scope: _Scope) -> dict:
        return {**scope.maybe, **scope.env} if self.has("partial_vars") else dict(scope.env)

    # ---- the function ---------------------------------------------------------------

    def program(self) -> Program:
        params = self._params()
        scope = _Scope(dict(params), {})
        for name, kind in params:
            self.declared[name] = kind
        self.return_kinds = self._return_kinds(params)
        if self.has("fallback") and self.rng.random() < 0.4:
            self._fallback_setup(scope)
        self.block(scope, 1)
        self._return(scope, 1)
        head = f"def {self.name}({', '.join(n for n, _ in params)}):"
        glob = [f"    global {', '.join(self.globals)}"] if self.globals else []
        body = ["    " * i + p for i, p, _ in self.lines if p is not None]
        checked = ["    " * i + c for i, _, c in self.lines]
        source = "\n".join([head] + glob + body) + "\n"
        checked_source = "\n".join([head.replace(f"def {self.name}(", f"def {self.name}_ck(")] + glob + checked) + "\n"
        return Program(self.name, source, checked_source, params, dict(self.globals))

    def _params(self) -> list:
        pool = ["int", "int", "float", "float", "bool"] + K.scalar_kinds(self.features)
        pool += K.array_kinds(self.features) * 2
        count = self.rng.randint(1, 4)
        params = []
        for _ in range(count):
            kind = self.rng.choice(pool)
            prefix = "a" if K.is_array(kind) else "x"
            params.append((f"{prefix}{len(params)}", kind))
        return params

    def _return_kinds(self, params: list) -> tuple:
        pool = [k for _, k in params] + ["int", "float"]
        return tuple(self.rng.choice(pool) for _ in range(self.rng.randint(1, 3)))

    def _return(self, scope: _Scope, indent: int) -> None:
        readable = self.readable(scope)
        kinds = self.return_kinds
        if self.has("retype") and self.rng.random() < 0.5:
            kinds = tuple(self.rng.choice(list(readable.values()) or ["int"]) for _ in kinds)
        values = [self.ex.of_kind(readable, k) for k in kinds]
        for name, how in self.containers:
            values.append(Expr(name, name, "obj") if self.rng.random() < 0.5 else Expr(f"len({name})", f"len({name})", "int"))
        for g in self.globals:
            values.append(Expr(g, g, "int"))
        plain = ", ".join(v.plain for v in values)
        checked = ", ".join(v.checked for v in values)
        self.emit(indent, f"return {plain}" + ("," if len(values) == 1 else ""),
                  f"return {checked}" + ("," if len(values) == 1 else ""))

    # ---- statements -----------------------------------------------------------------

    def block(self, scope: _Scope, indent: int, size: int | None = None) -> bool:
        """Statements into `scope`; True when the block ends in return/break."""
        count = size if size is not None else max(1, self.budget)
        emitted = 0
        while emitted < count and self.budget > 0:
            self.budget -= 1
            emitted += 1
            if self.statement(scope, indent):
                return True
        if emitted == 0:
            self.emit(indent, "pass")
        return False

    def statement(self, scope: _Scope, indent: int) -> bool:
        rng = self.rng
        choices = ["assign", "assign", "assign"]
        for feature, what in (("augassign", "aug"), ("if", "if"), ("if", "if"), ("for", "for"), ("while", "while"),
                              ("try", "try"),
                              ("arrays", "store"), ("arrays", "store"), ("early_return", "ret"),
                              ("fallback", "fallback"), ("fallback", "fallback")):
            if self.has(feature) and (what != "fallback" or self.containers or self.globals):
                choices.append(what)
        if self.loop_depth and indent > 1 and rng.random() < 0.1:
            self.emit(indent, "break")
            return True
        kind = rng.choice(choices)
        if kind in ("if", "for", "while", "try") and indent >= 4:
            kind = "assign"
        return getattr(self, f"_{kind}")(scope, indent)

    def _target(self, scope: _Scope, kind: str) -> str:
        """A variable to assign a value of this kind: an existing one of that kind, or a new one
        (with retype, an existing one of another kind too)."""
        if self.has("retype") and self.rng.random() < 0.25:
            others = [n for n, k in scope.env.items() if not K.is_array(k) and self._assignable(n)]
            if others:
                return self.rng.choice(others)
        same = [n for n, k in self.declared.items() if k == kind and self._assignable(n)]
        if same and self.rng.random() < 0.5:
            return self.rng.choice(same)
        name = self.fresh()
        self.declared[name] = kind
        return name

    def _assignable(self, name: str) -> bool:
        """Not a module global (only fallback statements write those) nor a while loop's
        counter (changing it could make the loop run forever)."""
        return name not in self.globals and name[0] != "w"

    def _assign(self, scope: _Scope, indent: int) -> bool:
        value = self.ex.expr(self.readable(scope), depth=self.rng.randint(1, 3))
        name = self._target(scope, value.kind)
        self.emit(indent, f"{name} = {value.plain}", f"{name} = {value.checked}")
        scope.env[name] = value.kind
        scope.maybe.pop(name, None)
        return False

    def _aug(self, scope: _Scope, indent: int) -> bool:
        readable = self.readable(scope)
        names = [n for n in scope.env if n[0] != "w"]
        if not names:
            return self._assign(scope, indent)
        name = self.rng.choice(names)
        ops = list(ARITH) + (list(DIVISION) if self.has("division") else [])
        for _ in range(10):
            op = self.rng.choice(ops)
            value = self.ex.expr(readable, depth=self.rng.randint(0, 2))
            made = combine("({} %s {})" % op, [Expr(name, name, scope.env[name]), value], check=False)
            if made is not None and (made.kind == scope.env[name] or self.has("retype")):
                self.emit(indent, f"{name} {op}= {value.plain}", f"{name} {op}= {value.checked}")
                if not K.is_array(scope.env[name]):
                    self.emit(indent, None, f"_ck({name})")  # checked twin only
                    scope.env[name] = made.kind
                return False
        return self._assign(scope, indent)

    def _store(self, scope: _Scope, indent: int) -> bool:
        readable = self.readable(scope)
        arrays = [n for n, k in scope.env.items() if K.is_array(k)]
        if not arrays:
            return self._assign(scope, indent)
        name = self.rng.choice(arrays)
        idx = self.ex.index(readable, name)
        value = self.ex.expr(readable, depth=self.rng.randint(0, 2), scalar_only=True)
        op = self.rng.choice(["", "", "+", "-", "*"]) if self.has("augassign") else ""
        self.emit(indent, f"{name}[{idx.plain}] {op}= {value.plain}", f"{name}[{idx.checked}] {op}= {value.checked}")
        return False

    def _if(self, scope: _Scope, indent: int) -> bool:
        cond = self.ex.condition(self.readable(scope))
        self.emit(indent, f"if {cond.plain}:", f"if {cond.checked}:")
        then = scope.copy()
        then_ends = self.block(then, indent + 1, self.rng.randint(1, 3))
        other = scope.copy()
        other_ends = False
        if self.rng.random() < 0.5:
            self.emit(indent, "else:")
            other_ends = self.block(other, indent + 1, self.rng.randint(1, 3))
        self._join(scope, [s for s, ends in ((then, then_ends), (other, other_ends)) if not ends])
        return then_ends and other_ends

    # compiled ones (passes/trys.py) and one that stays Python
    HANDLED = ("ZeroDivisionError", "IndexError", "(ZeroDivisionError, IndexError)", "LookupError",
               "(IndexError, KeyError)", "ArithmeticError")

    def _try(self, scope: _Scope, indent: int) -> bool:
        """try/except around a block: the handler sees what was readable before the block; after it, a
        name the block assigned may be unbound (the raise came first) or hold an earlier value."""
        self.emit(indent, "try:")
        body = scope.copy()
        body_ends = self.block(body, indent + 1, self.rng.randint(1, 3))
        clauses = [self.rng.choice(self.HANDLED) for _ in range(self.rng.choice((1, 1, 2)))]
        paths = []
        for cls in clauses:
            self.emit(indent, f"except {cls}:")
            handler = scope.copy()
            if not self.block(handler, indent + 1, self.rng.randint(1, 2)):
                paths.append(handler)
        if not body_ends and self.rng.random() < 0.3:  # else: runs when the body ran to its end
            self.emit(indent, "else:")
            body_ends = self.block(body, indent + 1, self.rng.randint(1, 2))
        if not body_ends:
            paths.append(body)
        self._join(scope, paths)
        return not paths

    def _join(self, scope: _Scope, paths: list) -> None:
        """The scope after paths meet: names assigned on all of them with one kind stay
        readable; the rest are readable only under partial_vars (they may be unbound)."""
        if not paths:
            return
        names = set().union(*(set(p.env) | set(p.maybe) for p in paths))
        for name in names:
            kinds = {p.env.get(name) for p in paths}
            if None not in kinds and len(kinds) == 1:
                scope.env[name] = kinds.pop()
                continue
            kind = next(p.env.get(name) or p.maybe.get(name) for p in paths if name in p.env or name in p.maybe)
            scope.env.pop(name, None)
            scope.maybe[name] = kind

    def _loop_body(self, scope: _Scope, indent: int, tail: tuple | None = None) -> None:
        body = scope.copy()
        self.loop_depth += 1
        self.block(body, indent + 1, self.rng.randint(1, 4))
        self.loop_depth -= 1
        if tail:
            self.emit(indent + 1, *tail)
        # The body may run zero times, and later iterations may see the values of earlier ones.
        self._join(scope, [body, scope.copy()])

    def _for(self, scope: _Scope, indent: int) -> bool:
        var = self.fresh("i")
        self.declared[var] = "int"
        arrays = [n for n, k in scope.env.items() if K.is_array(k)]
        if arrays and self.rng.random() < 0.5:
            bound = f"len({self.rng.choice(arrays)})"
        else:
            bound = self.rng.choice(["3", "4", "5", "1, 6", "0", "6, 0, -2"])
        self.emit(indent, f"for {var} in range({bound}):")
        scope.maybe[var] = "int"
        inner = scope.copy()
        inner.env[var] = "int"
        inner.maybe.pop(var, None)
        self._loop_body(inner, indent)
        self._join(scope, [inner, scope.copy()])
        return False

    def _while(self, scope: _Scope, indent: int) -> bool:
        counter = self.fresh("w")
        self.declared[counter] = "int"
        self.emit(indent, f"{counter} = 0")
        scope.env[counter] = "int"
        limit = self.rng.randint(1, 6)
        if self.has("boolops_cond") and self.rng.random() < 0.6:
            cond = self.ex.condition(self.readable(scope))
            op = self.rng.choice(["and", "and", "or"])
            # `or` with a counter bound still ends: the counter is bounded on its own below.
            head = f"while {counter} < {limit} {op} {cond.plain}:" if op == "and" else \
                f"while {counter} < {limit} and ({counter} < 1 or {cond.plain}):"
            head_ck = head.replace(cond.plain, cond.checked)
            self.emit(indent, head, head_ck)
        else:
            self.emit(indent, f"while {counter} < {limit}:")
        self._loop_body(scope, indent, tail=(f"{counter} += 1",))
        return False

    def _ret(self, scope: _Scope, indent: int) -> bool:
        cond = self.ex.condition(self.readable(scope))
        self.emit(indent, f"if {cond.plain}:", f"if {cond.checked}:")
        self._return(scope, indent + 1)
        return False

    # ---- statements that fall back ----------------------------------------------------

    def _fallback_setup(self, scope: _Scope) -> None:
        what = self.rng.choice(["dict", "heap", "global"])
        if what == "dict":
            self.containers.append(("acc", "dict"))
            self.emit(1, "acc = {}")
        elif what == "heap":
            self.containers.append(("heap", "heap"))
            self.emit(1, "heap = []")
        else:
            name = f"G{self.name}"
            self.globals[name] = self.rng.randint(-3, 3)
            scope.env[name] = "int"

    def _fallback(self, scope: _Scope, indent: int) -> bool:
        readable = self.readable(scope)
        name, how = self.containers[0] if self.containers else (next(iter(self.globals)), "global")
        if how == "dict":
            key = self.ex.of_kind(readable, "int")
            value = self.ex.expr(readable, depth=1, scalar_only=True)
            self.emit(indent, f"acc.setdefault({key.plain} % 3, []).append({value.plain})",
                      f"acc.setdefault(_ck({key.checked} % 3), []).append({value.checked})")
        elif how == "heap":
            value = self.ex.of_kind(readable, "float")
            self.emit(indent, f"heapq.heappush(heap, {value.plain})", f"heapq.heappush(heap, {value.checked})")
        else:
            value = self.ex.of_kind(readable, "int")
            self.emit(indent, f"{name} = {name} + {value.plain}", f"{name} = _ck({name} + {value.checked})")
        return False


def generate(seed: int, index: int, features) -> Program:
    return _Gen(seed, index, frozenset(features)).program()


MODULE_HEADER = '''"""Generated by tests/fuzz (seed {seed}); the _ck twins detect the documented limit (int64)."""
import heapq
import math

import numpy as np


class Int64Overflow(Exception):
    pass


def _ck(v):
    if type(v) is int and not -2**63 <= v < 2**63:
        raise Int64Overflow(v)
    return v

'''


def module_source(seed: int, programs: list) -> str:
    """One module holding the programs and their checked twins."""
    parts = [MODULE_HEADER.format(seed=seed)]
    for p in programs:
        for g, init in p.globals.items():
            parts.append(f"{g} = {init}\n")
        parts.append("\n" + p.source + "\n\n" + p.checked_source + "\n")
    return "".join(parts)
