"""The differential fuzzer's long form (tests/fuzz/README.md).

    python benchmarks/fuzz.py --n 10000 --seed 1 --levels O0,O1 [--features all|ci|a,b,c] [--out DIR]
                              [--max-seconds 1200]

Generates random numeric functions, runs each in CPython and compiled at the
given jit levels, prints a summary table and writes every program with a
finding (mismatch, compile error, crash, hang) to --out as a runnable file.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.fuzz import gen, runner  # noqa: E402
from tests.fuzz.test_fuzz import CI_FEATURES  # noqa: E402


def parse_features(text: str) -> frozenset:
    if text == "all":
        return gen.FEATURES
    if text == "ci":
        return CI_FEATURES
    return frozenset(t for t in text.split(",") if t)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=100, help="number of programs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="index of the first program")
    parser.add_argument("--levels", default="O0,O1", help="jit levels, comma-separated")
    parser.add_argument("--features", default="all", help="'all', 'ci' or a comma-separated list: "
                        + ",".join(sorted(gen.FEATURES)))
    parser.add_argument("--inputs", type=int, default=3, help="input sets per program")
    parser.add_argument("--batch", type=int, default=20, help="programs per worker process")
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds one program may take")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="worker processes at once (default: one per core)")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="stop starting new batches after this long (the summary covers what ran)")
    parser.add_argument("--out", default="fuzz-findings", help="directory for the failing programs")
    args = parser.parse_args(argv)
    os.environ.setdefault("TRANSPILE_CACHE_DIR", tempfile.mkdtemp(prefix="transpile-fuzz-cache-"))
    # The builds users run for long are the optimized ones: test those, each
    # compiled once (tiered, a program's few calls ran on its quick build
    # while the optimized one compiled in the background, mostly for nothing).
    os.environ.setdefault("TRANSPILE_TIERED", "0")
    levels = tuple(level for level in args.levels.split(",") if level)

    written = set()

    def progress(summary):
        # Each failing program is written as soon as it is found, so a run cut short keeps them.
        for index in summary.findings.keys() - written:
            runner.write_findings(summary, args.out, [index])
            written.add(index)
        if summary.programs % 10 == 0:
            print(f"  {summary.programs} programs, {len(summary.findings)} with findings", flush=True)

    summary = runner.fuzz(args.seed, args.n, parse_features(args.features), levels, n_inputs=args.inputs,
                          batch=args.batch, timeout=args.timeout, start=args.start, log=progress,
                          max_seconds=args.max_seconds, jobs=args.jobs)
    print(summary.table())
    paths = runner.write_findings(summary, args.out, summary.findings)
    if paths:
        print(f"{len(paths)} failing programs written to {args.out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
