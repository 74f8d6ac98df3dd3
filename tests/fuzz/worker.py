"""Runs a batch of generated programs in its own process (python -m tests.fuzz.worker JOB.json).

Prints one JSON line when it starts a program and one with its findings
when done, so the parent (runner.py) can tell which program a crash or a
hang belongs to.
"""
from __future__ import annotations

import copy
import importlib.util
import json
import os
import re
import sys
import warnings

import transpile
from transpile import jit

from . import gen
from .compare import COMPILE, compare, describe

_WHERE = re.compile(r"\S+\.py:\d+(:\d+)?: (error: )?|'[a-z]\d+'")
_TRANSPILE_DIR = os.path.dirname(transpile.__file__)
# Exceptions raised from these parts of the compiler are compile errors, not the program's.
_COMPILER_PARTS = tuple(os.path.join(_TRANSPILE_DIR, d) + os.sep
                        for d in ("frontend", "hir", "passes", "library", "cxx", "build"))


def is_compile_error(exc: BaseException) -> bool:
    if isinstance(exc, transpile.TranspileError):
        return True
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.startswith(_COMPILER_PARTS):
            return True
        tb = tb.tb_next
    return False


def source_repr(value) -> str:
    """Python text that rebuilds an argument or result (for reproducers)."""
    import numpy as np

    if isinstance(value, np.ndarray):
        return f"np.array([{', '.join(source_repr(v) for v in value.tolist())}], dtype=np.{value.dtype.name})"
    if isinstance(value, np.generic):
        return f"np.{type(value).__name__}({source_repr(value.item())})"
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return f"float('{value}')"
    if isinstance(value, complex):
        return f"complex({source_repr(value.real)}, {source_repr(value.imag)})"
    if isinstance(value, tuple):
        return "(" + "".join(source_repr(v) + ", " for v in value) + ")"
    return repr(value)


def run(fn, args: tuple, module, globals_init: dict, who: str | None = None):
    """One call on a deep copy of the arguments, with the module's globals reset first:
    (outcome, [(warning category, message)]). `who` is announced first (so a hang or a
    crash names the side it happened on)."""
    if who:
        print(json.dumps({"call": who}), flush=True)
    for name, init in globals_init.items():
        setattr(module, name, init)
    args = copy.deepcopy(args)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            outcome = ("value", fn(*args))
        except Exception as exc:  # noqa: BLE001 - every exception is part of the behaviour
            outcome = ("raise", exc)
    after = {name: getattr(module, name) for name in globals_init}
    return outcome + (args, after), [(w.category.__name__, str(w.message)) for w in caught]


def rejected_by_gxx(messages: list) -> str | None:
    """The warning saying g++ rejected the generated code (the dispatcher then runs the function
    in CPython, so only the warning tells)."""
    return next((m for c, m in messages if c == "TranspileFallbackWarning" and "failed to compile" in m), None)


def check_program(program: gen.Program, module, inputs: list, levels: list) -> dict:
    py = getattr(module, program.name)
    checked = getattr(module, program.name + "_ck")
    jitted = {level: jit(py, jit_level=level) for level in levels}
    findings, skipped, compared, fell_back = [], {"Int64Overflow": 0}, 0, ""
    for n, args in enumerate(inputs):
        guard, _ = run(checked, args, module, program.globals, "python")
        if guard[0] == "raise" and type(guard[1]).__name__ == "Int64Overflow":
            skipped[type(guard[1]).__name__] += 1
            continue
        compared += 1
        expected, _ = run(py, args, module, program.globals, "python")
        results = {}
        for level in levels:
            results[level], messages = run(jitted[level], args, module, program.globals, level)
            fell_back = fell_back or _fallback_kind(jitted[level])
            rejected = rejected_by_gxx(messages)
            if rejected:
                findings.append(_finding(COMPILE, f"py-{level}", n, args, expected, results[level], rejected[:400]))
            found = compare(results[level], expected, is_compile_error=is_compile_error)
            if found:
                findings.append(_finding(found[0], f"py-{level}", n, args, expected, results[level], found[1]))
        if len(levels) == 2 and all(results[lv][0] == "value" for lv in levels):
            found = compare(results[levels[1]], results[levels[0]], is_compile_error=is_compile_error)
            if found:
                findings.append(_finding(found[0], "O0-O1", n, args, results[levels[0]], results[levels[1]],
                                         found[1]))
    return {"findings": findings, "skipped": skipped, "compared": compared, "fell_back": fell_back}


def _fallback_kind(jitted) -> str:
    """'whole: <why>' when the function ran in CPython, 'statements' when some of it did, else ''
    (asked of the dispatcher: a specialization loaded from the cache does not warn again)."""
    if jitted._python_mode:
        reason = next(iter(jitted._python_mode.values()))
        return "whole: " + _WHERE.sub("", reason.splitlines()[0])[:120]
    try:
        return "statements" if jitted.fallbacks() else ""
    except ValueError:  # nothing compiled yet: the call failed before
        return ""


def _finding(cls: str, pair: str, n: int, args, expected, got, text: str) -> dict:
    return {"class": cls, "pair": pair, "input": n, "args": source_repr(args), "expected": describe(expected),
            "got": describe(got), "detail": text}


def main(job_path: str) -> None:
    with open(job_path) as f:
        job = json.load(f)
    spec = importlib.util.spec_from_file_location(job["module"], job["path"])
    module = importlib.util.module_from_spec(spec)
    sys.modules[job["module"]] = module
    spec.loader.exec_module(module)
    features = frozenset(job["features"])
    for index in job["indices"]:
        print(json.dumps({"start": index}), flush=True)
        program = gen.generate(job["seed"], index, features)
        inputs = gen.inputs(program, job["seed"], index, job["inputs"], features)
        result = check_program(program, module, inputs, job["levels"])
        print(json.dumps({"done": index, **result}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
