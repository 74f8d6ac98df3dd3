"""Normalized instructions (py311.py, ...) -> Python `ast` statements.

A stack machine turns straight-line code into expressions; the jumps CPython's
compiler emits for if/elif/else, while (its test copied to the loop's end), for,
break/continue, `and`/`or` (in tests and in values), conditional expressions,
assert and comprehensions are matched back into those statements.  Anything
else raises NotRecovered.  Nothing here needs to be right by itself: the
caller (verify.py) recompiles the result and accepts it only when CPython
produces the same instructions, so a wrong guess costs a whole-function
fallback, never a wrong answer.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

from .stackops import _CMP_NODES, NotRecovered, StackOps, _Marker


@dataclass
class _Ctx:
    cont: int | None = None  # index a `continue` jumps to
    brk: int | None = None  # index a `break` jumps to
    item: list | None = None  # the for loop's target, once stored


_UNARY = {"UNARY_NEGATIVE": ast.USub, "UNARY_POSITIVE": ast.UAdd, "UNARY_INVERT": ast.Invert, "UNARY_NOT": ast.Not}


def _not(e):
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
        return e.operand
    return ast.UnaryOp(ast.Not(), e)


def _boolop(kind, left, right):
    values = []
    for side in (left, right):
        if isinstance(side, ast.BoolOp) and isinstance(side.op, kind) and not getattr(side, "paren", False):
            values.extend(side.values)
        else:
            values.append(side)
    node = ast.BoolOp(kind(), values)
    return node


class Decoder(StackOps):
    def __init__(self, ins: list, code, recover_nested):
        self.ins = ins
        self.code = code
        self.nested = recover_nested  # (code object, kind) -> ast for lambdas and comprehensions
        self.index = {x.offset: k for k, x in enumerate(ins)}
        self.make_def = None  # (code, name) -> ast.FunctionDef, for nested defs
        self.pending: list = []  # (target, value) of a tuple assignment until its last store

    def at(self, offset: int) -> int:
        """Index of the instruction at (or, past skipped ones, after) offset."""
        while offset not in self.index:
            offset += 2
            if offset > self.ins[-1].offset + 2:
                return len(self.ins)
        return self.index[offset]

    def fail(self, what: str, k: int):
        line = self.ins[k].line if 0 <= k < len(self.ins) else None
        raise NotRecovered(what, line)

    # ---- blocks of statements ------------------------------------------------

    def block(self, lo: int, hi: int, stack: list, ctx: _Ctx) -> list:
        out: list = []
        self.stmt_lo = lo
        k = lo
        while k < hi:
            if self._boundary(stack):
                self.stmt_lo = k
                loop_end = self._while_true_end(k, hi)
                if loop_end is not None:
                    body = self.block(k, loop_end, list(stack), _Ctx(k, loop_end + 1))
                    out.append(self._at(ast.While(ast.Constant(True), body or [ast.Pass()], []), k))
                    k = loop_end + 1
                    continue
            k = self.step(k, hi, stack, ctx, out)
        return out

    @staticmethod
    def _boundary(stack) -> bool:
        return all(isinstance(s, _Marker) and s.kind in ("loop", "acc") for s in stack)

    def _at(self, node, k):
        node.lineno = self.ins[min(k, len(self.ins) - 1)].line
        return node

    def _while_true_end(self, k: int, hi: int):
        backs = [j for j in range(k, hi) if self.ins[j].op == "JUMP" and self.at(self.ins[j].target) == k
                 and j > k]
        if not backs:
            return None
        end = max(backs)
        for j in range(end + 1, hi):  # a `while test:` loop's copied test jumps back into the body
            x = self.ins[j]
            if x.op == "JUMP_IF" and x.target is not None and k <= self.at(x.target) <= end:
                return None
        return end

    def expr_region(self, lo: int, hi: int, stack: list, ctx: _Ctx):
        """The one value code [lo, hi) leaves on the stack (no statements)."""
        inner = list(stack)
        out: list = []
        k = lo
        while k < hi:
            k = self.step(k, hi, inner, ctx, out)
        if out or len(inner) != len(stack) + 1 or any(a is not b for a, b in zip(inner, stack)):
            self.fail("expected an expression", lo)
        return inner[-1]

    # ---- one instruction (or one matched construct) -----------------------------

    def step(self, k: int, hi: int, stack: list, ctx: _Ctx, out: list) -> int:
        after = self._step(k, hi, stack, ctx, out)
        if stack and not hasattr(stack[-1], "seq"):
            stack[-1].seq = k  # the order values were built in (tuple assignments)
        return after

    def _step(self, k: int, hi: int, stack: list, ctx: _Ctx, out: list) -> int:
        x = self.ins[k]
        op = x.op
        if op == "SWAP" and x.arg == 2 and self._is_chain_link(k):
            return self.chained_compare(k, hi, stack, ctx, out)
        handler = getattr(self, "op_" + op, None)
        if handler is not None:
            handler(x, stack)
            return k + 1
        if op in _UNARY:
            stack.append(ast.UnaryOp(_UNARY[op](), stack.pop()))
            return k + 1
        if op in ("STORE_FAST", "STORE_DEREF", "STORE_GLOBAL", "STORE_SUBSCR", "STORE_ATTR"):
            self.store(x, stack, ctx, out, k)
            return k + 1
        if op == "UNPACK_SEQUENCE":
            value = stack.pop()
            group = _Marker("unpack", [value, [None] * x.arg, 0])
            for i in reversed(range(x.arg)):
                stack.append(_Marker("slot", (group, i)))
            return k + 1
        if op == "POP_TOP":
            value = stack.pop()
            if not isinstance(value, _Marker):
                out.append(self._at(ast.Expr(value), k))
            return k + 1
        if op == "RETURN_VALUE":
            value = stack.pop()
            if isinstance(value, _Marker):
                value = value.payload
            out.append(self._at(ast.Return(value), k))
            return k + 1
        if op == "RAISE_VARARGS":
            return self.raise_(x, stack, out, k)
        if op == "DELETE_SUBSCR":
            index = stack.pop()
            out.append(self._at(ast.Delete([ast.Subscript(stack.pop(), index, ast.Del())]), k))
            return k + 1
        if op == "DELETE_FAST":
            out.append(self._at(ast.Delete([ast.Name(x.arg, ast.Del())]), k))
            return k + 1
        if op == "LIST_APPEND" and x.arg == 1 and isinstance(stack[-2], ast.List):  # a long display
            stack[-2].elts.append(stack.pop())
            return k + 1
        if op in ("LIST_APPEND", "SET_ADD"):
            out.append(self._at(ast.Expr(ast.Call(ast.Name("__append__"), [stack.pop()], [])), k))
            return k + 1
        if op == "MAP_ADD":
            value = stack.pop()
            out.append(self._at(ast.Expr(ast.Call(ast.Name("__append__"), [stack.pop(), value], [])), k))
            return k + 1
        if op == "FOR_ITER":
            return self.for_loop(k, stack, ctx, out)
        if op == "JUMP_IF":
            return self.conditional(k, hi, stack, ctx, out)
        if op == "JUMP_OR_POP":
            left = stack.pop()
            end = self.at(x.target)
            if end > hi:
                self.fail("and/or across statements", k)
            right = self.expr_region(k + 1, end, stack, ctx)
            stack.append(_boolop(ast.Or if x.when else ast.And, left, right))
            return end
        if op == "JUMP":
            target = self.at(x.target)
            if target == ctx.brk:
                out.append(self._at(ast.Break(), k))
            elif target == ctx.cont:
                out.append(self._at(ast.Continue(), k))
            else:
                self.fail("a jump that is not break/continue/if/else", k)
            return k + 1
        self.fail(f"the instruction {op}", k)

    # ---- statements ----------------------------------------------------------

    def store(self, x, stack, ctx, out, k):
        op = x.op
        if op == "STORE_SUBSCR":
            index, container, value = stack.pop(), stack.pop(), stack.pop()
            target = ast.Subscript(container, index, ast.Store())
        elif op == "STORE_ATTR":
            obj, value = stack.pop(), stack.pop()
            target = ast.Attribute(obj, x.arg, ast.Store())
        else:
            value = stack.pop()
            target = ast.Name(x.arg, ast.Store())
            if op == "STORE_GLOBAL":
                raise NotRecovered("assignment to a global", x.line)
        self.assign(target, value, stack, ctx, out, k)

    def assign(self, target, value, stack, ctx, out, k):
        if isinstance(value, _Marker) and value.kind == "slot":  # one target of a, b = ...
            group, i = value.payload
            group.payload[1][i] = target
            group.payload[2] += 1
            if group.payload[2] == len(group.payload[1]):
                self.assign(ast.Tuple(group.payload[1], ast.Store()), group.payload[0], stack, ctx, out, k)
            return
        if isinstance(value, _Marker) and value.kind == "item":  # the for loop's target
            ctx.item = [target]
            return
        if isinstance(value, _Marker) and value.kind == "func" and isinstance(target, ast.Name) \
                and self.make_def is not None and value.payload.co_name == target.id:
            out.append(self._at(self.make_def(value.payload, target.id), self.stmt_lo))  # a nested def
            return
        if isinstance(value, _Marker):
            self.fail("a store of a special value", k)
        last = out[-1] if out else None
        if isinstance(last, ast.Assign) and last.value is value and not isinstance(last.targets[-1], ast.Tuple) \
                and getattr(last, "open", False):
            last.targets.append(target)  # a = b = value: COPY 1 then two stores
            return
        if isinstance(value, ast.BinOp) and getattr(value, "inplace", False):
            if ast.dump(value.left) != ast.dump(_as_load(target)):
                self.fail("an augmented assignment to another target", k)
            out.append(self._at(ast.AugAssign(target, value.op, value.right), self.stmt_lo))
            return
        pending = self.pending
        if not self._boundary(stack) and not any(v is value for v in stack):
            pending.append((target, value))  # a, b = x, y: the values are built, then stored
            return
        if pending:
            pending.append((target, value))
            pending.sort(key=lambda tv: getattr(tv[1], "seq", 0))  # target i takes the i-th value built
            node = ast.Assign([ast.Tuple([t for t, _ in pending], ast.Store())],
                              ast.Tuple([v for _, v in pending], ast.Load()))
            self.pending = []
            out.append(self._at(node, self.stmt_lo))
            return
        node = self._at(ast.Assign([target], value), self.stmt_lo)
        node.open = any(s is value for s in stack)
        out.append(node)

    def raise_(self, x, stack, out, k):
        if x.arg != 1:
            self.fail("raise without exactly one exception", k)
        exc = stack.pop()
        if isinstance(exc, _Marker) and exc.kind == "assert":
            exc = ast.Call(ast.Name("AssertionError"), [], [])
            exc.assertion = True
        out.append(self._at(ast.Raise(exc, None), k))
        return k + 1

    # ---- loops and conditions ------------------------------------------------

    def for_loop(self, k, stack, ctx, out):
        x = self.ins[k]
        it = stack.pop()
        if isinstance(it, _Marker) and it.kind == "iter":
            it = it.payload
        elif not (isinstance(it, ast.Name) and it.id == ".0"):
            self.fail("a for loop over an unknown iterator", k)
        exit_ = self.at(x.target)
        back = exit_ - 1
        if not (self.ins[back].op == "JUMP" and self.at(self.ins[back].target) == k):
            # 3.12 may place the body's last block (a return) after the jump back to the loop's head
            if self.ins[back].op not in ("RETURN_VALUE", "RAISE_VARARGS", "JUMP"):
                self.fail("a for loop with an unusual end", k)
            back = exit_
        end = self._else_end(k + 1, back, exit_)
        inner = _Ctx(k, end)
        body_stack = stack + [_Marker("loop"), _Marker("item")]
        saved_lo = self.stmt_lo
        body = self.block(k + 1, back, body_stack, inner)
        orelse = self.block(exit_, end, list(stack), ctx) if end > exit_ else []
        self.stmt_lo = saved_lo
        if inner.item is None:
            self.fail("a for loop whose target was not recovered", k)
        out.append(self._at(ast.For(inner.item[0], it, body or [ast.Pass()], orelse), self.stmt_lo))
        return end

    def _else_end(self, lo: int, hi: int, exit_: int) -> int:
        """Where a loop's `break`s go: past its else clause when it has one."""
        beyond = {self.at(x.target) for x in self.ins[lo:hi] if x.op == "JUMP" and self.at(x.target) > exit_}
        if len(beyond) > 1:
            self.fail("a loop whose breaks leave to several places", lo)
        return beyond.pop() if beyond else exit_

    def _is_chain_link(self, k: int) -> bool:
        ops = [x.op for x in self.ins[k:k + 4]]
        return ops[:3] == ["SWAP", "COPY", "COMPARE_OP"] and self.ins[k + 1].arg == 2 and len(ops) == 4 \
            and ops[3] == "JUMP_OR_POP" and self.ins[k + 3].when is False

    def chained_compare(self, k: int, hi: int, stack, ctx, out) -> int:
        """a < b < c as a value: each link compares a copy of its right operand, the
        failing link's cleanup (SWAP 2; POP_TOP) is shared at the end."""
        mid = stack.pop()
        left = stack.pop()
        ops, comparators = [], [mid]
        clean = self.at(self.ins[k + 3].target)
        ops.append(self.ins[k + 2].arg)
        j = k + 4
        while True:
            inner: list = []
            while j < hi and not self._is_chain_link(j) and not (
                    self.ins[j].op == "COMPARE_OP" and self.ins[j + 1].op in ("JUMP", "RETURN_VALUE")):
                self.step(j, hi, inner, ctx, [])
                j += 1
            if j >= hi or len(inner) != 1:
                self.fail("a chained comparison", k)
            comparators.append(inner[0])
            if self.ins[j].op == "COMPARE_OP":
                ops.append(self.ins[j].arg)
                returns = self.ins[j + 1].op == "RETURN_VALUE"  # 3.12 copies the return into both paths
                end = clean + 3 if returns else self.at(self.ins[j + 1].target)
                tail = ["SWAP", "POP_TOP", "RETURN_VALUE"] if returns else ["SWAP", "POP_TOP"]
                if [x.op for x in self.ins[clean:end]] != tail or returns and j + 2 != clean or \
                        any(self.at(self.ins[n].target) != clean for n in range(k, j)
                            if self.ins[n].op == "JUMP_OR_POP"):
                    self.fail("a chained comparison", k)
                break
            ops.append(self.ins[j + 2].arg)
            j += 4
        nodes = [ast.Compare(left, [_CMP_NODES[o]()], [c]) for o, c in zip(ops[:1], comparators[:1])]
        node = nodes[0]
        node.ops = [_CMP_NODES[o]() for o in ops]
        node.comparators = comparators
        if self.ins[end - 1].op == "RETURN_VALUE":
            out.append(self._at(ast.Return(node), k))
            return end
        stack.append(node)
        return end

    def chain(self, k: int, hi: int, first, stack, ctx):
        """The conditional jumps of one test: [(expr, when, target index, start index)]
        and the index after the last."""
        segs = [(first, self.ins[k].when, self.at(self.ins[k].target), None)]
        j = k + 1
        while j < hi:
            inner: list = []
            n = j
            try:
                while n < hi and self.ins[n].op not in ("JUMP_IF", "JUMP", "JUMP_OR_POP", "FOR_ITER",
                                                        "RETURN_VALUE", "POP_TOP", "RAISE_VARARGS") \
                        and not self.ins[n].op.startswith(("STORE", "DELETE", "UNPACK", "LIST_APPEND", "MAP_ADD",
                                                           "SET_ADD")):
                    self.step(n, hi, inner, ctx, [])
                    n += 1
            except (NotRecovered, IndexError, KeyError):
                break
            if n >= hi or self.ins[n].op != "JUMP_IF" or len(inner) != 1 or isinstance(inner[0], _Marker):
                break
            segs.append((inner[0], self.ins[n].when, self.at(self.ins[n].target), j))
            j = n + 1
        return segs, j

    def test(self, segs, label, when, fall, k):
        """The expression that jumps to `label` when its truth is `when` and
        goes on at `fall` otherwise (the inverse of the compiler's jump_if)."""
        if len(segs) == 1:
            expr, seg_when, target, _ = segs[0]
            if target != label:
                self.fail("a test with jumps into its middle", k)
            if seg_when is None or seg_when == "not None":
                is_none = (seg_when is None) == bool(when)
                return ast.Compare(expr, [ast.Is() if is_none else ast.IsNot()], [ast.Constant(None)])
            return expr if seg_when == when else _not(expr)
        starts = [s[3] for s in segs]
        for p in range(1, len(segs)):
            inside = set(starts[1:p + 1])
            if all(t in inside or t in (label, fall) for _, _, t, _ in segs[:p]):
                break
        else:
            self.fail("a test whose shape was not recovered", k)
        outside = {t for _, _, t, _ in segs[:p]} - set(starts[1:p + 1])
        if len(outside) != 1:
            self.fail("a test whose shape was not recovered", k)
        out_label = outside.pop()
        if out_label == label:
            kind = ast.Or if when else ast.And
        else:
            kind = ast.And if when else ast.Or
        group = self.test(segs[:p], out_label, when if out_label == label else not when, starts[p], k)
        rest = self.test(segs[p:], label, when, fall, k)
        return _boolop(kind, group, rest)

    def conditional(self, k, hi, stack, ctx, out):
        first = stack.pop()
        segs, after = self.chain(k, hi, first, stack, ctx)
        for n in range(len(segs), 0, -1):  # `if a: if b:` reads as `if a and b:` unless the jumps disagree
            body = segs[n][3] if n < len(segs) else after
            targets = {t for _, _, t, _ in segs[:n]} - {s[3] for s in segs[:n]} - {body}
            if len(targets) == 1:
                segs = segs[:n]
                break
        else:
            self.fail("a test with several exits", k)
        label = targets.pop()
        start = self.stmt_lo
        if label < body:  # a backward jump: `if test: continue` to the loop's head
            if label == ctx.cont and self._boundary(stack):
                out.append(self._at(ast.If(self.test(segs, label, True, body, k), [ast.Continue()], []), start))
                return body
            self.fail("a backward conditional jump", k)
        if label > hi:
            if label == ctx.brk and self._boundary(stack):
                out.append(self._at(ast.If(self.test(segs, label, True, body, k), [ast.Break()], []), start))
                return body
            self.fail("a conditional jump out of its block", k)
        last = self.ins[label - 1] if label > body else None
        # while test: ... -- the test again at the end, jumping back to the body
        if last is not None and last.op == "JUMP_IF" and self.at(last.target) == body and self._boundary(stack):
            body_end = label - (body - start)
            end = self._else_end(body, body_end, label)
            if end > hi:
                self.fail("a loop whose breaks leave its block", k)
            cond = self.test(segs, label, False, body, k)
            inner = self.block(body, body_end, list(stack), _Ctx(start, end))
            orelse = self.block(label, end, list(stack), ctx) if end > label else []
            self.stmt_lo = start
            out.append(self._at(ast.While(cond, inner or [ast.Pass()], orelse), start))
            return end
        # (a and b) or c, (a or b) and c: the inner group's test jumps, the outer keeps a value
        if last is not None and last.op == "JUMP_OR_POP" and self.at(last.target) > label:
            end = self.at(last.target)
            inner = self.expr_region(body, label - 1, stack, ctx)
            rest = self.expr_region(label, end, stack, ctx)
            inner_kind, outer_kind = (ast.And, ast.Or) if last.when else (ast.Or, ast.And)
            group = _boolop(inner_kind, self.test(segs, label, not last.when, body, k), inner)
            group.paren = True
            stack.append(_boolop(outer_kind, group, rest))
            return end
        # a if c else b
        if last is not None and last.op == "JUMP" and last.target is not None and self.at(last.target) > label:
            try:
                then = self.expr_region(body, label - 1, stack, ctx)
                end = self.at(last.target)
                other = self.expr_region(label, end, stack, ctx)
            except (NotRecovered, IndexError):
                self.stmt_lo = start
            else:
                stack.append(ast.IfExp(self.test(segs, label, False, body, k), then, other))
                return end
        if not self._boundary(stack):
            self.fail("a condition inside an expression", k)
        if self.ins[body].op == "LOAD_ASSERTION_ERROR":
            raised = self.block(body, label, list(stack), ctx)
            exc = raised[-1].exc if raised and isinstance(raised[-1], ast.Raise) else None
            if len(raised) != 1 or not getattr(exc, "assertion", False):
                self.fail("an assert statement", k)
            test = self.test(segs, label, True, body, k)
            out.append(self._at(ast.Assert(test, exc.args[0] if exc.args else None), start))
            return label
        cond = self.test(segs, label, False, body, k)
        end_else = None
        if last is not None and last.op == "JUMP" and self.at(last.target) > label \
                and self.at(last.target) != ctx.brk:
            end_else = min(self.at(last.target), hi)
        then = self.block(body, label - 1 if end_else is not None else label, list(stack), ctx)
        orelse = self.block(label, end_else, list(stack), ctx) if end_else is not None else []
        self.stmt_lo = start
        out.append(self._at(ast.If(cond, then or [ast.Pass()], orelse), start))
        return end_else if end_else is not None else label


def _as_load(target):
    if isinstance(target, ast.Name):
        return ast.Name(target.id, ast.Load())
    if isinstance(target, ast.Subscript):
        return ast.Subscript(target.value, target.slice, ast.Load())
    if isinstance(target, ast.Attribute):
        return ast.Attribute(target.value, target.attr, ast.Load())
    return target
