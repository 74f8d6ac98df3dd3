"""if/else statements assigning one integer from cheap arms are computed
without a branch (cxx/lower_select.py): same values as CPython for every
integer kind, and arms that could raise stay behind their test."""
import numpy as np
import pytest

from ._support import jit


@jit
def steps(n):
    x = n
    count = 0
    while x != 1 and count < 1000:
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
        count += 1
    return x, count


@pytest.mark.parametrize("n", [1, 6, 27, 97, -5, -8, 2 ** 40 + 1])
def test_collatz_steps(n):
    assert steps(n) == steps.py_func(n)


@jit
def pick(a, b, k):
    if k > 0:
        y = (a - b) * 3 ^ k
    else:
        y = a % 4 + (b // 8)
    return y


@pytest.mark.parametrize("k", [-1, 0, 1, 7])
@pytest.mark.parametrize("conv", [int, np.int64, np.int32, np.uint8, np.int8])
def test_integer_kinds(conv, k):
    for a, b in ((-13, 5), (200, 100), (7, -9)):
        info = np.iinfo(np.int64 if conv is int else conv)
        if not (info.min <= a <= info.max and info.min <= b <= info.max):
            continue
        args = (conv(a), conv(b), k)
        got, expected = pick(*args), pick.py_func(*args)
        assert type(got) is type(expected) and got == expected, (args, got, expected)


@jit
def guarded_division(a, d):
    if d != 0:
        x = a // d
    else:
        x = -1
    return x


@pytest.mark.parametrize("d", [0, 3, -3])
def test_an_arm_that_can_raise_runs_only_when_taken(d):
    assert guarded_division(17, d) == guarded_division.py_func(17, d)
