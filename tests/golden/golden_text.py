"""Golden texts of generated C++: compared, or rewritten under
TRANSPILE_UPDATE_GOLDEN=1 (review the diff)."""
from __future__ import annotations

import os
import re
from pathlib import Path


def machine_neutral(cpp: str) -> str:
    """What this machine's NumPy does (transpile/numpy_loops.py) and the
    running Python's messages (cxx/prelude.py) are not part of a golden text:
    CI machines of other CPUs or Pythons generate other values."""
    cpp = re.sub(r'#define (TR_MSG_\w+) ".*"', r"#define \1 <this Python>", cpp)
    return re.sub(r"#define TR_NUMPY_CMUL_FMA \d+", "#define TR_NUMPY_CMUL_FMA <this NumPy>", cpp)


def matches_golden(cpp: str, path: Path) -> bool:
    text = machine_neutral(cpp)
    if os.environ.get("TRANSPILE_UPDATE_GOLDEN") == "1" or not path.exists():
        path.write_text(text)
    return text == path.read_text()
