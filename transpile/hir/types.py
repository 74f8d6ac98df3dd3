"""The type lattice as one namespace, the `T` of `from ..hir import types as T`:
the types themselves (lattice.py), their descriptors and cache JSON
(descriptors.py) and signature text (signatures.py)."""
from .lattice import *  # noqa: F401,F403
from .descriptors import *  # noqa: F401,F403
from .signatures import *  # noqa: F401,F403
from .records import Record, RecordArray, RecordDtype  # noqa: F401
from .functions import Function, functions_in  # noqa: F401
