"""Module-level values as CPython sees them: frozen immutable values are
respecialized when rebound, mutable ones are read live (differential
against the undecorated functions, in one process)."""
import warnings

import numpy as np
import pytest

from tests.conftest import assert_same
from tests.fallback import globals_conf as conf
from tests.fallback import globals_funcs as gf
from transpile import dispatcher
from transpile.errors import TranspileFallbackWarning


@pytest.fixture
def restore():
    saved = (gf.v, gf.K, gf.PAIR, gf.gp.v, gf.gp.arr.copy(), gf.TABLE, gf.H, conf.scale)
    yield
    gf.v, gf.K, gf.PAIR, gf.gp.v, gf.gp.arr, gf.TABLE, gf.H, conf.scale = saved


def same(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        got = fn(*args)
    assert_same(got, fn.py_func(*args))
    return got


def test_rebound_globals_between_calls(restore):
    same(gf.reads, 1.0)
    gf.set_v(4.0)  # `global v; v = 4.0` in another function
    gf.gp.v = 5.0
    conf.scale = 3.0
    gf.H.x = 2.5  # a @jit_class instance held in a global
    gf.H.data[1] = 7.0
    assert same(gf.reads, 1.0)[:4] == (5.0, 3.5, 6.0, 3.0)
    gf.H = gf.Holder(0.25)  # rebound to another instance
    gf.K, gf.PAIR = 5, (1, 0.125)
    same(gf.reads, 2.0)
    gf.gp.v = 3  # another type: respecialized (int + float is still float here)
    gf.set_v(2)
    same(gf.reads, 1.5)
    same(gf.reads, 1)


def test_constants_only_function_sees_each_rebinding(restore):
    same(gf.constants_only, 1.0)
    gf.set_v(4.0)
    same(gf.constants_only, 1.0)
    gf.unrelated = 1  # another store into the module: the guards are checked again, and hold
    same(gf.constants_only, 2.0)
    gf.K = 2.5
    assert same(gf.constants_only, 2.0) == 2.0 * 2.5 + 4.0 + 2


def test_rebinding_back_reuses_the_first_specialization(restore):
    gf.set_v(1.0)
    same(gf.reads, 1.0)
    gf.set_v(9.0)
    same(gf.reads, 1.0)
    before = dispatcher.COMPILE_COUNT
    for value in (1.0, 9.0, 1.0):
        gf.set_v(value)
        same(gf.reads, 1.0)
    gf.set_v(1.0 + 0.0 * gf.v)  # an equal value in a new object: no rebuild
    same(gf.reads, 1.0)
    assert dispatcher.COMPILE_COUNT == before


def test_module_arrays_are_the_callers_objects(restore):
    gf.TABLE = np.zeros(4)
    gf.gp.arr = np.arange(3.0)
    assert gf.writes_table(1, 2.5) == 2.5 + 3.0 + 2.5
    assert gf.TABLE.tolist() == [0.0, 2.5, 0.0, 0.0] and gf.gp.arr.tolist() == [0.0, 3.5, 2.0]
    table = gf.TABLE
    gf.TABLE = np.ones(4)  # rebound: seen on the next call
    assert gf.writes_table(0, 3.0) == 6.0 + 8.5
    assert table.tolist() == [0.0, 2.5, 0.0, 0.0] and gf.TABLE.tolist() == [3.0, 1.0, 1.0, 1.0]
    gf.TABLE = np.arange(8.0)[::2]  # strided
    same(gf.loop_over_table, 7)
    gf.TABLE = np.arange(4, dtype=np.int32)  # another dtype: respecialized
    same(gf.loop_over_table, 5)
    gf.TABLE = np.zeros(4)
    gf.TABLE.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        gf.writes_table.py_func(0, 1.0)
    with pytest.raises(ValueError, match="read-only"), warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        gf.writes_table(0, 1.0)


def test_fallback_rebinding_a_global_in_the_middle_of_a_call(restore):
    gf.TABLE = np.full(4, 0.5)
    expected = gf.rebinds_in_fallback.py_func(1.0)
    gf.gp.v, gf.v = 2.0, 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        got = gf.rebinds_in_fallback(1.0)
    assert_same(got, expected)
    assert gf.gp.v == 6.0 and gf.v == 8.0


def test_callees_read_live_values_when_they_start(restore):
    gf.TABLE, conf.scale = np.full(4, 0.5), 2.0
    expected = gf.calls_scaled.py_func(1.0)
    conf.scale = 2.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        got = gf.calls_scaled(1.0)
    assert_same(got, expected)
    assert got == (2.5, 4.5, 4.0)
