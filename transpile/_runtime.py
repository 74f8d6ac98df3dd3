"""Stand-in for the C bridge, transpile._runtime (built from
runtime_cpp/transpile_rt/bridge/ by setup.py).  Where the built extension
module sits beside this file, Python's import system loads it instead
(extension modules come before source files), so this only runs when the
bridge was not built.  It also shows import tools (import-linter,
tests/unit/test_layers.py) the bridge as the leaf module it is."""
raise ImportError("transpile's C bridge (transpile._runtime) is not built: install the package "
                  "(python3 -m pip install -e .) or build runtime_cpp/transpile_rt/bridge/runtime.c")
