"""Pickling @jit functions and @jit_class classes and instances: by
reference when importable, by value (cloudpickle) otherwise; the compiled
artifacts inside a pickle let a fresh process call native code at once with
no compiler, and are verified before use (a planted library never loads; an
artifact of another platform is ignored)."""
from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import cloudpickle
import numpy as np
import pytest

from transpile import pickling

from ..conftest import assert_same
from . import kernels as k

REPO = str(Path(__file__).resolve().parents[2])
A = np.linspace(-1.0, 2.0, 11)


def receive(tmp_path, blob: bytes, args, compiler=False) -> dict:
    """Unpickles blob in a new process with an empty cache (and no C++
    compiler unless asked) and calls the function with args."""
    (tmp_path / "fn.pkl").write_bytes(blob)
    (tmp_path / "args.pkl").write_bytes(pickle.dumps(args))
    env = dict(os.environ, TRANSPILE_CACHE_DIR=str(tmp_path / "receiver-cache"))
    if not compiler:
        env["CXX"] = "/nonexistent/c++"
    out = subprocess.run([sys.executable, str(Path(__file__).with_name("receiver.py")), str(tmp_path / "fn.pkl"),
                          str(tmp_path / "args.pkl"), REPO], capture_output=True, text=True, timeout=300, env=env,
                         cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["same"], result
    return result


def test_by_reference_in_process():
    k.weighted_sum(A, 2.0)
    for dumps in (pickle.dumps, cloudpickle.dumps):
        assert pickle.loads(dumps(k.weighted_sum)) is k.weighted_sum
    s = k.Scaler(2.5)
    assert pickle.loads(pickle.dumps(k.Scaler)) is k.Scaler
    t = pickle.loads(pickle.dumps(s))
    assert type(t) is k.Scaler and t.k == 2.5 and t is not s
    assert_same(t.apply(A), A * 2.5)


def test_by_reference_carries_artifacts(tmp_path):
    k.weighted_sum(A, 2.0)
    r = receive(tmp_path, pickle.dumps(k.weighted_sum), (A, 2.0))
    assert r["compiles"] == 0 and r["loaded_at_unpickle"] >= 1 and r["warnings"] == []


def test_by_value_with_cloudpickle(tmp_path):
    poly = k.make_local()
    assert_same(poly(A, 3.0), poly.py_func(A, 3.0))
    r = receive(tmp_path, cloudpickle.dumps(poly), (A, 3.0))
    assert r["compiles"] == 0 and r["loaded_at_unpickle"] >= 1 and r["warnings"] == []
    # the same bytes unpickled twice in one process give one function
    blob = cloudpickle.dumps(poly)
    assert pickle.loads(blob) is pickle.loads(blob)


class _Forged:
    """Pickles as whatever reduce value it is given (a tampered pickle)."""

    def __init__(self, rv):
        self.rv = rv

    def __reduce__(self):
        return self.rv


def _tampered(f, change) -> bytes:
    rebuild, args = pickling.reduce_dispatcher(f)
    shipped = [(types, dict(artifact)) for types, artifact in args[-1]]
    for _, artifact in shipped:
        change(artifact)
    return pickle.dumps(_Forged((rebuild, (*args[:-1], shipped))))


def test_planted_library_in_a_pickle_is_never_loaded(tmp_path):
    from ..integration.test_cache_trust import planted_library

    k.smooth(A)
    marker = tmp_path / "marker"
    planted = planted_library(tmp_path, marker)
    blob = _tampered(k.smooth, lambda art: art.update(library=planted))  # the sender's sha256 kept
    r = receive(tmp_path, blob, (A,), compiler=True)
    assert not marker.exists(), "the planted library's constructor ran"
    assert r["compiles"] == 1 and any("do not hash to the sha256" in w for w in r["warnings"]), r


def test_artifact_of_another_platform_is_ignored(tmp_path):
    k.smooth(A)
    blob = _tampered(k.smooth, lambda art: art.update(platform="another-os/abi0/cpu-0"))
    r = receive(tmp_path, blob, (A,), compiler=True)
    assert r["compiles"] == 1 and r["loaded_at_unpickle"] == 0


def test_unreachable_without_cloudpickle_is_a_clear_error(monkeypatch):
    poly = k.make_local()
    monkeypatch.setitem(sys.modules, "cloudpickle", None)  # as if not installed
    with pytest.raises(pickle.PicklingError, match="not reachable by name.*cloudpickle"):
        pickle.dumps(poly)


def test_local_jit_class_is_a_clear_error():
    obj = k.make_local_class()(2.0)
    assert_same(obj.apply(A), A * 2.0)
    with pytest.raises(pickle.PicklingError, match="method of a @jit_class, which pickles by reference only"):
        cloudpickle.dumps(obj)
