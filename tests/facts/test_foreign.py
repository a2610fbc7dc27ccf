"""The names other libraries define (quarkci/facts/foreign.py): recorded once, shipped, read by the
python-name-misspelt rule so another library's class is never a misspelt Quark name."""

from __future__ import annotations

import json

import pytest

from quarkci.facts import foreign


def test_shipped_names_hold_other_libraries_classes_operators_and_enum_members():
    names = foreign.names()
    # transformers' own classes for Quark and HQQ checkpoints, ONNX operators, onnxruntime's QuantType members
    for name in (
        "QuarkConfig",
        "HqqConfig",
        "AutoModelForCausalLM",
        "QuantizeLinear",
        "MatMulInteger",
        "QUInt8",
    ):
        assert name in names, name
    # Quark's own names are not foreign
    for name in ("ModelQuantizer", "LLMTemplate", "ExtendedCalibrationMethod", "AdaRoundConfig"):
        assert name not in names, name
    groups = json.loads(foreign.SHIPPED.read_text(encoding="utf-8"))["names"]
    assert len(groups["transformers"]) > 3000 and len(groups["onnx.ops"]) > 150


def test_recording_reads_the_installed_packages():
    recorded = foreign.record()
    assert "QuarkConfig" in recorded["transformers"] and "QuantizeLinear" in recorded["onnx.ops"]
    assert all(not n.startswith("_") for group in recorded.values() for n in group)


def test_a_shipped_file_of_another_format_is_refused(tmp_path, monkeypatch):
    bad = tmp_path / "foreign_names.json"
    bad.write_text(json.dumps({"format": "other/1", "names": {}}), encoding="utf-8")
    monkeypatch.setattr(foreign, "SHIPPED", bad)
    foreign.names.cache_clear()
    try:
        with pytest.raises(ValueError, match="not quarkci-foreign-names/1"):
            foreign.names()
    finally:
        foreign.names.cache_clear()
