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


@contextmanager
def compiling(source_path: str):
    """Around one compile: after the delay, a line naming what compiles and
    for how long, while stderr is a terminal."""
    if not sys.stderr.isatty():
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
