"""str() of float64 in compiled code against CPython's repr on random bit patterns
(run by hand: `python benchmarks/check_float_text.py [N]`, N doubles, default 200,000)."""
import random
import struct
import sys

import numpy as np

from transpile import jit


@jit(fullgraph=True)
def texts(xs):
    s = ""
    for x in xs:
        s += str(x) + " "
    return s


random.seed(1)
n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
vals = [struct.unpack("<d", struct.pack("<Q", random.getrandbits(64)))[0] for _ in range(n)]
xs = np.array([v for v in vals if v == v])
got = texts(xs).split()
want = [repr(float(x)) for x in xs]
bad = [(g, w) for g, w in zip(got, want) if g != w]
print(f"{len(xs)} doubles: {len(bad)} differ from repr {bad[:3]}")
