"""Golden texts of generated C++: compared, or rewritten under
TRANSPILE_UPDATE_GOLDEN=1 (review the diff)."""
from __future__ import annotations

import os
import re
from pathlib import Path


def machine_neutral(cpp: str) -> str:
    """What this machine's NumPy does (transpile/numpy_loops.py) is not part of
    a golden text: CI machines of other CPUs generate another value."""
    return re.sub(r"#define TR_NUMPY_CMUL_FMA \d+", "#define TR_NUMPY_CMUL_FMA <this NumPy>", cpp)


def matches_golden(cpp: str, path: Path) -> bool:
    text = machine_neutral(cpp)
    if os.environ.get("TRANSPILE_UPDATE_GOLDEN") == "1" or not path.exists():
        path.write_text(text)
    return text == path.read_text()
