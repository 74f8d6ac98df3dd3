"""`"literal".format(...)` as the f-string it equals: str.format and
f-strings both format each field with format(value, spec) after its !s/!r
conversion, so "{} = {:.3f}".format(a, b) is f"{a} = {b:.3f}" -- provided
the arguments are evaluated as Python evaluates them, each once and in
order.  Where that does not hold (a field naming an argument twice or out of
order, an argument no field uses, unless every argument is a name or a
constant; fields with attributes, indexes or nested specs; !a) the call
stays a str.format call."""
from __future__ import annotations

import re
import string

from ..hir import nodes as h


def as_fstring(loc, text: str, args: tuple, keywords: tuple) -> h.FString | None:
    """The f-string equal to text.format(*args, **keywords), or None."""
    try:
        fields = list(string.Formatter().parse(text))
    except ValueError:  # unbalanced braces: str.format raises when it runs
        return None
    by_name = {kw.name: kw.value for kw in keywords}
    order = list(args) + [kw.value for kw in keywords]
    parts, used, auto = [], [], None
    for literal, name, spec, conversion in fields:
        if literal:
            parts.append(literal)
        if name is None:
            continue
        if conversion not in (None, "s", "r") or (spec and "{" in spec):
            return None
        if name == "" or name.isdigit():
            if auto is not None and auto != (name == ""):  # mixing {} and {0}: str.format's ValueError
                return None
            auto = name == ""
            index = sum(1 for u in used if isinstance(u, int)) if name == "" else int(name)
            if index >= len(args):
                return None
            used.append(index)
            value = args[index]
        elif name.isidentifier() and name in by_name:
            used.append(name)
            value = by_name[name]
        else:
            return None
        parts.append(h.FormattedValue(loc, value, conversion, spec or None))
    in_order = [args[u] if isinstance(u, int) else by_name[u] for u in used]
    simple = all(isinstance(v, (h.Name, h.Const)) for v in order)
    if not simple and [id(v) for v in in_order] != [id(v) for v in order]:
        return None
    if simple and len({id(v) for v in in_order}) != len(order):  # an argument no field uses
        return None
    return h.FString(loc, tuple(parts))


_PERCENT = re.compile(r"%(?P<key>\([^)]*\))?(?P<flags>[-+ #0]*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d*))?[hlL]?"
                      r"(?P<type>.?)", re.DOTALL)


class PercentField:
    """One conversion of a %-format: `conversion` 'd' (int(x) first), 'f'
    (float(x) first), 's' or 'r'; `spec` the f-string spec giving the same text."""

    def __init__(self, conversion: str, spec: str):
        self.conversion, self.spec = conversion, spec


def percent_fields(text: str) -> list | None:
    """text's literal pieces (str) and conversions (PercentField), or None
    where its %-formatting is more than an f-string spells here: mapping keys,
    * widths, the # flag, %x, %o, %c, precision on %d."""
    parts, pos = [], 0
    for m in _PERCENT.finditer(text):
        if m.start() > pos:
            parts.append(text[pos:m.start()])
        pos = m.end()
        kind, flags, width, prec = m.group("type"), m.group("flags"), m.group("width") or "", m.group("prec")
        if kind == "%" and m.group(0) == "%%":
            parts.append("%")
            continue
        if m.group("key") or "*" in (width, prec) or "#" in flags:
            return None
        # '-' aligns left (and outranks '0'), '+' outranks ' ': the f-string spec with the same text
        head = ("<" if "-" in flags else "") + ("+" if "+" in flags else " " if " " in flags else "") + \
            ("0" if "0" in flags and "-" not in flags else "") + width
        if kind in "diu" and kind and prec is None:
            parts.append(PercentField("d", f"{head}d"))
        elif kind and kind in "fFeEgG":
            parts.append(PercentField("f", f"{head}.{prec or 0 if prec is not None else 6}{kind}"))
        elif kind and kind in "sr":  # str(x) or repr(x), padded (other flags ignored) and cut: a str's spec
            cut = "" if prec is None else f".{prec or 0}"
            parts.append(PercentField(kind, ("<" if "-" in flags else ">") + width + cut if width or cut else ""))
        else:
            return None
    if pos < len(text):
        parts.append(text[pos:])
    return parts
