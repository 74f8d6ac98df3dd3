"""Lowering of the parts of an index (passes/indexing.py's kinds: an int, a
slice, `:`, None, `...`, an index array, a tuple of ints, a 1-d mask) into
the arguments of the runtime's tr::at / tr::view / tr::fancy_get."""
from __future__ import annotations

from ..hir import types as T


class IndexPartLowering:
    """Mixin of FunctionLowerer: needs self.expr, self.ev, self.hoist, self.type_of, self.in_range."""

    def int_code(self, node, use: str = "element") -> str:
        """An integer expression as int64_t (no cast when it already is one).  A
        uint64 beyond int64 is what CPython refuses for the use (index.hpp): an
        array `element` index, a list or tuple `item`, a slice `bound` (clamps)."""
        code = self.expr(node).code
        t = self.type_of(node)
        if (isinstance(t, T.Scalar) and t.dtype == "int64") or code.lstrip("-").isdigit():
            return code
        if isinstance(t, T.Scalar) and t.dtype == "uint64":
            return f"tr::u64_{use}({code})"
        return f"int64_t({code})"

    def index_code(self, idx, part) -> str:
        if part == "int":
            code = self.int_code(idx)
            return f"tr::proven({code})" if self.in_range(idx) else code
        if part == "all":
            return "tr::all"
        if part == "newaxis":
            return "tr::newaxis"
        if part == "ellipsis":  # as many whole axes as the other indices leave (index.hpp sizes it)
            return "tr::ellipsis"
        if part == "fancy":
            return self.ev(self.expr(idx))
        if part == "tuple":  # a tuple of ints: one index per item, each checked as an int index is
            t = self.type_of(idx)
            tup = self.hoist(self.expr(idx).code, t)
            return ", ".join(f"int64_t(std::get<{k}>({tup}))" if item.dtype != "uint64" else
                             f"tr::u64_element(std::get<{k}>({tup}))" for k, item in enumerate(t.items))
        if part == "mask":  # a 1-d mask among other indices (passes/indexing.py): its True positions
            return f"tr::fancy::mask_positions({self.ev(self.expr(idx))})"
        bounds = ["tr::none" if p is None else self.int_code(p, "bound") for p in (idx.lower, idx.upper)]
        if idx.step is not None:
            bounds.append(self.int_code(idx.step, "bound"))
        return f"tr::slice({', '.join(bounds)})"
