"""numba.objmode: `with objmode(x="float64"):` in a compiled function runs
its block as Python on purpose (nothing is reported as a fallback, and
nopython/fullgraph allows it); the variables named in the call are the
block's outputs, typed as declared for the code after it.

In CPython (an undecorated function, or one that runs as Python) the call is
a context manager that does nothing.  While compiling, the typer asks this
object what the keywords declare (__transpile_object_mode__: transpile's
spelling of each type), so passes/ keeps no knowledge of Numba's names."""
from __future__ import annotations

from .types import NumbaType, parse


class _Block:
    def __enter__(self):
        return None

    def __exit__(self, *exc) -> bool:
        return False


class ObjMode:
    """Numba's objmode context manager (the object `objmode` is its one instance)."""

    def __call__(self, *args, **outputs) -> _Block:
        if args:
            raise TypeError("objmode() takes its outputs as keywords: objmode(name='float64', ...)")
        self.__transpile_object_mode__(outputs)  # a misspelled type fails in CPython as it does compiled
        return _Block()

    def __repr__(self) -> str:
        return "transpile.numba_compat.objmode"

    @staticmethod
    def __transpile_object_mode__(outputs: dict) -> dict:
        """name -> transpile's type text, from a Numba type or its name ("float64[:]", "intp").  float64,
        int64 and boolean are Python's float, int and bool: what a block of Python code makes (and what
        Numba hands back to Python for them), so code after the block sees CPython's types."""
        texts = {}
        for name, spec in outputs.items():
            if isinstance(spec, str):
                spec = parse(f"({spec},)").args[0]
            if not isinstance(spec, NumbaType):
                raise TypeError(f"objmode's type for '{name}' must be a Numba type or its name, not {spec!r}")
            texts[name] = _PYTHON_SCALARS.get(spec.text, spec.text)
        return texts


_PYTHON_SCALARS = {"float64": "float", "int64": "int", "bool": "bool"}


objmode = ObjMode()
