"""build/template_cache.py keeps Jinja2's compiled templates in the compile
cache: code that runs when a template renders, so it is used only when it
is signed with this user's key and was compiled from the same source."""
from __future__ import annotations

import stat

import jinja2
import pytest

from transpile.build import template_cache

SOURCE = "value {{ x }}"


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("TRANSPILE_CONFIG_DIR", str(tmp_path / "config"))  # a signing key of this test
    folder = tmp_path / "templates"
    folder.mkdir(mode=0o700)
    return jinja2.Environment(loader=jinja2.DictLoader({"t": SOURCE}),
                              bytecode_cache=template_cache.SignedBytecodeCache(folder))


def _bucket(env, source=SOURCE):
    return env.bytecode_cache.get_bucket(env, "t", None, source)


def test_compiled_templates_are_kept_signed_and_private(env):
    assert env.get_template("t").render(x=1) == "value 1"
    (path,) = env.bytecode_cache.folder.iterdir()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert _bucket(env).code is not None  # the next process loads it
    assert _bucket(env, "another {{ x }}").code is None  # not for another source


def test_tampered_or_foreign_bytecode_is_not_run(env, tmp_path, monkeypatch):
    env.get_template("t").render(x=1)
    (path,) = env.bytecode_cache.folder.iterdir()
    raw = path.read_bytes()
    path.write_bytes(raw[:-1] + bytes([raw[-1] ^ 1]))  # one bit of the code changed
    assert _bucket(env).code is None
    path.write_bytes(raw)
    assert _bucket(env).code is not None
    monkeypatch.setenv("TRANSPILE_CONFIG_DIR", str(tmp_path / "other-user"))  # signed under another key
    assert _bucket(env).code is None
    path.chmod(0o666)  # writable by others: not read at all
    monkeypatch.setenv("TRANSPILE_CONFIG_DIR", str(tmp_path / "config"))
    assert _bucket(env).code is None
