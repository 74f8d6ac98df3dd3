"""The accessor module of a @jit_class layout: what Python needs to read and
write fields (a getter per field, a setter per field and accepted argument
type) and to make an empty instance (unpickling).  One small translation
unit per layout, in the disk cache like any specialization."""
from __future__ import annotations

import os
import sys

from ..hir import types as T
from ..hir.jit_classes import accepted_variants, layout_key
from . import cache


class AccessorModule:
    def __init__(self, library: str, symbols: dict):
        self.library = library
        self.symbols = symbols  # repr(accessor) -> symbol

    def address(self, accessor) -> int:
        from .loader import entry_address

        return entry_address(self.library, self.symbols[accessor if isinstance(accessor, str) else repr(accessor)])


def _accessors(t: T.Instance):
    """(accessor, C++ function name, return type, parameter types, body) of each entry."""
    from ..cxx.lower_classes import field_name

    out = []
    for i, (name, ft) in enumerate(t.fields):
        f = field_name(name)
        out.append((("get", name), f"get_{i}", ft, [t], f"return self->{f};"))
        for j, variant in enumerate(accepted_variants(ft)):
            out.append((("set", name, T.cache_text(variant)), f"set_{i}_{j}", T.NONE, [t, variant],
                        f"self->{f} = tr::kept({_convert(variant, ft)}); return tr::none_t{{}};"))
    out.append((("new",), "make_empty", t, [], None))
    return out


def _convert(src: T.Type, dst: T.Type) -> str:
    from ..cxx.types import ctype

    return "value" if src == dst else f"{ctype(dst)}(value)"


def source(t: T.Instance, options) -> tuple[str, dict]:
    from ..cxx.lower import ModuleLowerer
    from ..cxx.prelude import BASE_HEADERS
    from ..cxx.lower_classes import OBJECT_HEADER, field_name, layouts_in, struct_decl, struct_name
    from ..cxx.model import CxxFunction, CxxModule, Line
    from ..cxx.names import symbol
    from ..cxx.render import render
    from ..cxx.types import ctype
    from ..passes.typed import TypedFunction

    layout = struct_name(t)
    functions, entries, symbols = [], [], {}
    lowerer = ModuleLowerer(None, options)
    for accessor, name, ret, params, body in _accessors(t):
        names = ["self", "value"][:len(params)]
        if body is None:
            body = f"return tr::make_object<{layout}>({layout}::layout_key);"
        functions.append(CxxFunction(name, ctype(ret), [f"{ctype(p)} {n}" for p, n in zip(params, names)], [],
                                     [Line(1, body)], f"{t.cls.name}: {' '.join(accessor)}"))
        sym = f"tr_{symbol(t.cls.name)}_{name}"
        symbols[repr(accessor)] = sym
        stub = TypedFunction(None, None, tuple(params), name, return_type=ret, params=tuple(names))
        entries.append(lowerer.entry(stub, sym))
    offsets = f"tr_{symbol(t.cls.name)}_offsets"
    symbols["offsets"] = offsets
    listed = ", ".join(f"int64_t(__builtin_offsetof({layout}, {field_name(n)}))" for n, _ in t.fields) or "0"
    module = CxxModule(f"accessors of {t.cls.qualname} {t.spell()}", ["#define TR_BOUNDSCHECK 1",
                                                                       "#define TR_UNIT_PATHS 0"],
                       list(BASE_HEADERS) + [OBJECT_HEADER], [], functions, entries,
                       ["// Receives the bridge's services.\nTR_FALLBACK_MODULE_INIT",
                        "// Where each field lies in the struct: Python reads scalar fields in place.\n"
                        f"TR_EXPORT const int64_t {offsets}[] = {{{listed}}};"])
    module.types = [struct_decl(x) for x in layouts_in([t])]
    return render(module), symbols


def accessor_module(t: T.Instance) -> AccessorModule:
    """Loads (or builds) the accessor module of layout t."""
    import numpy

    from .. import _runtime
    from ..options import cache_enabled
    from ..resources import fingerprint
    from .loader import init_regions
    from .toolchain import find_compiler, flags

    options = t.cls.options
    compiler = find_compiler(required=False)
    key = cache.make_key([_runtime.ABI_VERSION, fingerprint(), "jit_class layout", layout_key(t),
                          compiler.identity if compiler else None, flags(options), sys.implementation.cache_tag,
                          numpy.__version__])
    root = None if options.cache and cache_enabled() else cache.private_root()
    meta = cache.fetch(key, lambda staging: _build(t, options, staging), root=root)
    library = os.path.join(meta["dir"], cache.LIBRARY)
    init_regions(library, ())
    return AccessorModule(library, meta["symbols"])


def _build(t: T.Instance, options, staging) -> dict:
    from .toolchain import compile_shared

    cache.COMPILE_COUNT += 1
    text, symbols = source(t, options)
    src = staging / cache.SOURCE
    src.write_text(text)
    compile_shared(str(src), str(staging / cache.LIBRARY), options)
    return {"function": f"{t.cls.module}.{t.cls.qualname} (field accessors)", "layout": t.spell(),
            "symbols": symbols, "arg_types": [], "return_type": t.spell()}
