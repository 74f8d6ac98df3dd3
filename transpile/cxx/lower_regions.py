"""Lowering of JIT Fallback regions: neighbouring statements that run as
Python become one call into the bridge (`tr::call_region`), with the C++
values they read boxed in and the ones they write converted back, and the
break, continue or return that ended them carried out in C++; the region's
record (lines, inputs, outputs, exits) goes into the module for the bridge
to build the Python callable at load."""
from __future__ import annotations

from ..diagnostics import FunctionNotCompilable
from ..hir import types as T
from ..passes.exits import CODES
from . import lower_records
from .model import Line
from .names import bound_flag
from .types import ctype


class RegionLowering:
    def region(self, infos, test: str | None = None) -> set:
        """Neighbouring statements that run as Python: one callback (or an
        `if`'s test, its truth stored into the C++ bool `test`). Returns the
        names whose "assigned" flags the region sets."""
        index = len(self.module.regions)
        for info in infos:
            self.last_line = None
            self.comment(info.stmt)
            if info.quiet:
                self.lines.append(Line(self.depth, "//   runs as Python: makes the function object (calls to it "
                                                   "are compiled)"))
                continue
            self.lines.append(Line(self.depth, f"//   runs as Python (JIT Fallback): {info.reason.splitlines()[0]}"))
            self.module.fallback_report.append({
                "file": info.stmt.loc.filename, "line": info.stmt.loc.line,
                "source": info.stmt.loc.source_line.strip(), "reason": info.reason.splitlines()[0],
                "construct": info.construct, "function": self.fn.qualname})
        reads, writes, assigned = set(), set(), set()
        for info in infos:  # a name assigned before it is read inside the region needs no input
            reads |= info.reads - assigned
            writes |= info.writes if info.outputs is None else info.outputs  # values no one reads stay in Python
            assigned |= info.definite
        var_types = self.tf.var_types
        needed = reads | (writes - assigned)  # conditionally written names keep their old value
        ins = sorted(n for n in needed if n in var_types)
        outs = sorted(n for n in writes if n in var_types)
        returns = infos[-1].returns
        exits = sorted(set().union(*(i.exits for i in infos)), key=CODES.get)
        exit_code = self.tmp("exit") if exits else None
        lower_records.refuse_in_region([(n, var_types[n]) for n in ins + outs])
        boxes = []
        for n in ins:
            t = var_types[n]
            value_t = t.inner if isinstance(t, T.Optional) else t  # `best = None` until set: a Python int after
            weak = ", true" if isinstance(value_t, T.Scalar) and value_t.weak else ""
            if n in self.tf.path_types.tagged:  # a Python float or an np.float64 by path: its flag says which
                weak = f", {self.weak_flag_of(n)}"
            if isinstance(t, T.Array) and t.readonly:  # handed to Python read-only, as NumPy made it
                weak = ", true"
            if isinstance(t, (T.Dict, T.Set, T.Tuple)):  # fallback code reads a copy (a new Python dict/set/tuple)
                try:
                    boxes.append(f"tr::box({self.py_object(t, self.var(n))})")
                except TypeError as exc:  # lower_dicts.to_py: e.g. a tuple of compiled function values
                    raise FunctionNotCompilable(f"a statement that runs as Python reads '{n}': {exc}",
                                                infos[0].stmt.loc, "the whole function runs in CPython") from None
                continue
            boxes.append(f"tr::box({self.var(n)}{weak})")
        # inputs that may be unassigned: the region deletes them first, so Python raises
        # UnboundLocalError if (and where) the statement reads one (passes/unbound.py)
        unbound = sorted({n for info in infos for s_, n in self.unbound.region_reads if s_ is info.stmt} & set(ins))
        boxes += [f"tr::box({bound_flag(self.var(n))}, true)" for n in unbound]
        still_unbound = [n for n in unbound if n in outs]  # the region may leave them unassigned: it says so
        if "return" in exits:  # a return hands the variables back as they came in: an unassigned instance cannot
            for n in still_unbound:
                if any(isinstance(x, T.Instance) for x in T.leaves(var_types[n])):
                    raise FunctionNotCompilable(f"'{n}' may be an unassigned @jit_class instance where a statement "
                                                "that may return runs as Python", infos[0].stmt.loc,
                                                "the whole function runs in CPython")
        targets = [self.var(n) for n in outs] + [bound_flag(self.var(n)) for n in still_unbound] + ([test] if test else [])
        if exit_code:
            self.emit(f"int64_t {exit_code} = 0;")
            targets.append(exit_code)
        ret = None
        if returns or any(i.return_value for i in infos):
            ret = self.tmp("ret")
            self.emit(f"{ctype(self.tf.return_type)} {ret}{{}};")
            targets.append(ret)
        self.emit("{")
        self.depth += 1
        if boxes:
            self.emit(f"tr_value tr_in[] = {{{', '.join(boxes)}}};")
        self.emit(f"tr::call_region({index}, std::tie({', '.join(targets)}), {'tr_in' if boxes else 'nullptr'}, "
                  f"{len(boxes)});")
        self.depth -= 1
        self.emit("}")
        if not returns:
            self.read_live_globals()  # Python code may have rebound them
        if exits:
            self.carry_exits(exits, exit_code, ret)
        if returns:
            self.emit(f"return {ret};")
        self.module.regions.append({
            "module": self.tf.pyfunc.__module__, "qualname": self.tf.pyfunc.__qualname__,
            "filename": self.fn.filename, "name": self.fn.name,
            "statements": [[i.stmt.loc.line, i.stmt.loc.col, i.stmt.loc.end_line, i.stmt.loc.end_col]
                           for i in infos],
            "returns": [i.stmt.loc.line for i in infos if i.returns],
            "ins": ins,
            "unbound": unbound,  # each followed in the inputs by whether it is assigned
            "outs": [[n, str(var_types[n]), str(self.declared(infos, n))] for n in outs]
            + [[f"__tr_bound_{n}", "bool", "None"] for n in still_unbound]
            + ([["__tr_test", "bool", "None"]] if test else [])
            + ([["__tr_exit", "int64", "None"]] if exits else [])
            + ([["__tr_return", str(self.tf.return_type), str(infos[-1].declared if returns else None)]]
               if ret else []),
            "test": bool(test),
            "exits": exits,
            "declared_by": "objmode" if any(i.declared_names for i in infos) else "@jit.typing",
        })
        return set(still_unbound)

    def carry_exits(self, exits, exit_code: str, ret) -> None:
        """The region's statements ended by a break, continue or return
        (passes/exits.py): compiled code does the same."""
        self.lines.append(Line(self.depth, f"//   where Python left it by {' / '.join(exits)}, so does compiled code"))
        for kind in exits:
            self.emit(f"if ({exit_code} == {CODES[kind]}) {{")
            self.depth += 1
            if kind == "break":
                self.s_Break(None)
            elif kind == "continue":
                self.s_Continue(None)
            else:
                self.emit(f"return {ret or self.none_result()};")
            self.depth -= 1
            self.emit("}")

    @staticmethod
    def declared(infos, name):
        for info in reversed(infos):
            if name in info.writes and info.declared_for(name) is not None:
                return info.declared_for(name)
        return None
