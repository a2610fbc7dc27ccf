"""vLLM's load rules as static checks of the exported config (issue 22, item 2), without ML: the shards vLLM
fuses (q/k/v -> qkv_proj, gate/up -> gate_up_proj) must share one scheme, and k and v one KV-cache scheme.

``tests/fixtures/ptq/vllm/fp8_kv_demo_export.json`` is the ``quantization_config`` of a real amd-quark 0.13
export (the demo model, ``--scheme fp8 --kv-cache fp8``); the other files there are miniature configs. The
same defects on real PTQ exports are in ``tests/ptq/test_tampered_ml.py``."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from quarkci.gates.ptq import evaluate
from quarkci.ptq import export_checks
from quarkci.ptq.headers import Checkpoint, TensorInfo
from tests.gates.test_ptq_gate import _summary

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ptq" / "vllm"


def _load(name: str) -> tuple[dict, list[str]]:
    data = json.loads((FIXTURES / name).read_text())
    return data["quantization_config"], data["modules"]


def _fused(qc: dict, modules: list[str]) -> dict:
    return export_checks.fused_layers_check(qc, modules)


# --- fused layers ---------------------------------------------------------------------------------


def test_quarks_own_export_shares_one_scheme_per_fused_layer():
    qc, modules = _load("fp8_kv_demo_export.json")
    # its k/v entries carry output_tensors (the KV cache); vLLM clears them before comparing the shards
    assert _fused(qc, modules) == {"checked": 4, "problems": []}
    plain = copy.deepcopy(qc)
    plain["export"]["kv_cache_group"], plain["layer_quant_config"], plain["kv_cache_quant_config"] = (
        [],
        {},
        {},
    )
    assert _fused(plain, modules) == {"checked": 4, "problems": []}


def test_excluding_one_shard_of_a_fused_layer_fails():
    """The issue's case: --exclude of layer 0's q_proj and layer 1's gate_proj alone."""
    qc, modules = _load("fp8_kv_demo_export.json")
    qc["exclude"] = ["model.layers.0.self_attn.q_proj", "model.layers.1.mlp.gate_proj", "lm_head"]
    block = _fused(qc, modules)
    assert block["checked"] == 4 and len(block["problems"]) == 2
    attn, mlp = block["problems"]
    assert attn.startswith(
        "model.layers.0.self_attn.qkv_proj: its shards have different schemes (q_proj excluded,"
    )
    assert "k_proj fp8_e4m3 per_tensor (layer_quant_config['*k_proj'])" in attn
    assert "v_proj fp8_e4m3 per_tensor (layer_quant_config['*v_proj'])" in attn
    assert mlp.startswith(
        "model.layers.1.mlp.gate_up_proj: its shards have different schemes (gate_proj excluded"
    )
    assert "up_proj fp8_e4m3 per_tensor (global_quant_config)" in mlp and "vLLM" in mlp


@pytest.mark.parametrize("shard", ["k_proj", "v_proj", "up_proj"])
def test_excluding_any_single_shard_fails(shard):
    qc, modules = _load("fp8_kv_demo_export.json")
    layer = "self_attn" if shard in ("k_proj", "v_proj") else "mlp"
    qc["exclude"] = [f"model.layers.1.{layer}.{shard}", "lm_head"]
    (problem,) = _fused(qc, modules)["problems"]
    assert problem.startswith(f"model.layers.1.{layer}.") and f"{shard} excluded" in problem


def test_excluding_whole_fused_layers_passes():
    """Negative control: every shard of a fused layer excluded is one unquantized layer to vLLM."""
    assert _fused(*_load("whole_fused_layers_excluded.json")) == {"checked": 4, "problems": []}


def test_a_layer_override_on_one_shard_fails():
    problems = _fused(*_load("override_k_proj_only.json"))["problems"]
    assert [p.split(":")[0] for p in problems] == [
        "model.layers.0.self_attn.qkv_proj",
        "model.layers.1.self_attn.qkv_proj",
    ]
    assert "q_proj int8 per_tensor (global_quant_config)" in problems[0]
    assert "k_proj fp8_e4m3 per_tensor (layer_quant_config['*k_proj'])" in problems[0]


def test_vllm_regex_exclusions_count():
    qc, modules = _load("regex_excludes_up_proj_only.json")
    problems = _fused(qc, modules)["problems"]
    assert [p.split(":")[0] for p in problems] == [
        "model.layers.0.mlp.gate_up_proj",
        "model.layers.1.mlp.gate_up_proj",
    ]
    qc["exclude"] = [
        "lm_head",
        r"re:model\.layers\.\d+\.mlp\.(gate|up)_proj",
    ]  # negative control: both shards
    assert _fused(qc, modules)["problems"] == []


def test_without_the_kv_group_the_kv_output_specs_make_the_shards_differ():
    """vLLM clears the k/v output specs only when the export declares a KV-cache group."""
    qc, modules = _load("fp8_kv_demo_export.json")
    qc["export"]["kv_cache_group"] = []
    assert len(_fused(qc, modules)["problems"]) == 2  # layer 0's and layer 1's qkv_proj


def test_a_model_without_separate_shards_is_not_checked():
    qc, _ = _load("fp8_kv_demo_export.json")
    assert _fused(qc, ["model.layers.0.self_attn.qkv_proj", "model.layers.0.mlp.down_proj"]) == {
        "checked": 0,
        "problems": [],
    }


# --- one KV-cache scheme --------------------------------------------------------------------------


def _checkpoints(modules: list[str], kv: bool) -> tuple[Checkpoint, Checkpoint]:
    source = Checkpoint(
        Path("src"), {}, {f"{m}.weight": TensorInfo(f"{m}.weight", "F32", (8, 8), "m") for m in modules}
    )
    tensors = dict(source.tensors)
    for m in modules:
        if kv and m.endswith(("k_proj", "v_proj")):
            tensors[f"{m}.output_scale"] = TensorInfo(f"{m}.output_scale", "F32", (), "m")
    return source, Checkpoint(Path("out"), {}, tensors)


def _kv(qc: dict, modules: list[str]) -> list[str]:
    return export_checks.kv_cache_check(qc, *_checkpoints(modules, kv=True))["problems"]


def test_quarks_own_kv_cache_export_passes():
    assert _kv(*_load("fp8_kv_demo_export.json")) == []


def test_k_and_v_with_different_kv_cache_dtypes_fail_in_each_section():
    qc, modules = _load("fp8_kv_demo_export.json")
    for section in ("layer_quant_config", "kv_cache_quant_config"):
        qc[section]["*v_proj"]["output_tensors"]["dtype"] = "fp8_e5m2"
    problems = _kv(qc, modules)
    assert [p.split(":")[0] for p in problems] == ["layer_quant_config", "kv_cache_quant_config"]
    assert (
        "the KV-cache output specs of '*k_proj' (fp8_e4m3 per_tensor) and '*v_proj' (fp8_e5m2 per_tensor) differ "
        "(dtype 'fp8_e4m3' vs 'fp8_e5m2'); vLLM requires one KV-cache scheme for k and v"
    ) in problems[0]


def test_a_kv_cache_scheme_difference_beyond_the_dtype_fails():
    qc, modules = _load("fp8_kv_demo_export.json")
    qc["layer_quant_config"]["*k_proj"]["output_tensors"]["qscheme"] = "per_channel"
    (problem,) = _kv(qc, modules)
    assert problem.startswith("layer_quant_config:") and "qscheme 'per_channel' vs 'per_tensor'" in problem


# --- the gate -------------------------------------------------------------------------------------


def test_the_gate_fails_fused_layers_as_coverage_and_skips_an_unmeasured_block():
    passing = evaluate(_summary(fused_layers={"checked": 4, "problems": []}))
    assert passing["pass"] is True
    assert next(c for c in passing["checks"] if c["name"] == "fused_layers")["status"] == "pass"
    qc, modules = _load("fp8_kv_demo_export.json")
    qc["exclude"] = ["model.layers.0.self_attn.q_proj", "lm_head"]
    failing = evaluate(_summary(fused_layers=_fused(qc, modules)))
    assert (failing["pass"], failing["failure_class"]) == (False, "QUANT_COVERAGE_FAILURE")
    assert [c["name"] for c in failing["checks"] if c["status"] == "fail"] == ["fused_layers"]
    assert "[QUANT_COVERAGE_FAILURE] fused_layers: model.layers.0.self_attn.qkv_proj" in failing["detail"]
    old = evaluate({k: v for k, v in _summary().items() if k != "fused_layers"})  # a summary written before
    assert next(c for c in old["checks"] if c["name"] == "fused_layers")["status"] == "skipped"
