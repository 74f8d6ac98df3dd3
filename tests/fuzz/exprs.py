"""Random expressions of the fuzzer, each with its kind.

An `Expr` carries two renderings: `plain` (what the compiler sees) and
`checked`, where every operation that can make a Python int is wrapped in
`_ck(...)`. The checked twin of a program runs in CPython first and stops
as soon as a Python int leaves int64, the documented limit of compiled code
(compiled ints wrap), so such inputs are counted apart instead of compared
(and CPython never computes an unbounded int in a loop).
"""
from __future__ import annotations

from dataclasses import dataclass

from . import kinds as K

ARITH = ("+", "-", "*")
DIVISION = ("/", "//", "%")
COMPARE = ("<", "<=", "==", "!=", ">", ">=")
EXPONENTS = ("0", "1", "2", "3", "2", "-1", "0.5", "2.0")
# (template, arity, feature)
CALLS = (
    ("abs({})", 1, None), ("min({}, {})", 2, None), ("max({}, {})", 2, None),
    ("int({})", 1, "math"), ("float({})", 1, "math"), ("round({})", 1, "math"), ("bool({})", 1, "math"),
    ("math.sqrt({})", 1, "math"), ("math.floor({})", 1, "math"), ("math.ceil({})", 1, "math"),
    ("math.trunc({})", 1, "math"), ("math.fabs({})", 1, "math"), ("math.sin({})", 1, "math"),
    ("math.cos({})", 1, "math"), ("math.exp({})", 1, "math"), ("math.log({})", 1, "math"),
    ("math.hypot({}, {})", 2, "math"), ("math.copysign({}, {})", 2, "math"), ("math.atan2({}, {})", 2, "math"),
    ("math.fmod({}, {})", 2, "math"), ("divmod({}, {})[0]", 2, "division"), ("divmod({}, {})[1]", 2, "division"), ("math.isnan({})", 1, "math"), ("math.isfinite({})", 1, "math"),
    ("np.sqrt({})", 1, "np_calls"), ("np.abs({})", 1, "np_calls"), ("np.sin({})", 1, "np_calls"),
    ("np.exp({})", 1, "np_calls"), ("np.floor({})", 1, "np_calls"), ("np.log({})", 1, "np_calls"),
    ("np.maximum({}, {})", 2, "np_calls"), ("np.minimum({}, {})", 2, "np_calls"),
    ("np.float64({})", 1, "numpy_scalars"), ("np.float32({})", 1, "numpy_scalars"),
    ("np.int64({})", 1, "numpy_scalars"), ("np.int32({})", 1, "numpy_scalars"),
    ("np.int16({})", 1, "small_ints"), ("np.int8({})", 1, "small_ints"),
    ("np.uint64({})", 1, "unsigned"), ("np.uint32({})", 1, "unsigned"), ("np.uint16({})", 1, "unsigned"),
    ("np.uint8({})", 1, "unsigned"), ("np.bool_({})", 1, "bool_arrays"), ("np.complex128({})", 1, "complex"),
)
# NumPy scalar constructors: applied to an array they cast it (feature np_cast_array).
CONSTRUCTORS = frozenset(t for t, _, f in CALLS if f in set(K.SCALAR_FEATURE.values()))
REDUCTIONS = ("np.sum({})", "np.max({})", "np.min({})", "np.mean({})", "{}.sum()", "{}.max()", "len({})",
              "np.dot({}, {})", "np.sum({}[1:])")


@dataclass(frozen=True)
class Expr:
    plain: str
    checked: str
    kind: str


def combine(template: str, parts: list[Expr], check: bool) -> Expr | None:
    """`template` applied to the parts, its kind found by sampling (None: CPython rejects it)."""
    kind = K.result_kind(template, tuple(p.kind for p in parts))
    if kind is None:
        return None
    plain = template.format(*(p.plain for p in parts))
    checked = template.format(*(p.checked for p in parts))
    return Expr(plain, f"_ck({checked})" if check else checked, kind)


class ExprGen:
    """Draws expressions over the variables a statement can read."""

    def __init__(self, rng, features: frozenset):
        self.rng = rng
        self.features = features

    def has(self, feature: str) -> bool:
        return feature in self.features

    # readable: name -> kind
    def leaf(self, readable: dict, scalar_only: bool = False) -> Expr:
        names = [n for n, k in readable.items() if not (scalar_only and K.is_array(k))]
        if names and self.rng.random() < 0.75:
            name = self.rng.choice(names)
            return Expr(name, name, readable[name])
        pool = ["int", "int", "float", "float", "bool"] + K.scalar_kinds(self.features)
        kind = self.rng.choice(pool)
        text = K.literal(self.rng, kind, self.has("big_ints"))
        return Expr(text, text, kind)

    def expr(self, readable: dict, depth: int = 2, scalar_only: bool = False) -> Expr:
        for _ in range(12):
            made = self._try(readable, depth, scalar_only)
            if made is not None and not (scalar_only and K.is_array(made.kind)):
                return made
        return self.leaf(readable, scalar_only)

    def _try(self, readable: dict, depth: int, scalar_only: bool) -> Expr | None:
        rng = self.rng
        if depth <= 0 or rng.random() < 0.2:
            return self.leaf(readable, scalar_only)
        sub = lambda: self.expr(readable, depth - 1, scalar_only)  # noqa: E731
        choice = rng.random()
        if choice < 0.38:
            ops = list(ARITH) + (list(DIVISION) if self.has("division") else [])
            return combine("({} %s {})" % rng.choice(ops), [sub(), sub()], check=True)
        if choice < 0.45 and self.has("pow"):
            return combine("({} ** %s)" % rng.choice(EXPONENTS), [sub()], check=True)
        if choice < 0.55:
            count = 3 if self.has("chained_compare") and rng.random() < 0.3 else 2
            template = "({}" + "".join(f" {rng.choice(COMPARE)} {{}}" for _ in range(count - 1)) + ")"
            return combine(template, [self.expr(readable, depth - 1, True) for _ in range(count)], check=False)
        if choice < 0.60:
            return combine(rng.choice(["(-{})", "(not {})"]), [sub()], check=True)
        if choice < 0.75:
            calls = [c for c in CALLS if c[2] is None or self.has(c[2])]
            template, arity, _ = rng.choice(calls)
            args = [sub() for _ in range(arity)]
            if template[:3] in ("min", "max") and args[0].kind != args[1].kind and not self.has("mixed_minmax"):
                return None  # which operand comes back, with its own type, depends on the values
            if template in CONSTRUCTORS and K.is_array(args[0].kind) and not self.has("np_cast_array"):
                return None  # np.int32(array) is an array cast
            return combine(template, args, check=True)
        if choice < 0.88 and self.has("arrays"):
            return self._array_read(readable, depth)
        if choice < 0.94 and self.has("ternary"):
            cond = self.condition(readable, depth - 1)
            left, right = sub(), sub()
            if left.kind != right.kind and not self.has("retype"):
                return None
            return Expr(f"({left.plain} if {cond.plain} else {right.plain})",
                        f"({left.checked} if {cond.checked} else {right.checked})", left.kind)
        if self.has("boolops_value"):
            left, right = sub(), sub()
            if left.kind != right.kind and not self.has("retype"):
                return None
            op = rng.choice(["and", "or"])
            return Expr(f"({left.plain} {op} {right.plain})", f"({left.checked} {op} {right.checked})", left.kind)
        return None

    def _array_read(self, readable: dict, depth: int) -> Expr | None:
        arrays = [n for n, k in readable.items() if K.is_array(k)]
        if not arrays:
            return None
        name = self.rng.choice(arrays)
        arr = Expr(name, name, readable[name])
        if self.rng.random() < 0.55:
            return self.subscript(arr, readable)
        template = self.rng.choice(REDUCTIONS)
        parts = [arr] * template.count("{}")
        if template.startswith("np.dot"):
            others = [n for n in arrays if n != name] or [name]
            other = self.rng.choice(others)
            parts = [arr, Expr(other, other, readable[other])]
        return combine(template, parts, check=True)

    def index(self, readable: dict, length_of: str) -> Expr:
        """An index into `length_of`: a small literal, an int variable, or one taken modulo the length."""
        ints = [n for n, k in readable.items() if k in K.INDEX_KINDS]
        roll = self.rng.random()
        if ints and roll < 0.45:
            name = self.rng.choice(ints)
            if self.rng.random() < 0.5:
                return Expr(name, name, readable[name])
            text = f"{name} % len({length_of})"
            return Expr(text, f"_ck({text})", readable[name])
        text = str(self.rng.randint(-3, 3))
        return Expr(text, text, "int")

    def subscript(self, arr: Expr, readable: dict) -> Expr | None:
        idx = self.index(readable, arr.plain)
        return Expr(f"{arr.plain}[{idx.plain}]", f"{arr.checked}[{idx.checked}]",
                    K.result_kind("{}[0]", (arr.kind,)))

    def condition(self, readable: dict, depth: int = 1) -> Expr:
        """A scalar truth value; with boolops_cond, sometimes two joined by and/or."""
        def one() -> Expr:
            for _ in range(8):
                made = combine("({} %s {})" % self.rng.choice(COMPARE),
                               [self.expr(readable, depth, True), self.expr(readable, depth, True)], check=False)
                if made is not None and made.kind in K.CONDITION_KINDS:
                    return made
            return Expr("True", "True", "bool")
        first = one()
        if self.has("boolops_cond") and self.rng.random() < 0.4:
            op = self.rng.choice(["and", "or"])
            second = one()
            if self.rng.random() < 0.3:
                return Expr(f"(not {first.plain} {op} {second.plain})",
                            f"(not {first.checked} {op} {second.checked})", "bool")
            return Expr(f"({first.plain} {op} {second.plain})", f"({first.checked} {op} {second.checked})",
                        "bool")
        return first

    def of_kind(self, readable: dict, kind: str) -> Expr:
        """An expression of exactly this kind: a variable, a drawn expression, or a literal."""
        names = [n for n, k in readable.items() if k == kind]
        if names and self.rng.random() < 0.5:
            name = self.rng.choice(names)
            return Expr(name, name, kind)
        for _ in range(20):
            made = self.expr(readable, 2, scalar_only=not K.is_array(kind))
            if made.kind == kind:
                return made
        if K.is_array(kind) and names:
            return Expr(names[0], names[0], kind)
        text = K.literal(self.rng, kind)
        return Expr(text, text, kind)
