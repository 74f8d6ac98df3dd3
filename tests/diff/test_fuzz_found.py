"""Fuzzer findings (tests/fuzz), as differential tests: CPython's value, type
and exception, compiled at O0 and O1 or run in CPython where compiled code
could not give them."""
import math
import warnings

import pytest

from transpile import jit

from . import fuzz_found_funcs as funcs


@pytest.mark.parametrize("level", ["O0", "O1"])
@pytest.mark.parametrize("fn, args", [
    (funcs.early_tuple_or_array_expression, ("arange", 1)), (funcs.early_tuple_or_array_expression, ("arange", -1)),
    (funcs.max_of_int_and_float, (2.5,)), (funcs.max_of_int_and_float, (4.5,)),
    (funcs.max_then_arithmetic, (2.5,)), (funcs.max_then_arithmetic, (4.5,)),
    (funcs.integer_constructors, (1e300,)), (funcs.integer_constructors, (math.nan,)),
    (funcs.integer_constructors, (math.inf,)), (funcs.integer_constructors, (6e9,)), (funcs.integer_constructors, (5.5,)),
])
def test_fuzz_finding(check, fn, args, level):
    import numpy as np

    args = tuple(np.arange(3.0) if a == "arange" else a for a in args)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # running in CPython is allowed; C++ that does not compile is not
        check(jit(fn, jit_level=level), *args)
    assert not [w for w in caught if "failed to compile" in str(w.message)]
