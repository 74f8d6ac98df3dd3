"""Running a compiled call in a fork()ed child of a process whose OpenMP
threads already exist (libgomp's pool does not survive fork: the runtime
must notice and run in order instead of hanging)."""
import multiprocessing

import pytest


def result_in_forked_child(target, what: str, timeout: float = 60):
    """Runs target(queue) in a forked child; returns what it put on the queue,
    failing the test (not hanging it) when the child hangs."""
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=target, args=(queue,))
    child.start()
    child.join(timeout)
    if child.is_alive():
        child.kill()
        pytest.fail(f"{what} in a forked child hung (libgomp's pool does not survive fork)")
    return queue.get(timeout=5)
