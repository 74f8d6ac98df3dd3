"""The differential fuzzer's CI slice: a fixed seed, the features the compiler
gets right today, every program compared in CPython, at O0 and at O1.

DISABLED names any feature switched off here, with the bug class it finds
(reproducers in tests/fuzz/findings.md; `python benchmarks/fuzz.py --features
all` runs every feature). None is off now.
"""
from __future__ import annotations

import math
import sys

import numpy as np
import pytest

from . import compare, gen, runner

DISABLED: dict = {}  # every feature is on (big_ints since finding 4, the fourth series' kinds since 16-20 were fixed)
CI_FEATURES = gen.FEATURES - frozenset(DISABLED)

SEED = 20261124
PROGRAMS = 30


def test_ci_slice():
    summary = runner.fuzz(SEED, PROGRAMS, CI_FEATURES, ("O0", "O1"), n_inputs=4, batch=PROGRAMS)
    assert summary.programs == PROGRAMS
    assert summary.compared >= PROGRAMS  # most input sets stay in int64 and are compared
    if summary.findings:
        reports = "\n\n".join(runner.report(summary, i) for i in sorted(summary.findings))
        pytest.fail(f"{summary.table()}\n\n{reports}", pytrace=False)


def test_generator_is_deterministic_and_valid_python():
    for index in range(300):
        program = gen.generate(3, index, gen.FEATURES)
        again = gen.generate(3, index, gen.FEATURES)
        assert program.source == again.source
        compile(gen.module_source(3, [program]), f"<fuzz {index}>", "exec")
        args = gen.inputs(program, 3, index, 2, gen.FEATURES)
        assert len(args) == 2 and all(len(a) == len(program.params) for a in args)
    assert gen.generate(3, 0, CI_FEATURES).source != gen.generate(4, 0, CI_FEATURES).source


def test_worker_crash_and_hang_are_findings_of_the_running_program():
    # Stand-ins for a worker whose compiled call kills the process or never returns.
    start = "import json, os, time; print(json.dumps({'start': 7}), flush=True); "
    results = []
    crash = runner.run_worker([sys.executable, "-c", start + "print(json.dumps({'call': 'O1'}), flush=True); os.abort()"],
                              30, results.append)
    assert crash[:2] == (compare.CRASH, 7) and "(in O1)" in crash[2]
    done = "print(json.dumps({'done': 7}), flush=True); print(json.dumps({'start': 8}), flush=True); "
    hang = runner.run_worker([sys.executable, "-c", start + done + "time.sleep(60)"], 2, results.append)
    assert hang[:2] == (compare.HANG, 8)
    assert results == [{"done": 7}]
    assert runner.run_worker([sys.executable, "-c", "pass"], 30, results.append) is None


def test_comparison_classes():
    assert compare.difference(1, 1.0)[0] == compare.TYPE
    assert compare.difference(np.float32(1), np.float64(1))[0] == compare.TYPE
    assert compare.difference(np.zeros(2, np.int32), np.zeros(2, np.int64))[0] == compare.TYPE
    assert compare.difference(math.nan, math.nan) is None
    assert compare.difference(-0.0, 0.0)[0] == compare.VALUE
    assert compare.difference(1.0 + 2 ** -52, 1.0)[0] == compare.VALUE  # one unit in the last place
    assert compare.difference(np.float32(1) + np.float32(2 ** -23), np.float32(1))[0] == compare.VALUE
    assert compare.difference((1, np.array([1.0, math.nan])), (1, np.array([1.0, math.nan]))) is None
    assert compare.difference((1, np.array([1.0, 2.0])), (1, np.array([1.0, 2.0 + 2 ** -51])))[0] == compare.VALUE
    assert compare.difference(complex(1, 2 ** -40), complex(1, 0))[0] == compare.VALUE
    assert compare.difference({1: [2.0]}, {1: [2]})[0] == compare.TYPE
    # a NaN key is the same value, though no NaN equals another (seed 9101 #388)
    assert compare.difference({math.nan: [0.5]}, {float("nan"): [0.5]}) is None
    assert compare.difference({1: 0, 2: 0}, {2: 0, 1: 0})[0] == compare.VALUE  # insertion order
    raised = ("raise", ZeroDivisionError("x"), (), {})
    returned = ("value", 1, (), {})
    never = lambda exc: False  # noqa: E731
    assert compare.compare(raised, returned, never)[0] == compare.EXCEPTION
    assert compare.compare(("raise", ValueError("x"), (), {}), raised, never)[0] == compare.EXCEPTION
    assert compare.compare(raised, raised, never) is None
    mutated = ("value", 1, (np.array([2]),), {})
    assert compare.compare(mutated, ("value", 1, (np.array([3]),), {}), never)[0] == compare.VALUE
