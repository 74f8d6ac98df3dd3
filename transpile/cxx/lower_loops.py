"""Lowering of loops: while, for over ranges, arrays, containers and generators, break/continue/else, and Ctrl-C polls."""
from __future__ import annotations

from ..hir import nodes as h
from ..hir import types as T
from ..library import lookup_iteration
from ..library.builtins_lib import range_parts
from ..passes.hir_walk import nested_blocks
from ..passes.records import element_type
from . import lower_records
from .model import CExpr, Line
from .reductions import HEADER as REDUCTIONS_HEADER, in_order_sums
from .types import ctype


INTERRUPT_HEADER = "transpile_rt/interrupt.hpp"


class LoopLowering:
    """FunctionLowerer's rules for loops and what they iterate."""

    def s_Break(self, s):
        flag = self.loop_flags[-1] if self.loop_flags else None
        if flag:
            self.emit(f"{flag} = true;")
        self.emit("break;")

    def s_Continue(self, s):
        # At the top of a prange body, the iteration is a call of the kernel's operator().
        self.emit("return;" if self.kernel is not None and not self.loop_flags else "continue;")

    def loop_flag(self, has_else: bool):
        if not has_else:
            return None
        flag = self.tmp("broke")
        self.emit(f"bool {flag} = false;")
        return flag

    def finish_loop(self, flag, orelse):
        if flag:
            self.nested(f"if (!{flag}) {{", orelse)

    def s_While(self, s: h.While):
        flag = self.loop_flag(bool(s.orelse))
        self.loop_flags.append(flag)
        test = self.condition(s.test)
        if self.pre:
            # The condition needed helper statements: re-run them every iteration.
            pre, self.pre = self.pre, []
            self.emit("while (true) {")
            self.depth += 1
            for p in pre:
                self.emit(p)
            self.emit(f"if (!{test}) break;")
            self.poll_interrupt(s)
            self.block(s.body)
            self.depth -= 1
            self.lines.append(Line(self.depth, "}"))
        else:
            self.emit(f"while {test} {{")
            self.depth += 1
            self.poll_interrupt(s)
            self.block(s.body)
            self.depth -= 1
            self.lines.append(Line(self.depth, "}"))
        self.loop_flags.pop()
        self.finish_loop(flag, s.orelse)

    def poll_interrupt(self, loop) -> None:
        """Ctrl-C is looked for, on the host only (interrupt.hpp), in every
        loop that may never end -- a `while` loop, or a `for` over a list,
        which the body may lengthen -- however deep, since no poll outside it
        runs while it spins; and in the outermost loops that hold other
        loops, so a long nest answers soon.  Not in a `for` over a range or
        an array inside another loop: those end, a check made tight ones 2-3x
        slower, and it would keep them from vectorizing."""
        if self.kernel:
            return
        if not _polls(loop, self.tf.loops, outermost=len(self.loop_flags) == 1):
            return
        self.module.include(INTERRUPT_HEADER)
        # the error's line is the loop's, set only when it is raised: the body's line
        # numbers need not be kept current on the way round (interrupt.hpp)
        self.emit(f"TR_POLL_INTERRUPT(tr_line = {loop.loc.line});" if self.track_lines else "TR_POLL_INTERRUPT();")

    def s_For(self, s: h.For):
        it = self.tf.loops[s]
        if isinstance(it, T.Tuple) and not it.items:  # its body never runs (passes/infer_statements.py)
            self.emit(f"(void)({self.expr(s.iter).code});  // a loop over an empty tuple")
            self.block(s.orelse)
            return
        loop = self.tf.parallel.get(s)
        if loop is not None:
            if loop.sequential is None:
                from .lower_parallel import parallel_for

                return parallel_for(self, s)
            self.emit(f"// prange loop run in order: {loop.sequential}")
        elif self.versioned_for(s, self.s_For):
            return
        first_record = len(self.module.fallback_report)
        flag = self.loop_flag(bool(s.orelse))
        self.loop_flags.append(flag)
        it = self.tf.loops[s]
        header, elems = self.iteration(s.iter, it)
        self.emit(header)
        self.depth += 1
        self.poll_interrupt(s)
        self.bind_loop_target(s.target, elems, it)
        self.block(s.body)
        if self.module.options.backend == "cpu" and self.kernel is None:
            for name in in_order_sums(self.tf, s):  # scalar: a vectorized in-order sum is slower (reductions.py)
                self.module.include(REDUCTIONS_HEADER)
                self.emit(f"TR_IN_ORDER({self.var(name)});")
        self.depth -= 1
        self.lines.append(Line(self.depth, "}"))
        self.loop_flags.pop()
        if loop is not None:  # the fallback report says why the prange loop is not parallel
            for record in self.module.fallback_report[first_record:]:
                record["reason"] += f" (so the prange loop at line {s.loc.line} runs in order)"
        self.finish_loop(flag, s.orelse)

    def bind_loop_target(self, target, elem, it):
        self.bind_elems(target, elem, self.program_elem_type(it))

    def bind_elems(self, target, elem, elem_t):
        """elem: code, or a list of codes (nested for enumerate(zip(...)))."""
        if isinstance(target, h.TupleExpr) and isinstance(elem, list):
            for sub, code, t in zip(target.elts, elem, elem_t.items):
                self.bind_elems(sub, code, t)
        elif isinstance(elem, list):
            self.assign_target(target, CExpr(self.pack_elems(elem, elem_t)), elem_t)
        else:
            self.assign_target(target, CExpr(elem) if isinstance(elem, str) else elem, elem_t)

    def pack_elems(self, elem, t) -> str:
        if isinstance(elem, list):
            return f"{ctype(t)}({', '.join(self.pack_elems(c, it) for c, it in zip(elem, t.items))})"
        return self.convert(CExpr(elem), t, t)

    def reduce_generator(self, kind: str, gen: h.GenExp, result, start_node) -> CExpr:
        """sum/min/max/any/all of a generator expression: a loop emitted before
        the statement (through self.pre, so while-conditions re-run it)."""
        acc = self.tmp("acc")
        rt = ctype(result)
        saved = self.lines, self.depth, self.pre
        self.lines, self.depth, self.pre = [], 0, []
        if kind == "sum":
            start = "0" if start_node is None else self.expr(start_node).code
            self.emit(f"{rt} {acc} = tr::cast<{rt}>({start});")
        elif kind in ("any", "all"):
            self.emit(f"bool {acc} = {'false' if kind == 'any' else 'true'};")
        else:
            self.emit(f"{rt} {acc}{{}};")
            self.emit(f"bool {acc}_seen = false;")
        it = self.tf.loops[gen]
        header, elems = self.iteration(gen.iter, it)
        self.emit(header)
        self.depth += 1
        self.bind_loop_target(gen.target, elems, it)
        for cond in gen.conds:
            self.emit(f"if (!{self.condition(cond)}) continue;")
        elt_t = self.type_of(gen.elt) if gen.elt not in self.tf.coerce else T.FLOAT
        elt = self.expr(gen.elt).code
        if kind == "sum":
            self.emit(f"{acc} = tr::cast<{rt}>({acc} + tr::cast<{rt}>({elt}));")
        elif kind == "any":
            self.emit(f"if (tr::truthy({elt})) {{ {acc} = true; break; }}")
        elif kind == "all":
            self.emit(f"if (!tr::truthy({elt})) {{ {acc} = false; break; }}")
        else:
            op = "<" if kind == "min" else ">"
            self.emit(f"{{ {rt} v = tr::cast<{rt}>({elt}); "
                      f"if (!{acc}_seen || v {op} {acc}) {{ {acc} = v; {acc}_seen = true; }} }}")
        _ = elt_t
        self.depth -= 1
        self.lines.append(Line(self.depth, "}"))
        if kind in ("min", "max"):
            self.emit(f'if (!{acc}_seen) tr::raise(TR_ERR_VALUE, {"TR_MSG_MAX_EMPTY" if kind == "max" else "TR_MSG_MIN_EMPTY"});')
        body = self.lines
        self.lines, self.depth, self.pre = saved
        self.pre.extend("    " * line.indent + line.text for line in body)
        return CExpr(acc)

    def program_elem_type(self, it):
        if isinstance(it, T.LibIter):
            return it.elem
        if isinstance(it, (T.Dict, T.Set, T.DictView, T.IterTools)):
            return self.dict_elem_type(it)
        if isinstance(it, T.List):
            return it.elem
        if isinstance(it, T.Range):
            return T.INT
        if it == T.STR:  # its code points
            return T.STR
        if isinstance(it, T.RecordArray):
            return element_type(it)
        if isinstance(it, T.Array):
            return it.scalar if it.ndim == 1 else T.Array(it.dtype, it.ndim - 1, "C" if it.layout == "C" else "A",
                                                          it.readonly)
        if isinstance(it, T.Enumerate):
            return T.Tuple((T.INT, self.program_elem_type(it.inner)))
        if isinstance(it, T.Zip):
            return T.Tuple(tuple(self.program_elem_type(t) for t in it.inners))
        return it.homogeneous

    def iteration(self, node, it):
        """(loop header, element code or list of codes for enumerate/zip)."""
        if isinstance(it, T.LibIter):  # a library cursor (numpy/iteration.hpp): begin() / next()
            cursor, ok = self.hoist(self.expr(node).code), self.tmp("ok")
            return (f"for (bool {ok} = {cursor}.begin(); {ok}; {ok} = {cursor}.next()) {{",
                    lookup_iteration(it.kind).element(self, cursor, it))
        if isinstance(it, (T.Dict, T.Set, T.DictView, T.IterTools)):
            return self.dict_iteration(node, it)
        counter = self.tmp("i")
        length, elem = self.iterable(node, it, counter)
        if isinstance(it, T.Range):
            return length, elem
        return f"for (int64_t {counter} = 0; {counter} < {length}; ++{counter}) {{", elem

    def iterable(self, node, it, counter):
        """For a range: (full for-header, element); otherwise (length code, element code(s))."""
        if isinstance(it, T.List):
            return self.list_iterable(node, it, counter)
        if isinstance(it, T.Range):
            start, stop, step = range_parts([f"int64_t({self.expr(a).code})" for a in node.args])
            const_step = None
            if len(node.args) == 3:
                from ..library.base import NOT_CONST
                c = _const_int(node.args[2])
                const_step = c if c is not NOT_CONST else None
            else:
                const_step = 1
            stop = self.hoist(stop)
            if const_step in (1, -1):  # the counter stops at stop: it cannot wrap
                cond = f"{counter} < {stop}" if const_step > 0 else f"{counter} > {stop}"
                return f"for (int64_t {counter} = {start}; {cond}; {counter} += {step}) {{", counter
            # Other steps go through a trip count (computed in 128 bits): a counter
            # stepping past INT64_MAX would wrap and never end the loop.
            start, step = self.hoist(start), self.hoist(step)
            count = self.hoist(f"tr::range_len({start}, {stop}, {step})")
            return (f"for (int64_t {counter} = 0; {counter} < {count}; ++{counter}) {{",
                    f"({start} + {counter} * {step})")
        if isinstance(it, T.RecordArray):
            return lower_records.iterable(self, node, it, counter)
        if isinstance(it, T.Array):
            arr = self.hoist(self.ev(self.expr(node)))
            if it.ndim == 1:
                return f"{arr}.shape[0]", f"{arr}.data[{counter} * {arr}.stride(0)]"
            elem_t = self.program_elem_type(it)
            return f"{arr}.shape[0]", f"tr::row<{ctype(elem_t)}>({arr}, {counter})"
        if isinstance(it, T.Tuple):
            tup = self.hoist(self.expr(node).code)
            return str(len(it.items)), f"tr::tuple_get({tup}, {counter})"
        if it == T.STR:  # its code points, read in order
            self.module.include("transpile_rt/str_methods.hpp")
            chars = self.hoist(f"tr::StrChars({self.expr(node).code})")
            return f"{chars}.n", f"{chars}[{counter}]"
        if isinstance(it, T.Enumerate):
            inner_node = node.args[0]
            start = "0"
            start_node = node.args[1] if len(node.args) > 1 else next(
                (k.value for k in node.keywords if k.name == "start"), None)
            if start_node is not None:
                start = self.hoist(f"int64_t({self.expr(start_node).code})")
            length, elem = self._sub_iterable(inner_node, it.inner, counter)
            return length, [f"({start} + {counter})", elem]
        if isinstance(it, T.Zip):
            lengths, elems = [], []
            for sub_node, sub_t in zip(node.args, it.inners):
                length, elem = self._sub_iterable(sub_node, sub_t, counter)
                lengths.append(length)
                elems.append(elem)
            total = lengths[0]
            for other in lengths[1:]:
                total = f"tr::imin({total}, {other})"
            return self.hoist(total), elems
        raise NotImplementedError(f"iteration over {it}")

    def _sub_iterable(self, node, it, counter):
        if isinstance(it, T.Range):
            start, stop, step = range_parts([f"int64_t({self.expr(a).code})" for a in node.args])
            start, stop, step = self.hoist(start), self.hoist(stop), self.hoist(step)
            return f"tr::range_len({start}, {stop}, {step})", f"({start} + {counter} * {step})"
        length, elem = self.iterable(node, it, counter)
        return length, elem


def _polls(loop, loops: dict, outermost: bool) -> bool:
    """Whether this loop looks for Ctrl-C (poll_interrupt): one that may never
    end (a `while`, a `for` over a list), or an outermost one holding loops."""
    endless = isinstance(loop, h.While) or isinstance(loops.get(loop), T.List)
    return endless or outermost and _holds_loop(loop.body)


def polls(stmts, loops: dict, outermost: bool = True) -> bool:
    """Whether a loop among these statements looks for Ctrl-C (the function
    then declares the poll counter)."""
    for s in stmts:
        is_loop = isinstance(s, (h.For, h.While))
        if is_loop and _polls(s, loops, outermost):
            return True
        if any(polls(block, loops, outermost and not is_loop) for block in nested_blocks(s)):
            return True
    return False


def _holds_loop(stmts) -> bool:
    return any(isinstance(s, (h.For, h.While)) or _holds_loop(getattr(s, "body", ())) or
               _holds_loop(getattr(s, "orelse", ())) for s in stmts)


def _const_int(node):
    from ..library.base import NOT_CONST

    if isinstance(node, h.Const) and isinstance(node.value, int):
        return node.value
    if isinstance(node, h.UnaryOp) and node.op == "-" and isinstance(node.operand, h.Const):
        return -node.operand.value
    return NOT_CONST
