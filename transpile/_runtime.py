"""Stand-in for the C bridge, transpile._runtime (built from
runtime_cpp/transpile_rt/bridge/ by setup.py).  Where the built extension
module sits beside this file, Python's import system loads it instead
(extension modules come before source files), so this only runs when the
bridge was not built.  It also shows import tools (import-linter,
tests/unit/test_layers.py) the bridge as the leaf module it is."""
import os
import sys


def _hidden_install() -> str | None:
    """Another transpile package later on sys.path: after `pip install .`,
    `python -m transpile` run in the source tree imports the tree's unbuilt
    copy (the current directory comes first on sys.path)."""
    here = os.path.dirname(os.path.realpath(__file__))
    for entry in sys.path:
        candidate = os.path.realpath(os.path.join(entry or os.getcwd(), "transpile"))
        if candidate != here and os.path.isfile(os.path.join(candidate, "__init__.py")):
            return candidate
    return None


_installed = _hidden_install()
if _installed:
    raise ImportError(
        f"Python imported transpile from {os.path.dirname(os.path.realpath(__file__))}, a source tree whose C bridge "
        f"is not built, which hides the installed transpile at {_installed} (`python -m` and `python -c` put the "
        "current directory first on sys.path): run from another directory, or install the tree in editable mode "
        "(python3 -m pip install -e .)")
raise ImportError("transpile's C bridge (transpile._runtime) is not built: install the package "
                  "(python3 -m pip install -e .) or build runtime_cpp/transpile_rt/bridge/runtime.c")
