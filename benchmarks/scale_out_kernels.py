"""The kernel of bench_scale_out.py, for transpile and (when installed) Numba."""
import numpy as np

from transpile import jit


def energy(block):
    rows, cols = block.shape
    out = np.empty(rows)
    for r in range(rows):
        prev = block[r, 0]
        acc = prev * prev
        for c in range(1, cols):
            prev = 0.75 * prev + 0.25 * block[r, c]
            acc += prev * prev
        out[r] = acc
    return out


transpile_energy = jit(energy)

try:
    import numba
except ImportError:
    NUMBA = None
else:
    NUMBA = numba.njit(energy)
