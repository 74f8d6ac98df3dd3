"""A warm start does without a few standard modules whose import costs more
than the job transpile has for them (issue 14): hashing.py's SHA-256 and
HMAC-SHA256 without OpenSSL, build/programs.py's `which` without shutil,
values.py's frozen classes without dataclasses, jsontext.py's JSON without
the json package.  Each must give what the standard module gives."""
from __future__ import annotations

import copy
import dataclasses
import hashlib
import hmac
import json
import os
import pickle
import shutil

import pytest

from transpile import hashing, jsontext
from transpile.build import programs
from transpile.values import as_dict, replace, value_type


@pytest.mark.parametrize("key_size", [0, 1, 32, 63, 64, 65, 200])
@pytest.mark.parametrize("message", [b"", b"abc", bytes(range(256)) * 5])
def test_hmac_sha256_is_hmacs(key_size, message):
    key = bytes((7 * i + 3) % 256 for i in range(key_size))
    assert hashing.hmac_sha256(key, message) == hmac.new(key, message, hashlib.sha256).hexdigest()
    assert hashing.sha256(message).hexdigest() == hashlib.sha256(message).hexdigest()


def test_compare_digest_compares():
    assert hashing.compare_digest("ab" * 32, "ab" * 32) and not hashing.compare_digest("ab" * 32, "ac" * 32)


def test_which_finds_what_shutil_finds(tmp_path, monkeypatch):
    bin_a, bin_b, not_exec = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    for d in (bin_a, bin_b, not_exec):
        d.mkdir()
    for d, name in ((bin_b, "tool"), (bin_a, "tool"), (not_exec, "tool"), (bin_b, "other")):
        f = d / name
        f.write_text("#!/bin/sh\n")
        f.chmod(0o755 if d is not not_exec else 0o644)
    (bin_a / "folder").mkdir()
    paths = [f"{not_exec}{os.pathsep}{bin_a}{os.pathsep}{bin_b}", f"{bin_b}{os.pathsep}{bin_a}",
             f"{os.pathsep}{bin_a}", "", os.environ.get("PATH", "")]
    names = ["tool", "other", "folder", "missing", "sh", "g++", str(bin_a / "tool"), str(not_exec / "tool"),
             str(bin_a / "folder"), "./tool"]
    monkeypatch.chdir(bin_b)
    seen = set()
    for path in paths:
        monkeypatch.setenv("PATH", path)
        for name in names:
            got = programs.which(name)
            assert got == shutil.which(name), (path, name)
            seen.add(got is None)
    monkeypatch.delenv("PATH")
    assert programs.which("sh") == shutil.which("sh")
    assert seen == {True, False}  # both kinds of answer were compared


@value_type
class Point:
    x: int
    y: int = 0
    label: str = ""


@dataclasses.dataclass(frozen=True)
class DataPoint:
    x: int
    y: int = 0
    label: str = ""


def test_value_type_behaves_as_a_frozen_dataclass():
    for cls in (Point, DataPoint):
        p = cls(1, label="a")
        assert (p.x, p.y, p.label) == (1, 0, "a") and p == cls(1, 0, "a") and p != cls(2)
        assert hash(p) == hash(cls(1, 0, "a")) and repr(p) == f"{cls.__qualname__}(x=1, y=0, label='a')"
        for bad in (lambda: cls(), lambda: cls(1, 2, "a", 4), lambda: cls(1, z=2)):
            with pytest.raises(TypeError):
                bad()
        with pytest.raises(AttributeError):
            p.x = 2
        assert pickle.loads(pickle.dumps(p)) == p and copy.deepcopy(p) == p and copy.copy(p) == p
    assert replace(Point(1, 2), label="b") == Point(1, 2, "b") and as_dict(Point(1)) == {"x": 1, "y": 0, "label": ""}
    assert Point(1) != DataPoint(1)


JSON_VALUES = [
    {"b": [1, 2.5, -0.0, 1e300, float("inf"), float("nan")], "a": {"z": None, "y": True, "x": "é\n\"\\\u2028"}},
    [], {}, "text", 7, -3.25, None, False, [[["deep"]], {"k": [{}]}], {"2": 1, "10": 2},
]


@pytest.mark.parametrize("value", JSON_VALUES)
def test_jsontext_writes_and_reads_as_json(value):
    for sort_keys in (False, True):
        text = jsontext.dumps(value, sort_keys=sort_keys)
        assert text == json.dumps(value, sort_keys=sort_keys)
        for spaced in (text, f" \n{text}\t\r\n", text.encode()):
            assert repr(jsontext.loads(spaced)) == repr(json.loads(spaced))


def test_jsontext_default_and_errors():
    parts = [1, ("a", b"x"), {3}]  # a cache key's parts: what JSON has no form for goes through default
    assert jsontext.dumps(parts, sort_keys=True, default=str) == json.dumps(parts, sort_keys=True, default=str)
    with pytest.raises(TypeError, match="not JSON serializable"):
        jsontext.dumps({"s": {1}})
    for bad in ("", "  ", "[1, 2", "{} {}", "[1] x", "{'a': 1}", b"\xff"):
        with pytest.raises(ValueError):
            json.loads(bad)
        with pytest.raises(ValueError):
            jsontext.loads(bad)
