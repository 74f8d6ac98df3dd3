"""transpile.resources.user_dir applies the XDG rule itself on Linux (a warm
start must not pay for importing platformdirs): it must name the folder
platformdirs names, or the cache and its signing key would move."""
from __future__ import annotations

from pathlib import Path

import platformdirs
import pytest

from transpile.build import cache, trust
from transpile.resources import user_dir

SETTINGS = {"unset": None, "absolute": "ABS", "empty": "", "blank": "  ", "relative": "rel/dir"}


@pytest.mark.parametrize("kind", ["cache", "config"])
@pytest.mark.parametrize("setting", list(SETTINGS))
def test_user_dir_is_platformdirs_folder(kind, setting, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    var = f"XDG_{kind.upper()}_HOME"
    value = SETTINGS[setting]
    if value is None:
        monkeypatch.delenv(var, raising=False)
    else:
        monkeypatch.setenv(var, str(tmp_path / "xdg") if value == "ABS" else value)
    expected = Path(getattr(platformdirs, f"user_{kind}_dir")("transpile", appauthor=False))
    assert user_dir(kind) == expected
    if setting == "unset":
        assert expected == tmp_path / "home" / f".{kind}" / "transpile"  # the comparison saw a real answer


def test_cache_and_key_folders_use_it(tmp_path, monkeypatch):
    monkeypatch.delenv("TRANSPILE_CACHE_DIR", raising=False)
    monkeypatch.delenv("MS_COMPILER_CACHE_PATH", raising=False)
    monkeypatch.delenv("TRANSPILE_CONFIG_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "c"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "k"))
    assert cache.cache_root() == tmp_path / "c" / "transpile"
    assert trust.config_dir() == tmp_path / "k" / "transpile"
