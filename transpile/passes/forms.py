"""Linear forms over int64 values, for bounds-check elimination
(passes/bounds.py): sum(coeff * atom) + c, exact integers.

Atoms are values read at run time: ("var", name), an int64 variable;
("shape", name, k), axis k of an array variable (0 <= shape < 2**63); and
("wrap", form), the int64 a form leaves when computed with wrap-around (a
variable assigned `n + 1` holds wrap(n + 1), which is not n + 1 when n is
INT64_MAX).  Two equal forms are the same value, so they cancel."""
from __future__ import annotations

from dataclasses import dataclass

INT64_MIN, INT64_MAX = -2 ** 63, 2 ** 63 - 1


def var_atom(name: str) -> tuple:
    return ("var", name)


def shape_atom(name: str, k: int) -> tuple:
    return ("shape", name, k)


def _key(atom) -> str:
    return repr(atom)


@dataclass(frozen=True)
class Form:
    terms: tuple = ()  # ((atom, coeff), ...) sorted by atom, coeff != 0
    c: int = 0

    @staticmethod
    def const(c: int) -> "Form":
        return Form((), c)

    @staticmethod
    def atom(atom) -> "Form":
        return Form(((atom, 1),), 0)

    def is_const(self) -> bool:
        return not self.terms

    def coeff(self, atom) -> int:
        return next((k for a, k in self.terms if a == atom), 0)

    def __add__(self, other: "Form") -> "Form":
        acc = dict(self.terms)
        for a, k in other.terms:
            acc[a] = acc.get(a, 0) + k
        terms = tuple(sorted(((a, k) for a, k in acc.items() if k), key=lambda t: _key(t[0])))
        return Form(terms, self.c + other.c)

    def scale(self, k: int) -> "Form":
        if k == 0:
            return Form.const(0)
        return Form(tuple((a, c * k) for a, c in self.terms), self.c * k)

    def __sub__(self, other: "Form") -> "Form":
        return self + other.scale(-1)

    def names(self) -> set:
        """The variables (arrays included) whose values the form reads."""
        out = set()
        for a, _ in self.terms:
            if a[0] == "wrap":
                out |= a[1].names()
            else:
                out.add(a[1])
        return out

    def range(self) -> tuple:
        lo = hi = self.c
        for a, k in self.terms:
            alo, ahi = (0, INT64_MAX) if a[0] == "shape" else (INT64_MIN, INT64_MAX)
            lo, hi = (lo + k * alo, hi + k * ahi) if k > 0 else (lo + k * ahi, hi + k * alo)
        return lo, hi

    def stored(self) -> "Form":
        """The value the form leaves in an int64: itself when it cannot wrap."""
        lo, hi = self.range()
        if lo >= INT64_MIN and hi <= INT64_MAX:
            return self
        return Form.atom(("wrap", self))
