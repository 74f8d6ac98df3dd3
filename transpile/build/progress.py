"""A progress line for a compile the user waits on: shown on a terminal
(stderr) when the compile takes over a second, through tqdm (a dependency)
or rich when one is importable, and removed when it ends."""
from __future__ import annotations

import os
import sys
import threading
from contextlib import contextmanager


def _delay() -> float:
    """Seconds before the line appears (TRANSPILE_PROGRESS_AFTER, default 1)."""
    try:
        return max(0.0, float(os.environ.get("TRANSPILE_PROGRESS_AFTER", "1")))
    except ValueError:
        return 1.0


def _label(source_path: str) -> str:
    """The specialization a generated module is for: its second line reads
    `// f(float64[:], int) -> float64`."""
    try:
        with open(source_path) as f:
            f.readline()
            line = f.readline().strip()
    except OSError:
        return os.path.basename(source_path)
    return line[3:].split(" -> ")[0] if line.startswith("// ") else os.path.basename(source_path)


def _tqdm_line(text: str, done: threading.Event) -> bool:
    try:
        from tqdm import tqdm
    except ImportError:
        return False
    with tqdm(desc=text, bar_format="{desc} {elapsed}", file=sys.stderr, leave=False) as bar:
        while not done.wait(0.25):
            bar.refresh()
    return True


def _rich_line(text: str, done: threading.Event) -> bool:
    try:
        from rich.console import Console
    except ImportError:
        return False
    with Console(stderr=True).status(text):
        done.wait()
    return True


_GROUPS = 0  # group() displays open: single compiles inside them show no line of their own


@contextmanager
def compiling(source_path: str):
    """Around one compile: after the delay, a line naming what compiles and
    for how long, while stderr is a terminal."""
    if not sys.stderr.isatty() or _GROUPS:
        yield
        return
    done = threading.Event()

    def show():
        if not done.wait(_delay()):
            text = f"transpile: compiling {_label(source_path)}"
            _tqdm_line(text, done) or _rich_line(text, done)

    thread = threading.Thread(target=show, name="transpile-progress", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def _tqdm_bar(text: str, total: int, count: list, done: threading.Event) -> bool:
    try:
        from tqdm import tqdm
    except ImportError:
        return False
    with tqdm(desc=text, total=total, file=sys.stderr, leave=False) as bar:
        while not done.wait(0.25):
            bar.n = count[0]
            bar.refresh()
    return True


@contextmanager
def group(text: str, total: int):
    """One line for several compiles running at once (signatures=[...]),
    counting those done; yields the function to call as each one ends."""
    global _GROUPS
    done, count = threading.Event(), [0]

    def show():
        if sys.stderr.isatty() and not done.wait(_delay()):
            _tqdm_bar(f"transpile: compiling {text}", total, count, done) or \
                _rich_line(f"transpile: compiling {text}", done)

    _GROUPS += 1
    thread = threading.Thread(target=show, name="transpile-progress", daemon=True)
    thread.start()
    try:
        yield lambda: count.__setitem__(0, count[0] + 1)
    finally:
        _GROUPS -= 1
        done.set()
        thread.join()
