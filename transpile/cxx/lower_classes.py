"""C++ for @jit_class instances: one struct per field layout, field access
through counted references (runtime_cpp/transpile_rt/object.hpp)."""
from __future__ import annotations

import json

from ..hir import types as T
from ..hir.jit_classes import layout_key
from .names import local_name
from .types import ctype, struct_name

OBJECT_HEADER = "transpile_rt/object.hpp"


def field_name(name: str) -> str:
    return local_name(name)


def struct_decl(t: T.Instance) -> str:
    lines = [f"// {t.cls.qualname}: the fields of one layout ({t.cls.module})",
             f"struct {struct_name(t)} {{",
             "    tr_object head;  // counted references, the Python object showing it",
             f"    static constexpr const char *layout_key = {json.dumps(layout_key(t))};"]
    for name, ft in t.fields:
        lines.append(f"    {ctype(ft)} {field_name(name)}{{}};  // {name}: {ft}")
    lines.append("};")
    return "\n".join(lines)


def _collect(t, out: dict) -> None:
    if isinstance(t, T.Tuple):
        for item in t.items:
            _collect(item, out)
    elif isinstance(t, T.Instance) and t.fields is not None and t not in out:
        for _, ft in t.fields:  # nested layouts are declared first
            _collect(ft, out)
        out[t] = None


def layouts_in(types) -> list:
    out: dict = {}
    for t in types:
        _collect(t, out)
    return list(out)


def program_layouts(program, extra=()) -> list:
    types = list(extra)
    for tf in program.order:
        types += list(tf.arg_types) + [tf.return_type] + list(tf.var_types.values()) + list(tf.types.values())
    return layouts_in(types)


def construct_code(lowerer, layout: T.Instance, init_name: str, args: list) -> str:
    """A new instance, initialised by its __init__ (C++ expression)."""
    name = struct_name(layout)
    call_args = ", ".join(["o"] + args)
    return (f"([&]() {{ auto o = tr::make_object<{name}>({name}::layout_key); {init_name}({call_args}); "
            f"return o; }}())")
