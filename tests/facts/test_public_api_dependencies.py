"""public_api and dependencies facts, all CLIs, and the facts cache keyed by the wheel's sha256."""

from __future__ import annotations

import json
import time

import pytest

from quarkci.facts import cache as facts_cache
from quarkci.facts.public_api import ApiIndex, module_item


def test_module_item_names_public_all_star_and_getattr():
    text = (
        "from .sub import *\nfrom quark.torch.x import Re\nimport json\n__all__ = ['Thing']\n"
        "class Thing: ...\ndef _private(): ...\ndef __getattr__(name): ...\n"
    )
    item = module_item("quark/pkg/__init__.py", text)
    assert item is not None and item.name == "quark.pkg"
    assert item.attrs["all"] == ["Thing"] and item.attrs["public"] == ["Thing"]
    assert {"Re", "json", "Thing", "_private", "__getattr__"} <= set(item.attrs["names"])
    assert item.attrs["star"] == ["quark.pkg.sub"] and item.attrs["getattr"] is True
    plain = module_item("quark/pkg/mod.py", "import json\nfrom quark.a import B\nX = 1\n")
    assert plain is not None and plain.attrs["public"] == ["B", "X"]  # `import json` is not Quark's API


def test_index_resolves_star_reexports_and_leaves_getattr_unknown():
    index = ApiIndex(
        [
            module_item("quark/pkg/__init__.py", "from .sub import *\ndef __getattr__(n): ...\n"),
            module_item("quark/pkg/sub.py", "class Found: ...\n"),
        ]
    )
    assert index.resolves("quark.pkg", "Found") is True
    assert index.resolves("quark.pkg", "sub") is True  # a submodule
    assert index.resolves("quark.pkg", "Missing") is None  # served by __getattr__: unverifiable
    assert index.split("quark.pkg.sub.Found.method") == ("quark.pkg.sub", ["Found", "method"])


def test_a_class_signature_includes_inherited_init_and_dataclass_fields_of_its_bases():
    index = ApiIndex(
        [
            module_item(
                "quark/base.py",
                "from abc import ABC\nfrom dataclasses import dataclass, field\n"
                "@dataclass\nclass Root(ABC):\n    weight: int = 0\n    bias: int = 0\n"
                "class Plain(Root):\n    def method(self): ...\n"
                "class Runner:\n    def __init__(self, model, output_dir='o'): ...\n",
            ),
            module_item(
                "quark/leaf.py",
                "from dataclasses import dataclass, field\nfrom typing import ClassVar\n"
                "import torch.nn as nn\nfrom quark.base import Plain, Runner\n"
                "@dataclass\nclass Leaf(Plain):\n    target: str = 'cpu'\n    weight: int = 1\n"
                "    kind: ClassVar[str] = 'x'\n    cache: dict = field(default_factory=dict, init=False)\n"
                "class Child(Runner):\n    pass\n"
                "class Module(nn.Module):\n    pass\n"
                "@dataclass(init=False)\nclass Manual(Plain):\n    z: int = 0\n",
            ),
        ]
    )
    # fields of a dataclass base in another module (through a plain class), then its own; a redeclared
    # field keeps its place; ClassVar and init=False fields are no parameters
    assert index.signature("quark.leaf.Leaf") == ["weight", "bias", "target"]
    assert index.signature("quark.leaf.Child") == ["model", "output_dir"]  # an inherited __init__
    assert index.signature("quark.base.Plain") == ["weight", "bias"]  # a plain subclass of a dataclass
    assert index.signature("quark.leaf.Module") is None  # a base outside the release: unknown
    # @dataclass(init=False) generates no __init__: the one of its base (Root's fields) is called
    assert index.signature("quark.leaf.Manual") == ["weight", "bias"]
    classes = index.modules["quark.leaf"].attrs["classes"]
    assert classes["Leaf"]["bases"] == ["quark.base.Plain"] and classes["Module"]["bases"] == ["nn.Module"]


@pytest.mark.real
def test_real_0_13_signatures_of_inheriting_classes():
    from tests.realwheels import real_snapshot

    facts = facts_cache.facts_of(real_snapshot("0.13"))
    index = ApiIndex(facts.kinds["public_api"])
    config = "quark.torch.quantization.config.config"
    # 0.13 config.py: @dataclass ProgressiveSpec(TwoStageSpec) declares no field, TwoStageSpec declares both
    assert index.signature(f"{config}.ProgressiveSpec") == ["first_stage", "second_stage"]
    # QLayerConfig(BaseQLayerConfig): input_tensors, output_tensors, weight, bias from quark/common/config.py
    assert index.signature(f"{config}.QLayerConfig") == [
        "input_tensors",
        "output_tensors",
        "weight",
        "bias",
        "target_device",
    ]
    # quark/torch/export/api.py: QuarkSafetensorsExporter has no __init__, SafetensorsExporter's is used
    exporter = index.signature("quark.torch.export.api.QuarkSafetensorsExporter")
    assert exporter is not None and exporter[:2] == ["model", "output_dir"]


@pytest.mark.real
def test_real_0_13_public_api_dependencies_and_all_clis():
    from tests.realwheels import real_snapshot

    facts = facts_cache.facts_of(real_snapshot("0.13"))
    modules = {i.name: i for i in facts.kinds["public_api"]}
    assert len(modules) > 700 and "LLMTemplate" in modules["quark.torch"].attrs["public"]
    assert "LLMTemplate" not in modules["quark.torch.utils.llm"].attrs["names"]
    by_extra = facts.to_json()["dependencies"]["by_extra"]
    # onnxruntime is pinned only in the cli extra; transformers only there too (core has none in 0.13)
    assert by_extra["cli"]["onnxruntime"] == "<=1.28.0,>=1.22.2"
    assert "onnxruntime" not in by_extra[""] and by_extra[""]["onnx"] == "<=1.22.0,>=1.21.0"
    assert by_extra["cli"]["transformers"] == "<5.17,>5"
    scripts = {i.attrs["script"] for i in facts.kinds["cli_flags"]}
    assert {
        "quark-cli torch-llm-ptq",
        "quark-cli onnx-ptq",
        "quark-cli torch-mixed-precision",
        "quark-quant-perf",
    } <= scripts
    commands = facts.to_json()["cli_flags"]["commands"]
    # the parser of `quark-cli onnx-ptq` is found under quark_onnx/ (not a missing onnx_ptq.py next to main.py)
    assert commands["quark-cli onnx-ptq"] == ["quark/experimental/cli/quark_onnx/onnx_ptq.py"]
    assert "quark/experimental/torch/quant_perf/cli.py" in commands["quark-quant-perf"]
    default = next(
        i
        for i in facts.kinds["cli_flags"]
        if i.attrs["script"] == "quark-cli torch-llm-ptq" and i.name == "--num_calib_data"
    )
    assert default.attrs["default"] == 512


@pytest.mark.real
def test_facts_cache_is_keyed_by_sha256_and_a_hit_extracts_nothing(tmp_path, monkeypatch):
    from tests.realwheels import real_snapshot

    monkeypatch.setenv("QUARKCI_CACHE_DIR", str(tmp_path))
    snapshot = real_snapshot("0.13")
    started = time.perf_counter()
    cold = facts_cache.facts_of(snapshot)
    cold_s = time.perf_counter() - started
    (entry,) = (tmp_path / "facts").iterdir()
    assert entry.name.startswith(facts_cache.wheel_sha256(snapshot.path))
    # structural bound: a warm call reads one JSON file and never runs an extractor
    monkeypatch.setattr(facts_cache, "extract_all", lambda *_a, **_k: pytest.fail("extracted on a cache hit"))
    started = time.perf_counter()
    warm = facts_cache.facts_of(real_snapshot("0.13"))
    warm_s = time.perf_counter() - started
    assert warm.to_json() == cold.to_json()
    assert warm_s < cold_s
    # a corrupt entry is a miss, not an error
    entry.write_text("{", encoding="utf-8")
    monkeypatch.setattr(facts_cache, "extract_all", public_api_extract_all_guard())
    assert json.loads(json.dumps(facts_cache.facts_of(real_snapshot("0.13")).to_json()))["version"] == "0.13"


def public_api_extract_all_guard():
    from quarkci.facts import extract_all

    return extract_all


@pytest.mark.real
def test_real_defaults_of_dataclass_fields_a_sole_method_and_a_sole_parameter():
    from tests.realwheels import real_snapshot

    old = ApiIndex(facts_cache.facts_of(real_snapshot("0.9")).kinds["public_api"])
    # 0.9 quark/torch/export/config/config.py: @dataclass JsonExporterConfig, weight_format: str = "real_quantized"
    json_config = old.defaults("quark.torch.export.config.config.JsonExporterConfig")
    assert json_config is not None and json_config["weight_format"] == "real_quantized"
    assert json_config["pack_method"] == "reorder"
    # include_cle: 0.9's ONNX QuantizationConfig field and quantize_static's parameter, both True
    assert old.sole_parameter("include_cle") == "quark.onnx.quantization.config.config.QuantizationConfig"
    assert old.sole_parameter("device") is None  # many callables, different defaults
    new = ApiIndex(facts_cache.facts_of(real_snapshot("0.12.post1")).kinds["public_api"])
    # `freeze` alone: ModelQuantizer.freeze (quark.torch exports the class); the vLLM plugin's is internal
    assert new.sole_method("freeze") == "quark.torch.quantization.api.ModelQuantizer.freeze"
    # freeze(quantize=None): the body sets it (`elif quantize is None: quantize = True`): computed, left out;
    # runtime_options=None is passed on as it is: a constant default
    freeze = new.defaults("freeze") or {}
    assert "quantize" not in freeze and freeze.get("runtime_options") == "None"


@pytest.mark.real
def test_real_0_13_quark_skills_agent_choices_from_a_starred_expression():
    from tests.realwheels import real_snapshot

    facts = facts_cache.facts_of(real_snapshot("0.13"))
    agent = next(
        i for i in facts.kinds["cli_flags"] if i.attrs["script"] == "quark-skills" and i.name == "--agent"
    )
    # quark/skills.py: choices=(*_AGENT_SKILLS_DIRS, "all"): the dict's keys, then "all"
    assert agent.attrs["choices"] == ["claude-code", "cursor", "codex", "all"]
