"""Live reads of module-level values (passes/live_globals.py): one Python
callback, a region marked "live" that runs no statement, reads them all into
the function's locals when it starts and again after each of its fallback
regions, where Python code may have rebound them."""
from __future__ import annotations

from ..diagnostics import UnsupportedSyntaxError
from ..passes.live_globals import LiveRead, reads
from .model import CExpr


class GlobalsLowering:
    def read_live_globals(self) -> None:
        live = reads(self.tf)
        if not live or self.kernel is not None:  # a prange body reads the values its function read
            return
        index = getattr(self, "live_region", None)
        if index is None:
            index = self.live_region = len(self.module.regions)
            self.module.regions.append({
                "module": self.tf.pyfunc.__module__, "qualname": self.tf.pyfunc.__qualname__,
                "filename": self.fn.filename, "name": self.fn.name,
                # no statement runs: an empty span on the def line names it in errors
                "statements": [[self.fn.loc.line, 0, self.fn.loc.line, 0]], "returns": [], "ins": [],
                "outs": [[text, str(t), "None"] for _, text, t in live], "live": True,
            })
        targets = ", ".join(self.var(var) for var, _, _ in live)
        self.emit(f"tr::call_region({index}, std::tie({targets}), nullptr, 0);  // reads the live globals")

    def live_value(self, value: LiveRead, node) -> CExpr:
        if self.kernel is not None and value.var not in self.kernel.shared:
            raise UnsupportedSyntaxError(f"'{value.text}' is read live from a global object, which a prange loop "
                                         "cannot do", node.loc, "read it into a variable before the loop")
        return CExpr(self.var(value.var))
