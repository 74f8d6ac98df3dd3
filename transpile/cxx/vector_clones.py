"""Which generated functions are compiled once per x86-64 vector width
(runtime: transpile_rt/vector_clones.hpp, TR_VECTOR_CLONES).

A loop that stores an array element per iteration along the unit-stride axis
(`c[i, j] += aip * b[p, j]` over j) does as many iterations per instruction
as a vector holds: two doubles in the SSE2 of the x86-64 baseline that
`@jit`'s default build targets, four with AVX2, eight with AVX-512 (bench_core's
matmul: 2.1 ms with SSE2, 1.2 ms with AVX2, 0.74 ms with AVX-512; Numba
1.4 ms).  Other loops gain little or lose: a float sum adds in order
whatever the width (GCC's in-order AVX-512 reduction made dot 1.5x slower),
and GCC 12's AVX code for a scalar recurrence copies registers with vmovsd
(mandelbrot 15% slower).  A loop that reads back at another index the
array it stores into (`t[i + 1] = t[i] + dt`: an ODE solver's step) carries
a value from one iteration to the next through memory, and does not
vectorize at any width; cloned, it only costs: GCC declines to inline a
right-hand side the loop calls into three copies of it (bench_ode's
Euler).  So only functions with a loop that may vectorize get clones;
the dynamic loader picks one by the CPU it runs on, the library stays
portable, and every clone computes the same values (-ffp-contract=off: no
fused multiply-adds, no reassociation)."""
from __future__ import annotations

from ..hir import nodes as h
from ..hir import types as T
from ..passes.hir_walk import expr_reads, walk_body
from ..values import fields

HEADER = "transpile_rt/vector_clones.hpp"


def widens(tf) -> bool:
    """Whether the function holds an innermost `for ... in range(...)` loop
    storing an element of a unit-stride array at an index of its last axis
    that reads the loop variable (prange kernels excluded: OpenMP's)."""
    if tf.parallel:
        return False
    return any(_store_loop(tf, s) for s in walk_body(tf.hir.body) if isinstance(s, h.For))


def _store_loop(tf, loop: h.For) -> bool:
    call = tf.calls.get(loop.iter) if isinstance(loop.iter, h.Call) else None
    if not (call and call[0] == "lib" and getattr(call[1], "name", None) == "range"):
        return False
    if not isinstance(loop.target, h.Name):
        return False
    inner = list(walk_body(loop.body))
    if any(isinstance(n, (h.For, h.While, h.GenExp)) for n in inner):
        return False
    stores = [t for s in inner
              for t in (s.targets if isinstance(s, h.Assign) else (s.target,) if isinstance(s, h.AugAssign) else ())
              if isinstance(t, h.Subscript)]
    return any(_unit_stride_store(tf, t, loop.target.id) for t in stores) and not any(
        _carried(t, n) for t in stores for n in inner)


def _carried(store, node) -> bool:
    """Whether node reads the array `store` writes at another index: a value
    carried between iterations through memory."""
    return (isinstance(node, h.Subscript) and node is not store and isinstance(node.value, h.Name)
            and isinstance(store.value, h.Name) and node.value.id == store.value.id
            and not _same_expr(node.index, store.index))


def _same_expr(a, b) -> bool:
    """The same expression written twice (source locations aside)."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same_expr(x, y) for x, y in zip(a, b))
    if isinstance(a, h.Node) or isinstance(b, h.Node):
        return type(a) is type(b) and all(_same_expr(getattr(a, f), getattr(b, f)) for f in fields(a) if f != "loc")
    return type(a) is type(b) and a == b


def _unit_stride_store(tf, target, var: str) -> bool:
    if not isinstance(target, h.Subscript):
        return False
    info = tf.subscripts.get(target)
    arr = tf.types.get(target.value)
    if info is None or info.kind != "element" or not isinstance(arr, T.Array) or arr.layout != "C":
        return False
    return any(n.id == var for n in expr_reads(target.index[-1], []))
