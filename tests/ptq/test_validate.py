"""``ptq validate``'s reload is never silent: a line per step and a progress line while one runs (the
reload of a real export and its behaviour probe take 10-60 s; measured silent for 60-120 s before)."""

from __future__ import annotations

import sys
import time
import types

from quarkci.core import progress
from quarkci.ptq import quark_api, validate


def test_reload_check_says_each_step_and_while_it_runs(tmp_path, monkeypatch):
    def slow_load(*_args, **_kwargs):
        time.sleep(0.3)
        raise OSError("no weights")  # the loader's failure is recorded, after the progress lines

    fake = types.ModuleType("transformers")
    fake.AutoModelForCausalLM = types.SimpleNamespace(from_pretrained=slow_load)  # type: ignore[attr-defined]
    fake.AutoTokenizer = types.SimpleNamespace(from_pretrained=slow_load)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "transformers", fake)
    monkeypatch.setattr(quark_api, "quark_torch", lambda: None)
    monkeypatch.setattr(progress, "EVERY", 0.05)
    lines: list[str] = []
    result = validate.reload_check(tmp_path / "export", tmp_path / "source", say=lines.append)
    assert result["ok"] is False and "no weights" in result["error"]
    assert lines[0] == f"validate: reloading {tmp_path / 'export'} with transformers ..."
    beats = [line for line in lines[1:] if "still running" in line]
    assert len(beats) >= 3 and all(b.startswith("validate: reloading ") for b in beats), lines


def test_reload_check_without_say_prints_nothing(tmp_path, monkeypatch, capsys):
    fake = types.ModuleType("transformers")
    fake.AutoModelForCausalLM = types.SimpleNamespace(  # type: ignore[attr-defined]
        from_pretrained=lambda *a, **k: (_ for _ in ()).throw(OSError("x"))
    )
    fake.AutoTokenizer = fake.AutoModelForCausalLM  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "transformers", fake)
    monkeypatch.setattr(quark_api, "quark_torch", lambda: None)
    assert validate.reload_check(tmp_path / "e", tmp_path / "s")["error"]
    assert capsys.readouterr().err == ""
