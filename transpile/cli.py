"""The `transpile` command (also `python -m transpile`)."""
from __future__ import annotations

import argparse
import os
import sys
import time

DESCRIPTION = """\
transpile: a Python -> C++ compiler for numeric Python.

  transpile build PATH...         compile @jit functions ahead of time (--inplace: ship them;
                                  --standalone: a pybind11 module that needs no transpile)
  transpile run script.py ARGS    run a script with the import hook (prebuilt artifacts, no compile)
  transpile show FILE:FUNC        print the C++ generated for a function
  transpile annotate FILE         an HTML report: what compiled, what fell back, inferred types
  transpile cache list|info|clear|verify  the compile cache
"""

EPILOG = "Run `transpile COMMAND --help` for a command's options."


def _parser() -> argparse.ArgumentParser:
    from . import __version__

    p = argparse.ArgumentParser(prog="transpile", description=DESCRIPTION, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"transpile {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    raw = argparse.RawDescriptionHelpFormatter

    b = sub.add_parser("build", help="compile @jit functions ahead of time", formatter_class=raw,
                       description="Import the files, packages or directories given, find their @jit functions "
                       "and compile every signature named by\n  - parameter annotations: def f(x: float64[:, :], "
                       "n: int)   (read from the source, never evaluated)\n  - @jit(signatures=[\"float64[:], "
                       "int\"])\n  - comments: # transpile: export f(float64[:], int)\n"
                       "Artifacts go to the compile cache, or with --inplace to __transpile__/ beside each source "
                       "(with a manifest), where the import hook finds them even without a C++ compiler.\n"
                       "Type spellings: float64[:] any layout, float64[::1] C-contiguous, int/float/bool Python "
                       "scalars, int64/float32 NumPy scalars.")
    b.add_argument("paths", nargs="+", metavar="PATH", help="a .py file, a package or directory, or a module name")
    b.add_argument("-j", "--jobs", type=int, default=None, metavar="N",
                   help=f"parallel compiler runs (default: the number of cores, {os.cpu_count()})")
    b.add_argument("--inplace", action="store_true", help="write __transpile__/ beside each source file")
    b.add_argument("--standalone", action="store_true",
                   help="one pybind11 extension module per file (MODULE.cpp, which cppimport can build too, and "
                        "the built MODULE.so beside the source or in --output-dir): imports and runs with NumPy "
                        "only, without transpile")
    b.add_argument("-o", "--output-dir", metavar="DIR", help="with --standalone: where the module goes")
    b.add_argument("--jit-level", choices=("O0", "O1"), help="override the functions' jit_level")
    b.add_argument("--backend", choices=("cpu", "cuda", "ascend"), help="override the functions' backend")
    b.add_argument("--force", action="store_true", help="rebuild even what is up to date")
    b.add_argument("-q", "--quiet", action="store_true", help="no progress output")

    r = sub.add_parser("run", help="run a script with the import hook installed",
                       description="Run a script (or -m module) like python does, with transpile's import hook: "
                       "@jit functions bind to artifacts built by `transpile build --inplace`, so their first call "
                       "compiles nothing; without a C++ compiler, functions with nothing prebuilt run as plain "
                       "Python (with a warning).")
    r.add_argument("-m", dest="module", action="store_true", help="TARGET is a module name")
    r.add_argument("target", metavar="TARGET", help="script.py, or a module name with -m")
    r.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")

    s = sub.add_parser("show", help="print the C++ generated for a function",
                       description="Print the C++ translation unit of a @jit function for a signature (default: "
                       "the signatures of its annotations, signatures=, export comments and the cache). Each block "
                       "follows a `// file.py:LINE  source` comment naming the Python line it came from. Nothing is "
                       "compiled.")
    s.add_argument("target", metavar="MODULE_OR_FILE:FUNC", help="e.g. kernels.py:axpy or mypkg.kernels:axpy")
    s.add_argument("--signature", help='argument types, e.g. "float64[:], int"')
    s.add_argument("--backend", choices=("cpu", "cuda", "ascend"))
    s.add_argument("--jit-level", choices=("O0", "O1"))
    s.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="syntax highlighting (auto: on a terminal, when pygments is installed)")

    a = sub.add_parser("annotate", help="write an HTML report of a file",
                       description="Write one self-contained HTML page: the source with each line marked compiled, "
                       "fallback or not compiled (with the reason), inferred variable types beside each line, and "
                       "each compiled line expandable (click) to the C++ it produced. Signatures come from "
                       "annotations, signatures=, export comments, --signature and the cache. The file's "
                       "top-level code does not run (only its imports, definitions and constants), unless --run.")
    a.add_argument("file", metavar="FILE")
    a.add_argument("--run", action="store_true",
                   help="import the file normally, running its top-level code (what it compiles is then in the "
                        "cache, and its types in the report)")
    a.add_argument("-o", "--output", help="the report's path (default: FILE with .html)")
    a.add_argument("--signature", action="append", default=[], metavar="FUNC=TYPES",
                   help='an extra signature, e.g. axpy="float, float64[:], float64[:]" (repeatable)')

    c = sub.add_parser("cache", help="list, describe or clear the compile cache",
                       description="The compile cache ($TRANSPILE_CACHE_DIR, else the user's cache directory).")
    csub = c.add_subparsers(dest="action", metavar="ACTION")
    csub.add_parser("list", help="entries: function, signature, size, age; totals")
    csub.add_parser("info", help="where the cache is, its size, the compiler")
    cl = csub.add_parser("clear", help="remove entries")
    cl.add_argument("--older-than", type=float, metavar="DAYS", help="only entries older than DAYS days")
    v = csub.add_parser("verify", help="check every entry (owner, permissions, signature, library hash); remove "
                        "damaged ones and leftovers of killed builds")
    v.add_argument("--dry-run", action="store_true", help="report only, remove nothing")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        status = {"build": _build, "run": _run, "show": _show, "annotate": _annotate, "cache": _cache}[args.command](
            args, parser)
        sys.stdout.flush()  # here, not at exit, so that a closed pipe is caught below
        return status
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `transpile show f.py:g | head`: the reader left, as for any Unix tool
        if args.command == "run":
            raise  # the user's script's own error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # Python's flush at exit would fail again
        return 1


def _fail(message: str) -> int:
    print(f"transpile: error: {message}", file=sys.stderr)
    return 2


def _build(args, parser) -> int:
    from . import aot

    if args.standalone:
        return _standalone(args)
    if args.output_dir:
        return _fail("--output-dir goes with --standalone")
    try:
        report = aot.build(args.paths, jobs=args.jobs, inplace=args.inplace, jit_level=args.jit_level,
                           backend=args.backend, force=args.force, quiet=args.quiet)
    except (ValueError, NotImplementedError) as exc:
        return _fail(str(exc))
    _print_problems(report.skipped, report.errors, "built")
    for m in report.manifests:
        print(f"wrote {m}")
    print(f"transpile build: {len(report.built)} built, {len(report.up_to_date)} up to date, "
          f"{len(report.errors)} failed, {len(report.skipped)} skipped")
    return 0 if report.ok else 1


def _print_problems(skipped, errors, done: str) -> None:
    """A build's skipped functions (as notes) and errors, on stderr."""
    for where, name, why in skipped:
        print(f"{where}: note: {name} not {done}: {why}", file=sys.stderr)
    for err in errors:
        print(err, file=sys.stderr)


def _standalone(args) -> int:
    from . import standalone

    if args.inplace or args.backend not in (None, "cpu"):
        return _fail("--standalone builds CPU modules, without --inplace")
    try:
        result = standalone.build(args.paths, output_dir=args.output_dir, jit_level=args.jit_level)
    except (ValueError, NotImplementedError) as exc:
        return _fail(str(exc))
    _print_problems(result.skipped, result.errors, "exported")
    for name, cpp, lib in result.modules:
        print(f"wrote {cpp}\nbuilt {lib} (import {name})")
    return 0 if result.ok else 1


def _run(args, parser) -> int:
    from . import importhook

    if not args.module and not os.path.isfile(args.target):
        return _fail(f"no such script: {args.target}")
    importhook.run([args.target, *args.args], module=args.module)
    return 0


def _show(args, parser) -> int:
    from . import inspection
    from .diagnostics import TranspileError

    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    try:
        text = inspection.show(args.target, args.signature, args.backend, args.jit_level, color)
    except (ValueError, NotImplementedError, ImportError, TranspileError) as exc:
        return _fail(str(exc))
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def _annotate(args, parser) -> int:
    from . import inspection
    from .diagnostics import TranspileError

    extra: dict = {}
    for item in args.signature:
        name, sep, types = item.partition("=")
        if not sep:
            return _fail(f"--signature {item!r}: expected FUNC=TYPES")
        extra.setdefault(name.strip(), []).append(types.strip())
    if not os.path.isfile(args.file):
        return _fail(f"no such file: {args.file}")
    try:
        out = inspection.annotate(args.file, args.output, extra, run=args.run)
    except (ValueError, ImportError, SyntaxError, TranspileError) as exc:
        return _fail(str(exc))
    print(f"wrote {out}")
    return 0


def _size(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"


def _age(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 172800:
        return f"{seconds / 3600:.0f} h"
    return f"{seconds / 86400:.0f} d"


def _cache(args, parser) -> int:
    from . import cache
    from .inspection import entry_label
    from .options import cache_enabled

    root = cache.directory()
    if args.action in (None, "list"):
        now = time.time()
        rows = []
        listed = cache.entries()
        for e in sorted(listed, key=lambda e: (e.get("source_file") or "", e.get("function", ""),
                                               e.get("created", 0))):
            sig = e["problem"] if e.get("damaged") else ", ".join(e.get("arg_types", []))
            # a specialization has a quick and an optimized build (README, "Tiered compilation"): say which
            rows.append((entry_label(e), f"({sig})", _size(e["size"]), _age(now - e.get("created", now)),
                         "aot" if e.get("aot") else e.get("tier") or ""))
        header = ("FUNCTION", "SIGNATURE", "SIZE", "AGE", "BUILD")
        if rows:
            widths = [max(len(r[i]) for r in rows + [header]) for i in range(5)]
            for r in [header] + rows:
                print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        total = sum(e["size"] for e in listed)
        bad = sum(1 for e in listed if e.get("damaged"))
        hint = f" ({bad} damaged: `transpile cache verify` removes them)" if bad else ""
        print(f"{len(rows)} entries, {_size(total)} in {root}{hint}")
        return 0
    if args.action == "info":
        from .build.toolchain import find_compiler

        entries = cache.entries()
        compiler = find_compiler(required=False)
        print(f"directory: {root}")
        print(f"enabled:   {'yes' if cache_enabled() else 'no (TRANSPILE_CACHE=0)'}")
        print(f"entries:   {len(entries)} ({sum(1 for e in entries if e.get('aot'))} built ahead of time)")
        print(f"size:      {_size(sum(e['size'] for e in entries))}")
        print(f"compiler:  {compiler.path if compiler else 'none found (set CXX or install g++)'}")
        return 0
    if args.action == "verify":
        report = cache.verify(repair=not args.dry_run)
        for path, problem, action in report:
            print(f"{path}: {problem}: {action}")
        print(f"{len(cache.entries())} entries checked in {root}: {len(report)} problem(s)")
        return 1 if any(a.startswith(("could not", "left alone")) for _, _, a in report) else 0
    removed = cache.clear(args.older_than)
    scope = f" older than {args.older_than:g} days" if args.older_than is not None else ""
    print(f"removed {removed} entries{scope} from {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
