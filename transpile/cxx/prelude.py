"""The lines every generated module starts with: its defines and the runtime
headers it always includes.  Known before a function is translated (they
depend on the options only), so the build layer can precompile them while
the function is being translated (build/pch.py)."""
from __future__ import annotations

import sys

from ..numpy_loops import complex_multiply_fma

BASE_HEADERS = ["transpile_rt/array.hpp", "transpile_rt/expr.hpp", "transpile_rt/index.hpp",
                "transpile_rt/ops/operators.hpp", "transpile_rt/ops/python.hpp"]


# CPython's words where they changed between versions (3.11: an int's modulo
# by zero; 3.12: min() and max() of nothing), as the running version says them.
_EMPTY = "iterable argument is empty" if sys.version_info >= (3, 12) else "arg is an empty sequence"
MESSAGES = {"TR_MSG_INT_MOD_ZERO": "integer modulo by zero" if sys.version_info >= (3, 11)
            else "integer division or modulo by zero",
            "TR_MSG_MIN_EMPTY": f"min() {_EMPTY}", "TR_MSG_MAX_EMPTY": f"max() {_EMPTY}"}


def defines(options) -> list[str]:
    return [f"#define TR_BOUNDSCHECK {int(options.boundscheck)}",
            f"#define TR_UNIT_PATHS {int(options.jit_level == 'O1')}",
            f"#define TR_NUMPY_CMUL_FMA {complex_multiply_fma()}",
            *(f'#define {name} "{text}"' for name, text in MESSAGES.items())]


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
