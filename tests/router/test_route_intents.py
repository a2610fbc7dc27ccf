"""Routing (:mod:`quarkci.router.route`) of every case named in issue 11, with the right result, over the
embedded 0.13 catalog (no export or PyTorch debug skill) and over tests/fixtures/router/extended (other
names, has export and debug skills)."""

from __future__ import annotations

import pytest

from quarkci.router import route
from tests.router.scoring import catalog

DEFAULT, EXTENDED = catalog("default"), catalog("extended")
PTQ = ("quark-torch-ptq", "quark-torch-llm-ptq-workflow")


def _doc(goal, cat=DEFAULT):
    return route(goal, *cat).document


POST_QUANT = {
    "export the quantized checkpoint in ./out/llama-fp8 to onnx": ("export", "quark-torch-export"),
    "I've already quantized it to mxfp4; package it for vLLM": ("export", "quark-torch-export"),
    "why does my quantized model output garbage in vLLM?": ("debug", "quark-torch-debug"),
    "my ptq run died with CUDA out of memory at layer 30, what now?": ("debug", "quark-torch-debug"),
    "KeyError: 'model.layers.0.mlp.gate_proj' when running the quantize script": (
        "debug",
        "quark-torch-debug",
    ),
}


@pytest.mark.parametrize("goal", list(POST_QUANT))
def test_post_quantization_goals_never_fall_into_ptq(goal):
    role, skill = POST_QUANT[goal]
    doc = _doc(goal)  # 0.13 names: no such skill -> a question naming the missing role, never PTQ
    assert doc["workflow"] == "undecided" and doc["route"]["interpretations"][0] == {
        "role": role,
        "skill": None,
    }
    assert "the catalog has no skill for the role" in doc["route"]["reason"]
    doc = _doc(goal, EXTENDED)  # a catalog that has the skill: chosen by its description
    assert (doc["workflow"], doc["route"]["role"]) == (skill, role)


@pytest.mark.parametrize(
    "goal, role",
    [
        ("don't quantize, just evaluate my fp8 llama", "eval"),
        ("I only want to inspect the model at ./models/llama, do NOT quantize it", "model_intake"),
    ],
)
def test_negated_quantization_is_never_a_ptq_run(goal, role):
    doc = _doc(goal)
    assert doc["route"]["role"] == role and doc["workflow"] not in PTQ
    assert "is negated" in doc["route"]["reason"]


def test_install_quark_when_torch_is_already_there():
    doc = _doc("how do I install amd-quark on ubuntu? torch is already there")
    assert doc["workflow"] == "quark-install"


def test_n_bits_is_a_quantization_intent_with_its_constraints():
    doc = _doc("squeeze Llama-3.1-8B down to 4 bits for our MI300X box")
    assert doc["workflow"] == "quark-torch-ptq"
    assert doc["constraints"] == {"model": "Llama-3.1-8B", "scheme": "4-bit", "hardware": "mi300x"}


def test_japanese_quantize_request_next_to_latin_scheme_names():
    doc = _doc("Qwen3-8BをFP8に量子化してください")
    assert doc["workflow"] == "quark-torch-ptq"
    assert doc["constraints"] == {"model": "Qwen3-8B", "scheme": "fp8"}


def test_model_scheme_hardware_output_and_mode_go_to_constraints():
    doc = _doc("quantize Qwen/Qwen3-8B to fp8 on ROCm, output to ./out/q8, plan only")
    assert doc["constraints"] == {
        "model": "Qwen/Qwen3-8B",
        "scheme": "fp8",
        "hardware": "rocm",
        "output_path": "./out/q8",
        "execution_mode": "plan_only",
    }
    assert "hardware" not in doc and "output_dir" not in doc  # never written inline


def test_the_ptq_skill_name_comes_from_the_catalog():
    assert _doc("quantize llama to fp8")["workflow"] == "quark-torch-ptq"
    assert _doc("quantize llama to fp8", EXTENDED)["workflow"] == "quark-torch-llm-ptq-workflow"


def test_export_without_an_export_skill_asks_and_offers_the_ptq_workflow():
    doc = _doc("export my quantized model to hf_format")
    assert doc["workflow"] == "undecided"
    assert [i["skill"] for i in doc["route"]["interpretations"]] == [None, "quark-torch-ptq"]
    assert "export" in doc["open_questions"][0]


def test_mixed_intents_install_then_quantize():
    doc = _doc("install quark and then quantize llama-3-8b to fp8")
    assert doc["workflow"] == "quark-torch-ptq"
    assert [p["skill"] for p in doc["route"]["prerequisites"]][:2] == ["quark-env-preflight", "quark-install"]


def test_an_ambiguous_reading_asks_instead_of_guessing():
    doc = _doc("compare these two runs")
    assert doc["workflow"] == "undecided" and len(doc["open_questions"]) == 1
    assert [i["role"] for i in doc["route"]["interpretations"]] == ["eval", "result_validator"]
    assert "may mean model accuracy or the quantized outputs" in doc["route"]["reason"]
