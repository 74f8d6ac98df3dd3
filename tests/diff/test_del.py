"""del lst[i] and del d[k] against CPython: the same contents afterwards and
the same exceptions."""
import pytest

from ._support import jit


@jit
def drop(n, i, k):
    lst = [x * 1.5 for x in range(n)]
    d = {j: j * j for j in range(n)}
    del lst[i]
    del d[k]
    del lst[0], d[0]
    return lst, sorted([k for k in d]), len(d)


@pytest.mark.parametrize("args", [(5, 2, 3), (5, -1, 4), (5, 9, 3), (5, 2, 7), (4, -4, 1)])
def test_del_matches_cpython(check, args):
    check(drop, *args)


def drop_slice(n):
    lst = [x for x in range(n)]
    del lst[1:3]             # a slice: runs as Python (the whole function: a compiled list meets fallback code)
    return lst


def test_del_of_a_slice_still_runs_as_python():
    from transpile import TranspileFallbackWarning
    from transpile import jit as plain_jit

    f = plain_jit(drop_slice)
    with pytest.warns(TranspileFallbackWarning):
        assert f(6) == drop_slice(6)
