"""mindspore.jit's spellings (README "Coming from MindSpore"): the call
form, mode=, backend names, jit_config, input_signature, backend options and
the compile-cache variables; against the undecorated functions."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from transpile import jit
from transpile.options import OptionWarning, cache_enabled, make_options

from ..conftest import run_both


def tensor_add(x, y):
    z = x + y
    return z


def scaled(x, y):
    return x * 2.0 - y


def test_function_keyword_and_options_honoured():
    """The seed's own example, and jit_config's jit_level honoured."""
    tensor_add_graph = jit(function=tensor_add)
    run_both(tensor_add_graph, np.ones((1, 1, 3, 3), np.float32), np.ones((1, 1, 3, 3), np.float32))
    with pytest.warns(OptionWarning) as record:
        f = jit(function=scaled, mode="PSJit", backend="ms_backend", jit_config={"jit_level": "O1", "exc_mode": "auto"},
                input_signature=(np.ones(3),), infer_boost="on")
    messages = "\n".join(str(w.message) for w in record)
    for part in ("backend='ms_backend' is MindSpore's name; backend='cpu'", "jit_config entries exc_mode",
                 "input_signature= is ignored", "option(s) infer_boost are ignored"):
        assert part in messages
    assert f.options.capture_mode == "ast" and f.options.jit_level == "O1" and f.options.backend == "cpu"
    run_both(f, np.arange(4.0), 1.5)


def test_modes_and_backend_names():
    assert jit(mode="PIJit")(lambda x: x).options.capture_mode == "bytecode"  # MindSpore's PIJit: bytecode
    with pytest.raises(ValueError, match="mode='Graph' is not valid"):
        jit(mode="Graph")
    with pytest.raises(ValueError, match="contradicts"):
        jit(mode="PSJit", capture_mode="trace")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert make_options(backend="").backend == "cpu"  # MindSpore's default: no warning
    with pytest.warns(OptionWarning, match="backend='ascend' is used"):
        make_options(backend="GE", check_toolkit=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        make_options(backend="GE", check_toolkit=False)  # one warning per process


def test_compile_cache_variables(monkeypatch, tmp_path):
    from transpile.build.cache import cache_root

    monkeypatch.delenv("TRANSPILE_CACHE", raising=False)
    monkeypatch.setenv("MS_COMPILER_CACHE_ENABLE", "0")
    assert not cache_enabled()
    monkeypatch.setenv("MS_COMPILER_CACHE_ENABLE", "1")
    assert cache_enabled()
    monkeypatch.setenv("TRANSPILE_CACHE", "0")  # transpile's own variable wins
    assert not cache_enabled()
    monkeypatch.delenv("TRANSPILE_CACHE_DIR")
    monkeypatch.setenv("MS_COMPILER_CACHE_PATH", str(tmp_path / "my_compile_cache"))
    assert cache_root() == tmp_path / "my_compile_cache"


def test_cache_path_used_by_a_build(tmp_path):
    """A process configured only with MindSpore's variables builds into MS_COMPILER_CACHE_PATH."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("TRANSPILE_CACHE_DIR", "TRANSPILE_CACHE")}
    env.update(MS_COMPILER_CACHE_ENABLE="1", MS_COMPILER_CACHE_PATH=str(tmp_path / "ms_cache"), PYTHONPATH=os.getcwd())
    script = tmp_path / "ms_script.py"  # (importing this test module would set TRANSPILE_CACHE_DIR: conftest)
    script.write_text("from transpile import jit\n\n\ndef tensor_add(x, y):\n    return x + y\n\n\n"
                      "print(jit(function=tensor_add)(1.0, 2.0))\n")
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "3.0"
    assert any(p.name == "module.so" for p in (tmp_path / "ms_cache").rglob("*"))
