"""transpile.vmap (issue 13, MindSpore's spellings): differential against the
plain NumPy reference np.stack([f(*slices) for i in range(n)], axis=out_axes)
(values, dtypes, shapes, layout, mutated arguments, exceptions), with every
TranspileFallbackWarning an error, so each case runs the compiled driver."""
from __future__ import annotations

import copy
import pickle
import warnings

import numpy as np
import pytest

from transpile import TranspileFallbackWarning, TypingError, vmap

from ._support import jit


def reference(f, in_axes, out_axes, *args):
    """vmap in plain NumPy: slices along the axes, np.stack of the results."""
    axes = tuple(in_axes) if isinstance(in_axes, (tuple, list)) else (in_axes,) * len(args)
    moved = [None if ax is None else np.moveaxis(a, ax, 0) for a, ax in zip(args, axes)]
    n = next(m.shape[0] for m in moved if m is not None)
    results = [f(*(a if m is None else m[i] for a, m in zip(args, moved))) for i in range(n)]
    if results and isinstance(results[0], tuple):
        outs = out_axes if isinstance(out_axes, tuple) else (out_axes,) * len(results[0])
        return tuple(np.stack([r[k] for r in results], axis=outs[k]) for k in range(len(outs)))
    return np.stack(results, axis=out_axes)


def same(got, expected):
    if isinstance(expected, tuple):
        assert type(got) is tuple and len(got) == len(expected)
        for g, e in zip(got, expected):
            same(g, e)
        return
    assert type(got) is np.ndarray, type(got)
    assert got.dtype == expected.dtype and got.shape == expected.shape, (got.dtype, got.shape, expected.dtype,
                                                                         expected.shape)
    assert got.flags.c_contiguous == expected.flags.c_contiguous
    np.testing.assert_array_equal(got, expected)


def differential(f, in_axes, out_axes, *args):
    """vmap against the reference on copies of args; mutations must match too."""
    mine, theirs = copy.deepcopy(args), copy.deepcopy(args)
    with warnings.catch_warnings():
        warnings.simplefilter("error", TranspileFallbackWarning)
        got = vmap(f, in_axes, out_axes)(*mine)
    same(got, reference(f, in_axes, out_axes, *theirs))
    for g, e in zip(mine, theirs):
        if isinstance(e, np.ndarray):
            same(g, e)
    return got


def dist(x, y):
    return np.sqrt(np.sum((x - y) ** 2))


def bump(x, y):  # mutates its slice, as the reference's view of the argument is mutated
    x[0] += y
    return x * 2.0


def centred(x):
    m = np.mean(x)
    return x - m, m


@jit
def jitted_norm(x):  # fullgraph: a driver that does not compile raises instead of falling back
    return np.sum(x * x)


def test_scalar_and_array_results():
    rng = np.random.default_rng(0)
    a, b = rng.random((6, 3)), rng.random(3)
    d = differential(dist, (0, None), 0, a, b)
    assert d.shape == (6,) and d.dtype == np.float64
    differential(dist, (1, -1), 0, rng.random((3, 5)), rng.random((3, 5)))  # axis 1 and negative axes
    differential(bump, (0, None), 0, a, 0.5)
    differential(bump, [-1, None], 1, rng.random((4, 5, 3)), 1.5)  # out_axes=1 of a 2-D result
    differential(bump, -2, -1, rng.random((4, 5, 3)), rng.random((5, 3)))
    differential(bump, (0, None), 0, np.asfortranarray(rng.random((4, 5))), 2.0)  # strided slices


def test_tuple_results_and_out_axes():
    x = np.random.default_rng(1).random((5, 4))
    got = differential(centred, 0, (1, 0), x)
    assert [g.shape for g in got] == [(4, 5), (5,)]
    differential(centred, 1, 0, x)  # one out_axes for every result


def test_nested_pairwise_distances():
    rng = np.random.default_rng(2)
    a, b = rng.random((7, 3)), rng.random((4, 3))
    pairwise = vmap(vmap(dist, in_axes=(None, 0)), in_axes=(0, None))
    with warnings.catch_warnings():
        warnings.simplefilter("error", TranspileFallbackWarning)
        d = pairwise(a, b)
    expected = reference(lambda x, y: reference(dist, (None, 0), 0, x, y), (0, None), 0, a, b)
    same(d, expected)
    np.testing.assert_allclose(d, np.sqrt(((a[:, None, :] - b[None, :, :]) ** 2).sum(-1)))
    # the inner out_axes moves the inner axis: result (3, 7), i.e. transposed within each row
    flipped = vmap(vmap(centred, in_axes=1, out_axes=(0, 0)), in_axes=0, out_axes=(2, 0))
    with warnings.catch_warnings():
        warnings.simplefilter("error", TranspileFallbackWarning)
        x = rng.random((2, 3, 4))
        got = flipped(x)
    assert [g.shape for g in got] == [(4, 3, 2), (2, 4)]
    same(got, reference(lambda row: reference(centred, 1, (0, 0), row), 0, (2, 0), x))


def test_lambda_jit_and_dtypes():
    i32 = np.arange(12, dtype=np.int32).reshape(4, 3)
    mixed = lambda x, y, z: (x * y, x * z, np.sum(x) + z, x[0] > z, float(x[0]) / 2)  # noqa: E731
    got = differential(mixed, (0, None, None), 0, i32, np.int32(3), 4)
    # int32 arrays stay int32 (with a Python int too: NEP 50), a sum of int32 is int64, comparisons bool,
    # Python floats float64: np.stack's dtypes of what CPython returns
    assert [g.dtype for g in got] == [np.int32, np.int32, np.int64, np.bool_, np.float64]
    got = differential(jitted_norm, 0, 0, i32.astype(np.float32))
    assert got.dtype == np.float32


def test_pickles_and_nested_reuse():
    mapped = vmap(dist, in_axes=(0, None))
    again = pickle.loads(pickle.dumps(mapped))
    a = np.arange(6.0).reshape(3, 2)
    same(again(a, a[0]), mapped(a, a[0]))
    assert again.in_axes == (0, None) and again.out_axes == 0


def test_errors_like_jax():
    a, b = np.ones((3, 2)), np.ones((4, 2))
    with pytest.raises(ValueError, match="inconsistent sizes.*argument 0 has size 3.*argument 1 has size 4"):
        vmap(dist)(a, b)
    with pytest.raises(ValueError, match=r"len\(in_axes\)=1, len\(args\)=2"):
        vmap(dist, in_axes=(0,))(a, b)
    with pytest.raises(ValueError, match="along axis 2.*rank should be at least 3, but is only 2"):
        vmap(dist, in_axes=(2, None))(a, b)
    with pytest.raises(ValueError, match="along axis -3"):
        vmap(dist, in_axes=(-3, None))(a, b)
    with pytest.raises(ValueError, match="at least one non-None value in in_axes"):
        vmap(dist, in_axes=None)(a, b)
    with pytest.raises(ValueError, match="but is only 0"):
        vmap(dist, in_axes=(None, 0))(a, 1.0)
    with pytest.raises(TypeError, match="must be NumPy arrays"):
        vmap(dist, in_axes=(0, None))([1.0, 2.0], a)
    with pytest.raises(TypeError, match="int or None"):
        vmap(dist, in_axes="0")
    # np.stack's own errors, as the reference raises them
    empty = np.ones((0, 2))
    with pytest.raises(ValueError, match="need at least one array to stack"):
        reference(dist, (0, None), 0, empty, a[0])
    with pytest.raises(ValueError, match="need at least one array to stack"):
        vmap(dist, (0, None))(empty, a[0])
    with pytest.raises(np.exceptions.AxisError, match="axis 2 is out of bounds for array of dimension 2"):
        reference(bump, (0, None), 2, a, 1.0)
    with pytest.raises(np.exceptions.AxisError, match="axis 2 is out of bounds for array of dimension 2"):
        vmap(bump, (0, None), 2)(a.copy(), 1.0)
    with pytest.raises(ValueError, match="out_axes has 1 entries but the function returns 2 values"):
        vmap(centred, 0, (0,))(a)


def prefix(x):  # results of different lengths: np.stack refuses them
    return x[: int(x[0])]


def test_result_shapes_must_agree():
    a = np.array([[2.0, 1.0, 0.0], [2.0, 5.0, 6.0], [1.0, 0.0, 0.0]])
    for f in (reference, lambda g, i, o, *args: vmap(g, i, o)(*args)):
        with pytest.raises(ValueError, match="all input arrays must have the same shape"):
            f(prefix, 0, 0, a)
    with warnings.catch_warnings():
        warnings.simplefilter("error", TranspileFallbackWarning)
        same(vmap(prefix)(a[:2]), reference(prefix, 0, 0, a[:2]))


def test_what_does_not_compile_runs_the_reference():
    scale = np.float64(3.0)
    closure = lambda x: x * scale  # noqa: E731 - a closure: compiled code does not compile its cells
    a = np.arange(6.0).reshape(3, 2)
    with pytest.warns(TranspileFallbackWarning, match="runs as a Python loop"):
        same(vmap(closure)(a), reference(closure, 0, 0, a))
    calls = []
    counted = lambda x: calls.append(x[0]) or x[1]  # noqa: E731
    with pytest.warns(TranspileFallbackWarning):
        same(vmap(counted)(a), reference(counted, 0, 0, a))
    assert calls == [0.0, 2.0, 4.0] * 2  # f called once per slice, in order (the first call is not repeated)
    with pytest.warns(TranspileFallbackWarning, match="returns list"):
        same(vmap(lambda x: [x[0], x[1]])(a), reference(lambda x: [x[0], x[1]], 0, 0, a))

    @jit
    def strict(x):
        return [x[0]]

    with pytest.raises(TypingError, match="fullgraph"):
        vmap(strict)(a)
