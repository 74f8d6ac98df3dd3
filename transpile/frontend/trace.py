"""capture_mode="trace": the function is called once on tracing values that
record every operation on the arguments (operators, NumPy ufuncs and
functions through __array_ufunc__ / __array_function__, methods, indexing);
the record is a straight-line function, written as Python text, which the
ordinary pipeline compiles.

The trace holds only what does not depend on values: the argument types are
the specialization's key, and anything that would make the record depend on
a value -- a truth test, a conversion to a Python number, a shape, iteration,
a global or closure variable whose value the record would freeze -- stops the
trace (TraceBreak); the function then runs in CPython with that reason (a
graph break that runs the whole function as Python: the sound choice)."""
from __future__ import annotations

import dis
import linecache
import operator
import sys
import types

import numpy as np

from ..diagnostics import FunctionNotCompilable, SourceLoc


class TraceBreak(Exception):
    pass


_BINARY = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**",
           "matmul": "@", "and": "&", "or": "|", "xor": "^", "lshift": "<<", "rshift": ">>"}
_COMPARE = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}
_UNARY = {"neg": "-", "pos": "+", "invert": "~"}
_TYPE_ATTRS = ("dtype", "ndim")  # fixed by the argument types the specialization is keyed on
_RECORDED_ATTRS = ("T", "real", "imag")


class _Recorder:
    def __init__(self, fn=None):
        self.lines: list = []  # (name or None, text, the traced function's line that did it)
        self.codes = _codes(fn.__code__) if fn is not None else set()

    def emit(self, text: str, example) -> Tracer:
        name = f"t{len(self.lines)}"
        self.lines.append((name, text, self.line()))
        return Tracer(self, name, example)

    def statement(self, text: str) -> None:
        self.lines.append((None, text, self.line()))

    def line(self) -> int | None:
        """The line of the traced function (or a def or lambda inside it)
        running now: the record names it beside each node (`transpile show`)."""
        frame = sys._getframe(1)
        while frame is not None and frame.f_code not in self.codes:
            frame = frame.f_back
        return frame.f_lineno if frame is not None else None

    def text(self, value) -> str:
        """The Python text of an operand: a traced value's name or a constant."""
        if isinstance(value, Tracer):
            return value._name
        if value is None or isinstance(value, (bool, int, float, complex, str)):
            return repr(value)
        if isinstance(value, (tuple, list)):
            items = ", ".join(self.text(v) for v in value)
            if isinstance(value, tuple):
                return f"({items},)" if value else "()"  # `(,)` is no Python
            return f"[{items}]"
        if isinstance(value, slice):
            return f"slice({self.text(value.start)}, {self.text(value.stop)}, {self.text(value.step)})"
        if isinstance(value, np.dtype) or isinstance(value, type) and issubclass(value, np.generic):
            return f"np.{np.dtype(value).name}"
        if value is Ellipsis:
            return "..."
        raise TraceBreak(f"a {type(value).__name__} value that is not an argument (the trace cannot name it)")


def _index_text(rec: _Recorder, index) -> str:
    """An index as subscript syntax: a[1:-1, ::2, i]."""
    if index == ():
        return "()"
    items = index if isinstance(index, tuple) else (index,)
    parts = []
    for item in items:
        if isinstance(item, slice):
            text = ":".join("" if v is None else rec.text(v) for v in (item.start, item.stop))
            parts.append(text + (f":{rec.text(item.step)}" if item.step is not None else ""))
        else:
            parts.append(rec.text(item))
    return ", ".join(parts) + ("," if isinstance(index, tuple) and len(items) == 1 else "")


def _example(value):
    if isinstance(value, Tracer):
        return value._example
    if isinstance(value, (tuple, list)):
        return type(value)(_example(v) for v in value)
    if isinstance(value, slice):
        return slice(_example(value.start), _example(value.stop), _example(value.step))
    return value


def _run(rec: _Recorder, text: str, compute):
    try:
        result = compute()
    except Exception as exc:  # noqa: BLE001 - the user's error is CPython's to raise
        raise TraceBreak(f"{text} raised {type(exc).__name__} on the traced values") from None
    if isinstance(result, tuple):
        raise TraceBreak(f"{text} returns a tuple")
    if not isinstance(result, (np.ndarray, np.generic, bool, int, float, complex)):
        raise TraceBreak(f"{text} returns a {type(result).__name__}")
    return rec.emit(text, result)


class Tracer:
    """A traced value: its name in the record and an example of its type."""

    __array_priority__ = 1000

    def __init__(self, rec: _Recorder, name: str, example):
        self._rec, self._name, self._example = rec, name, example

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if method != "__call__" or kwargs or getattr(np, ufunc.__name__, None) is not ufunc:
            raise TraceBreak(f"numpy.{ufunc.__name__}.{method} with {sorted(kwargs)}")
        text = f"np.{ufunc.__name__}({', '.join(self._rec.text(i) for i in inputs)})"
        return _run(self._rec, text, lambda: ufunc(*[_example(i) for i in inputs]))

    def __array_function__(self, func, types_, args, kwargs):
        name = func.__name__
        if getattr(np, name, None) is not func:
            raise TraceBreak(f"{func.__module__}.{name}")
        parts = [self._rec.text(a) for a in args] + [f"{k}={self._rec.text(v)}" for k, v in kwargs.items()]
        return _run(self._rec, f"np.{name}({', '.join(parts)})",
                    lambda: func(*[_example(a) for a in args], **{k: _example(v) for k, v in kwargs.items()}))

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name in _TYPE_ATTRS:
            return getattr(self._example, name)
        if name in _RECORDED_ATTRS:
            return _run(self._rec, f"{self._name}.{name}", lambda: getattr(self._example, name))
        attr = getattr(self._example, name, None)
        if not callable(attr):
            raise TraceBreak(f"reading .{name} of a traced value (its value would be frozen into the trace)")

        def method(*args, **kwargs):
            parts = [self._rec.text(a) for a in args] + [f"{k}={self._rec.text(v)}" for k, v in kwargs.items()]
            return _run(self._rec, f"{self._name}.{name}({', '.join(parts)})",
                        lambda: attr(*[_example(a) for a in args], **{k: _example(v) for k, v in kwargs.items()}))
        return method

    def __getitem__(self, index):
        text = f"{self._name}[{_index_text(self._rec, index)}]"
        return _run(self._rec, text, lambda: self._example[_example(index)])

    def __setitem__(self, index, value):
        self._rec.statement(f"{self._name}[{_index_text(self._rec, index)}] = {self._rec.text(value)}")
        try:
            self._example[_example(index)] = _example(value)
        except Exception as exc:  # noqa: BLE001
            raise TraceBreak(f"an assignment that raised {type(exc).__name__} on the traced values") from None

    def __array__(self, *_, **__):  # np.asarray(t) would make an object array holding the tracing value
        raise TraceBreak("a NumPy conversion of a traced value (np.asarray, np.array of a list)")

    def _value_dependent(self, *_):
        raise TraceBreak("control flow or a conversion that depends on a traced value")

    __bool__ = __float__ = __int__ = __index__ = __complex__ = __len__ = __iter__ = __hash__ = _value_dependent


def _binary(symbol, swap=False):
    def op(self, other):
        a, b = (other, self) if swap else (self, other)
        text = f"({self._rec.text(a)} {symbol} {self._rec.text(b)})"
        fn = _OPERATORS[symbol]
        return _run(self._rec, text, lambda: fn(_example(a), _example(b)))
    return op


_OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
              "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "@": operator.matmul,
              "&": operator.and_, "|": operator.or_, "^": operator.xor, "<<": operator.lshift,
              ">>": operator.rshift, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
              "==": operator.eq, "!=": operator.ne}
_OPERATORS.update({"i" + symbol: getattr(operator, "i" + name.rstrip("_")) for name, symbol in
                   (("add", "+"), ("sub", "-"), ("mul", "*"), ("truediv", "/"), ("floordiv", "//"), ("mod", "%"),
                    ("pow", "**"), ("matmul", "@"), ("and_", "&"), ("or_", "|"), ("xor", "^"), ("lshift", "<<"),
                    ("rshift", ">>"))})

def _inplace(symbol):
    """a += b on an array writes into a (and every view of it): recorded as
    that statement.  On a number Python rebinds a to a + b (NotImplemented
    makes it do so), which the record follows through the new value."""
    def op(self, other):
        if not isinstance(self._example, np.ndarray):
            return NotImplemented
        self._rec.statement(f"{self._name} {symbol}= {self._rec.text(other)}")
        try:
            _OPERATORS["i" + symbol](self._example, _example(other))
        except Exception as exc:  # noqa: BLE001
            raise TraceBreak(f"{symbol}= raised {type(exc).__name__} on the traced values") from None
        return self
    return op


for _name, _symbol in _BINARY.items():
    setattr(Tracer, f"__{_name}__", _binary(_symbol))
    setattr(Tracer, f"__r{_name}__", _binary(_symbol, swap=True))
    setattr(Tracer, f"__i{_name}__", _inplace(_symbol))
for _name, _symbol in _COMPARE.items():
    setattr(Tracer, f"__{_name}__", _binary(_symbol))
for _name, _symbol in _UNARY.items():
    setattr(Tracer, f"__{_name}__", lambda self, s=_symbol, n=_name: _run(
        self._rec, f"({s}{self._name})", lambda: getattr(operator, n)(self._example)))
setattr(Tracer, "__abs__", lambda self: _run(self._rec, f"abs({self._name})", lambda: abs(self._example)))
setattr(Tracer, "__round__", lambda self, n=None: _run(
    self._rec, f"round({self._name})" if n is None else f"round({self._name}, {self._rec.text(n)})",
    lambda: round(self._example) if n is None else round(self._example, _example(n))))


# What a trace may read besides its arguments: it runs the function once, so anything with a
# side effect (print, np.random, a file) would happen at tracing and never again.
_PURE_BUILTINS = {"abs", "min", "max", "sum", "float", "int", "complex", "bool", "round", "pow", "divmod", "len",
                  "range", "tuple", "list", "slice"}  # not isinstance/type: a tracing value is not an ndarray
_PURE_MODULES = {"numpy", "math", "cmath"}
_IMPURE_ATTRS = {"random", "seed", "save", "savez", "savetxt", "load", "loadtxt", "tofile", "fromfile", "seterr",
                 "set_printoptions", "errstate", "testing",
                 "isscalar", "iterable", "__class__"}  # these would see the tracing value's own type
_EFFECT_OPS = {"STORE_GLOBAL", "STORE_DEREF", "STORE_ATTR", "STORE_NAME", "DELETE_GLOBAL", "DELETE_ATTR",
               "IMPORT_NAME", "YIELD_VALUE", "RAISE_VARARGS"}


def _check_reads(fn, hidden=frozenset()) -> None:
    """Globals and closure variables are frozen into a trace with no guard,
    and a side effect would happen once, while tracing: only pure modules
    (NumPy, math), pure builtins and NumPy's callables may be read (and the
    free variables passed as hidden arguments, `hidden`)."""
    closure = {name: cell.cell_contents for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ())
               if name not in hidden}
    builtins = fn.__globals__.get("__builtins__", {})
    builtins = vars(builtins) if isinstance(builtins, types.ModuleType) else builtins

    def check(code):
        for ins in dis.get_instructions(code):
            if ins.opname in _EFFECT_OPS:
                raise TraceBreak(f"{ins.opname} at line {ins.positions.lineno}: an effect a trace would run once")
            if ins.opname in ("LOAD_ATTR", "LOAD_METHOD") and ins.argval in _IMPURE_ATTRS:
                raise TraceBreak(f"'.{ins.argval}' (an effect or state a trace would freeze)")
            if ins.opname in ("LOAD_GLOBAL", "LOAD_DEREF", "LOAD_NAME", "LOAD_CLASSDEREF"):
                name = ins.argval
                if name in hidden and ins.opname == "LOAD_DEREF":
                    continue
                value = closure[name] if name in closure else fn.__globals__.get(name, builtins.get(name))
                module = getattr(value, "__name__", "") if isinstance(value, types.ModuleType) else \
                    getattr(value, "__module__", None) or ""
                pure = (value is builtins.get(name) and name in _PURE_BUILTINS) or \
                    module.split(".")[0] in _PURE_MODULES and (isinstance(value, types.ModuleType) or callable(value))
                if not pure:
                    raise TraceBreak(f"it reads '{name}', whose value or effects a trace would freeze")
        for const in code.co_consts:
            if hasattr(const, "co_code"):
                check(const)
    check(fn.__code__)


def _codes(code) -> set:
    out = {code}
    for const in code.co_consts:
        if hasattr(const, "co_code"):
            out |= _codes(const)
    return out


def _origin(line: int | None, source: list) -> str:
    """The comment naming the Python line a node of the record came from."""
    if line is None:
        return ""
    text = source[line - 1].strip() if 0 < line <= len(source) else ""
    return f"  # line {line}: {text}" if text else f"  # line {line}"


def traced_function(fn, args: tuple):
    """A plain function holding the record of one call of `fn` on `args`."""
    import copy

    target = getattr(fn, "__trace_closure__", fn)  # a closure's shim: its free variables are parameters too
    where = SourceLoc(target.__code__.co_filename, target.__code__.co_firstlineno, 0)
    rec = _Recorder(target)
    names = list(fn.__code__.co_varnames[:fn.__code__.co_argcount])
    if len(names) != len(args) or fn.__code__.co_kwonlyargcount or fn.__code__.co_flags & 0x0C:
        raise FunctionNotCompilable("capture_mode='trace' traces positional parameters only", where)
    try:
        _check_reads(target, frozenset(target.__code__.co_freevars) if target is not fn else frozenset())
        tracers = [Tracer(rec, n, copy.deepcopy(a)) for n, a in zip(names, args)]
        result = fn(*tracers)
        ret = rec.text(result)
    except Exception as exc:  # noqa: BLE001 - a tracing value the code cannot use (or the code's own error)
        reason = str(exc) if isinstance(exc, TraceBreak) else f"{type(exc).__name__}: {exc}"
        raise FunctionNotCompilable(f"{fn.__qualname__}: the trace stops: {reason}", where,
                                    "the whole function runs in CPython (graph break)") from None
    source = linecache.getlines(target.__code__.co_filename)
    body = [(f"    {n} = {t}" if n else f"    {t}") + _origin(line, source) for n, t, line in rec.lines]
    body.append(f"    return {ret}")
    text = f"def {fn.__name__ if fn.__name__.isidentifier() else 'traced'}({', '.join(names)}):\n" \
           + "\n".join(body) + "\n"
    filename = f"<trace of {fn.__qualname__}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    namespace = {"np": np}
    try:
        code = compile(text, filename, "exec")
    except SyntaxError as exc:  # a record this module cannot write yet
        raise FunctionNotCompilable(f"{fn.__qualname__}: the trace's record is not valid Python ({exc.msg})",
                                    where, "the whole function runs in CPython") from None
    exec(code, namespace)  # noqa: S102 - text built from NumPy names and constants
    traced = next(v for k, v in namespace.items() if k != "np" and k != "__builtins__")
    traced.__qualname__, traced.__module__ = fn.__qualname__, fn.__module__
    return traced


# ---- closures over arrays: their free variables as hidden arguments ------------------

def closure_shim(fn):
    """For a trace-mode closure that only reads its free variables: a function
    taking them as trailing parameters, which traces, compiles and dispatches
    on their values' types like any argument.  None where that is not sound:
    a nonlocal store, or an inner function capturing a cell (it would keep
    the shim's cell, not the closure's)."""
    code = fn.__code__
    free = code.co_freevars
    if not free or fn.__defaults__ or code.co_kwonlyargcount or code.co_flags & 0x0C or _rebinds(code, set(free)):
        return None
    try:  # modules and NumPy's callables stay read through the cell (_check_reads), as before
        if any(isinstance(c.cell_contents, types.ModuleType) or callable(c.cell_contents) for c in fn.__closure__):
            return None
    except ValueError:  # a cell not yet set
        return None
    params = list(code.co_varnames[:code.co_argcount]) + list(free)
    name = fn.__name__ if fn.__name__.isidentifier() else "closure"
    text = f"def {name}({', '.join(params)}):\n    return _call(_fn, ({''.join(p + ', ' for p in params)}))\n"
    namespace = {"_call": _call_with_cells, "_fn": fn}
    exec(compile(text, f"<closure shim of {fn.__qualname__}>", "exec"), namespace)  # noqa: S102 - names only
    shim = namespace[name]
    shim.__qualname__, shim.__module__, shim.__trace_closure__ = fn.__qualname__, fn.__module__, fn
    return shim


def _call_with_cells(fn, values: tuple):
    """fn run by CPython with its free variables set to the trailing values."""
    n = fn.__code__.co_argcount
    cells = tuple(types.CellType(v) for v in values[n:])
    return types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, None, cells)(*values[:n])


def _rebinds(code, free: set) -> bool:
    for ins in dis.get_instructions(code):
        if ins.opname in ("STORE_DEREF", "DELETE_DEREF") and ins.argval in free:
            return True
    return any(hasattr(c, "co_code") and (free & set(c.co_freevars) or _rebinds(c, free)) for c in code.co_consts)


class ClosureCall:
    """What @jit returns for a trace-mode closure: each call reads the cells
    now and passes their values as hidden arguments to the shim's dispatcher,
    so a rebound cell is a new argument (dispatched on its type, re-traced
    when the type is new), never a stale array."""

    def __init__(self, fn, inner):
        import functools

        functools.update_wrapper(self, fn)
        self.py_func, self._inner = fn, inner

    def __call__(self, *args, **kwargs):
        fn = self.py_func
        if kwargs or len(args) != fn.__code__.co_argcount:
            return fn(*args, **kwargs)  # CPython's call, and its TypeError
        try:
            values = [cell.cell_contents for cell in fn.__closure__]
        except ValueError:  # an empty cell: CPython's NameError
            return fn(*args)
        return self._inner(*args, *values)

    def __getattr__(self, name):
        return getattr(self._inner, name)
