"""Lowering of the bounds facts (passes/bounds.py): indices proven in range
are passed as tr::proven (no wrap, no check), and a loop with a run-time
guard is emitted twice, unchecked under the guard and checked otherwise."""
from __future__ import annotations

from ..hir import nodes as h
from ..passes import bounds
from ..passes.forms import INT64_MAX, INT64_MIN, Form
from .model import Line


class BoundsLowering:
    """FunctionLowerer's rules for index checks the analysis removed."""

    def setup_bounds(self) -> None:
        # without bounds checks a loop is versioned only where its guard lets a branch go (lower_speculate.py)
        self.bounds = bounds.analyse(self.tf, versioning=self.module.options.boundscheck or self.speculation_loops())
        self.in_range_now = set(self.bounds.proven)  # plus the covers of the versions being lowered
        self.versioned_now: set = set()  # For nodes whose two copies are being lowered
        self.checked_copy = 0  # > 0 inside a guard's fallback copy: lowered with every check

    def in_range(self, idx) -> bool:
        return self.kernel is None and idx in self.in_range_now

    def versioned_for(self, s: h.For, lower_loop) -> bool:
        """Emits the loop twice under its guard; False when it has none."""
        version = self.bounds.versions.get(s)
        if version is None or self.kernel is not None or self.checked_copy or s in self.versioned_now:
            return False
        guard = " && ".join(self.guard_code(d) for d in version.guard)
        self.versioned_now.add(s)
        self.emit(f"if ({guard}) {{  // every index below in range: no per-access checks")
        saved = self.in_range_now
        self.in_range_now = saved | version.covers
        self.copy(s, lower_loop)
        self.in_range_now = saved
        self.lines.append(Line(self.depth, "} else {  // an index may be out of range: checked, raises where Python does"
                               if self.module.options.boundscheck else
                               "} else {  // an index may be out of range (boundscheck=False: not checked)"))
        self.checked_copy += 1
        self.copy(s, lower_loop)
        self.checked_copy -= 1
        self.lines.append(Line(self.depth, "}"))
        self.versioned_now.discard(s)
        return True

    def copy(self, s, lower_loop) -> None:
        self.depth += 1
        self.last_line = None
        lower_loop(s)
        self.depth -= 1

    def guard_code(self, d: Form) -> str:
        """d <= 0 in C++, as `positive terms <= negative terms`, the constant on
        whichever side keeps both in int64; exact (128-bit) if neither does."""
        left = Form(tuple((a, k) for a, k in d.terms if k > 0))
        right = Form(tuple((a, -k) for a, k in d.terms if k < 0))
        for lhs, rhs in ((left + Form.const(d.c), right), (left, right - Form.const(d.c))):
            if _fits(lhs) and _fits(rhs):
                return f"{self.form_code(lhs)} <= {self.form_code(rhs)}"
        return f"{self.form_code(left + Form.const(d.c), True)} <= {self.form_code(right, True)}"

    def form_code(self, form: Form, wide: bool = False) -> str:
        """A form in C++: int64 arithmetic (as the program computes it), or 128-bit."""
        code = ""
        for atom, k in form.terms:
            term = self.atom_code(atom)
            if wide:
                term = f"__int128({term})"
            if abs(k) != 1:
                term = f"{_int(abs(k))} * {term}"
            code += term if not code and k > 0 else f" {'+' if k > 0 else '-'} {term}" if code else f"-{term}"
        if form.c or not code:
            code += _int(form.c) if not code else f" {'+' if form.c > 0 else '-'} {_int(abs(form.c))}"
        return code

    def atom_code(self, atom) -> str:
        if atom[0] == "var":
            return self.var(atom[1])
        if atom[0] == "shape":
            return f"{self.var(atom[1])}.shape[{atom[2]}]"
        return f"({self.form_code(atom[1])})"  # "wrap": int64 arithmetic, as the program computed it


def _fits(form: Form) -> bool:
    lo, hi = form.range()
    return INT64_MIN <= lo and hi <= INT64_MAX


def _int(c: int) -> str:
    return str(c) if -2 ** 31 < c < 2 ** 31 else f"int64_t({c}LL)"
