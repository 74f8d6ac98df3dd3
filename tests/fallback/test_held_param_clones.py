"""A parameter held as a Python object (its type differs by path) is received
as `name_arg`; a function with a store loop is compiled once per vector width
(cxx/vector_clones.py) and its wrapper passes the parameters on by the names
they are declared with. It passed `flag`, undeclared: g++ rejected the module
and the function ran wholly in CPython (fuzz seed 9201 #9 and #34)."""
import warnings

import numpy as np

from transpile import jit

from ..conftest import assert_same


def held_param_store_loop(flag, a):
    for i in range(len(a)):
        a[i] = a[i] + 1.0
    if a[0] > 1.5:
        flag = (1 if a[1] > 2 else 2.5)  # int or float by path: runs as Python, `flag` held
    return flag, a


def test_held_parameter_beside_a_cloned_store_loop():
    f = jit(held_param_store_loop)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the statement that runs as Python says so
        for flag, a in [(True, [1.0, 5.0]), (False, [0.0, 0.0]), (True, [1.0, 0.0])]:
            got = f(flag, np.array(a))
            expected = held_param_store_loop(flag, np.array(a))
            assert_same(got[0], expected[0])
            assert_same(got[1], expected[1])
    assert not f._ensure.__self__._python_mode  # compiled, not run wholly in CPython
