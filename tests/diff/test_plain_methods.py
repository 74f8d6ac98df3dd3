"""@jit on methods of ordinary classes (issue 13; MindSpore's Cell.construct
pattern): `self` is the plain Python object, the attributes the method reads
are typed like arguments (so their types key the specialization), the ones
it assigns are written back onto the object -- also when the call raises.
Differential tests: each class is used through the compiled method and
through its undecorated twin (`.py_func`), and the objects compared after."""
from __future__ import annotations

import statistics
import warnings

import numpy as np
import pytest

from transpile import TranspileFallbackWarning
from transpile import jit as plain_jit

from ._support import jit


class Affine:
    scale_default = 2  # a class attribute, read through self

    def __init__(self, w, b):
        self.w = w
        self.b = b
        self.calls = 0
        self.total = 0.0

    @jit
    def apply(self, x):
        self.calls += 1
        y = self.w * x + self.b * self.scale_default
        self.total += float(np.sum(y))
        return y


class Scale:
    def __init__(self, k, offset):
        self.k = k
        self.offset = offset

    @jit
    def at(self, x):
        return self.k * x + self.offset


class Cell:
    """MindSpore style: construct holds the computation, __call__ forwards."""

    def __init__(self, weight, bias):
        self.weight = weight
        self.bias = bias

    @jit
    def construct(self, x):
        return np.tanh(x @ self.weight + self.bias)

    def __call__(self, x):
        return self.construct(x)


class Poly:
    def __init__(self, coeffs):
        self.coeffs = coeffs

    @jit
    def __call__(self, x):
        s = 0.0
        for c in self.coeffs:
            s = s * x + c
        return s


class Guarded:
    def __init__(self, limit):
        self.limit = limit
        self.seen = 0

    @jit
    def take(self, k):
        self.seen += k
        if self.seen > self.limit:
            raise ValueError("over the limit")
        return self.seen


class Described:
    def __init__(self, v):
        self.v = v

    @plain_jit
    def show(self):
        return str(self)  # `self` itself is used: the method runs in CPython

    def __str__(self):
        return f"Described({self.v})"


class Stats:
    def __init__(self):
        self.m = 0.0

    @plain_jit
    def update(self, xs):
        self.m = statistics.mean(xs)  # runs as Python, and names self: the method runs in CPython
        return self.m * 2


class TwiceK:
    def __init__(self, k):
        self.k = k

    @plain_jit
    def twice(self, x):
        return self.k * x + self.k


class Logged(TwiceK):
    """Attribute reads are observable: they must happen when CPython does them."""

    reads: list = []

    def __getattribute__(self, name):
        Logged.reads.append(name)
        return object.__getattribute__(self, name)


def _twin(obj):
    """A copy of obj whose methods run undecorated."""
    twin = object.__new__(type(obj))
    twin.__dict__.update({k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in obj.__dict__.items()})
    return twin


def _same(a, b):
    assert type(a) is type(b), (a, b)
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=1e-12)
    else:
        assert a == pytest.approx(b, rel=1e-12)


def test_attributes_read_and_written_back():
    m = Affine(np.array([1.0, 2.0]), 0.5)
    ref = _twin(m)
    for x in (1.0, np.array([3.0, -1.0])):
        _same(m.apply(x), Affine.apply.py_func(ref, x))
    assert m.calls == ref.calls == 2 and type(m.calls) is int
    _same(m.total, ref.total)
    assert type(m.total) is float


def test_attribute_types_are_part_of_the_key():
    for k, offset in ((2, 1), (2.5, 1.0), (np.int32(3), 1), (2, 1)):  # ints give ints, as in CPython
        s = Scale(k, offset)
        _same(s.at(3), Scale.at.py_func(s, 3))


def test_construct_and_call():
    rng = np.random.default_rng(0)
    cell = Cell(rng.standard_normal((3, 2)), rng.standard_normal(2))
    x = rng.standard_normal((4, 3))
    _same(cell(x), Cell.construct.py_func(cell, x))
    p = Poly([1.0, -2.0, 0.5])
    _same(p(1.5), Poly.__call__.py_func(p, 1.5))
    _same(Poly((1, 2, 3))(2.0), Poly.__call__.py_func(Poly((1, 2, 3)), 2.0))


def test_writes_survive_an_exception():
    g, ref = Guarded(5), Guarded(5)
    assert g.take(3) == Guarded.take.py_func(ref, 3)
    with pytest.raises(ValueError, match="over the limit"):
        g.take(4)
    with pytest.raises(ValueError, match="over the limit"):
        Guarded.take.py_func(ref, 4)
    assert g.seen == ref.seen == 7


def test_self_used_otherwise_runs_in_cpython():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert Described(3).show() == "Described(3)"
    assert any(issubclass(w.category, TranspileFallbackWarning) for w in caught)


def test_a_fallback_statement_naming_self_runs_the_method_in_cpython():
    st = Stats()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        assert st.update([1.0, 2.0, 4.5]) == 5.0
        assert st.m == 2.5
        assert st.update([3.0]) == 6.0
    assert st.m == 3.0


def test_a_class_customizing_attribute_access_runs_in_cpython():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        assert TwiceK(2.0).twice(3.0) == 8.0  # compiled
        assert Logged(2.0).twice(3.0) == 8.0
    assert [n for n in Logged.reads if not n.startswith("__")] == ["twice", "k", "k"]  # each read, as CPython does
