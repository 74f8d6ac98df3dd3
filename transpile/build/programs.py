"""Finding the compilers' executables and naming their identity (part of
cache keys), for toolchain.py (the C++ compiler) and backends.py (device
toolkits)."""
from __future__ import annotations

import os


def which(name: str) -> str | None:
    """shutil.which(name): the executable a shell would run.  Every warm
    start looks its compiler up for the cache key, and `import shutil`
    imports zlib, bz2 and lzma (~2 ms), so POSIX gets the same search here."""
    if os.name != "posix":
        import shutil

        return shutil.which(name)
    if os.path.dirname(name):
        return name if _executable(name) else None
    path = os.environ.get("PATH")
    if path is None:
        try:
            path = os.confstr("CS_PATH")
        except (AttributeError, ValueError):
            path = os.defpath
    if not path:
        return None
    seen = set()
    for folder in path.split(os.pathsep):
        if folder in seen:
            continue
        seen.add(folder)
        candidate = os.path.join(folder, name)
        if _executable(candidate):
            return candidate
    return None


def _executable(path: str) -> bool:
    return os.path.exists(path) and os.access(path, os.X_OK) and not os.path.isdir(path)


def identity(path: str) -> str:
    """Changes when the program's binary changes: its real path, size and
    modification time (no subprocess on the warm path)."""
    real = os.path.realpath(path)
    st = os.stat(real)
    return f"{real}:{st.st_size}:{st.st_mtime_ns}"


def kill_group(proc) -> None:
    """Kills a compiler started in its own session (start_new_session=True):
    the driver and the cc1plus/as/ld under it."""
    import signal  # only when a compiler runs (~1.5 ms of a short script's exit otherwise)

    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
