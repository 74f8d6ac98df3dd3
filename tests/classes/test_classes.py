"""@jit_class against the same classes run by CPython (defs.py run twice)."""
import pickle
import types
import warnings

import numpy as np
import pytest

from transpile import TranspileFallbackWarning, jit_class

from . import defs as J

with warnings.catch_warnings():
    warnings.simplefilter("ignore", TranspileFallbackWarning)


def _reference_module():
    mod = types.ModuleType("tests.classes.defs_reference")
    mod.REFERENCE_DECORATORS = (lambda f: f, lambda c: c)
    with open(J.__file__) as f:
        exec(compile(f.read(), J.__file__, "exec"), mod.__dict__)
    return mod


P = _reference_module()


def same(a, b):
    """Values equal, with the same Python/NumPy types (instances: same fields)."""
    if isinstance(b, tuple):
        assert isinstance(a, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
    elif isinstance(b, np.ndarray):
        assert isinstance(a, np.ndarray) and a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)
    elif hasattr(b, "__dict__") and type(b).__module__ == P.__name__:
        assert type(a).__name__ == type(b).__name__
        for name, value in vars(b).items():
            same(getattr(a, name), value)
    else:
        assert type(a) is type(b), (a, b)
        assert a == b or (a != a and b != b)


def test_the_issue_example():
    pos, vel = np.zeros((4, 2)), np.ones((4, 2))
    p = J.Particles(pos.copy(), vel.copy())
    q = P.Particles(pos.copy(), vel.copy())
    got, want = J.simulate(p, 0.01, 25), P.simulate(q, 0.01, 25)
    same(got, want)
    assert got is p.pos  # the same array object, as in CPython
    same(p.steps, q.steps)
    same(p.vel, q.vel)
    p.step(0.5)
    q.step(0.5)
    same(p.pos, q.pos)
    same(p.steps, q.steps)
    same(J.Particles.gravity, P.Particles.gravity)
    same(p.gravity, q.gravity)


def test_instances_are_shared_by_reference():
    pos = np.zeros((2, 2))
    p = J.Particles(pos, np.ones((2, 2)))
    assert p.pos is pos  # fields keep the very objects given
    J.simulate(p, 0.1, 3)
    assert pos[0, 0] == pytest.approx(0.3)  # compiled code mutated the caller's array in place
    assert p.steps == 3
    p.steps = 10  # Python writes, compiled code sees it
    J.simulate(p, 0.1, 1)
    assert p.steps == 11
    assert isinstance(p, J.Particles)


def test_fields_methods_properties_static_methods_class_attributes():
    c, r = J.Counter(3), P.Counter(3)
    same(J.count_up(c, 7), P.count_up(r, 7))
    same(c.history, r.history)
    same(c.clipped, r.clipped)
    same(c.scaled(2), r.scaled(2))
    same(J.Counter.scale(2.5, 2), P.Counter.scale(2.5, 2))
    same(c.ticks(3), r.ticks(3))
    same(c.limits, r.limits)
    same(c.weighted(), r.weighted())
    same(J.Counter.weights, P.Counter.weights)


def test_operators_and_instances_made_in_compiled_code():
    got, want = J.vec_ops(1.0, 2.0, 0.5, -1.0), P.vec_ops(1.0, 2.0, 0.5, -1.0)
    same(got, want)
    assert isinstance(got[-1], J.Vec)
    a, b = J.Vec(1.0, 2.0), J.Vec(3.0, 4.0)
    s = a + b  # the compiled __add__, called from Python
    assert isinstance(s, J.Vec) and (s.x, s.y) == (4.0, 6.0)
    assert (a < b) is True and (a == J.Vec(1.0, 2.0)) is True


def test_nested_instances():
    got, want = J.make_body(2.0), P.make_body(2.0)
    same(got, want)
    inner = got.at
    assert isinstance(inner, J.Vec)
    assert got.at is inner  # one Python object per instance
    same(got.move(1.0, 0.0), want.move(1.0, 0.0))
    got.at = J.Vec(0.0, 1.0)
    assert got.move(0.0, 1.0) == 4.0


def test_inheritance_overrides_and_super():
    same(J.shapes(2.0, 3.0), P.shapes(2.0, 3.0))
    sq, ref = J.Square(1.5), P.Square(1.5)
    assert isinstance(sq, J.Shape) and isinstance(sq, J.Square)
    same(sq.describe(), ref.describe())
    same(sq.grow(2.0), ref.grow(2.0))
    cube, cref = J.Cube(2.0, 5.0), P.Cube(2.0, 5.0)
    same(cube.describe(), cref.describe())
    same((cube.code, cube.side, cube.depth, cube.scale), (cref.code, cref.side, cref.depth, cref.scale))


def test_subclass_of_a_jit_class_is_a_jit_class():
    class Tiny(J.Square):
        def area(self):
            return super().area() / 2.0

    assert type(Tiny) is type(J.Square)
    t = Tiny(4.0)
    assert t.describe() == 12.0  # 16 / 2 * 1.0 + 4 sides, compiled
    assert repr(t) == "Tiny(code=4, scale=1.0, side=4.0)"


def test_fallback_statement_inside_a_method():
    a, r = J.Accumulator(4), P.Accumulator(4)
    for i, v in enumerate([1.0, 5.0, 7.5, 0.25]):
        same(a.add(i, v), r.add(i, v))
    same((a.flag, a.pair, a.n), (r.flag, r.pair, r.n))
    with pytest.warns(TranspileFallbackWarning):
        got = a.summary()
    same(got, r.summary())


def test_attribute_set_checks_the_field_type():
    c = J.Counter(2)
    c.count = np.int32(5)  # converted like NumPy's same_kind casting
    assert c.count == 5 and type(c.count) is int
    with pytest.raises(TypeError, match=r"Counter.count holds int; cannot assign a value of type float"):
        c.count = 2.5
    with pytest.raises(TypeError, match="history"):
        c.history = np.zeros((2, 2))
    c.history = np.arange(4.0)[::-1]  # any strides
    assert c.tick() == 7 and c.history[3] == 1.0  # 7 % 4 == 3: history[3] was 0.0
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        c.nope
    with pytest.raises(AttributeError):
        c.nope = 1
    with pytest.raises(AttributeError, match="cannot delete"):
        del c.count


def test_repr_and_pickle():
    v = J.Vec(1.5, -2.0)
    assert repr(v) == "Vec(x=1.5, y=-2.0)"
    w = pickle.loads(pickle.dumps(v))
    assert isinstance(w, J.Vec) and w is not v and (w.x, w.y) == (1.5, -2.0)
    b = pickle.loads(pickle.dumps(J.make_body(3.0)))
    assert isinstance(b.at, J.Vec) and b.at.x == 1.5 and b.trail[0, 0] == 0.5


def test_errors():
    with pytest.raises(TypeError, match="can only be used for class type"):
        jit_class(len)

    class Meta(type):
        pass

    with pytest.raises(TypeError, match="metaclass"):
        jit_class(Meta("M", (), {}))
    with pytest.raises(TypeError, match="builtin type list"):
        @jit_class
        class L(list):
            pass

    # MindSpore's jit_class wording and exception type
    with pytest.raises(ValueError, match=r"^MsClassObject: 'Counter' has no __call__ function, please check the code\.$"):
        J.Counter(1)()
    v = J.Vec(1.0, 2.0)
    with pytest.raises(ValueError, match="'Vec' has no __call__ function"):
        v(1)

    @jit_class
    class Slotted:
        __slots__ = ("a",)

        def __init__(self):
            self.a = 1
            self.b = 2

    from transpile import TypingError
    with pytest.raises(TypingError, match="__slots__"):
        Slotted()


def test_everything_above_compiled_whole():
    """The jit functions and methods exercised here ran with no fallback
    (Accumulator.summary, the one method with a fallback statement, aside)."""
    J.vec_ops(1.0, 2.0, 0.5, -1.0)
    for fn in (J.simulate, J.count_up, J.vec_ops, J.shapes, J.make_body):
        for sig in fn.signatures:
            assert fn.fallbacks(sig) == [], fn


def test_a_new_process_constructs_and_calls_with_no_compile(cache_dir):
    """Classes live in the disk cache: after this session compiled them, a
    fresh interpreter builds instances and calls methods with zero compiles."""
    import os
    import subprocess
    import sys

    J.simulate(J.Particles(np.zeros((3, 2)), np.ones((3, 2))), 0.1, 2)
    J.make_body(1.0).move(1.0, 1.0)
    code = ("import numpy as np, sys; sys.modules.pop('libcst', None)\n"
            "from tests.classes import defs as J\n"
            "from transpile import dispatcher\n"
            "p = J.Particles(np.zeros((3, 2)), np.ones((3, 2)))\n"
            "r = J.simulate(p, 0.1, 2)\n"
            "b = J.make_body(1.0); b.move(1.0, 1.0)\n"
            "print(dispatcher.COMPILE_COUNT, p.steps, 'libcst' in sys.modules, round(float(r[0, 0]), 6))\n")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, TRANSPILE_CACHE_DIR=cache_dir))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0", "2", "False", "0.2"]


def test_arrays_made_by_compiled_code_live_in_fields():
    got, want = J.grid_sum(3, 4), P.grid_sum(3, 4)
    same(got, want)
    g = got[-1]
    cells = g.cells
    assert cells is g.cells or np.shares_memory(cells, g.cells)
    del got
    import gc
    gc.collect()
    cells[1, 1] = 7.0  # the memory outlives the call: the instance holds it
    assert g.cells[1, 1] == 7.0
    r = g.fill(1.5)
    assert np.shares_memory(r, g.cells) and cells[1, 1] == 1.5


def test_magic_methods_other_than_operators_run_as_python():
    with pytest.warns(TranspileFallbackWarning, match="__len__, __repr__"):
        @jit_class
        class Bag:
            def __init__(self, n):
                self.n = n

            def __len__(self):
                return self.n

            def __repr__(self):
                return f"Bag of {self.n}"

    b = Bag(3)
    assert len(b) == 3 and repr(b) == "Bag of 3"
    from transpile import UnsupportedSyntaxError
    with pytest.raises(UnsupportedSyntaxError, match="fullgraph"):
        @jit_class(fullgraph=True)
        class Strict:
            def __len__(self):
                return 0


def test_fullgraph_class_reports_fallback_statements():
    @jit_class(fullgraph=True)
    class Strict:
        def __init__(self, x):
            self.x = x

        def show(self):
            print(f"{self.x!a}")  # ascii() conversion: not compiled (print itself is)
            return self.x

    from transpile import UnsupportedSyntaxError
    s = Strict(2.0)
    assert s.x == 2.0
    with pytest.raises(UnsupportedSyntaxError, match="print"):
        s.show()  # the report quotes the line


def test_isinstance_in_compiled_code():
    args = (1.0, 2.0)
    got = J.kinds(J.Vec(*args), J.Square(2.0), 3, np.zeros(2))
    want = P.kinds(P.Vec(*args), P.Square(2.0), 3, np.zeros(2))
    same(got, want)
    assert J.kinds.fallbacks() == []


def test_transpile_show_of_a_method():
    """`transpile show file.py:Class.method` prints the C++ of each cached
    specialization: the layout's struct and the method's body."""
    from transpile.inspection import show

    J.Counter(3).tick()
    text = show(f"{J.__file__}:Counter.tick")
    assert "struct L_Counter_" in text and "self->count = " in text
    assert "// " + J.__file__.rsplit("/", 1)[-1] + ":" in text


def test_a_field_assigned_on_some_paths_only():
    """CPython raises AttributeError reading it; so do compiled code and the
    field's getter (never a crash)."""
    grown, bare = J.Branch(1.5, True), J.Branch(1.5, False)
    ref = P.Branch(1.5, False)
    assert grown.leaf_value() == 3.0 and grown.leaf.x == 3.0
    with pytest.raises(AttributeError):
        ref.leaf_value()
    with pytest.raises(AttributeError):
        bare.leaf_value()
    with pytest.raises(AttributeError):
        bare.leaf


def test_weak_references():
    import gc
    import weakref

    v = J.Vec(1.0, 2.0)
    r = weakref.ref(v)
    assert r() is v
    del v
    gc.collect()
    assert r() is None
