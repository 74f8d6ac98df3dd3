"""transpile.vmap: MindSpore's / JAX's vmap as compiled loops over the mapped axes.

(Not named vmap.py: the submodule would shadow the function `transpile.vmap`.)

`vmap(f, in_axes, out_axes)(*args)` gives what the reference

    np.stack([f(*slices(args, i)) for i in range(n)], axis=out_axes)

gives (nested vmaps nest the reference).  The work is split so that the
compiled part is a plain loop:

* Python checks the axes against the arguments' shapes (every nesting level
  at once: the slices' shapes follow from the arguments'), calls f once on the
  first slices, and allocates the outputs from that result (np.stack's
  dtype: the first result's, since compiled code gives every slice the same
  type, the type CPython gives).
* A generated @jit driver (one module per nesting structure, f passed to it
  as a function value, so it is specialized and inlined per f) loops over
  the rest, writing each result into the outputs in place; nested levels are
  drivers calling drivers on views, so the whole nest is one compiled call
  without temporaries.  A result of another shape raises np.stack's
  ValueError.
* Where the driver cannot compile (f a closure, results that are not numbers
  or arrays), the reference runs in Python, with a TranspileFallbackWarning;
  if f is a @jit function with fullgraph=True the error is raised instead.

A mapped axis of size 0 raises np.stack's ValueError ("need at least one
array to stack"), as the reference does: f is never called, so the result's
shape and dtype are unknown (JAX learns them by tracing, which CPython
semantics have no equivalent of).
"""
from __future__ import annotations

import functools
import warnings

import numpy as np

from .diagnostics import TranspileError, TranspileFallbackWarning, TypingError, UnsupportedArgumentError
from .generated_modules import load

_SCALARS = (bool, int, float, complex, np.bool_, np.number)


def vmap(fn, in_axes=0, out_axes=0):
    """Map `fn` over an axis of its arguments (MindSpore's and JAX's vmap).

    in_axes: an int (every argument mapped along that axis), None (passed whole
    to every call), or a tuple/list with one int or None per argument; negative
    axes count from the end.  out_axes: where the mapped axis goes in the
    result (an int, or a tuple with one entry per result of a tuple-returning
    fn).  fn may be a @jit function, a plain function, a lambda or another vmap.
    """
    return VMapped(fn, in_axes, out_axes)


class VMapped:
    """What vmap returns; pickles when its function does."""

    def __init__(self, fn, in_axes=0, out_axes=0):
        if not callable(fn):
            raise TypeError(f"vmap: fn must be callable, not {type(fn).__name__}")
        self.fn, self.in_axes, self.out_axes = fn, _axes_spec(in_axes, "in_axes", True), \
            _axes_spec(out_axes, "out_axes", False)
        self.__name__ = getattr(fn, "__name__", type(fn).__name__)
        self.__qualname__ = getattr(fn, "__qualname__", self.__name__)
        self.__doc__ = getattr(fn, "__doc__", None)
        self.__wrapped__ = fn
        self._failed: dict = {}  # (driver module, argument kinds) -> why the driver did not compile

    def __reduce__(self):
        return vmap, (self.fn, self.in_axes, self.out_axes)

    def __repr__(self) -> str:
        return f"<transpile.vmap of {self.fn!r}, in_axes={self.in_axes!r}, out_axes={self.out_axes!r}>"

    def __call__(self, *args, **kwargs):
        if kwargs:
            raise TypeError(f"vmap({self.__name__}): keyword arguments are not mapped; pass them positionally")
        levels = []  # outermost first
        fn = self
        while isinstance(fn, VMapped):
            levels.append(fn)
            fn = fn.fn
        axes, sizes = _plan(levels, args)
        first = args
        for level_axes in axes:
            first = tuple(a if ax is None else _take(a, ax, 0) for a, ax in zip(first, level_axes))
        r0 = getattr(fn, "py_func", fn)(*first)
        fullgraph = bool(getattr(getattr(fn, "options", None), "fullgraph", False))
        results = r0 if type(r0) is tuple else (r0,)
        if not results or not all(isinstance(r, (np.ndarray, *_SCALARS)) for r in results) \
                or not all(np.asarray(r).dtype.kind in "biufc" for r in results):
            return self._in_python(fn, levels, axes, args, r0,
                                   f"{self.__name__} returns {type(r0).__name__}, not numbers or arrays", fullgraph)
        outs, positions = _outputs(levels, sizes, results)
        module = _driver_module(tuple(axes), tuple(positions), tuple(np.ndim(r) for r in results), len(args),
                                type(r0) is tuple, _driver_options(fn))
        key = (module.__name__, tuple(_kind(a) for a in args))
        reason = self._failed.get(key)
        if reason is None:
            try:
                getattr(module, f"drive_{len(levels)}")(fn, *outs, 1, *args)
                return tuple(outs) if type(r0) is tuple else outs[0]
            except (TranspileError, UnsupportedArgumentError) as exc:
                if fullgraph:
                    raise
                reason = self._failed[key] = f"its loop did not compile: {exc}"
        return self._in_python(fn, levels, axes, args, r0, reason, False)

    def _in_python(self, fn, levels, axes, args, r0, reason: str, fullgraph: bool):
        """The reference: np.stack of the calls, level by level (r0: the first call, already made)."""
        if fullgraph:
            raise TypingError(f"vmap({self.__name__}): {reason} (fullgraph=True forbids running it in Python)")
        warnings.warn(TranspileFallbackWarning(f"vmap({self.__name__}) runs as a Python loop: {reason}"),
                      stacklevel=3)
        pending = [r0]

        def call(level, level_args):
            if level == len(levels):
                return pending.pop() if pending else fn(*level_args)
            pairs = list(zip(level_args, axes[level]))
            n = max(np.shape(a)[ax] for a, ax in pairs if ax is not None)
            got = [call(level + 1, tuple(a if ax is None else _take(a, ax, i) for a, ax in pairs)) for i in range(n)]
            out_axes = levels[level].out_axes
            if type(got[0]) is not tuple:
                return np.stack(got, axis=_out_axis(out_axes, 0, 1))
            return tuple(np.stack([g[k] for g in got], axis=_out_axis(out_axes, k, len(got[0])))
                         for k in range(len(got[0])))

        return call(0, args)


def _axes_spec(value, what: str, none_ok: bool):
    def entry(v):
        if v is None and none_ok:
            return None
        if isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)):
            return int(v)
        allowed = "an int or None" if none_ok else "an int"
        raise TypeError(f"vmap {what} entries must be {allowed}, got {v!r}")

    if isinstance(value, (tuple, list)):
        return tuple(entry(v) for v in value)
    return entry(value)


def _plan(levels: list, args: tuple) -> tuple[list, list]:
    """Each level's in_axes made non-negative (None: not mapped) and its size,
    checked against the shapes of the arguments it receives."""
    shapes = [np.shape(a) if isinstance(a, np.ndarray) else None for a in args]
    all_axes, sizes = [], []
    for level in levels:
        spec = level.in_axes
        if isinstance(spec, tuple):
            if len(spec) != len(args):
                raise ValueError(f"vmap in_axes must be an int, None, or a tuple of entries corresponding to the "
                                 f"positional arguments passed to the function, but got len(in_axes)={len(spec)}, "
                                 f"len(args)={len(args)}")
        else:
            spec = (spec,) * len(args)
        if all(ax is None for ax in spec):
            raise ValueError("vmap must have at least one non-None value in in_axes")
        axes, mapped = [], []
        for k, (ax, shape) in enumerate(zip(spec, shapes)):
            if ax is None:
                axes.append(None)
                continue
            if shape is None:
                if not isinstance(args[k], _SCALARS):
                    raise TypeError(f"vmap({level.__name__}): argument {k} is a {type(args[k]).__name__}; mapped "
                                    "arguments must be NumPy arrays (pass np.asarray(...), or in_axes None)")
                shape = ()
            if not -len(shape) <= ax < len(shape):
                raise ValueError(f"vmap was requested to map its argument along axis {ax}, which implies that its "
                                 f"rank should be at least {(ax if ax >= 0 else -ax - 1) + 1}, but is only "
                                 f"{len(shape)} (its shape is {shape})")
            ax %= len(shape)
            axes.append(ax)
            mapped.append((k, ax, shape[ax]))
            shapes[k] = shape[:ax] + shape[ax + 1:]
        if len({n for _, _, n in mapped}) > 1:
            listed = ", ".join(f"argument {k} has size {n} along axis {ax}" for k, ax, n in mapped)
            raise ValueError(f"vmap got inconsistent sizes for the mapped axes: {listed}")
        if mapped[0][2] == 0:
            raise ValueError("need at least one array to stack (vmap over an axis of size 0: the function is never "
                             "called, so the result's shape and dtype are unknown)")
        all_axes.append(tuple(axes))
        sizes.append(mapped[0][2])
    return all_axes, sizes


def _take(a, axis: int, i: int):
    return a[(slice(None),) * axis + (i,)]


def _out_axis(spec, k: int, count: int) -> int:
    if isinstance(spec, tuple):
        if len(spec) != count:
            raise ValueError(f"vmap out_axes has {len(spec)} entries but the function returns {count} values")
        return spec[k]
    return spec


def _outputs(levels: list, sizes: list, results: tuple) -> tuple[list, list]:
    """The output arrays, holding the first results, and for each result the
    position of each level's axis in the array that level writes into."""
    outs, positions = [], []
    for k, r in enumerate(results):
        shape, where = list(np.shape(r)), []
        for level, n in zip(reversed(levels), reversed(sizes)):  # innermost first: np.stack's order
            ax = _out_axis(level.out_axes, k, len(results))
            if not -len(shape) - 1 <= ax <= len(shape):
                raise np.exceptions.AxisError(ax, len(shape) + 1)
            ax %= len(shape) + 1
            shape.insert(ax, n)
            where.insert(0, ax)
        out = np.empty(shape, np.asarray(r).dtype)
        view = out
        for ax in where[:-1]:
            view = _take(view, ax, 0)
        view[(slice(None),) * where[-1] + (0,)] = r
        outs.append(out)
        positions.append(tuple(where))
    return outs, positions


def _kind(a):
    if isinstance(a, np.ndarray):
        return a.dtype.str, a.ndim, a.flags.c_contiguous, a.flags.f_contiguous
    return type(a)


def _driver_options(fn) -> str:
    """The driver compiles as f would (f's jit_level, boundscheck, fastmath),
    always under fullgraph: what does not compile runs the reference instead."""
    options = getattr(fn, "options", None)
    chosen = {"fullgraph": True}
    if options is not None:
        chosen.update(jit_level=options.jit_level, boundscheck=options.boundscheck, fastmath=options.fastmath,
                      cache=options.cache)
    return ", ".join(f"{k}={v!r}" for k, v in sorted(chosen.items()))


@functools.lru_cache(maxsize=256)  # the text and its digest cost more than the loop of a small call
def _driver_module(axes: tuple, positions: tuple, ndims: tuple, nargs: int, is_tuple: bool, options: str):
    """The drivers of one nesting structure: drive_1 (innermost) calls f,
    drive_j calls drive_(j-1) on views of its outputs and slices of its arguments."""
    outs = [f"o{k}" for k in range(len(ndims))]
    params = ", ".join(["f", *outs, "skip", *(f"a{k}" for k in range(nargs))])
    text = ['"""vmap drivers generated by transpile.vmap."""', "from transpile import jit", ""]
    depth = len(axes)
    for j in range(1, depth + 1):
        level_axes = axes[depth - j]
        index = [positions[k][depth - j] for k in range(len(outs))]
        slices = ", ".join(f"a{k}" if ax is None else f"a{k}[{':, ' * ax}i]" for k, ax in enumerate(level_axes))
        text += ["", f"@jit({options})", f"def drive_{j}({params}):"]
        if j == 1:
            text += [f"    for i in range(skip, o0.shape[{index[0]}]):", f"        r = f({slices})"]
            for k, (o, ax, nd) in enumerate(zip(outs, index, ndims)):
                r = f"r[{k}]" if is_tuple else "r"
                if nd:  # np.stack's shape check: the target has the first result's shape
                    dims = " or ".join(f"{r}.shape[{d}] != {o}.shape[{d + (d >= ax)}]" for d in range(nd))
                    text += [f"        if {dims}:",
                             '            raise ValueError("all input arrays must have the same shape")']
                text.append(f"        {o}[{':, ' * ax}i] = {r}")
        else:
            views = ", ".join(f"{o}[{':, ' * ax}i]" for o, ax in zip(outs, index))
            text += [f"    for i in range(o0.shape[{index[0]}]):", "        s = 0", "        if i == 0:",
                     "            s = skip", f"        drive_{j - 1}(f, {views}, s, {slices})"]
    return load("_transpile_vmap_", "\n".join(text) + "\n")
