"""Lowering of statements other than loops: assignments and their targets, augmented assignment, return, assert, del, raise, if."""
from __future__ import annotations

import json
from ..hir import nodes as h
from ..hir import types as T
from ..library import lookup_iteration
from ..passes.raise_codes import RAISE_CODES
from ..passes.trys import protected
from .model import CExpr, Line
from .names import alt_slot, kind_slot
from .order import in_order, needs_order
from .stores import checked, needs_check
from .types import ctype
from . import lower_records


class StatementLowering:
    """FunctionLowerer's rules for statements (s_<Node>) other than loops."""

    def s_Pass(self, s):
        pass

    def s_ExprStmt(self, s):
        if isinstance(s.value, h.Const):
            return
        self.emit(f"(void)({self.expr(s.value).code});")

    def s_Assign(self, s: h.Assign):
        if isinstance(s.value, h.Lambda):
            return self.local_lambda(s)
        if len(s.targets) == 1 and s.targets[0] in self.tf.calls:  # obj.prop = v: the property's setter
            _, key, sources = self.tf.calls[s.targets[0]]
            self.emit(f"(void)({self.call_jit(s.targets[0], key, sources).code});")
            return
        value = self.expr(s.value)
        vt = self.type_of(s.value)
        if len(s.targets) == 1 and isinstance(s.targets[0], h.Name):
            dynamic = self.tf.path_types and s.targets[0] in self.tf.path_types.dynamic \
                and s.targets[0].id in self.tf.path_types.tagged  # a flag kept only where it is read
            weak = None
            if dynamic and isinstance(s.value, h.Call) and s.value not in self.tf.path_types.weak_calls:
                # the callee's flag, read right after the call
                value = CExpr(self.hoist(value.code))
                weak = self.hoist(self.callee_flag(s.value))
            elif dynamic:
                if self.reads_caught_flag(s.value):  # first: a call in it sets the flag its flag is made of
                    value = CExpr(self.hoist(value.code))
                weak = self.hoist(self.weak_code(s.value))
            self.assign_name(s.targets[0].id, value, vt, weak)
            return
        if len(s.targets) == 1 and isinstance(s.targets[0], h.Subscript):
            # tr::assign copes with overlap, so the value stays lazy (fused).
            self.store_subscript(s.targets[0], value, vt)
            return
        src = self.hoist(self.ev(value) if isinstance(vt, T.Array) else value.code)
        dynamic = self.tf.path_types.dynamic if self.tf.path_types else {}
        if len(s.targets) == 1 and isinstance(s.targets[0], h.TupleExpr) and any(
                e in dynamic for e in s.targets[0].elts):  # items of a callee's tuple, or of a display, with flags
            if isinstance(s.value, h.TupleExpr):  # `a, b = x, y`: every flag copied before any is set
                copies = {i: self.tmp("weak") for i, e in enumerate(s.targets[0].elts) if e in dynamic}
                self.pre += [f"bool {f} = {self.weak_code(s.value.elts[i])};" for i, f in copies.items()]
                flag = copies.get
            else:
                bits = self.hoist("tr::ret_weak_bits()")
                flag = lambda i: self.call_flag(  # noqa: E731 - the callee's flag for item i
                    s.value, lambda f: f"((({bits}) >> {i}) & 1)" if f.path_types and i in f.path_types.weak_items
                    else ("true" if f.return_type.items[i].weak else "false"))
            for i, (sub, it) in enumerate(zip(s.targets[0].elts, vt.items)):
                if sub in dynamic:
                    self.assign_name(sub.id, CExpr(f"std::get<{i}>({src})"), it, flag(i))
                else:
                    self.assign_target(sub, CExpr(f"std::get<{i}>({src})"), it)
            return
        for target in s.targets:
            self.assign_target(target, CExpr(src), vt)

    def assign_name(self, name, value: CExpr, vt, weak: str | None = None):
        dst_t = self.tf.var_types[name]
        alts = self.tf.path_types.boxed.get(name) if self.tf.path_types and not self.kernel else None
        if alts:  # the value is kept in the slot of its own type too (passes/paths.py; kernels: lower_parallel)
            kind = alts.index(vt) if vt in alts else -1
            if kind >= 0:
                slot = alt_slot(self.var(name), kind)
                self.emit(f"{slot} = {value.code};")
                value = CExpr(slot)
            self.emit(f"{kind_slot(self.var(name))} = {kind};")
        self.emit(f"{self.var(name)} = {self.convert(value, vt, dst_t)};")
        self.mark_bound(name)
        self.set_weak_flag(name, vt, weak)

    def assign_target(self, target, value: CExpr, vt):
        if isinstance(target, h.Name):
            self.assign_name(target.id, value, vt)
        elif isinstance(target, h.Attribute):
            self.emit(f"{self.field_ref(target)} = tr::kept({self.convert(value, vt, self.type_of(target))});")
        elif isinstance(target, h.TupleExpr):
            src = self.hoist(value.code)
            for i, (sub, it) in enumerate(zip(target.elts, vt.items)):
                self.assign_target(sub, CExpr(f"std::get<{i}>({src})"), it)
        else:
            self.store_subscript(target, value, vt)

    def store_subscript(self, target: h.Subscript, value: CExpr, vt):
        info = self.tf.subscripts[target]
        if info.kind == "dict":
            return self.dict_store(target, value, vt)
        if info.kind.startswith("list_"):
            return self.list_store(target, value, vt, info)
        if info.kind == "lib":  # a.flat[i] = v
            it = self.type_of(target.value)
            obj = self.expr(target.value).code
            idx = [self.expr(i).code for i in target.index]
            self.emit(lookup_iteration(it.kind).set_code(self, obj, idx, value.code, it))
            return
        if info.kind.startswith("record_"):
            return lower_records.store(self, target, value, vt, info)
        if info.readonly_write:
            self.emit("tr::readonly_error();")
            return
        arr = self.ev(self.expr(target.value))
        dst = info.result.dtype if isinstance(info.result, (T.Scalar, T.Array)) else None
        if dst and needs_check(vt, dst, value.code, info.kind):  # a number NumPy may refuse (cxx/stores.py)
            if info.kind == "element":  # NumPy checks the index first
                idx = ", ".join(self.index_code(i, p) for i, p in zip(target.index, info.parts))
                ref, v = self.tmp("ref"), self.hoist(value.code)
                self.emit(f"{{ auto &{ref} = tr::at({arr}{', ' if idx else ''}{idx}); "
                          f"{ref} = {checked(self, v, vt, dst)}; }}")
                return
            value = CExpr(self.hoist(checked(self, value.code, vt, dst)))
        if info.kind == "mask":
            self.emit(f"tr::mask_set({arr}, {self.ev(self.expr(target.index[0]))}, {value.code});")
            return
        idx = ", ".join(self.index_code(i, p) for i, p in zip(target.index, info.parts))
        if info.kind == "fancy":
            self.module.include("transpile_rt/fancy.hpp")
            self.emit(f"tr::fancy_set({arr}, {value.code}, {idx});")
            return
        if info.kind == "element":
            self.emit(f"tr::at({arr}{', ' if idx else ''}{idx}) = tr::cast<{self.elem(info.result.dtype)}>({value.code});")
        else:
            self.emit(f"tr::assign(tr::view<{ctype(info.result)}>({arr}{', ' if idx else ''}{idx}), {value.code});")

    def s_AugAssign(self, s: h.AugAssign):
        ops = self.tf.ops[s]
        if self.is_dict_augassign(s):
            return self.dict_augassign(s)
        if isinstance(ops, tuple) and ops and ops[0] == "list":
            return self.list_augassign(s)
        target = s.target
        tt = self.type_of(target)
        vt = self.type_of(s.value)
        value = self.expr(s.value)
        if isinstance(target, (h.Name, h.Attribute)):
            check = self.check_bound(target) if isinstance(target, h.Name) else None
            if check:  # v += 1 reads v first
                self.emit(f"{check};")
            name = self.var(target.id) if isinstance(target, h.Name) else self.field_ref(target)
            cur, cur_t = CExpr(name), tt
            if isinstance(target, h.Name) and isinstance(self.tf.var_types[target.id], T.Optional):
                from .lower_optional import coerced  # checked: None += 1 raises CPython's TypeError

                cur, tt = coerced(self, target, cur) or cur, self.tf.var_types[target.id]
            if isinstance(cur_t, T.Array):
                expr = self.binop(s.op, ops, cur, cur_t, value, vt)
                self.emit(f"tr::assign({cur.code}, {expr.code});")
            else:
                expr = self.binop(s.op, ops, cur, cur_t, value, vt)
                if isinstance(target, h.Name):
                    weak = None
                    if self.tf.path_types and target in self.tf.path_types.dynamic \
                            and target.id in self.tf.path_types.tagged:
                        weak = self.hoist(f"({self.weak_code(target)} && {self.weak_code(s.value)})")
                    self.assign_name(target.id, expr, ops.result, weak)
                else:
                    self.emit(f"{name} = {self.convert(expr, ops.result, tt)};")
            return
        info = self.tf.subscripts[target]
        if info.kind.startswith("list_"):
            return self.list_aug_item(s, info)
        if info.kind.startswith("record_"):
            return lower_records.augassign(self, s, info, ops, value, vt)
        if info.readonly_write:
            self.emit("tr::readonly_error();")
            return
        arr = self.hoist(self.ev(self.expr(target.value)))
        idx = "" if info.kind == "mask" else ", ".join(self.index_code(i, p) for i, p in zip(target.index, info.parts))
        if info.kind == "element" and self.kernel is not None and s in self.kernel.atomic:
            from .lower_parallel import atomic_update

            atomic_update(self, s, arr, idx, ops, info, value, vt)
        elif info.kind == "element":
            ref = self.tmp("ref")
            self.emit(f"{{ auto &{ref} = tr::at({arr}{', ' if idx else ''}{idx});")
            expr = self.binop(s.op, ops, CExpr(ref), info.result, value, vt)
            dst = info.result.dtype
            stored = checked(self, expr.code, ops.result, dst) if needs_check(ops.result, dst, expr.code, "element") \
                else f"tr::cast<{self.elem(dst)}>({expr.code})"
            self.lines.append(Line(self.depth + 1, f"{ref} = {stored}; }}"))
        elif info.kind == "fancy":
            self.module.include("transpile_rt/fancy.hpp")
            idx = ", ".join(self.hoist(self.index_code(i, p)) if p in ("fancy", "mask") else self.index_code(i, p)
                            for i, p in zip(target.index, info.parts))
            cur = CExpr(f"tr::fancy_get<{ctype(info.result)}>({arr}, {idx})")
            expr = self.binop(s.op, ops, cur, info.result, value, vt)
            self.emit(f"tr::fancy_set({arr}, {expr.code}, {idx});")
        elif info.kind == "view":
            view = self.hoist(f"tr::view<{ctype(info.result)}>({arr}, {idx})")
            expr = self.binop(s.op, ops, CExpr(view), info.result, value, vt)
            self.emit(f"tr::assign({view}, {expr.code});")
        else:
            mask = self.hoist(self.ev(self.expr(target.index[0])))
            cur = CExpr(f"tr::mask_get({arr}, {mask})")
            expr = self.binop(s.op, ops, cur, info.result, value, vt)
            self.emit(f"tr::mask_set({arr}, {mask}, {expr.code});")

    def s_Return(self, s: h.Return):
        if s.value is None:
            self.emit(f"return {self.none_result()};")
            return
        value = self.expr(s.value)
        if self.tf.path_types and self.tf.path_types.boxes_returns:
            return self.boxed_return(s, value)
        code = self.convert(value, self.type_of(s.value), self.tf.return_type)
        items = self.tf.path_types.weak_items if self.tf.path_types else ()
        if items and isinstance(s.value, h.TupleExpr):  # which items are Python numbers here
            bits = " | ".join(f"(uint64_t({self.weak_code(s.value.elts[i])}) << {i})" for i in sorted(items))
            self.emit(f"{{ auto tr_ret = {code}; tr::ret_weak_bits() = {bits}; return tr_ret; }}")
            return
        if self.tf.weak_returns:  # which Python type CPython returns here (passes/returns.py)
            from ..passes.returns import site_flag

            flag = site_flag(self, s)
            if flag:
                self.emit(f"{{ auto tr_ret = {code}; {flag} return tr_ret; }}")
                return
        self.emit(f"return {code};")

    def none_result(self) -> str:
        """The function's result None: a Python object when results are boxed."""
        if self.tf.return_type != T.ANY:
            return "tr::none_t{}"
        from .lower_dicts import H_TOPY

        self.module.include(H_TOPY)
        self.module.needs_host = True
        return "tr::topy::one(tr::none_t{})"

    def boxed_return(self, s: h.Return, value: CExpr):
        """Return sites of different types: each gives a Python object of its
        own type (passes/paths.py); a tuple is built item by item."""
        from .lower_dicts import H_TOPY

        self.module.include(H_TOPY)
        self.module.needs_host = True
        def code(node, x):  # an array expression is evaluated before it is boxed
            return self.ev(x) if isinstance(self.type_of(node), T.Array) else x.code

        if isinstance(s.value, h.TupleExpr):
            elts = s.value.elts
            codes = [CExpr(code(e, self.expr(e))) for e in elts]

            def build(cs):
                return CExpr(f"tr::topy::tuple({', '.join(self.boxed_value(e, c.code) for e, c in zip(elts, cs))})")
            # C++ leaves the order of a call's arguments open; an array item is computed before it is boxed
            first = needs_order(self, list(elts), arrays_computed=True)
            self.emit(f"return {(in_order(self, codes, first, build, elts) if first else build(codes)).code};")
        else:
            self.emit(f"return {self.boxed_value(s.value, code(s.value, value))};")

    def boxed_value(self, node, code: str) -> str:
        """A tr::Object for the value of node with the type it has on this
        path (a variable's flag or kind says which, passes/paths.py)."""
        from .lower_dicts import to_py

        name = node.id if isinstance(node, h.Name) else None
        if name in self.tf.path_types.tagged or node in self.tf.path_types.weak_exprs \
                or node in self.tf.path_types.weak_calls or node in self.tf.path_types.weak_choices:
            if self.reads_caught_flag(node):  # the value first: a call in it sets the flag read after it
                return f"([&]() {{ {ctype(self.type_of(node))} tr_v = {code}; " \
                       f"return tr::topy::one(tr_v, {self.weak_code(node)}); }}())"
            return f"tr::topy::one({ctype(self.type_of(node))}({code}), {self.weak_code(node)})"
        out = to_py(self.type_of(node), code)
        for i, alt in reversed(list(enumerate(self.tf.path_types.boxed.get(name, ())))):
            out = f"({kind_slot(self.var(name))} == {i} ? {to_py(alt, alt_slot(self.var(name), i))} : {out})"
        return out

    def s_Assert(self, s: h.Assert):
        test = self.expr(s.test).code
        if s.msg is not None and not (isinstance(s.msg, h.Const) and isinstance(s.msg.value, str)):
            # the message is evaluated only when the assertion fails, as CPython does; its str() is the text
            self.emit(f"if (!tr::truthy({test})) {{")
            self.depth += 1
            code = self.expr(s.msg).code
            self.use_str()
            self.raise_text("TR_ERR_ASSERTION", code if self.type_of(s.msg) == T.STR else f"tr::str_of({code})")
            self.depth -= 1
            self.emit("}")
            return
        msg = ""
        if s.msg is not None and isinstance(s.msg, h.Const) and isinstance(s.msg.value, str):
            msg = s.msg.value
        text = msg.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("%", "%%")
        self.emit(f'if (!tr::truthy({test})) tr::raise(TR_ERR_ASSERTION, "{text}");' if text else
                  f'if (!tr::truthy({test})) tr::raise(TR_ERR_ASSERTION, "%s", "");')

    def s_Delete(self, s: h.Delete):
        for target in s.targets:  # left to right, as CPython deletes them
            base_t = self.type_of(target.value)
            base = self.expr(target.value).code
            index = self.expr(target.index[0]).code
            if isinstance(base_t, T.List):
                self.use_lists()
                self.emit(f"tr::list_del({base}, int64_t({index}));")
            else:
                self.use_dict()
                key = self.convert(CExpr(index), self.type_of(target.index[0]), base_t.key)
                self.emit(f"(void){base}.pop({key});  // KeyError(key) when missing, as CPython")

    def s_Raise(self, s: h.Raise):
        exc = s.exc
        code = RAISE_CODES[self.tf.consts[s]]
        if isinstance(exc, h.Call) and exc.args and not isinstance(exc.args[0], h.Const):
            self.raise_text(code, self.expr(exc.args[0]).code)  # a message computed when it runs
            return
        msg = exc.args[0].value if isinstance(exc, h.Call) and exc.args else ""
        self.emit(f'tr::raise({code}, "%s", {json.dumps(msg)});')

    def raise_text(self, code: str, text: str) -> None:
        """Raises error `code` with the str `text` computes (raise()'s buffer holds TR_MSG_SIZE - 1 bytes)."""
        name = self.tmp("message")
        self.emit(f'{{ tr::Str {name} = {text}; tr::raise({code}, "%.*s", int({name}.len), {name}.data); }}')

    def condition(self, node) -> str:
        code = self.expr(node).code
        if self.type_of(node) in (T.BOOL, T.Scalar("bool")):
            return code if _wrapped(code) else f"({code})"
        return f"(tr::truthy({code}))"

    def s_If(self, s: h.If):
        if isinstance(s.test, h.TryTest):  # try/except (passes/trys.py: what it catches, and why that is sound)
            body = protected(s)
            rest = s.body[len(body):]  # the else clause: run when the body ran to its end, unprotected
            done = self.tmp("done") if rest else None
            if done:
                self.emit(f"bool {done} = false;")
            self.emit("try {")
            self.depth += 1
            self.block(body)
            if done:
                self.emit(f"{done} = true;")
            self.depth -= 1
            self.emit("} catch (tr::Error &tr_caught) {")
            self.depth += 1
            self.emit(f"if ({' && '.join(f'tr_caught.code != {c}' for c in self.tf.consts[s.test])}) throw;")
            self.block(s.orelse)
            self.depth -= 1
            self.emit("}")
            if done:
                self.nested(f"if ({done}) {{", rest)
            return
        if s.test in self.tf.fallbacks:  # the test runs as Python on its own (passes/fallback.py python_test)
            cond = self.tmp("test")
            self.emit(f"bool {cond} = false;")
            self.region([self.tf.fallbacks[s.test]], test=cond)
            cond = f"({cond})"
        elif self.branchless_if(s) or self.speculated_if(s):  # cxx/lower_select.py, lower_speculate.py
            return
        else:
            cond = self.condition(s.test)
        self.nested(f"if {cond} {{", s.body, "} else {" if s.orelse else "}")
        if s.orelse:
            self.depth += 1
            self.block(s.orelse)
            self.depth -= 1
            self.lines.append(Line(self.depth, "}"))

def _wrapped(code: str) -> bool:
    """True when the whole of code is one parenthesized group."""
    if not (code.startswith("(") and code.endswith(")")):
        return False
    depth = 0
    for i, ch in enumerate(code):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and i < len(code) - 1:
            return False
    return True
