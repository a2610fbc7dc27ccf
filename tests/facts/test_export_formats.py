"""export_formats: __all__, module-level export_* functions, *Exporter classes, --model_export choices."""

from __future__ import annotations

from quarkci.facts import export_formats


def _kinds(items):
    out: dict[str, set[str]] = {}
    for item in items:
        out.setdefault(item.attrs["kind"], set()).add(item.name)
    return out


def test_checkout(checkout):
    kinds = _kinds(export_formats.extract(checkout)[0])
    assert kinds["function"] == {"export_safetensors", "export_gguf"}
    assert kinds["exporter"] == {"BaseExporter", "SafetensorsExporter"}
    assert kinds["api"] == {"ExporterConfig", "export_safetensors", "export_gguf", "MiniQuantizer"}
    assert kinds["format"] == {"hf_format", "onnx", "quark_format", "gguf"}


def test_negative_controls(checkout):
    names = {i.name for i in export_formats.extract(checkout)[0] if i.attrs["kind"] != "api"}
    assert "export_inner" not in names  # a method
    assert "_export_private" not in names
    assert "ExporterConfig" not in names  # a class not ending in Exporter
    assert None not in names  # None among the choices


def test_wheel_has_no_example_formats(wheel):
    items, unavailable = export_formats.extract(wheel)
    formats = {(i.name, i.attrs["script"]) for i in items if i.attrs["kind"] == "format"}
    assert formats == {("hf_format", "quark-cli torch-llm-ptq"), ("onnx", "quark-cli torch-llm-ptq")}
    assert unavailable == ["examples/torch/language_modeling/llm_ptq/quantize_quark.py"]
