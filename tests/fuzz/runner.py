"""Drives the fuzzer: generates batches of programs into real module files,
runs each batch in a worker process, and turns crashes and hangs of that
process into findings for the program it was running.
"""
from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field

from . import gen
from .compare import CLASSES, CRASH, HANG

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@dataclass
class Summary:
    seed: int
    features: frozenset
    levels: tuple
    programs: int = 0
    compared: int = 0          # input sets compared
    int64_skipped: int = 0     # input sets whose CPython ints left int64
    fell_back: Counter = field(default_factory=Counter)  # "statements" / "whole" (function) -> programs
    whole_reasons: Counter = field(default_factory=Counter)  # why functions ran wholly as Python
    seconds: float = 0.0
    findings: dict = field(default_factory=dict)  # program index -> [finding]

    def by_class(self) -> Counter:
        """Programs with at least one finding of each class."""
        return Counter(c for fs in self.findings.values() for c in {f["class"] for f in fs})

    def table(self) -> str:
        counts = self.by_class()
        rows = [("programs", self.programs), ("inputs compared", self.compared),
                ("inputs skipped (int64 overflow)", self.int64_skipped),
                ("programs with statements run as Python", self.fell_back["statements"]),
                ("programs run wholly as Python", self.fell_back["whole"]),
                ("programs with findings", len(self.findings))]
        rows += [(f"  {c}", counts.get(c, 0)) for c in CLASSES]
        rows.append(("time (s)", f"{self.seconds:.1f}"))
        width = max(len(r[0]) for r in rows)
        head = f"fuzz seed={self.seed} levels={','.join(self.levels)} features={','.join(sorted(self.features))}"
        reasons = [f"  {n:>5}  {why}" for why, n in self.whole_reasons.most_common(6)]
        return "\n".join([head] + [f"{name:<{width}}  {value:>8}" for name, value in rows]
                         + (["most frequent reasons for running wholly as Python:"] + reasons if reasons else []))


def _job(workdir: str, seed: int, indices: list, features: frozenset, levels, n_inputs: int) -> str:
    module = f"fz_s{seed}_{indices[0]}"
    path = os.path.join(workdir, module + ".py")
    programs = [gen.generate(seed, i, features) for i in indices]
    with open(path, "w") as f:
        f.write(gen.module_source(seed, programs))
    job = os.path.join(workdir, module + ".json")
    with open(job, "w") as f:
        json.dump({"module": module, "path": path, "seed": seed, "indices": indices,
                   "features": sorted(features), "levels": list(levels), "inputs": n_inputs}, f)
    return job


def _lines(proc, timeout: float):
    """The worker's output lines; None once nothing came for `timeout` seconds.
    (Read unbuffered: a buffered reader can hold a line that select() then never reports.)"""
    pending = b""
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        while True:
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                yield line.decode()
            if not sel.select(timeout):
                yield None
                return
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                return
            pending += chunk


def worker_command(job: str) -> list:
    return [sys.executable, "-m", "tests.fuzz.worker", job]


def run_worker(command: list, timeout: float, on_result) -> tuple | None:
    """Runs a worker to the end; returns (class, index, text) when it crashed or hung."""
    err = tempfile.TemporaryFile()
    proc = subprocess.Popen(command, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=err, bufsize=0, start_new_session=True)
    current, side = None, ""
    for line in _lines(proc, timeout):
        if line is None:
            os.killpg(proc.pid, 9)
            proc.wait()
            return HANG, current, f"no result after {timeout:.0f} s (in {side or 'the worker'})"
        message = json.loads(line)
        if "call" in message:
            side = message["call"]
        elif "start" in message:
            current = message["start"]
        else:
            on_result(message)
            current = None
    code = proc.wait()
    if current is None and code == 0:
        return None
    err.seek(0)
    tail = err.read().decode(errors="replace").strip().splitlines()[-8:]
    return CRASH, current, f"worker exit status {code} (in {side or 'the worker'}): " + "\n".join(tail)


def fuzz(seed: int, n: int, features, levels=("O0", "O1"), n_inputs: int = 3, batch: int = 20,
         timeout: float = 90.0, start: int = 0, log=None, max_seconds: float | None = None,
         jobs: int = 1) -> Summary:
    """jobs: batches run at once, each in its own worker process (the
    programs are independent; only the order of the log lines changes)."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Lock

    features = frozenset(features)
    unknown = features - gen.FEATURES
    if unknown:
        raise ValueError(f"unknown fuzzer features {sorted(unknown)}; known: {sorted(gen.FEATURES)}")
    summary = Summary(seed, features, tuple(levels))
    began = time.perf_counter()
    lock = Lock()  # the workers' reader threads update one summary

    def on_result(message: dict) -> None:
        with lock:
            summary.programs += 1
            summary.compared += message["compared"]
            summary.int64_skipped += message["skipped"]["Int64Overflow"]
            if message["fell_back"]:
                summary.fell_back[message["fell_back"].split(":")[0]] += 1
            if message["fell_back"].startswith("whole: "):
                summary.whole_reasons[message["fell_back"][7:]] += 1
            if message["findings"]:
                summary.findings[message["done"]] = message["findings"]
            if log:
                log(summary)

    def run_batch(workdir: str, indices: list) -> None:
        if max_seconds is not None and time.perf_counter() - began >= max_seconds:
            return  # no new batch after the time limit: the summary covers what ran
        while indices:
            job = _job(workdir, seed, indices, features, levels, n_inputs)
            failure = run_worker(worker_command(job), timeout, on_result)
            if failure is None:
                return
            cls, index, text = failure
            if index is None:  # died outside any program (import of the module): nothing to blame
                raise RuntimeError(f"fuzz worker failed: {text}")
            with lock:
                summary.programs += 1
                summary.findings[index] = [{"class": cls, "pair": "-", "input": None, "args": "", "expected": "",
                                            "got": "", "detail": text}]
            indices = indices[indices.index(index) + 1:]

    with tempfile.TemporaryDirectory(prefix="transpile-fuzz-") as workdir:
        batches = [list(range(i, min(i + batch, start + n))) for i in range(start, start + n, batch)]
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            for done in [pool.submit(run_batch, workdir, b) for b in batches]:
                done.result()
    summary.seconds = time.perf_counter() - began
    return summary


def report(summary: Summary, index: int) -> str:
    """A program's findings as a runnable reproducer file."""
    program = gen.generate(summary.seed, index, summary.features)
    lines = [f"# fuzz seed={summary.seed} index={index} features={','.join(sorted(summary.features))}"]
    seen = set()
    for f in summary.findings[index]:
        if (f["class"], f["pair"]) in seen:  # the first input of each kind of finding is enough
            continue
        seen.add((f["class"], f["pair"]))
        lines.append(f"# {f['class']} ({f['pair']}, input {f['input']}): {f['detail']}".replace("\n", "\n# "))
        if f["args"]:
            lines += [f"#   args     = {f['args']}", f"#   expected : {' '.join(f['expected'].split())[:300]}",
                      f"#   got      : {' '.join(f['got'].split())[:300]}"]
    first = summary.findings[index][0]
    lines += ["import copy", "import heapq", "import math", "", "import numpy as np", "",
              "from transpile import jit", ""]
    lines += [f"{g} = {v}" for g, v in program.globals.items()]
    lines += ["", program.source, ""]
    if first["args"]:
        level = first["pair"].split("-")[-1] if first["pair"] != "-" else "O0"
        lines += ["if __name__ == '__main__':", f"    args = {first['args']}",
                  f"    for side, fn in (('python', {program.name}), "
                  f"('{level}', jit({program.name}, jit_level='{level}'))):"]
        lines += [f"        {g} = {v}" for g, v in program.globals.items()]
        lines += ["        try:", "            print(side, 'returns', repr(fn(*copy.deepcopy(args))))",
                  "        except Exception as exc:", "            print(side, 'raises', repr(exc))"]
    return "\n".join(lines) + "\n"


def write_findings(summary: Summary, directory: str, indices) -> list[str]:
    """Reproducer files for these programs, named by the class of their first finding."""
    os.makedirs(directory, exist_ok=True)
    paths = []
    for index in sorted(indices):
        slug = summary.findings[index][0]["class"].replace(" ", "_")
        path = os.path.join(directory, f"{slug}_s{summary.seed}_{index}.py")
        with open(path, "w") as f:
            f.write(report(summary, index))
        paths.append(path)
    return paths
