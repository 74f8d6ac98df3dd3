"""backend="ascend": the generated code (golden), the clear error without the
CANN toolkit, and the Ascend code path compiled by g++ and run against the
host emulation of AscendCL (TRANSPILE_ASCEND_MOCK=1; see
runtime_cpp/transpile_rt/backend/ascend_mock.hpp).  Nothing here has run
on an Ascend NPU or been compiled by CANN's bisheng."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from transpile import jit
from transpile.errors import BackendUnavailableError
from transpile.hir import types as T
from transpile.options import make_options
from transpile.passes.pipeline import translate

from . import device_kernels as dk

GOLDEN = Path(__file__).parent / "golden"


def test_golden_ascend_code():
    options = make_options(backend="ascend", check_toolkit=False)
    text = translate(dk.axpy_sum, tuple(T.parse_signature(dk.AXPY_SIG)), options, "tr_entry_axpy_sum").cpp
    path = GOLDEN / "ascend_axpy_sum.cpp"
    if os.environ.get("TRANSPILE_UPDATE_GOLDEN") == "1" or not path.exists():
        path.write_text(text)
    assert text == path.read_text(), "generated Ascend code changed; review and regenerate (TRANSPILE_UPDATE_GOLDEN=1)"
    assert "backend='ascend': built with the CANN toolkit's bisheng" in text


def test_one_source_for_every_backend():
    sig = tuple(T.parse_signature(dk.AXPY_SIG))

    def body(backend):
        text = translate(dk.axpy_sum, sig, make_options(backend=backend, check_toolkit=False), "tr_entry_x").cpp
        return [line for line in text.splitlines() if not line.startswith("// backend=")]

    assert body("cpu") == body("cuda") == body("ascend")


def test_missing_cann_toolkit_is_an_error_at_decoration(monkeypatch, tmp_path):
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path))
    monkeypatch.delenv("TRANSPILE_ASCEND_MOCK", raising=False)
    with pytest.raises(BackendUnavailableError, match="backend='ascend' needs Huawei's CANN toolkit") as info:
        jit(backend="ascend")(dk.axpy_sum)
    assert "set_env.sh" in info.value.hint


def test_show_ascend_code_needs_no_toolkit(monkeypatch, tmp_path):
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path))
    text = jit(dk.axpy_sum).inspect_cxx(dk.AXPY_SIG, backend="ascend")
    assert "backend='ascend'" in text


@pytest.fixture
def mock(monkeypatch):
    monkeypatch.setenv("TRANSPILE_ASCEND_MOCK", "1")
    monkeypatch.setenv("TRANSPILE_ASCEND_BLOCKS", "3")


def test_ascend_path_runs_on_the_host_emulation(mock):
    stencil = jit(backend="ascend")(dk.stencil)
    u, v, steps = dk.stencil_args(30, 20)
    eu, ev, _ = dk.stencil_args(30, 20)
    np.testing.assert_allclose(stencil(u, v, steps), dk.stencil(eu, ev, steps), rtol=1e-12)
    axpy = jit(backend="ascend")(dk.axpy_sum)
    x, y = np.arange(100, dtype=np.float32), np.ones(100, np.float32)
    ey = y.copy()
    assert axpy(np.float32(2.0), x, y) == pytest.approx(dk.axpy_sum(np.float32(2.0), x, ey), rel=1e-6)
    np.testing.assert_array_equal(y, ey)  # written on the "device", copied back


def test_no_npu_is_a_clear_runtime_error(mock, monkeypatch):
    monkeypatch.setenv("TRANSPILE_ASCEND_MOCK_DEVICES", "0")
    f = jit(backend="ascend")(dk.out_of_bounds)
    with pytest.raises(RuntimeError, match="backend='ascend': no Ascend NPU is visible to this process"):
        f(np.ones(4))
