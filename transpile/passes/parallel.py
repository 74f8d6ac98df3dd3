"""prange loops: what each iteration owns, what it reduces, and the races
rejected before any code is generated.

For every `for i in prange(...)` of a typed function this pass decides
(a side table `TypedFunction.parallel`, For node -> ParallelLoop):

* private: variables assigned in the body (the loop variable included).
  Each iteration has its own; reading one before the iteration assigned it
  would read another iteration's value (a loop-carried dependency) and is
  an error, as is reading one after the loop.
* reductions: scalars the body only updates with `s += e` (or -=, *=, |=,
  &=, ^=, one operator family per variable) and never reads otherwise.
* shared: everything else the body reads (arrays are shared by reference;
  element writes to them are the user's promise of independent iterations).
* atomic: `h[k] += e` on a shared array where k is not the loop variable
  (histograms): the update is one atomic step.
* sequential: a reason the loop runs in order (fallback code in it, values
  owned by Python, a prange nested in another) instead of in parallel.

Backends other than the CPU also get the device subset checked here: a GPU
or NPU kernel body may use scalar arithmetic, element indexing of the
arrays it shares, math functions and nested range loops.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..diagnostics import TypingError, UnsupportedSyntaxError
from ..hir import nodes as h
from ..hir import types as T
from .hir_walk import children, root_name, all_writes, expr_reads, nested_blocks, stmt_reads, stmt_writes, walk_body

# Augmented operators that make a reduction, and the C++ functor that
# combines partial results ("-" reduces with add: the partials hold -sum).
REDUCTION_OPS = {"+": "tr::op::add", "-": "tr::op::add", "*": "tr::op::mul", "|": "tr::op::bitor_",
                 "&": "tr::op::bitand_", "^": "tr::op::bitxor"}
FAMILY = {"+": "+", "-": "+", "*": "*", "|": "|", "&": "&", "^": "^"}

DEVICE_BUILTINS = {"abs", "min", "max", "int", "float", "bool", "round", "len", "range"}
DEVICE_STMTS = (h.Assign, h.AugAssign, h.If, h.While, h.For, h.Break, h.Continue, h.Pass, h.Assert, h.ExprStmt)


@dataclass
class ParallelLoop:
    node: h.For
    index: str
    shared: tuple = ()
    private: tuple = ()
    reductions: dict = field(default_factory=dict)  # name -> C++ combining functor
    written_arrays: tuple = ()  # shared arrays the body writes (copied back from a device)
    atomic: set = field(default_factory=set)  # AugAssign nodes updated atomically
    array_reductions: dict = field(default_factory=dict)  # shared array -> functor (histograms, privatized)
    sequential: str | None = None  # why the loop runs in order


def is_prange(tf, node) -> bool:
    call = tf.calls.get(node.iter) if isinstance(node, h.For) else None
    return bool(call) and call[0] == "lib" and getattr(call[1], "name", None) == "prange"


# ---- the analysis -------------------------------------------------------------------

def analyse(typer) -> None:
    """Fills typer.tf.parallel for every prange loop of the function."""
    tf = typer.tf
    loops = [n for n in walk_body(tf.hir.body) if isinstance(n, h.For) and is_prange(tf, n)]
    if not loops:
        return
    inner = set()
    for loop in loops:
        for n in walk_body(loop.body):
            if n is not loop and isinstance(n, h.For) and is_prange(tf, n):
                inner.add(n)
    for loop in loops:
        tf.parallel[loop] = _loop(typer, loop, loop in inner)


def _loop(typer, loop: h.For, nested: bool) -> ParallelLoop:
    tf = typer.tf
    if not isinstance(loop.target, h.Name):
        raise TypingError("a prange loop needs one loop variable", loop.target.loc)
    info = ParallelLoop(loop, loop.target.id)
    backend = typer.program.options.backend
    info.sequential = _sequential_reason(typer, loop, nested)
    if info.sequential:
        return info

    body = loop.body
    _check_break(body)
    writes = all_writes(body) | {info.index}
    aug_ops: dict = {}
    other_writes = set()
    reads_elsewhere = set()
    for s in _all_stmts(body):
        if isinstance(s, h.AugAssign) and isinstance(s.target, h.Name):
            aug_ops.setdefault(s.target.id, []).append(s)
            reads_elsewhere |= {n.id for n in expr_reads(s.value, [])}
        else:
            other_writes |= set(stmt_writes(s))
            reads_elsewhere |= {n.id for n in stmt_reads(s)}
    for name, stmts in sorted(aug_ops.items()):
        t = tf.var_types.get(name)
        if name in other_writes or name in reads_elsewhere or name == info.index or not isinstance(t, T.Scalar):
            continue  # an iteration's own variable (checked below), or an error found below
        families = {FAMILY.get(s.op) for s in stmts}
        if None in families or len(families) > 1:
            ops = ", ".join(sorted({s.op + "=" for s in stmts}))
            raise TypingError(f"'{name}' is updated with {ops} in a prange loop: a reduction needs one operator "
                              "(+= and -= may mix)", stmts[0].loc,
                              "reductions support +=, -=, *=, |=, &=, ^=; keep one per variable")
        info.reductions[name] = REDUCTION_OPS[stmts[0].op]
    private = writes - set(info.reductions)
    info.private = tuple(sorted(n for n in private if n in tf.var_types))
    _check_loop_carried(tf, body, set(info.private), {info.index})
    _check_read_after(tf.hir.body, loop, set(info.private))

    reads = {n.id for n in expr_reads_all(body)}
    info.shared = tuple(sorted(n for n in reads if n in tf.var_types and n not in private
                               and n not in info.reductions))
    written = set()
    for s in _all_stmts(body):
        targets = s.targets if isinstance(s, h.Assign) else (s.target,) if isinstance(s, h.AugAssign) else ()
        for t in targets:
            for sub in ([t] if not isinstance(t, h.TupleExpr) else list(t.elts)):
                if isinstance(sub, h.Subscript):
                    root = root_name(sub)
                    if root in info.shared:
                        written.add(root)
                        if isinstance(s, h.AugAssign):
                            _augmented_element(tf, info, s, sub, root)
    info.written_arrays = tuple(sorted(written))
    info.array_reductions = _array_reductions(info)
    if backend != "cpu":
        _check_device(typer, info, backend)
    return info


def expr_reads_all(stmts) -> list:
    out = []
    for s in _all_stmts(stmts):
        out += stmt_reads(s)
    return out


def _all_stmts(stmts):
    for s in stmts:
        yield s
        for b in nested_blocks(s):
            yield from _all_stmts(b)


def _check_break(stmts) -> None:
    """break leaves a sequential loop early; prange iterations have no order."""
    for s in stmts:
        if isinstance(s, h.Break):
            raise UnsupportedSyntaxError("'break' inside a prange loop is not supported", s.loc,
                                         "iterations run in any order; use range() for a loop that stops early")
        if isinstance(s, h.If):
            _check_break(s.body)
            _check_break(s.orelse)


def _sequential_reason(typer, loop, nested: bool) -> str | None:
    tf = typer.tf
    if nested:
        return "a prange loop nested in another prange loop runs in order inside each outer iteration"
    for s in _all_stmts(loop.body):
        if s in tf.fallbacks:
            return (f"line {s.loc.line} runs as Python (JIT Fallback), which needs the interpreter lock: "
                    "the prange loop runs in order")
    for n in walk_body(loop.body):
        if n in tf.coerce or tf.types.get(n) == T.ANY:
            return (f"line {n.loc.line} uses a value made by Python (JIT Fallback): the prange loop runs in order")
    fallback_written = set()
    for finfo in tf.fallbacks.values():
        fallback_written |= set(finfo.writes)
    for n in expr_reads_all(loop.body):
        if n.id in fallback_written and isinstance(tf.var_types.get(n.id), (T.Array, T.AnyType)):
            return (f"'{n.id}' comes from Python (JIT Fallback) and Python owns its memory: the prange loop runs "
                    "in order")
    for n in walk_body(loop.body):
        call = tf.calls.get(n)  # calls, and the f-strings that write text through Python (STR_REPR)
        if call and needs_interpreter(call):
            return (f"line {n.loc.line} calls {needs_interpreter(call)}(), which needs the interpreter lock: the "
                    "prange loop runs in order")
        if call and call[0] == "jit":
            callee = typer.program.functions.get(call[1])
            if callee is not None and runs_python(typer.program, callee, set()):
                return (f"line {n.loc.line} calls {callee.hir.name}(), which runs code as Python (JIT Fallback): "
                        "the prange loop runs in order")
    return None


def needs_interpreter(call) -> str | None:
    """The name of a call that runs the interpreter: a library call into Python, a sort by float keys
    (which may ask CPython's sort, lambdas.KeyInfo); None for the others."""
    if call[0] == "lib" and call[1].needs_python:
        return call[1].name
    if call[0] == "keyfn" and call[2].asks_python:
        return call[2].which
    return None


def runs_python(program, tf, seen: set, unknown: bool = False) -> bool:
    """Whether function tf, or a compiled function it calls, runs Python (a statement that falls back, a
    library call into the interpreter); `unknown`: the answer for a callee not typed yet."""
    if tf is None:
        return unknown
    if id(tf) in seen:
        return False
    seen.add(id(tf))
    if tf.fallbacks:
        return True
    for call in tf.calls.values():
        kind, target = call[0], call[1]
        if needs_interpreter(call):
            return True
        if kind == "jit" and runs_python(program, program.functions.get(target), seen, unknown):
            return True
    return False


def _check_loop_carried(tf, body, private: set, assigned: set) -> None:
    """Every read of an iteration's own variable must follow its assignment
    in the same iteration."""
    for s in body:
        if isinstance(s, h.Return):
            raise UnsupportedSyntaxError("'return' inside a prange loop is not supported", s.loc,
                                         "iterations run in any order; compute a result and return after the loop")
        for n in stmt_reads(s):
            if n.id in private and n.id not in assigned:
                if isinstance(s, h.AugAssign) and s.target is n and isinstance(tf.var_types.get(n.id), T.Array):
                    raise TypingError(
                        f"'{n.id}' {s.op}= ... updates the whole array in every iteration of the prange loop: "
                        "iterations would race", s.loc,
                        f"update the iteration's own part ({n.id}[i] {s.op}= ...), or do it after the loop")
                raise TypingError(
                    f"'{n.id}' is read before this iteration of the prange loop assigns it, so its value would come "
                    f"from another iteration (a loop-carried dependency)", n.loc,
                    f"for a sum write {n.id} += ... and do not read {n.id} elsewhere in the loop (a reduction); "
                    "otherwise assign it first in each iteration, or keep per-iteration values in an array")
        if isinstance(s, h.If):
            a = set(assigned)
            _check_loop_carried(tf, s.body, private, a)
            b = set(assigned)
            _check_loop_carried(tf, s.orelse, private, b)
            assigned |= (a & b)
        elif isinstance(s, (h.While, h.For)):
            inner = set(assigned) | set(stmt_writes(s))
            for b in nested_blocks(s):
                _check_loop_carried(tf, b, private, set(inner))
        else:
            assigned |= set(stmt_writes(s))


def _check_read_after(fn_body, loop, private: set) -> None:
    """A private variable read after the loop (before being reassigned) would
    not hold the last iteration's value."""
    path = _path_to(fn_body, loop)
    if path is None:
        return
    pending = set(private)
    for block, index in reversed(path):
        pending = _stale_reads(block[index + 1:], pending, loop)
        if not pending:
            return


def _stale_reads(stmts, pending: set, loop) -> set:
    """Raises at a read of a pending name; returns the names still pending after stmts."""
    for s in stmts:
        for n in stmt_reads(s):
            if n.id in pending:
                raise TypingError(
                    f"'{n.id}' is assigned inside the prange loop at line {loop.loc.line} and read after it; each "
                    f"iteration has its own '{n.id}', so after the loop it does not hold the last iteration's "
                    "value", n.loc,
                    "assign it again after the loop, or keep per-iteration values in an array (for a sum, "
                    f"use {n.id} += ... and no other use inside the loop: a reduction)")
        if isinstance(s, h.If):
            pending = _stale_reads(s.body, set(pending), loop) | _stale_reads(s.orelse, set(pending), loop)
        elif isinstance(s, (h.For, h.While)):
            _stale_reads(s.body, pending - set(stmt_writes(s)), loop)  # the loop may not run: nothing is settled
            _stale_reads(s.orelse, set(pending), loop)
        else:
            pending = pending - set(stmt_writes(s))
        if not pending:
            break
    return pending


def _path_to(stmts, target, path=None):
    """[(block, index), ...] from the function body down to the target statement."""
    path = path or []
    for i, s in enumerate(stmts):
        if s is target:
            return path + [(stmts, i)]
        for b in nested_blocks(s):
            found = _path_to(b, target, path + [(stmts, i)])
            if found:
                return found
    return None


def _augmented_element(tf, info, s, target, root) -> None:
    """h[k] op= v on a shared array: atomic unless k is the loop variable."""
    sub = tf.subscripts.get(target)
    first = target.index[0] if target.index else None
    own = isinstance(first, h.Name) and first.id == info.index and target.value is not None \
        and isinstance(target.value, h.Name)
    if own:
        return
    if sub is not None and sub.kind == "element":
        info.atomic.add(s)
        return
    raise TypingError(f"'{root}' is updated in place by every iteration of the prange loop at an index other than "
                      f"the loop variable '{info.index}': iterations would race", s.loc,
                      f"update single elements (h[k] += 1 is made atomic), index the first axis with "
                      f"'{info.index}', or keep per-iteration results in separate rows")


ARRAY_ATTRS = ("shape", "size", "ndim")


def _array_reductions(info: ParallelLoop) -> dict:
    """Shared arrays the body only updates with h[k] op= v at shared indices
    (one operator family) and never reads otherwise: each thread may update
    its own copy, combined into the array after the loop (the runtime decides,
    by size; otherwise the updates stay atomic)."""
    updates: dict = {}
    for s in info.atomic:
        updates.setdefault(root_name(s.target), []).append(s)
    out = {}
    for name, stmts in sorted(updates.items()):
        families = {FAMILY.get(s.op) for s in stmts}
        if None in families or len(families) != 1:
            continue
        allowed = {id(s.target.value) for s in stmts if isinstance(s.target.value, h.Name)}
        ok = len(allowed) == len(stmts)
        for parent in walk_body(info.node.body):
            for child in children(parent):
                if isinstance(child, h.Name) and child.id == name and id(child) not in allowed \
                        and not (isinstance(parent, h.Attribute) and parent.attr in ARRAY_ATTRS):
                    ok = False
        if ok:
            out[name] = REDUCTION_OPS[stmts[0].op]
    return out


def _check_device(typer, info: ParallelLoop, backend: str) -> None:
    """The body of a GPU/NPU kernel: scalars, element indexing, math."""
    tf = typer.tf
    where = f"inside a prange loop on backend='{backend}'"
    hint = ("GPU/NPU kernels support scalar arithmetic, element indexing of arrays, math/NumPy functions of "
            "scalars and nested range loops; move the rest out of the loop, or use backend='cpu'")
    for s in _all_stmts(info.node.body):
        if not isinstance(s, DEVICE_STMTS):
            raise UnsupportedSyntaxError(f"'{type(s).__name__.lower()}' statements are not supported {where}",
                                         s.loc, hint)
        if isinstance(s, h.For) and not isinstance(tf.loops.get(s), T.Range):
            raise UnsupportedSyntaxError(f"only range loops are supported {where}", s.loc, hint)
        if isinstance(s, h.Assign) and any(not isinstance(t, (h.Name, h.Subscript)) for t in s.targets):
            raise UnsupportedSyntaxError(f"tuple assignment is not supported {where}", s.loc, hint)
    # Ascend has no atomic updates: only array reductions (each block updates
    # its own copy of the array, combined after the kernel) are built.
    atomic = [s for s in info.atomic if root_name(s.target) not in info.array_reductions] \
        if backend == "ascend" else []
    if atomic:
        s = min(atomic, key=lambda n: (n.loc.line, n.loc.col))
        name = root_name(s.target)
        raise UnsupportedSyntaxError(
            f"'{name}' is updated at an index other than the loop variable {where}, which has no atomic updates: "
            f"such an array must only be updated with {name}[k] op= v, with one operator (+= and -= may mix; "
            f"*=, |=, &=, ^=), and not otherwise used in the loop, so that each block can update its own copy",
            s.loc, f"read '{name}' after the loop, or use backend='cpu' or 'cuda'")
    for node in walk_body(info.node.body):
        t = tf.types.get(node)
        if isinstance(node, h.Subscript):
            sub = tf.subscripts.get(node)
            if sub is not None and sub.kind == "tuple_item" and sub.const_index is not None:
                continue  # a.shape[0], t[1]
            if sub is not None and sub.kind != "element":
                raise UnsupportedSyntaxError(f"slicing arrays is not supported {where}", node.loc, hint)
            if not isinstance(node.value, h.Name):
                raise UnsupportedSyntaxError(f"indexing this expression is not supported {where}", node.loc, hint)
        elif isinstance(node, h.Name) and isinstance(t, T.Array):
            if node.id not in info.shared or node in tf.consts:
                raise UnsupportedSyntaxError(
                    f"array '{node.id}' cannot be used {where}: only arrays passed in or made before the loop",
                    node.loc, "global arrays are not copied to the device: pass the array as an argument")
        elif isinstance(node, h.Call):
            call = tf.calls.get(node)
            if call and call[0] == "jit":
                raise UnsupportedSyntaxError(f"calling another @jit function is not supported {where} yet", node.loc,
                                             "inline the computation into the loop body, or use backend='cpu'")
            entry = call[1] if call else None
            name = getattr(entry, "name", "")
            headers = getattr(entry, "headers", ())
            ok = (name in DEVICE_BUILTINS or "transpile_rt/math/math.hpp" in headers
                  or (name.startswith("numpy.") and isinstance(t, T.Scalar)))
            if name in ("min", "max") and call[2] != "scalars":
                ok = False
            if name == "round" and call[2] not in ("int", "float"):
                ok = False
            if not ok:
                raise UnsupportedSyntaxError(f"calling {name or 'this'}() is not supported {where}", node.loc, hint)
        elif isinstance(t, T.Array) and not isinstance(node, h.Name):
            raise UnsupportedSyntaxError(f"array expressions are not supported {where}", node.loc, hint)
        elif isinstance(node, (h.GenExp,)):
            raise UnsupportedSyntaxError(f"generator expressions are not supported {where}", node.loc, hint)
    for name in info.shared + info.private:
        t = tf.var_types.get(name)
        if isinstance(t, T.Array) and name in info.private:
            raise UnsupportedSyntaxError(f"array variable '{name}' assigned {where}", info.node.loc, hint)
    for name, functor in info.reductions.items():
        t = tf.var_types.get(name)
        if isinstance(t, T.Scalar) and t.kind == "c" and functor != "tr::op::add":
            raise UnsupportedSyntaxError(f"complex '{name}' can only be reduced with += or -= {where}",
                                         info.node.loc, hint)
