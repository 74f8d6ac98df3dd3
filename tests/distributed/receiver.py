"""Run as a script: unpickles a function from argv[1] and calls it with the
arguments pickled in argv[2], with an empty cache of its own; prints JSON."""
import json
import pickle
import sys
import warnings

import numpy as np

sys.path.insert(0, sys.argv[3])  # the repository (tests.distributed.kernels by reference)
import transpile  # noqa: E402

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with open(sys.argv[1], "rb") as f:
        fn = pickle.load(f)
    with open(sys.argv[2], "rb") as f:
        args = pickle.load(f)
    loaded_at_unpickle = fn.overload_count
    got = fn(*args)
want = fn.py_func(*args)
print(json.dumps({"same": bool(type(got) is type(want) and np.all(got == want)), "compiles": transpile.compile_count(),
                  "loaded_at_unpickle": loaded_at_unpickle, "warnings": [str(w.message) for w in caught]}))
