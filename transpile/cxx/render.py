"""Rendering the model to one deterministic C++ translation unit (Jinja2)."""
from __future__ import annotations

from functools import lru_cache

from ..resources import templates_dir
from .model import CxxModule


@lru_cache(maxsize=1)
def _environment():
    import jinja2

    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir())), trim_blocks=True,
                              lstrip_blocks=True, keep_trailing_newline=True, undefined=jinja2.StrictUndefined,
                              autoescape=False)


def use_bytecode_cache(bytecode_cache) -> None:
    """Compiled templates kept between processes (a jinja2.BytecodeCache the
    build layer makes: build/template_cache.py, which signs them)."""
    _environment().bytecode_cache = bytecode_cache


def render(module: CxxModule) -> str:
    return _environment().get_template("module.cpp.j2").render(module=module)


def render_template(template: str, **context) -> str:
    """Another template of templates/ (standalone.cpp.j2 prints several modules)."""
    return _environment().get_template(template).render(**context)
