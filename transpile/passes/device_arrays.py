"""Device arrays: where compiled code may use an argument that lives in GPU
memory (an object with `__cuda_array_interface__`: CuPy, PyTorch CUDA
tensors, Numba device arrays), which backend="cuda" uses in place.

Host code cannot read device memory, and copying it to the host behind the
user's back would hide the very cost device arrays exist to avoid.  So a
device array may appear

* inside a prange loop that runs as a kernel (element reads and writes, its
  shape: what passes/parallel.py allows in kernels), and
* in host code only as `a.shape`, `a.shape[k]`, `a.ndim`, `a.size`, `len(a)`,
* in a return value (`return out`, `return s, out`): the caller gets the
  very object it passed.

Anything else (rebinding it, passing it to a function, an
array expression, a prange loop that runs in order on the host) is an error
that names the line and says what to do.
"""
from __future__ import annotations

from ..diagnostics import TypingError
from ..hir import nodes as h
from ..hir import types as T
from .hir_walk import children, stmt_writes, walk_body

SHAPE_ATTRIBUTES = ("shape", "ndim", "size")
HINT = ("device arrays can be indexed element by element inside a prange loop, and their shape read anywhere; "
        "for other work pass a NumPy array (copied to the GPU and back around each kernel) or use the producing "
        "library (CuPy, PyTorch) outside the @jit function")


def check(typer) -> None:
    tf = typer.tf
    device = {n for n, t in zip(tf.params, tf.arg_types) if isinstance(t, T.DeviceArray)}
    if not device:
        return
    backend = typer.program.options.backend
    if backend != "cuda":
        name = sorted(device)[0]
        raise TypingError(f"argument '{name}' is a CUDA device array (__cuda_array_interface__), which only "
                          f"backend='cuda' can use (this function has backend='{backend}')", tf.hir.loc,
                          "decorate with @jit(backend='cuda'), or pass a NumPy array (cupy.asnumpy(a), "
                          "tensor.cpu().numpy())")
    readonly = {n for n, t in zip(tf.params, tf.arg_types) if isinstance(t, T.DeviceArray) and t.readonly}
    for s in walk_body(tf.hir.body):
        if isinstance(s, h.Stmt):
            rebound = sorted(device.intersection(stmt_writes(s)))
            if rebound:
                raise TypingError(f"device array argument '{rebound[0]}' cannot be assigned a new value", s.loc,
                                  "give the new value another name")
        targets = s.targets if isinstance(s, h.Assign) else (s.target,) if isinstance(s, h.AugAssign) else ()
        for t in targets:
            if isinstance(t, h.Subscript) and isinstance(t.value, h.Name) and t.value.id in readonly:
                raise TypingError(f"assignment destination is read-only: device array '{t.value.id}' is marked "
                                  "read-only by its __cuda_array_interface__", t.loc,
                                  "pass a writable array, or write the results to another argument")
    kernels = {loop for loop, info in tf.parallel.items() if info.sequential is None}
    for s in tf.hir.body:
        _visit(tf, s, None, device, kernels)


def _visit(tf, node, parent, device: set, kernels: set) -> None:
    if isinstance(node, h.For) and node in kernels:
        _visit(tf, node.iter, node, device, kernels)
        return  # the body is a kernel: passes/parallel.py checked it for the device
    if isinstance(node, h.Return) and node.value is not None:
        items = node.value.elts if isinstance(node.value, h.TupleExpr) else (node.value,)
        for k, item in enumerate(items):
            if isinstance(item, h.Name) and item.id in device:  # the argument object itself goes back
                _check_returned(tf, node, item, k if isinstance(node.value, h.TupleExpr) else None)
            else:
                _visit(tf, item, node.value, device, kernels)
        return
    if isinstance(node, h.Name) and node.id in device and not _shape_query(tf, node, parent):
        loop = next((l for l, info in tf.parallel.items() if info.sequential and _inside(node, l)), None)
        why = (f" (this prange loop runs in order on the host: {tf.parallel[loop].sequential})" if loop is not None
               else "")
        raise TypingError(f"device array '{node.id}' is used in host code{why}: its memory is on the GPU",
                          node.loc, HINT)
    for child in children(node):
        _visit(tf, child, node, device, kernels)


def _check_returned(tf, ret: h.Return, name: h.Name, position) -> None:
    t = tf.return_type
    if position is not None:
        t = t.items[position] if isinstance(t, T.Tuple) and position < len(t.items) else None
    if not isinstance(t, T.DeviceArray):
        raise TypingError(f"this function returns device array '{name.id}' here and a value of another type on "
                          f"another path (its result type is {tf.return_type})", ret.loc,
                          "return the device array on every path, or nothing")


def _shape_query(tf, node: h.Name, parent) -> bool:
    if isinstance(parent, h.Attribute):
        return parent.value is node and parent.attr in SHAPE_ATTRIBUTES
    if isinstance(parent, h.Call) and len(parent.args) == 1 and parent.args[0] is node:
        call = tf.calls.get(parent)
        return bool(call) and getattr(call[1], "name", None) == "len"
    return False


def _inside(node, loop: h.For) -> bool:
    return any(n is node for n in walk_body(loop.body))
