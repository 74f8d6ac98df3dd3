"""The lines every generated module starts with: its defines and the runtime
headers it always includes.  Known before a function is translated (they
depend on the options only), so the build layer can precompile them while
the function is being translated (build/pch.py)."""
from __future__ import annotations

from ..numpy_loops import complex_multiply_fma

BASE_HEADERS = ["transpile_rt/array.hpp", "transpile_rt/expr.hpp", "transpile_rt/index.hpp",
                "transpile_rt/ops/operators.hpp", "transpile_rt/ops/python.hpp"]


def defines(options) -> list[str]:
    return [f"#define TR_BOUNDSCHECK {int(options.boundscheck)}",
            f"#define TR_UNIT_PATHS {int(options.jit_level == 'O1')}",
            f"#define TR_NUMPY_CMUL_FMA {complex_multiply_fma()}"]


def lines(options) -> list[str]:
    """The prelude as the module prints it (module.cpp.j2): defines, then includes."""
    return defines(options) + [f'#include "{h}"' for h in BASE_HEADERS]


def starts_with(cpp: str, options) -> bool:
    """Whether a module's first preprocessor lines are exactly the prelude: no
    define of its own before (or between) them that a precompiled prelude would
    not have seen."""
    want = lines(options)
    got = [line for line in cpp.splitlines() if line.startswith("#")][:len(want)]
    return got == want
