"""Differential tests: structured dtypes (record arrays, np.recarray, np.void
and np.record records) in compiled code against CPython/NumPy: field reads
and stores (a[i]['x'], a['x'][i], r.x of recarrays), fields as strided
arrays (a['x'].sum()), iteration, records returned and passed in, packed
and aligned layouts, NumPy's overflow on stores into an int8 field, and
the exceptions of unknown fields and attributes.  The @jit of _support is
fullgraph=True: these compile with no fallback."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from transpile import jit as plain_jit
from transpile import _runtime
from transpile.diagnostics import TranspileError, TranspileFallbackWarning
from transpile.hir import types as T

from ._support import check_items, jit

FIELDS = [("x", "f8"), ("y", "f8"), ("vx", "f8"), ("vy", "f8"), ("mass", "f4"), ("id", "i4")]
PACKED = np.dtype(FIELDS)  # itemsize 40: every field's offset a multiple of its size
ALIGNED = np.dtype(FIELDS + [("flag", "i1")], align=True)  # padded to 48 bytes
TAGGED = np.dtype([("w", "f8"), ("n", "u2"), ("tag", "i1"), ("pad", "i1")])  # packed, 12 bytes
ODD = np.dtype([("w", "f8"), ("tag", "i1"), ("n", "u2")])  # packed, 11 bytes: no field is an array of its own


def particles(dtype, n=7):
    p = np.zeros(n, dtype)
    p["x"] = np.linspace(0.0, 1.0, n)
    p["y"] = np.arange(n) * 0.25
    p["vx"] = np.sin(np.arange(n))
    p["vy"] = -1.5
    p["mass"] = np.arange(1, n + 1, dtype=np.float32) / 3
    p["id"] = np.arange(n) * 10
    return p


@jit
def step(p, dt):
    """A particle system's time step, in place: positions from velocities,
    gravity on vy, then the kinetic energy and the centre of mass."""
    for i in range(len(p)):
        p[i]["x"] += p[i]["vx"] * dt
        p["y"][i] = p["y"][i] + p[i]["vy"] * dt
        p[i]["vy"] -= 9.81 * dt
    energy = 0.0
    for r in p:
        energy += 0.5 * r["mass"] * (r["vx"] * r["vx"] + r["vy"] * r["vy"])
    m = p["mass"]
    return energy, (p["x"] * m).sum() / m.sum(), p["id"].max(), p["y"][1:].sum(), p.shape, p[-1]["id"]


def test_particle_step_packed_aligned_and_strided(check):
    check_items(check, step, particles(PACKED), 0.01)
    check_items(check, step, particles(ALIGNED), 0.01)
    check_items(check, step, particles(PACKED, 9)[::2], 0.5)  # a strided view: layout A
    # two layouts never share code: the dtype with its offsets is part of the type
    packed, aligned = (T.from_descriptor(_runtime.describe(particles(d)))[0] for d in (PACKED, ALIGNED))
    assert packed != aligned and "@32" in packed.spell() and aligned.rec.itemsize == 48


@jit
def rec_attributes(r, i):
    t = 0.0
    for k in range(r.shape[0]):
        t += r.x[k] * r[k].mass
    r.vx[i] = 2.5
    return t, r.mass.sum(), r[i].id, r.id[i], len(r), r.ndim, r.size, r.itemsize


def test_recarray_attribute_access(check):
    check_items(check, rec_attributes, particles(ALIGNED).view(np.recarray), 3)
    check_items(check, rec_attributes, particles(ALIGNED).view(np.recarray), -9)  # IndexError


@jit
def pick(a, i):
    return a[i], a, a[1::2]


def test_records_returned_are_numpys():
    for arr in (particles(PACKED), particles(ALIGNED).view(np.recarray)):
        got, same, view = pick(arr, 2)
        expected, _, expected_view = pick.py_func(arr, 2)
        assert type(got) is type(expected) and got.dtype == expected.dtype == arr.dtype
        assert got == expected and same is arr
        assert type(view) is type(expected_view) and view.dtype == arr.dtype and view.base is arr
        np.testing.assert_array_equal(view, expected_view)
        got["x"] = 42.0  # a view of the array, as in NumPy
        assert arr[2]["x"] == 42.0


@jit
def tag(a, v, w):
    n = 0
    for r in a:
        r["tag"] = v
        n += r["n"]
    a[1]["w"] = w
    a["n"][0] = v
    a[-1] = a[1]  # a whole record of the same dtype: its bytes
    a[0] = a[0]
    return n, a[0]["tag"], a[1]["w"], a[2]["w"]


def test_stores_into_small_int_fields_check_overflow(check):
    a = np.zeros(3, TAGGED)
    a["n"] = [1, 2, 3]
    check_items(check, tag, a, 5, 0.5)
    check_items(check, tag, a, -128, 2.0)
    check(tag, a, 300, 1.0)  # OverflowError: Python integer 300 out of bounds for int8
    check(tag, a, -129, 1.0)
    check(tag, a, 70000, 1.0)
    check(tag, np.zeros(0, TAGGED), 300, 1.0)  # no record: nothing stored, index 1 raises IndexError


@jit
def void_in(v, s):
    v["x"] = v["x"] * s
    return v["id"], v["mass"], v


def test_record_argument(check):
    p = particles(PACKED)
    v = p[3]
    got = void_in(v, 2.0)
    assert p[3]["x"] == particles(PACKED)[3]["x"] * 2 and got[2] is v  # written through to the array
    check_items(check, void_in, particles(PACKED)[4], 3.0)


def unknown_field(a, i):
    return a[i]["q"]


def plain_attribute(a, i):
    return a[i].x


def test_unknown_fields_and_attributes_raise_numpys_exceptions():
    a = particles(PACKED)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        for fn, exc in ((unknown_field, ValueError), (plain_attribute, AttributeError)):
            with pytest.raises(exc) as py:
                fn(a, 0)
            with pytest.raises(exc) as got:
                plain_jit(fn)(a, 0)
            assert str(got.value) == str(py.value)
    with pytest.raises(TranspileError, match="no field of name q"):
        jit(unknown_field)(a, 0)


def odd_view_sum(a):
    return a["n"].sum()


def test_fields_that_cannot_be_strided_arrays_run_in_cpython():
    a = np.ones(4, ODD)
    with pytest.raises(TranspileError, match="cannot be viewed as an array"):
        jit(odd_view_sum)(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        assert plain_jit(odd_view_sum)(a) == odd_view_sum(a)


def test_read_only_and_unaligned_record_arrays(check):
    ro = particles(PACKED)
    ro.flags.writeable = False
    check(step, ro, 0.5)  # ValueError: assignment destination is read-only
    raw = np.zeros(5 * 40 + 1, np.uint8)[1:].view(PACKED)  # data at an odd address: no field is an array
    raw["vx"] = 1.0
    with pytest.raises(TranspileError, match="not aligned"):
        step(raw, 0.5)
    check_items(check, rec_sum_unaligned, raw)


@jit
def rec_sum_unaligned(p):
    s = 0.0
    for r in p:
        r["x"] += r["vx"]
        s += r["x"]
    return s


@jit
def subarrays(a, i, s):
    """Subarray fields: r['v'] is an array view, a['v'] has the field's axes last."""
    a[i]["v"][1] = s
    a[i]["v"] *= 2.0
    a[0]["m"] = a[1]["m"] + 1
    t = 0.0
    for r in a:
        t += r["v"].sum() + r["m"][0, 1]
    return t, a["v"][:, 2], a[i]["v"], a["m"].shape, a["m"][1], a["v"][-1, -1]


def test_subarray_fields(check):
    a = np.zeros(3, np.dtype([("v", "f8", (3,)), ("m", "i4", (2, 2)), ("k", "i1")], align=True))
    a["v"] = np.arange(9.0).reshape(3, 3)
    a["m"] = np.arange(12).reshape(3, 2, 2)
    check_items(check, subarrays, a, 2, 5.0)
    check_items(check, subarrays, a, 3, 5.0)  # IndexError


@jit
def nested_fields(a, i, s):
    """A field that is itself a structure: r['p'] a record inside the record, a['p'] an array of them."""
    a[i]["p"]["a"] += s
    q = a[0]["p"]
    q["b"] = 7
    t = 0.0
    for r in a:
        t += r["p"]["a"] * r["x"]
    v = a["p"]
    v[1]["b"] = -3
    return t, a[i]["p"], q["b"], len(q), v, v[2]["a"]


def test_nested_structures(check):
    inner = np.dtype([("a", "f8"), ("b", "i8")])
    a = np.zeros(3, [("p", inner), ("x", "f8"), ("k", "i8")])
    a["x"] = [1.0, 2.0, 3.0]
    a["p"]["a"] = [0.5, 1.5, 2.5]
    check_items(check, nested_fields, a, 2, 5.0)
    check_items(check, nested_fields, a, -4, 5.0)  # IndexError
    got = nested_fields(a, 1, 1.0)[1]
    assert type(got) is np.void and got.dtype == inner and got.base is a  # NumPy's view of the argument


def field_copy(a):
    return a["v"].copy()


def test_unsupported_records_are_refused_at_the_boundary():
    nested = np.ones(2, [("v", [("p", "f8")], (2,))])
    swapped = np.ones(2, [("v", ">f8")])
    for arr, why in ((nested, "subarray of structures"), (swapped, "byte order")):
        with pytest.raises(TypeError, match=why):
            _runtime.describe(arr)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", TranspileFallbackWarning)
            np.testing.assert_array_equal(plain_jit(field_copy)(arr), field_copy(arr))
    with pytest.raises(TypeError, match="subarray of structures"):
        jit(field_copy)(nested)


@jit
def grid(g, s):
    """Records of a 2-d array: whole fields stored (g['w'] = ..., g['n'] += 1) and records read."""
    g["w"] = g["w"] * s
    g["n"] += 1
    t = 0.0
    for i in range(g.shape[0]):
        for j in range(g.shape[1]):
            t += g[i, j]["w"] * g[i, -1 - j]["n"]
    return t, g["w"][1:] * 2, g[1]["n"].sum(), g[-1, 0]["k"]


def test_two_dimensional_records_and_whole_field_stores(check):
    g = np.zeros((3, 4), [("w", "f8"), ("n", "i4"), ("k", "u4")])
    g["w"] = np.arange(12.0).reshape(3, 4)
    g["n"] = np.arange(12).reshape(3, 4) % 5
    g["k"] = 7
    check_items(check, grid, g, 1.5)
    check_items(check, grid, g[:, ::2], -2.0)  # strided in both axes
