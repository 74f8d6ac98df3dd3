"""A small package compiled ahead of time.

    transpile build --inplace examples/aot_pkg      # writes examples/aot_pkg/__transpile__/
    cd examples && transpile run aot_demo.py        # first calls compile nothing

The artifacts in __transpile__/ load without a C++ compiler; ship them as
package data (see the README's "Command line" section).
"""
from .kernels import axpy, centered, norm2, smooth

__all__ = ["axpy", "centered", "norm2", "smooth"]
