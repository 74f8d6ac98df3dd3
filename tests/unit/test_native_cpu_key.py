"""A build with -march=native (jit_level O1's optimized tier) is keyed by the
CPU it was built for: a cache shared by machines of different CPUs (a home
directory on NFS) must not hand one of them instructions it lacks (SIGILL).
Builds without -march=native stay shared."""
from transpile import jit
from transpile.build import toolchain
from transpile.hir import types as T


def _kernel(a, s):
    return a * s


def _keys(monkeypatch, jit_level):
    impl = jit(_kernel, jit_level=jit_level)._ensure.__self__
    types = tuple(T.parse_signature("float64[:], float64"))
    keys = []
    for cpu in ("this CPU", "another CPU"):
        monkeypatch.setattr(toolchain, "native_cpu", lambda cpu=cpu: cpu)  # stands in for another machine
        keys.append(impl._key(types))
    return keys


def test_native_builds_are_keyed_by_cpu(monkeypatch):
    here, there = _keys(monkeypatch, "O1")
    assert here != there


def test_portable_builds_are_shared_across_cpus(monkeypatch):
    here, there = _keys(monkeypatch, "O0")
    assert here == there


def test_the_cpu_digest_is_stable_and_short():
    toolchain.native_cpu.cache_clear()
    first = toolchain.native_cpu()
    toolchain.native_cpu.cache_clear()
    assert toolchain.native_cpu() == first and len(first) == 16
