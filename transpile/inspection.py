"""`transpile show` and `transpile annotate`: the generated C++ of a function,
and a `cython -a`-like HTML report of a whole file.  Both translate only;
nothing is compiled."""
from __future__ import annotations

import ast
import html
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import aot, importhook
from .diagnostics import TranspileError
from .dispatcher import translate
from .frontend.capture import mode_of, resolved_mode

# a function compiled from recovered bytecode names its file "f.py (QUALNAME, recovered from bytecode)"
_RECOVERED = r"(?: \([^()]*, recovered from bytecode\))?"
_STMT = re.compile(r"^\s*// (?P<file>\S+)" + _RECOVERED + r":(?P<line>\d+)  (?P<src>.*)$")
_FUNC = re.compile(r"^// .*\[(?P<file>[^\]: ]+)" + _RECOVERED + r":(?P<line>\d+)\]\s*$")
_TRACE_LINE = re.compile(r"  # line (?P<line>\d+)(?::.*)?$")


def load_target(target: str):
    """'pkg.mod:func' or 'path/to/file.py:func' -> (module, file path, the @jit function)."""
    where, _, func = target.rpartition(":")
    if not where or not func:
        raise ValueError(f"{target!r}: expected MODULE_OR_FILE:FUNCTION, e.g. kernels.py:axpy")
    if where.endswith(".py") or os.path.exists(where):
        from . import definitions

        path = Path(where).resolve()
        module = definitions.load(path, *aot.module_name(path))  # a script's own code does not run
    else:
        module = aot.import_module(where)
        path = Path(module.__file__).resolve()
    obj = module
    for part in func.split("."):
        obj = getattr(obj, part, None)
    if obj is None or not hasattr(obj, "py_func") or not hasattr(obj, "_ensure"):
        found = ", ".join(d.py_func.__qualname__ for d in importhook.jit_functions(module)) or "none"
        raise ValueError(f"{where} has no @jit function {func!r} (found: {found})")
    return module, path, obj._ensure.__self__


def known_signatures(impl, path: Path, cached: list | None = None) -> list[tuple]:
    """Signatures from signatures=, annotations, export comments and (given the
    cache's entries) the specializations the cache holds for this function."""
    from .hir import types as T

    fn = impl.py_func
    sigs = [tuple(T.parse_signature(s)) for s in impl.options.signatures]
    types, _ = aot.annotation_signature(fn)
    if types is not None:
        sigs.append(types)
    for _, name, text in aot.export_comments(path):
        if name == fn.__qualname__:
            try:
                sigs.append(tuple(T.parse_signature(text)))
            except ValueError:
                pass
    if cached:
        for meta in cached:
            if not is_entry_of(meta, fn, path):
                continue
            try:
                if meta.get("arg_types_ser") is not None:  # @jit_class instances have no fixed descriptor
                    sigs.append(tuple(T.deserialize(t) for t in meta["arg_types_ser"]))
                elif meta.get("arg_desc") is not None:
                    sigs.append(tuple(T.from_descriptor(tuple(meta["arg_desc"]))))
            except (ValueError, KeyError, IndexError, LookupError):
                pass
    return list(dict.fromkeys(sigs))


def is_entry_of(meta: dict, fn, path: Path) -> bool:
    """Whether a cache entry was built for this function of this file, under
    whatever name its module had then (a script's functions are `__main__.f`)."""
    if os.path.realpath(meta.get("source_file") or "") != os.path.realpath(path):
        return False
    qualname = meta.get("qualname")
    if qualname is not None:
        return qualname == fn.__qualname__
    return meta.get("function") == f"{fn.__module__}.{fn.__qualname__}"  # entries made before "qualname"


def entry_label(meta: dict) -> str:
    """How `transpile cache list` names an entry: FILE:QUALNAME, which
    `transpile show` accepts, relative to the current folder when below it."""
    src, qualname = meta.get("source_file"), meta.get("qualname")
    if not src or not qualname:
        return meta.get("function", "?")
    rel = os.path.relpath(src)
    return f"{src if rel.startswith('..') else rel}:{qualname}"


def _cached() -> list:
    from .build import cache_admin

    return cache_admin.entries()


def show(target: str, signature: str | None = None, backend: str | None = None, jit_level: str | None = None,
         color: bool = False) -> str:
    """The C++ of a function for one signature (or each known one), each block
    under the `// file.py:LINE  source` comment of the Python line it came from."""
    from .hir import types as T
    from .options import make_options

    module, path, impl = load_target(target)
    if mode_of(impl.options) == "trace":
        out = "\n".join(f"// ===== {label}: the record of a call (cache entry {meta['key'][:12]}) =====\n"
                        + "".join(f"// {line}" for line in meta["capture"]["text"].splitlines(True)) + "\n" + cpp
                        for label, meta, cpp in trace_entries(impl, path, signature))
        return highlight(out) if color else out
    overrides = {k: v for k, v in (("backend", backend), ("jit_level", jit_level)) if v}
    if overrides:
        make_options(**overrides, check_toolkit=False)  # showing code needs no nvcc / CANN
    options = impl.options.replace(**overrides)
    sigs = [tuple(T.parse_signature(signature))] if signature else known_signatures(impl, path, _cached())
    if not sigs:
        raise ValueError(f"{target}: no signature known; pass --signature \"float64[:], int\" (or annotate the "
                         f"parameters, or use @jit(signatures=[...])). {_NOTHING_CACHED}")
    parts = []
    for types in sigs:
        text = translate(impl, types, options).cpp
        if len(sigs) > 1:
            text = f"// ===== {impl.py_func.__qualname__}({', '.join(t.spell() for t in types)}) =====\n{text}"
        parts.append(text)
    out = "\n".join(parts)
    return highlight(out) if color else out


def trace_entries(impl, path: Path, signature: str | None = None) -> list:
    """(label, metadata, C++ text) of the cache entries recorded by calls of a
    capture_mode="trace" function: its code comes from a call's values, so
    `show` and `annotate` read what a call left in the cache."""
    from .hir import types as T

    fn = impl.py_func
    wanted = tuple(T.parse_signature(signature)) if signature else None
    out = []
    for meta in _cached():
        if not is_entry_of(meta, fn, path) or (meta.get("capture") or {}).get("mode") != "trace":
            continue
        types = tuple(T.deserialize(t) for t in meta.get("arg_types_ser") or ())
        if wanted is not None and types != wanted:
            continue
        cpp = Path(meta.get("dir", ""), "module.cpp")
        label = f"{fn.__qualname__}({', '.join(t.spell() for t in types)})"
        out.append((label, meta, cpp.read_text() if cpp.is_file() else "// (the entry keeps no C++ text)\n"))
    if not out:
        raise ValueError(f"{fn.__qualname__} uses capture_mode='trace': its code is recorded by a call; call it "
                         "once (e.g. `transpile annotate --run`) and the cache entry is shown"
                         + (f" (no entry for {signature})" if signature else ""))
    return out


def _trace_lines(text: str) -> dict[int, str]:
    """The record's statements per Python line of the traced function."""
    out: dict = {}
    for line in text.splitlines():
        m = _TRACE_LINE.search(line)
        if m:
            out.setdefault(int(m.group("line")), []).append(line[:m.start()].strip())
    return {k: "\n".join(v) for k, v in out.items()}


def _recovered_text(fn) -> str | None:
    from .frontend.bytecode.source import function_source

    try:
        return function_source(fn).text
    except TranspileError:  # reported against each signature
        return None


def highlight(cpp: str) -> str:
    try:
        from pygments import highlight as pyg
        from pygments.formatters import TerminalFormatter
        from pygments.lexers import CppLexer
    except ImportError:
        return cpp
    return pyg(cpp, CppLexer(), TerminalFormatter())


# ---- annotate -----------------------------------------------------------------------

@dataclass
class Line:
    status: str = ""  # compiled | fallback | error | python | ""
    reason: str = ""
    cxx: list = field(default_factory=list)  # (signature label, C++ text)
    types: dict = field(default_factory=dict)  # name -> set of type spellings


def split_cxx(cpp: str, basename: str) -> dict[int, str]:
    """C++ text per Python line: each `// file.py:LINE` block, and each function's
    header (attached to its def line) and the entry point (to the entry's def)."""
    blocks: dict[int, list] = {}
    current, entry_line, tail = None, None, []
    for text in cpp.splitlines():
        m = _STMT.match(text)
        f = _FUNC.match(text)
        if m and m.group("file") == basename:
            current = int(m.group("line"))
        elif f and f.group("file") == basename:
            current = int(f.group("line"))
            entry_line = entry_line or current
        elif text.startswith("}  // namespace") or text.startswith("// Entry point"):
            current = None
        if current is not None:
            blocks.setdefault(current, []).append(text)
        elif entry_line is not None and text.strip():
            tail.append(text)
    if entry_line is not None and tail:
        blocks.setdefault(entry_line, []).extend(["", *tail])
    return {k: "\n".join(v).rstrip() for k, v in blocks.items()}


def _statement_lines(fn: ast.AST) -> dict[int, int]:
    """Each source line of a function body -> the first line of its statement."""
    out = {}
    for node in ast.walk(fn):
        if not isinstance(node, ast.stmt) or node is fn:
            continue
        end = node.end_lineno
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
            end = body[0].lineno - 1 if body[0].lineno > node.lineno else node.lineno
        for line in range(node.lineno, max(end, node.lineno) + 1):
            out.setdefault(line, node.lineno)
    return out


def _fallback_lines(tr, path: Path) -> dict[int, str]:
    """Statements of this file the translation runs as Python (JIT Fallback)."""
    out = {}
    for r in getattr(tr, "fallbacks", None) or []:
        if os.path.realpath(r.get("file", "")) == os.path.realpath(path) and r.get("line"):
            out[int(r["line"])] = f"runs as Python (JIT Fallback): {r.get('reason', '')}"
    return out


# Calls that ran wholly in CPython leave no cache entry to read a signature from.
_NOTHING_CACHED = ("A call that ran in CPython (whole-function JIT Fallback, e.g. for an argument that cannot "
                   "cross into compiled code) compiled nothing: its TranspileFallbackWarning gave the reason")


def _whole_function_reason(fn) -> str | None:
    """Why a function runs in CPython whatever its argument types, or None:
    what the dispatcher would say without a signature (generators, a construct
    the frontend cannot compile in any function)."""
    import inspect

    from .frontend import function_hir

    if inspect.isgeneratorfunction(fn) or inspect.iscoroutinefunction(fn) or inspect.isasyncgenfunction(fn):
        return "generators and coroutines run in CPython"
    try:
        function_hir(fn)
    except aot.NOT_COMPILABLE as exc:
        return exc.message
    except TranspileError:
        return None  # reported against each signature
    return None


def analyse(path: Path, extra: dict | None = None, run: bool = False) -> tuple[list[str], dict[int, Line], list[dict]]:
    """Source lines, per-line facts, and a summary per @jit function.  The
    file's top-level code runs only with `run` (definitions.py)."""
    from . import definitions
    from .hir import types as T

    module = aot.import_file(path) if run else definitions.load(path, *aot.module_name(path))
    source = path.read_text()
    src_lines = source.splitlines()
    tree = ast.parse(source)
    lines = {i: Line() for i in range(1, len(src_lines) + 1)}
    defs = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            defs[(node.name, first)] = node
    in_jit: set = set()
    summary, cached = [], _cached()
    basename = path.name
    seen: set = set()
    for disp in importhook.jit_functions(module):
        impl = disp._ensure.__self__
        fn = impl.py_func
        node = defs.get((fn.__name__, fn.__code__.co_firstlineno))
        if node is None or id(impl) in seen:  # one row per function, whatever names it is bound to
            continue
        seen.add(id(impl))
        stmts = _statement_lines(node)
        in_jit.update(range(fn.__code__.co_firstlineno, node.end_lineno + 1))
        sigs = known_signatures(impl, path, cached)
        sigs += [tuple(T.parse_signature(s)) for s in (extra or {}).get(fn.__qualname__, [])]
        sigs = list(dict.fromkeys(sigs))
        info = {"name": fn.__qualname__, "line": node.lineno, "signatures": [], "errors": []}
        if resolved_mode(fn, mode_of(impl.options)) == "bytecode":  # the text compiled, line for line
            info["recovered"] = _recovered_text(fn)
        compiled_any, failure, python_mode = False, None, False
        if mode_of(impl.options) == "trace":  # what calls recorded, from the cache
            sigs = []
            try:
                for label, meta, _ in trace_entries(impl, path):
                    compiled_any = True
                    info["signatures"].append(f"{label} -> {meta.get('return_type')} (a trace)")
                    for ln, text in _trace_lines(meta["capture"]["text"]).items():
                        if ln in lines:
                            lines[ln].cxx.append((f"{label}: the trace's record", text))
                            lines[ln].status = "compiled"
            except ValueError as exc:
                info["errors"].append(str(exc))
        whole = None if sigs or compiled_any else _whole_function_reason(fn)
        if whole is not None:  # no signature needed to know it runs in CPython
            info["errors"].append(f"the whole function runs in CPython (JIT Fallback): {whole}")
            for ln in set(stmts.values()):
                lines[ln].status, lines[ln].reason = "fallback", info["errors"][-1]
            python_mode = True
        for types in sigs:
            label = f"{fn.__qualname__}({', '.join(t.spell() for t in types)})"
            try:
                tr = translate(impl, types)
            except aot.NOT_COMPILABLE as exc:
                whole = f"the whole function runs in CPython (JIT Fallback): {exc.message}"
                info["errors"].append(f"{label}: {whole}")
                for ln in set(stmts.values()):
                    lines[ln].status, lines[ln].reason = "fallback", whole
                python_mode = True
                continue
            except TranspileError as exc:
                failure = failure or exc
                info["errors"].append(f"{label}: {exc.message}")
                eline = getattr(exc.loc, "line", None)
                if eline in lines:
                    lines[eline].status, lines[eline].reason = "error", f"{label}: {exc.message}"
                continue
            compiled_any = True
            info["signatures"].append(f"{label} -> {tr.entry.return_type.spell()}")
            falls = _fallback_lines(tr, path)
            for ln, text in split_cxx(tr.cpp, basename).items():
                if ln in lines:
                    lines[ln].cxx.append((label, text))
                    if lines[ln].status != "error":
                        fb = falls.get(ln)
                        if fb:
                            lines[ln].status, lines[ln].reason = "fallback", fb
                        elif lines[ln].status != "fallback":
                            lines[ln].status = "compiled"
            for tf in tr.program.order:  # the entry and the @jit functions compiled into it
                code = tf.pyfunc.__code__
                tnode = defs.get((tf.pyfunc.__name__, code.co_firstlineno))
                if tnode is None or os.path.basename(code.co_filename) != basename:
                    continue
                for ln in range(tnode.lineno, tnode.end_lineno + 1):
                    words = set(re.findall(r"[A-Za-z_]\w*", src_lines[ln - 1].split("#")[0]))
                    for name, t in tf.var_types.items():
                        if name in words:
                            lines[ln].types.setdefault(name, set()).add(t.spell())
        # lines of the function the translations did not reach
        said_at = None
        for ln, start in stmts.items():
            here = lines[ln]
            if start != ln and lines[start].status and not here.status:
                here.status, here.reason = lines[start].status, lines[start].reason
            if here.status:
                continue
            if compiled_any and not sigs:  # a trace: the lines its record has no node for
                here.status, here.reason = "python", "no node of the trace's record comes from this line"
            elif not sigs:  # the why and the remedies once, on the function's first line
                here.status = "error"
                here.reason = (f"not compiled: no signature known (see line {said_at})" if said_at else
                               "not compiled: no signature known (annotate the parameters, add "
                               f"@jit(signatures=[...]) or `# transpile: export`, or call it once). {_NOTHING_CACHED}")
                said_at = said_at or ln
            elif not compiled_any:
                here.status, here.reason = "error", f"not compiled: the function failed: {failure.message}"
            else:
                here.status, here.reason = "error", "not compiled: no code was generated for this line"
        info["status"] = "compiled" if compiled_any else ("runs in CPython" if python_mode else "no signature"
                                                          if not sigs else "failed")
        info["errors"] = list(dict.fromkeys(info["errors"]))
        summary.append(info)
    for ln, text in enumerate(src_lines, 1):
        code = text.split("#")[0].strip()
        if ln not in in_jit and code and not lines[ln].status:
            lines[ln].status, lines[ln].reason = "python", "not compiled: plain Python (not in a @jit function)"
    return src_lines, lines, summary


_CSS = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.2em} .legend span{padding:2px 8px;margin-right:6px;border-radius:3px}
.src{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;border:1px solid #ddd}
.line{display:grid;grid-template-columns:3.5em 1.4em minmax(30em,1fr) minmax(14em,26em);white-space:pre;
 border-left:5px solid transparent}
.line .no{color:#999;text-align:right;padding-right:.6em}.line .mark{text-align:center}
.line .ty{color:#555;font-size:12px;overflow:hidden;text-overflow:ellipsis;padding-left:1em}
.compiled{background:#e8f7e8;border-left-color:#2a2}.fallback{background:#fff4d6;border-left-color:#e0a000}
.error{background:#fde4e4;border-left-color:#d33}.python{background:#f3f3f3;border-left-color:#bbb}
.has-cxx{cursor:pointer}.has-cxx:hover{filter:brightness(.96)}
.cxx{margin:0 0 0 4.9em;border-left:3px solid #2a2;background:#fafafa}
.cxx pre{margin:0;padding:.4em .8em;font-size:12px;white-space:pre-wrap}
.cxx h4{margin:.3em .8em 0;font-size:11px;color:#666;font-weight:normal}
.reason{color:#a22;font-size:12px;padding-left:1em}
.line .reason{grid-column:3/-1;white-space:pre-wrap;overflow-wrap:anywhere;padding:0 1em .2em 1em}
table.fns{border-collapse:collapse;margin:.5em 0 1em}table.fns td{padding:2px 10px;border-bottom:1px solid #eee}
"""

_JS = """
function toggle(n, open){var x=document.getElementById('X'+n);if(!x)return;
 x.hidden = (open===undefined) ? !x.hidden : !open;
 document.getElementById('L'+n).classList.toggle('open', !x.hidden);}
document.addEventListener('click', function(e){var l=e.target.closest('.has-cxx');
 if(l) toggle(l.dataset.line);});
function all(open){document.querySelectorAll('.has-cxx').forEach(function(l){toggle(l.dataset.line, open);});}
if(location.hash.match(/^#L\\d+$/)) toggle(location.hash.slice(2), true);
"""


def _code_html(text: str) -> str:
    try:
        from pygments import highlight as pyg
        from pygments.formatters import HtmlFormatter
        from pygments.lexers import CppLexer
    except ImportError:
        return f"<pre>{html.escape(text)}</pre>"
    return pyg(text, CppLexer(), HtmlFormatter(noclasses=True, nowrap=False, style="default"))


def annotate_html(path: Path, extra: dict | None = None, run: bool = False) -> str:
    path = Path(path).resolve()
    src_lines, lines, summary = analyse(path, extra, run)
    marks = {"compiled": "✓", "fallback": "↯", "error": "✗", "python": "·", "": ""}
    counts = {k: sum(1 for l in lines.values() if l.status == k) for k in ("compiled", "fallback", "error",
                                                                             "python")}
    out = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>transpile annotate: {html.escape(path.name)}"
           f"</title><style>{_CSS}</style></head><body>",
           f"<h1>transpile annotate — {html.escape(str(path))}</h1>",
           "<p class='legend'><span class='compiled'>✓ compiled</span><span class='fallback'>↯ fallback (runs in "
           "Python)</span><span class='error'>✗ not compiled</span><span class='python'>· plain Python</span>"
           f" &nbsp; {counts['compiled']} compiled, {counts['fallback']} fallback, {counts['error']} not compiled "
           "lines. Click a line to see its C++. <button onclick='all(true)'>expand all</button> "
           "<button onclick='all(false)'>collapse all</button></p>", "<table class='fns'>"]
    for f in summary:
        sigs = "<br>".join(html.escape(s) for s in f["signatures"]) or "—"
        errs = "<br>".join(html.escape(e) for e in f["errors"])
        if f.get("recovered"):
            errs += (f"<details><summary>captured from bytecode: the recovered text</summary>"
                     f"<pre>{html.escape(f['recovered'])}</pre></details>")
        out.append(f"<tr class='fn {f['status'].replace(' ', '-')}'><td><a href='#L{f['line']}'>"
                   f"{html.escape(f['name'])}</a></td><td>{html.escape(f['status'])}</td><td>{sigs}</td>"
                   f"<td class='reason'>{errs}</td></tr>")
    out.append("</table><div class='src'>")
    for n, text in enumerate(src_lines, 1):
        info = lines[n]
        types = ", ".join(f"{k}: {' | '.join(sorted(v))}" for k, v in sorted(info.types.items()))
        cls = ["line", info.status] + (["has-cxx"] if info.cxx else [])
        title = html.escape(info.reason or (f"types: {types}" if types else ""), quote=True)
        reason = f"<span class='reason'>{html.escape(info.reason)}</span>" if info.reason and \
            info.status in ("error", "fallback") else ""
        out.append(f"<div class='{' '.join(c for c in cls if c)}' id='L{n}' data-line='{n}' "
                   f"data-status='{info.status}' title='{title}'><span class='no'>{n}</span><span class='mark'>"
                   f"{marks[info.status]}</span><span class='code'>{html.escape(text)}</span>"
                   f"<span class='ty'>{html.escape(types)}</span>{reason}</div>")
        if info.cxx:
            body = "".join(f"<h4>{html.escape(label)}</h4>{_code_html(code)}" for label, code in info.cxx)
            out.append(f"<div class='cxx' id='X{n}' hidden>{body}</div>")
    data = json.dumps({"file": str(path), "functions": summary})
    out.append(f"</div><script type='application/json' id='summary'>{html.escape(data, quote=False)}</script>"
               f"<script>{_JS}</script></body></html>")
    return "\n".join(out)


def annotate(path: str, output: str | None = None, extra: dict | None = None, run: bool = False) -> str:
    """Writes the report; returns its path (run: execute the file's top-level
    code, for types a real run compiled into the cache)."""
    page = annotate_html(Path(path), extra, run)
    output = output or str(Path(path).with_suffix(".html"))
    Path(output).write_text(page, encoding="utf-8")
    return output
