"""Definite assignment: the reads of a local that may find it unassigned.

CPython raises UnboundLocalError there (`for i in range(n): v = i` then
`return v` with n == 0); compiled code, whose variables always hold a
value, must check. Only the variables such a read names get an "assigned"
flag (cxx/lower.py); a variable assigned on every path to each of its reads
pays nothing. The paths are passes/reaching.py's."""
from __future__ import annotations

import dataclasses

from . import reaching


@dataclasses.dataclass(frozen=True)
class Unbound:
    reads: frozenset  # h.Name reads that may find the variable unassigned
    names: frozenset  # the variables those reads name (each gets a flag)
    region_reads: frozenset = frozenset()  # (statement running as Python, name): the region is told whether it is bound


def analyse(fn, local_names, fallbacks) -> Unbound:
    reach = reaching.analyse(fn, local_names, fallbacks)
    reads = frozenset(node for node, defs in reach.uses.items() if reaching.UNDEF in defs)
    region_reads = frozenset((stmt, name) for stmt, inputs in reach.fallback_reads.items()
                             for name, defs in inputs.items() if reaching.UNDEF in defs)
    return Unbound(reads, frozenset(node.id for node in reads) | {name for _, name in region_reads}, region_reads)
