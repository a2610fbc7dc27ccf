"""demo-model without the ML extra: one line and exit 2, not an internal error."""

from __future__ import annotations

import sys

from quarkci.cli import main


def test_demo_model_without_torch_is_bad_input(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` now raises ModuleNotFoundError
    assert main(["demo-model", "--out", str(tmp_path / "demo")]) == 2
    err = capsys.readouterr().err
    assert "needs the ML extra (torch is not installed)" in err and err.count("\n") == 1
