"""Python modules that transpile writes and imports itself: the @jit loops
generated around a user's function (numba_compat's vectorize loops, vmap's
drivers).

transpile compiles from source files, so each is a real file, in a private
directory of this process (0700, removed at exit), named by a digest of its
text: the same text is written and imported once per process.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import sys

_FOLDER: list = []


def load(prefix: str, text: str, salt: str = ""):
    """The module of source `text`, named `prefix` + a digest of salt and text
    (salt: what else makes two identical texts different modules)."""
    digest = hashlib.sha256(f"{salt}\n{text}".encode()).hexdigest()[:16]
    name = f"{prefix}{digest}"
    if name in sys.modules:
        return sys.modules[name]
    path = os.path.join(_folder(), f"{name}.py")
    with open(path, "w") as f:
        f.write(text)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[name] = module
    return module


def _folder() -> str:
    if not _FOLDER:
        import atexit
        import shutil
        import tempfile

        _FOLDER.append(tempfile.mkdtemp(prefix="transpile-generated-"))
        atexit.register(shutil.rmtree, _FOLDER[0], True)
    return _FOLDER[0]
