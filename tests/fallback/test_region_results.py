"""An array that a JIT Fallback statement produces and compiled code returns
is kept alive until the caller holds it (it was freed before the bridge took
its reference: the process crashed or the result's base was another object)."""
import gc
import warnings

import numpy as np
import pytest

from transpile import jit
from transpile.diagnostics import TranspileFallbackWarning

from . import region_result_funcs as funcs


@pytest.mark.parametrize("fn", [funcs.repeat_loop, funcs.rebound_in_python])
def test_array_from_fallback_code_is_returned_intact(fn):
    jitted = jit(fn)
    x = np.arange(1.0, 5.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        results = [jitted(x, n) for n in (0, 3, 5)]
    gc.collect()
    junk = [bytes(64) for _ in range(1000)]  # reuse any memory that was freed too early
    for n, got in zip((0, 3, 5), results):
        expected = fn(x, n)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_array_equal(got, expected)
        assert not isinstance(got.base, bytes)  # the freed owner's memory held a bytes object
    del junk


@pytest.mark.parametrize("fn, args", [
    (funcs.python_or_compiled_return, (np.arange(4.0), 1)), (funcs.python_or_compiled_return, (np.arange(4.0), 3)),
    (funcs.python_return_of_an_int, (1,)), (funcs.python_return_of_an_int, (5,)),
])
def test_a_return_that_runs_as_python_beside_compiled_ones(fn, args):
    """Each return gives its own value and type (a return that runs as Python
    made the others' tuple a typing error, and converted an int to float)."""
    from tests.conftest import assert_same

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TranspileFallbackWarning)
        got = jit(fn)(*args)
    assert_same(got, fn(*args))
