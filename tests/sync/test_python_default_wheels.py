"""Stated parameter defaults of Quark callables on the real wheels (issue 21, round 5):
`python-default-changed` for a dataclass's fields, several pairs in one sentence, a clause before advice, a
parameter named without its callable, a method named alone and a function some module defines.

Values read from the wheels: 0.9 quark/torch/export/config/config.py `JsonExporterConfig.weight_format =
"real_quantized"`; 0.9 quark/torch/quantization/config/config.py `GPTQConfig.block_size = 128`,
`damp_percent = 0.01`; 0.9 quark/onnx/quantization/config/config.py `QuantizationConfig.include_cle = True`
(and `quantize_static(include_cle=True)`); 0.12.post1 quark/torch/export/api.py
`import_model_from_safetensors(device="cuda")`, quark/torch/quantization/api.py
`ModelQuantizer.freeze(quantize=None)`; 0.13 quark/torch/utils/llm/model_preparation.py
`get_tokenizer(max_seq_len=2048)`.
"""

from __future__ import annotations

import pytest

from tests.sync.test_resolver import _audit

pytestmark = pytest.mark.real


def _changed(findings):
    return sorted(
        (f.skill_location.line, f.subject, f.source_says.rsplit(" ", 1)[-1])
        for f in findings
        if f.rule == "python-default-changed"
    )


def test_dataclass_fields_and_pairs_and_a_parameter_named_alone_on_0_9(tmp_path):
    body = (
        "# Export and GPTQ\n\n"  # 6
        '`JsonExporterConfig` defaults `weight_format` to `"fake_quantized"` and `pack_method` to '
        '`"reorder"`.\n\n'
        "Weight-only GPTQ goes through `GPTQConfig`; its `block_size` defaults to 64 and `damp_percent` "
        "to `0.01`.\n\n"
        "For ONNX, equalization is controlled by `include_cle`; in this release `include_cle` defaults "
        "to `False`.\n"
    )
    assert _changed(_audit(tmp_path, body, "0.9")) == [
        (8, "JsonExporterConfig(weight_format=)", "`real_quantized`"),
        (10, "GPTQConfig(block_size=)", "`128`"),
        (12, "quark.onnx.quantization.config.config.QuantizationConfig(include_cle=)", "`True`"),
    ]


def test_true_defaults_are_no_finding(tmp_path):
    body = (
        "# Export and GPTQ\n\n"
        '`JsonExporterConfig` defaults `weight_format` to `"real_quantized"` and `pack_method` to '
        '`"reorder"`.\n\n'
        "Weight-only GPTQ goes through `GPTQConfig`; its `block_size` defaults to 128 and `damp_percent` "
        "to `0.01`.\n\n"
        "For ONNX, equalization is controlled by `include_cle`; in this release `include_cle` defaults "
        "to `True`.\n\n"
        "The `device_map` argument defaults to `cpu`.\n"  # several callables, different defaults: not checked
    )
    assert _changed(_audit(tmp_path, body, "0.9")) == []


def test_a_clause_before_advice_a_method_alone_and_a_module_function(tmp_path):
    body = (
        "# Native inference\n\n"  # 6
        "Load with `import_model_from_safetensors(None, model_dir)`; its `device` argument defaults to "
        '`"cpu"`, so pass `device="cuda"` for GPU runs.\n'  # 8
        "`freeze(model, quantize=..., runtime_options=...)`: when `quantize` is left out it is `True`.\n"  # 9
    )
    found = _changed(_audit(tmp_path / "a", body, "0.12.post1"))
    # freeze(quantize=None): the body sets True for an eager model (`elif quantize is None: quantize = True`),
    # so "it is `True`" is no drift: a None the body replaces is computed, not a default to compare
    assert [(line, subject) for line, subject, _ in found] == [(8, "import_model_from_safetensors(device=)")]
    assert [actual for *_, actual in found] == ["`cuda`"]
    tokenizer = "# Data\n\n- `get_tokenizer` uses `max_seq_len=4096` unless you pass another value.\n"
    assert [(s, a) for _, s, a in _changed(_audit(tmp_path / "b", tokenizer, "0.13"))] == [
        ("get_tokenizer(max_seq_len=)", "`2048`")
    ]


def test_a_field_named_on_its_class_with_a_list_default(tmp_path):
    # 0.9 quark/onnx/quantization/config/config.py:80
    # execution_providers: List[str] = field(default_factory=lambda: ['CPUExecutionProvider'])
    body = (
        "# ONNX device\n\n`QuantizationConfig.execution_providers` defaults to "
        "`['CUDAExecutionProvider']`, so "
        'pass `execution_providers=["CPUExecutionProvider"]` explicitly on a laptop.\n'
    )
    found = _changed(_audit(tmp_path / "a", body, "0.9"))
    assert found == [(8, "QuantizationConfig(execution_providers=)", "`['CPUExecutionProvider']`")]
    true = body.replace("['CUDAExecutionProvider']", '["CPUExecutionProvider"]')  # other quotes: the same
    assert _changed(_audit(tmp_path / "b", true, "0.9")) == []


def test_a_table_of_classes_fields_and_defaults(tmp_path):
    # 0.11.1 quark/torch/quantization/config/config.py: GPTQConfig damp_percent 0.01, block_size 128, desc_act
    # True; QConfig kv_cache_post_rope False; 0.11.1's quark.onnx exports another GPTQConfig (no damp_percent)
    body = (
        "## Defaults\n\n| dataclass | field | default |\n|---|---|---|\n"
        "| `GPTQConfig` | `block_size` | 128 |\n"  # 10
        "| `GPTQConfig` | `damp_percent` | 0.1 |\n"  # 11
        "| `GPTQConfig` | `desc_act` | True |\n"  # 12
        "| `QConfig` | `kv_cache_post_rope` | True |\n"  # 13
    )
    found = _audit(tmp_path, body, "0.11.1")
    assert _changed(found) == [
        (11, "GPTQConfig(damp_percent=)", "`0.01`"),
        (13, "QConfig(kv_cache_post_rope=)", "`False`"),
    ]
    # the torch class's fields are no unknown keywords because the ONNX class of that name lacks them
    assert not [f for f in found if f.rule == "python-keyword-unknown"]


def test_a_class_exported_by_one_package_and_defined_in_another_is_not_checked_where_they_differ(tmp_path):
    # 0.13: quark.onnx exports SmoothQuantConfig (alpha 0.5); quark/torch/quantization/config/config.py
    # defines its own (alpha 1), which quark.torch does not export: which one is meant is not said
    body = "## Smoothing\n\n`SmoothQuantConfig.alpha` defaults to 1.\n"
    assert _changed(_audit(tmp_path, body, "0.13")) == []


def test_list_items_inherit_the_one_class_their_lead_names(tmp_path):
    # 0.9 quark/torch/export/config/config.py: JsonExporterConfig min_kv_scale: float = 0.0
    body = "## Export\n\nThings to know about `JsonExporterConfig`:\n\n* `min_kv_scale` defaults to 1.0.\n"
    assert _changed(_audit(tmp_path, body, "0.9")) == [(10, "JsonExporterConfig(min_kv_scale=)", "`0.0`")]
