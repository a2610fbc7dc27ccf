"""model_templates: DEFAULT_TEMPLATES keys (literal, splats, late assignments) and 0.10-style CLI maps."""

from __future__ import annotations

from quarkci.facts import cli_models, model_templates
from quarkci.facts.source import parse_text


def test_default_templates_keys(checkout):
    items, unavailable = model_templates.extract(checkout)
    assert unavailable == []
    assert [i.name for i in items] == ["late_model", "llama", "qwen2", "splatted"]
    llama = next(i for i in items if i.name == "llama")
    assert llama.attrs == {"registry": "DEFAULT_TEMPLATES", "fields": ["kv_layers_name", "q_layer_name"]}
    assert llama.line == 49


def test_negative_controls(checkout):
    names = {i.name for i in model_templates.extract(checkout)[0]}
    assert "ghost_model_doc" not in names  # docstring
    assert "not_a_template" not in names  # another module-level dict
    assert "kv_layers_name" not in names  # nested config keys are fields, not templates


def test_cli_model_maps_of_010_shape():
    source = (
        'MODEL_NAME_KV_LAYERS_MAP = {"llama": ["*k"], "deepseekv2v3": ["*kv"]}\n'
        'MODEL_NAME_PATTERN_MAP = {"Llama": "llama", "Grok": "grok"}\n'
        'OTHER = {"ignored": 1}\n'
    )
    items = cli_models._cli_model_maps(parse_text(source, "m.py"))
    got = {i.name: (i.line, i.attrs["maps"]) for i in items}
    assert got == {
        "llama": (1, ["MODEL_NAME_KV_LAYERS_MAP", "MODEL_NAME_PATTERN_MAP"]),
        "deepseekv2v3": (1, ["MODEL_NAME_KV_LAYERS_MAP"]),
        "grok": (2, ["MODEL_NAME_PATTERN_MAP"]),  # pattern map: values are CLI model names
    }
    assert all(i.attrs["registry"] == "cli_model_map" for i in items)
