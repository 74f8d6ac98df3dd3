"""Deep recursion in compiled code raises RecursionError, as CPython does,
and never overflows the C stack (runtime_cpp/transpile_rt/recursion.hpp)."""
import os
import subprocess
import sys
import textwrap

import pytest

from transpile import jit

from . import recursion_funcs as funcs

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize("fn, n", [(funcs.depth, 300), (funcs.even, 301), (funcs.depth, 5000), (funcs.even, 10 ** 6)])
def test_depth_within_and_beyond_the_limit(fn, n):
    jitted = jit(fn)
    try:
        expected = fn(n)
    except RecursionError:
        with pytest.raises(RecursionError, match="maximum recursion depth exceeded"):
            jitted(n)
        assert jitted(10) == fn(10)  # the depth count is back to zero after the error
    else:
        assert jitted(n) == expected


def test_a_raised_limit_stops_at_the_stack_instead_of_crashing():
    """With sys.setrecursionlimit(10**7) CPython itself would crash on
    10**6 nested calls of a C function; compiled code raises RecursionError
    when its thread's stack runs low, in the main thread and in another."""
    script = textwrap.dedent("""
        import sys, threading
        sys.setrecursionlimit(10 ** 7)
        from tests.errors import recursion_funcs as funcs
        from transpile import jit
        depth = jit(funcs.depth)
        print(depth(20000))
        def deep():
            try:
                depth(10 ** 7)
            except RecursionError as exc:
                print("RecursionError:", exc)
        deep()
        t = threading.Thread(target=deep)
        t.start()
        t.join()
    """)
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split("\n")[:3] == ["20000", "RecursionError: maximum recursion depth exceeded",
                                          "RecursionError: maximum recursion depth exceeded"]
