"""Functions compiled code calls in Python itself: NumPy's linear algebra
(LAPACK decides the bits), NumPy functions whose exact results come from its
own algorithms (np.round's scaling, np.interp, np.convolve, the nan-aware
reductions' pairwise sums, partition orders), and the draws of Python's
random module and of NumPy's global RandomState that random_lib does not
compile (their state lives in Python).  The call is compiled -- the function
around it has no fallback, and nothing about it is frozen: the function is
looked up as Python would at each call -- and the bridge hands it the
arguments (arrays as views of the same memory) and checks its result
(transpile_rt/python_calls.hpp).

The result's type comes from the function itself: called while compiling on
sample arguments of the call's types (a draw on a private generator, never
the user's), it gives the type compiled code holds.  Only functions whose
result type follows the argument types, not their values, are listed (no
np.linalg.eig, whose result is complex only for some matrices, no np.roots),
and only those returning new arrays (no views such as np.diag of a matrix,
which compiled code would have to copy); the bridge still checks every
result exactly and raises TypeError rather than converting."""
from __future__ import annotations

import functools
import importlib
import random

import numpy as np

from ..hir import types as T
from .base import NOT_CONST, CExpr, Entry
from .registry import entry_for, register

H_CALLS = "transpile_rt/python_calls.hpp"
H_STR = "transpile_rt/topy.hpp"

# module -> names: typed by calling the function itself on sample arguments.
PURE = {
    "numpy": (
        "round around nonzero flatnonzero argwhere count_nonzero roll interp convolve correlate "
        "polyfit polyval polyder polyint polyadd polysub polymul trapezoid gradient kron tensordot inner vdot "
        "tril triu vander allclose isclose array_equal array_equiv average ptp digitize "
        "nanmean nanstd nanvar nansum nanprod nanmax nanmin nanargmax nanargmin nanmedian nanpercentile "
        "nanquantile nancumsum nancumprod partition argpartition sort_complex unwrap ediff1d extract compress "
        "take take_along_axis insert delete append isin intersect1d union1d setdiff1d setxor1d "
        "histogram_bin_edges geomspace logspace tri gcd lcm ldexp frexp modf heaviside nextafter spacing "
        "float_power logaddexp2 sinc i0 fix isneginf isposinf iscomplex isreal cumulative_sum cumulative_prod "
        "unravel_index ravel_multi_index meshgrid"
    ).split(),
    "numpy.linalg": (
        "solve det inv pinv cholesky eigh eigvalsh svd svdvals qr lstsq matrix_power matrix_rank slogdet cond "
        "multi_dot tensorinv tensorsolve"
    ).split(),
    # CPython's math functions no table compiles natively (fsum's exact sums, isqrt and comb of ints)
    "math": "fsum prod isqrt comb perm lcm remainder ldexp frexp modf nextafter ulp cbrt exp2 dist".split(),
    # CPython's own complex functions (their special values and branch cuts are its code's)
    "cmath": "sqrt exp log log10 sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh phase polar rect "
             "isfinite isinf isnan isclose".split(),
}
# module -> names of draws, typed on a private generator of the same class.
DRAWS = {
    "random": (
        "seed random uniform randint randrange getrandbits gauss normalvariate lognormvariate expovariate "
        "vonmisesvariate gammavariate betavariate paretovariate weibullvariate triangular"
    ).split(),
    "numpy.random": (
        "seed beta binomial chisquare exponential f gamma geometric gumbel hypergeometric laplace logistic "
        "lognormal logseries negative_binomial noncentral_chisquare noncentral_f pareto poisson power rayleigh "
        "standard_cauchy standard_exponential standard_gamma standard_t triangular vonmises wald weibull zipf "
        "choice permutation shuffle"
    ).split(),
}
_PRIVATE = {"random": lambda: random.Random(0), "numpy.random": lambda: np.random.RandomState(0)}
_PASSABLE = (T.Array, T.Scalar, T.NoneType, T.Str)


def _sample_array(t: T.Array, size: int, indices: bool = False):
    """An array of t's dtype and ndim, `size` along each axis: well
    conditioned (symmetric positive definite matrices: n I + ones) so linear
    algebra succeeds; indices: integers that index such an array (0 to n-1)."""
    n = size if t.ndim <= 3 else 1
    matrix = n * np.eye(n) + np.ones((n, n))
    base = np.arange(1, n + 1) if t.ndim == 1 else np.broadcast_to(matrix, (n,) * t.ndim)
    if indices and np.dtype(t.dtype).kind in "iu":
        base = np.zeros((n,) * t.ndim, np.int64) + np.arange(n) % n
    if t.dtype == "bool":
        base = base > 1
    return np.ascontiguousarray(base.astype(t.dtype))


def _sample(t: T.Type, const, number, size, indices=False):
    """A value of type t: the constant when the call has one, else `number`
    (arrays `size` long along each axis, integer ones indices where asked)."""
    if isinstance(t, T.Array):
        return _sample_array(t, size, indices)
    if isinstance(t, T.Scalar):
        value = const if const is not NOT_CONST and not isinstance(const, str) else number
        if t.weak:
            return {"b": bool, "i": int, "u": int, "f": float, "c": complex}[t.kind](value)
        return np.dtype(t.dtype).type(value)
    if t == T.NONE:
        return None
    if isinstance(t, T.Tuple) and (const is NOT_CONST or not isinstance(const, tuple)):
        return tuple(_sample(item, NOT_CONST, number, size, indices) for item in t.items)
    if const is NOT_CONST:
        raise TypeError(f"a {t} argument known only when the code runs")
    return const


def _type_of(value) -> T.Type:
    """The compiled type of a value the function returned."""
    if value is None:
        return T.NONE
    if isinstance(value, bool):
        return T.BOOL
    if isinstance(value, (int, float, complex)) and type(value) in (int, float, complex):
        return {int: T.INT, float: T.FLOAT, complex: T.COMPLEX}[type(value)]
    if isinstance(value, np.generic) and value.dtype.name in T.DTYPES:
        return T.Scalar(value.dtype.name)
    if type(value) is np.ndarray and value.dtype.name in T.DTYPES and value.ndim >= 1:
        return T.Array(value.dtype.name, value.ndim, "C")
    if isinstance(value, tuple) and value and all(not isinstance(v, tuple) for v in value):
        return T.Tuple(tuple(_type_of(v) for v in value))  # a named tuple too: _make_entry checks its use
    raise TypeError(f"it returns a value of type '{type(value).__name__}'"
                    + (f" with {value.ndim} dimensions" if isinstance(value, np.ndarray) else "")
                    + ", which compiled code does not hold")


@functools.lru_cache(maxsize=512)
def _result_type(module: str, name: str, draw: bool, types: tuple, consts: tuple, keywords: tuple) -> tuple:
    """What module.name returns for arguments of these types: the function
    called on samples (numbers 1, else 2, else halves where 1 is out of its
    domain; arrays 4 along each axis, else 16 where a constant index needs
    more, else integer arrays of indices into the others, for np.take), and
    the name of the named tuple class it returns, if it does (else None)."""
    owner = _PRIVATE[module]() if draw else importlib.import_module(module)
    fn = getattr(owner, name)
    npos = len(types) - len(keywords)
    problem = None
    for number, size, indices in ((1, 4, False), (2, 4, False), (0.5, 4, False), (1, 16, False), (1, 4, True)):
        try:
            values = [_sample(t, c, number, size, indices) for t, c in zip(types, consts)]
            result = fn(*values[:npos], **dict(zip(keywords, values[npos:])))
        except Exception as exc:  # noqa: BLE001 -- the function's own complaint, kept for the message
            problem = problem or exc
            continue
        return _type_of(result), (type(result).__name__ if isinstance(result, tuple) and type(result) is not tuple
                                  else None)
    raise TypeError(f"on sample arguments of these types it raised {type(problem).__name__}: {problem}")


def _passable(t) -> bool:
    """Arrays, numbers, strs, None, and tuples of numbers (np.unravel_index's shape)."""
    if isinstance(t, T.Tuple):
        return bool(t.items) and all(isinstance(i, T.Scalar) for i in t.items)
    return isinstance(t, _PASSABLE) and not isinstance(t, T.DeviceArray)


def _boxed(lw, value, t) -> str:
    """The tr_value handed to Python for one argument (a tuple as a Python tuple of its items)."""
    if isinstance(t, T.Tuple):
        lw.module.include(H_STR)
        items = ", ".join(f"tr::topy::one(std::get<{k}>(tr_items), {'true' if i.weak else 'false'})"
                          for k, i in enumerate(t.items))
        # evaluated where Python evaluates it (a lambda, not hoisted before the statement)
        return f"tr::box([&]() {{ auto tr_items = {lw.ev(value)}; return tr::topy::tuple({items}); }}())"
    return f"tr::box({lw.ev(value)}, {'true' if getattr(t, 'weak', False) else 'false'})"


def _make_entry(module: str, name: str, draw: bool) -> Entry:
    spelled = f"{module.replace('numpy', 'np')}.{name}"

    def infer(site):
        items = [(t, n) for t, n in zip(site.args, site.arg_nodes)]
        keywords = tuple(site.kwargs)
        items += [(site.kwargs[k], site.kw_nodes[k]) for k in keywords]
        for t, _ in items:
            if not _passable(t):
                raise site.error(f"{spelled}() of a {t} runs as Python: compiled code passes arrays, numbers, "
                                 "strings and None to it")
        types = tuple(t for t, _ in items)
        consts = tuple(site.const(n) if isinstance(t, (T.Scalar, T.Str, T.Tuple)) else NOT_CONST for t, n in items)
        try:
            hash(consts)
            result, named = _result_type(module, name, draw, types, consts, keywords)
        except TypeError as exc:
            raise site.error(f"{spelled}() of {', '.join(map(str, types)) or 'no arguments'} runs as Python: "
                             f"{exc}") from None
        if named and not site.taken_apart:  # compiled code would hand out a plain tuple
            raise site.error(f"{spelled}() returns {named}, a named tuple that compiled code would hold as a plain "
                             "tuple", "unpack it (w, v = ...) or index it by a constant")
        return result, keywords

    # needs_python: it runs Python, with the GIL; never on a prange thread
    return Entry(f"{module}.{name}", infer, _python_call(module, name), (H_CALLS,), needs_python=True)


def _python_call(module: str, name: str):
    """The lowering of a call of module.name in Python (site_info: the keywords' names, in order)."""
    def lower(ls):
        lw = ls.lower
        lw.module.needs_host = True
        lw.module.include(H_CALLS)
        keywords = ls.site_info
        values = list(zip(ls.args, ls.arg_types)) + [(ls.kwargs[k], ls.kw_types[k]) for k in keywords]
        if any(isinstance(t, T.Str) for _, t in values):
            lw.module.include(H_STR)
        boxes = ", ".join(_boxed(lw, v, t) for v, t in values)
        leaves = ls.result.items if isinstance(ls.result, T.Tuple) else (ls.result,)
        weak = "".join("1" if isinstance(t, T.Scalar) and t.weak else "0" for t in leaves)
        tail = (", {" + ", ".join(f'"{k}"' for k in keywords) + "}") if keywords else ""
        return CExpr(f'tr::call_python<{lw.ctype(ls.result)}>("{module}", "{name}", {{{boxes}}}, "{weak}"{tail})')

    return lower


def call_in_python(module: str, name: str) -> Entry:
    """The entry lowering a call as module.name called in Python, for a table
    whose typing rule hands it such calls (library/base.py Handoff with
    info=(): no keywords), the result's type already known (int() of a str)."""
    return Entry(f"{module}.{name}", None, _python_call(module, name), (H_CALLS,), needs_python=True)


def entry_for_function(module: str, name: str) -> Entry:
    """The entry calling module.name in Python (for tables that compile some of its calls natively)."""
    draw = name in DRAWS.get(module, ())
    if not draw and name not in PURE.get(module, ()):
        raise KeyError(f"{module}.{name} is not a listed function")
    return _make_entry(module, name, draw)


def register_all() -> None:
    """Registers every listed function the tables compiled natively do not."""
    for tables, draw in ((PURE, False), (DRAWS, True)):
        for module, names in tables.items():
            owner = importlib.import_module(module)
            for name in names:
                fn = getattr(owner, name, None)
                if fn is not None and entry_for(fn) is None:
                    register(fn, _make_entry(module, name, draw))
