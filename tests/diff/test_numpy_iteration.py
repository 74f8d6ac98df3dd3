"""Differential tests: NumPy's iteration API in compiled code — a.flat
(iteration, indexing, assignment), np.ndindex, np.ndenumerate and np.nditer
(one, two and three operands, op_flags readwrite, order='K' over
transposed, reversed and broadcast operands) — against CPython/NumPy: the
order of the elements, their values and types, writes through the
iterators, and the exceptions."""
from __future__ import annotations

import numpy as np
import pytest

from transpile import jit as plain_jit

from ._support import check_items, jit

LAYOUTS = {
    "c": np.arange(12.0).reshape(3, 4) * 1.5,
    "transposed": (np.arange(12.0).reshape(3, 4) * 1.5).T,
    "reversed": np.arange(12.0).reshape(3, 4)[::-1, ::-2],
    "strided3d": np.arange(60.0).reshape(3, 4, 5)[:, 1:, ::2].transpose(2, 0, 1),
    "empty": np.zeros((0, 3)),
}


@jit
def flat_order(a):
    out = np.zeros(a.size)
    k = 0
    for x in a.flat:
        out[k] = x
        k += 1
    return out, k


@pytest.mark.parametrize("name", list(LAYOUTS))
def test_flat_iterates_in_c_order(check, name):
    check_items(check, flat_order, LAYOUTS[name])


@jit
def flat_reads_live(a):
    s = 0.0
    for x in a.flat:
        a[-1, -1] += 1.0  # the iterator reads the element when it gets there
        s += x
    return s


def test_flat_reads_as_it_goes(check):
    check(flat_reads_live, np.ones((2, 3)))


@jit
def flat_index(a, i, j, v):
    first = a.flat[i]
    a.flat[j] = v
    return first, a.flat[-1], a.flat[j]


@pytest.mark.parametrize("a, i, j, v", [
    (np.arange(12.0).reshape(3, 4).T, 5, 7, 2.5),
    (np.arange(12).reshape(3, 4)[:, ::-1], -2, 0, 9),
    (np.arange(6.0), 10, 0, 1.0),  # IndexError in both
    (np.arange(6.0), 0, -7, 1.0),  # IndexError in both
], ids=["float-T", "int-reversed", "read-out-of-range", "write-out-of-range"])
def test_flat_index_and_assign(check, a, i, j, v):
    check_items(check, flat_index, a, i, j, v)  # the argument's writes are compared too


@jit
def flat_store_python_numbers(a, b):
    a.flat[1] = 3  # a Python int into a float array
    a.flat[-1] = True
    b.flat[0] = 7
    return a, b


def test_flat_stores_python_numbers(check):
    check(flat_store_python_numbers, np.zeros((2, 2)), np.zeros(3, np.int64))


def test_flat_store_into_read_only_array_runs_in_python():
    @plain_jit
    def store(a):
        a.flat[0] = 1.0
        return a

    a = np.zeros(3)
    a.flags.writeable = False
    with pytest.warns(Warning):
        with pytest.raises(ValueError):
            store(a)
    with pytest.raises(ValueError):
        store.py_func(a)


@jit
def ndindex_all(n, m):
    s = 0
    count = 0
    for i, j in np.ndindex(n, m):
        s = s * 3 + i * 10 + j
        count += 1
    for idx in np.ndindex((m, 2, n)):
        s += idx[0] - idx[1] * idx[2]
    for _ in np.ndindex():
        count += 100
    return s, count


@pytest.mark.parametrize("n, m", [(3, 4), (0, 5), (2, 1), (-1, 2)], ids=["3x4", "empty", "2x1", "negative"])
def test_ndindex(check, n, m):
    check_items(check, ndindex_all, n, m)


@jit
def ndenumerate_all(a, v):
    s = 0.0
    last = (0, 0)
    for (i, j), x in np.ndenumerate(a):
        s = s * 0.5 + i * x - j
        last = (i, j)
    t = 0.0
    for idx, y in np.ndenumerate(v):
        t += idx[0] * y
    return s, last, t


@pytest.mark.parametrize("name", ["c", "transposed", "reversed"])
def test_ndenumerate(check, name):
    check_items(check, ndenumerate_all, LAYOUTS[name], np.array([3, 1, 4, 1, 5], np.int32))


@jit
def nditer_order(a):
    out = np.zeros(a.size)
    k = 0
    for x in np.nditer(a):
        out[k] = x[()]  # a 0-d array's value
        k += 1
    return out


@pytest.mark.parametrize("name", ["c", "transposed", "reversed", "strided3d"])
def test_nditer_walks_memory_order(check, name):
    check(nditer_order, LAYOUTS[name])


@jit
def nditer_two(a, b):
    out = np.zeros(a.size * 2)
    k = 0
    for x, y in np.nditer((a, b)):
        out[k] = x[()] * 10 + y[()]
        k += 1
    return out


@pytest.mark.parametrize("a, b", [
    (np.arange(12.0).reshape(3, 4), np.arange(4.0)),
    (np.arange(12.0).reshape(3, 4).T, np.arange(12.0).reshape(4, 3)),  # operands disagree: C order wins
    (np.arange(12.0).reshape(4, 3).T, np.arange(3.0).reshape(3, 1)),
    (np.arange(6.0).reshape(2, 3), np.arange(4.0)),  # ValueError: shapes do not broadcast
], ids=["broadcast-row", "disagree", "F-and-column", "mismatch"])
def test_nditer_two_operands(check, a, b):
    check(nditer_two, a, b)


@jit
def nditer_three(a, b, c):
    for x, y, z in np.nditer((a, b, c), op_flags=[["readonly"], ["readonly"], ["readwrite"]]):
        z[...] = x * y + z
    return c


@jit
def nditer_inplace(a):
    for x in np.nditer(a, op_flags=["readwrite"]):
        x[...] = 2 * x + 1
    return a


def test_nditer_readwrite(check):
    a = np.arange(12.0).reshape(3, 4)
    check(nditer_three, a, np.arange(4.0), np.ones((3, 4)).T.copy().T)
    check(nditer_inplace, a.T)
    check(nditer_inplace, np.arange(5, dtype=np.int32)[::-1])


@jit
def nditer_read_only_write(a):
    for x in np.nditer(a):
        x[...] = 0.0  # ValueError: assignment destination is read-only
    return a


def test_nditer_errors(check):
    check(nditer_read_only_write, np.ones(3))
    check(nditer_order, np.zeros((2, 0)))  # ValueError: zero-sized operands
    check(nditer_three, np.ones((3, 4)), np.ones(4), np.ones(4))  # ValueError: the output would broadcast


def test_not_compiled_forms_run_in_python():
    @plain_jit
    def slices(a):
        b = a.flat[1:3]  # a copy in NumPy: not compiled
        b[0] = 100.0
        return a, b

    @plain_jit
    def multi_index(a):
        s = 0
        it = np.nditer(a, flags=["multi_index"])
        for x in it:
            s += it.multi_index[0]
        return s

    a = np.arange(6.0).reshape(2, 3)
    with pytest.warns(Warning):
        got = slices(a.copy())
    expected = slices.py_func(a.copy())
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])
    with pytest.warns(Warning):
        assert multi_index(a) == multi_index.py_func(a)


@jit
def nditer_values(a, b):
    total = 0.0
    count = 0
    for x in np.nditer(a):
        total += float(x) * 0.5
        count += int(x) % 3
    z = 0j
    for y in np.nditer(b):
        z += complex(y)
    return total, count, z


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.uint8])
def test_nditer_elements_as_numbers(check, dtype):
    check(nditer_values, (np.arange(12).reshape(3, 4).T * 1.75).astype(dtype), np.arange(3, dtype=np.int16))


def test_float_of_arrays_that_are_not_0d_runs_in_python():
    @plain_jit
    def conv(a):
        return float(a)

    with pytest.warns(Warning):
        with pytest.raises(TypeError):
            conv(np.ones(3))


@jit
def flat_beside_reductions(a):
    s = 0.0
    for x in a.flat:
        s += x
    return s + a.sum(), a.min()  # a.flat's header and the reductions' both define a helper: one definition


def test_flat_beside_reductions(check):
    check(flat_beside_reductions, np.arange(6.0).reshape(2, 3))


@jit
def tuple_indices(a, i):
    total = 0.0
    for p in np.ndindex(a.shape):
        total += a[p]
        a[p] += 1.0
    corner = (a.shape[0] - 1, -1)
    row = (i,)
    return total, a[corner], a[row], a


@jit
def local_maxima(a):
    """Pythran's benchmark of the name: neighbours found by tuples of ints."""
    found = []
    for p in np.ndindex(a.shape[0] - 2, a.shape[1] - 2):
        q = (p[0] + 1, p[1] + 1)
        if a[q] > a[p] and a[q] > a[p[0] + 2, p[1] + 2]:
            found.append(q)
    return found


@jit
def tuple_beside_another_index(a):
    t = (1,)
    return a[t, 0]


def test_a_tuple_of_ints_indexes_one_axis_per_item(check):
    a = np.arange(12.0).reshape(3, 4)
    check(tuple_indices, a, 1)
    check(tuple_indices, a, -3)
    check(tuple_indices, a, 3)  # IndexError, as NumPy's
    check(local_maxima, np.random.default_rng(5).random((6, 7)))


def test_a_tuple_beside_other_indices_is_refused():
    """NumPy reads a[(1,), 0] as an integer-array index (array([4.])), not a[1, 0]."""
    with pytest.raises(Exception, match="integer-array index in NumPy"):
        tuple_beside_another_index(np.arange(12.0).reshape(3, 4))
