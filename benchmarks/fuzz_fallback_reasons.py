"""Why fuzz programs run wholly in CPython, by typing alone (no g++ run).

    python benchmarks/fuzz_fallback_reasons.py --seed 7001 --n 520

Generates the programs `benchmarks/fuzz.py` would (every feature), calls
`jit(f)` of each on its first input with the C++ build stubbed out, and
counts the programs whose dispatcher gave up on the whole function, grouped
by the subject of the reason (a parameter, a local, an `and`/`or`/conditional
expression, a call's result) and the use it names. A minute for 500
programs, where the fuzzer's own table (two g++ builds a program) takes ten.
"""
from __future__ import annotations

import argparse
import collections
import importlib.util
import os
import re
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("TRANSPILE_CACHE_DIR", tempfile.mkdtemp(prefix="transpile-reasons-cache-"))

import transpile.build.toolchain as toolchain  # noqa: E402
from transpile import jit  # noqa: E402
from tests.fuzz import gen  # noqa: E402


class _Stubbed(Exception):
    pass


def _no_build(*args, **kwargs):
    raise _Stubbed()


_SUBJECT = re.compile(r"(?:'([a-z])\d+'|the (conditional expression|'and' expression|'or' expression|call's result))"
                      r" may be (.*?) depending")


def category(reason: str) -> str:
    line = re.sub(r"\S+\.py:\d+(:\d+)?: (error: )?", "", reason.splitlines()[0])
    m = _SUBJECT.search(line)
    if not m:
        return re.sub(r"'[a-z]\d+'", "V", line)[:120]
    subject = {"a": "parameter", "x": "parameter"}.get(m.group(1), "local") if m.group(1) else m.group(2)
    types = m.group(3).split(" or ")
    kinds = "object" if "object" in types else "arrays" if any("[" in t for t in types) else "scalars"
    use = re.sub(r" at line \d+", "", line.split("changes the result of ")[-1])
    return f"{subject} ({kinds}) -> {use}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--n", type=int, default=200)
    args = parser.parse_args(argv)
    toolchain.compile_shared = _no_build  # the dispatcher imports it at build time
    programs = [gen.generate(args.seed, i, gen.FEATURES) for i in range(args.n)]
    path = os.path.join(tempfile.mkdtemp(prefix="fuzz-reasons-"), f"fz_reasons_{args.seed}.py")
    with open(path, "w") as f:
        f.write(gen.module_source(args.seed, programs))
    spec = importlib.util.spec_from_file_location(f"fz_reasons_{args.seed}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    warnings.simplefilter("ignore")
    reasons = collections.Counter()
    for i, program in enumerate(programs):
        fn = jit(getattr(module, program.name))
        for inputs in gen.inputs(program, args.seed, i, 1, gen.FEATURES):
            try:
                fn(*inputs)
            except Exception:  # noqa: BLE001 - _Stubbed, or the program's own exception
                pass
        if fn._python_mode:
            reasons[category(str(next(iter(fn._python_mode.values()))))] += 1
    whole = sum(reasons.values())
    print(f"seed {args.seed}: {whole} of {args.n} programs run wholly in CPython ({100 * whole / args.n:.0f}%)")
    for why, count in reasons.most_common(15):
        print(f"  {count:>5}  {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
