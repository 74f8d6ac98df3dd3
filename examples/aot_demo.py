"""Uses examples/aot_pkg; run it with the import hook after building in place:

    transpile build --inplace examples/aot_pkg
    cd examples && python -m transpile run aot_demo.py
"""
import json

import numpy as np

import aot_pkg
import transpile.dispatcher as dispatcher

x = np.linspace(0.0, 1.0, 7)
y = np.ones(7)
u = np.zeros((6, 6))
u[0, :] = 1.0
results = {
    "axpy": aot_pkg.axpy(2.0, x, y).tolist(),
    "norm2": float(aot_pkg.norm2(x)),
    "smooth": aot_pkg.smooth(u.copy(), 3).tolist(),
    "smooth32": aot_pkg.smooth(u.astype(np.float32), 3).tolist(),
    "centered": aot_pkg.centered(x).tolist(),
}
expected = {
    "axpy": aot_pkg.axpy.py_func(2.0, x, y).tolist(),
    "norm2": float(aot_pkg.norm2.py_func(x)),
    "smooth": aot_pkg.smooth.py_func(u.copy(), 3).tolist(),
    "smooth32": aot_pkg.smooth.py_func(u.astype(np.float32), 3).tolist(),
    "centered": aot_pkg.centered.py_func(x).tolist(),
}
print(json.dumps({"same": results == expected, "compiles": dispatcher.COMPILE_COUNT}))
