"""Static parts of the PTQ workflow on miniature checkpoints written here: headers, intake, plan,
manifest, layer precision, metadata diffs. No torch and no Quark import (a fake QuarkInfo)."""

from __future__ import annotations

import json
import shutil

import pytest

np = pytest.importorskip("numpy")
safetensors_numpy = pytest.importorskip("safetensors.numpy")

from quarkci.core.documents import validate_document  # noqa: E402
from quarkci.core.errors import BadInputError  # noqa: E402
from quarkci.ptq.headers import read_checkpoint  # noqa: E402
from quarkci.ptq.intake import analyze, write_analysis  # noqa: E402
from quarkci.ptq.manifest import build_manifest, quark_cli_argv, write_manifest  # noqa: E402
from quarkci.ptq.plan import build_plan, write_plan  # noqa: E402
from quarkci.ptq.quark_api import QuarkInfo  # noqa: E402
from quarkci.ptq.validate import layer_precision, metadata_diffs  # noqa: E402

INFO = QuarkInfo(
    version="0.13",
    templates=("llama", "qwen2"),
    schemes=("fp8", "int8", "int4_wo_128", "mxfp4"),
    algorithms=("awq", "gptq"),
    kv_cache_schemes=("fp8",),
    import_seconds=0.0,
    template_excludes={"llama": ["lm_head"], "qwen2": ["lm_head"]},
    group_sizes={"fp8": None, "int8": None, "int4_wo_128": 128, "mxfp4": 32},
)
CONFIG = {
    "architectures": ["LlamaForCausalLM"],
    "model_type": "llama",
    "hidden_size": 128,
    "num_hidden_layers": 1,
    "vocab_size": 16,
    "bos_token_id": 1,
    "eos_token_id": 2,
    "torch_dtype": "float32",
}


def _write_model(path, tensors, config=CONFIG, tokenizer=True):
    path.mkdir(parents=True, exist_ok=True)
    (path / "config.json").write_text(json.dumps(config))
    safetensors_numpy.save_file(tensors, str(path / "model.safetensors"))
    if tokenizer:
        (path / "tokenizer.json").write_text(
            json.dumps({"model": {"type": "WordLevel", "vocab": {"a": 0}}, "added_tokens": []})
        )
        (path / "tokenizer_config.json").write_text(json.dumps({"bos_token": "<s>", "eos_token": "</s>"}))
    return path


def _source_tensors():
    f32 = np.float32
    return {
        "model.embed_tokens.weight": np.zeros((16, 128), f32),
        "model.layers.0.self_attn.q_proj.weight": np.zeros((128, 128), f32),
        "model.layers.0.mlp.down_proj.weight": np.zeros((128, 96), f32),  # 96: not a multiple of 128
        "model.layers.0.input_layernorm.weight": np.zeros((128,), f32),
        "lm_head.weight": np.zeros((16, 128), f32),
    }


@pytest.fixture
def source(tmp_path):
    return _write_model(tmp_path / "src", _source_tensors())


def test_headers_report_dtypes_shapes_and_linear_layers(source):
    ckpt = read_checkpoint(source)
    assert ckpt.tensors["model.layers.0.mlp.down_proj.weight"].shape == (128, 96)
    assert sorted(ckpt.linear_layers()) == [
        "lm_head",
        "model.layers.0.mlp.down_proj",
        "model.layers.0.self_attn.q_proj",
    ]  # embedding and norm excluded
    by_dtype = ckpt.parameters_by_dtype()
    assert by_dtype["F32"]["count"] == 16 * 128 * 2 + 128 * 128 + 128 * 96 + 128
    assert by_dtype["F32"]["bytes"] == 4 * by_dtype["F32"]["count"]
    assert ckpt.safetensors_bytes == (source / "model.safetensors").stat().st_size


def test_unreadable_header_is_bad_input(tmp_path):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "config.json").write_text("{}")
    (bad / "model.safetensors").write_bytes(b"\xff" * 16)
    with pytest.raises(BadInputError, match="unreadable safetensors header"):
        read_checkpoint(bad)


def test_intake_local_is_complete_and_schema_valid(source, tmp_path):
    analysis = analyze(str(source), quark_info=INFO)
    assert analysis["analysis_status"] == "complete"
    assert analysis["model"]["model_type"] == "llama"
    assert analysis["quark"] == {"version": "0.13", "template_available": True}
    targets = analysis["quantization_targets"]
    assert targets["linear_layer_count"] == 3
    assert targets["exclude_defaults"] == ["lm_head"]
    assert targets["sensitive_components"] == [{"kind": "lm_head", "count": 1, "examples": ["lm_head"]}]
    assert validate_document(analysis, "model_analysis") == []
    written = write_analysis(analysis, tmp_path / "model_analysis.json")
    assert json.loads(written.read_text()) == analysis


def test_intake_flags_moe_vlm_remote_code_and_missing_template(tmp_path):
    config = {
        **CONFIG,
        "model_type": "mystery",
        "num_local_experts": 8,
        "vision_config": {},
        "auto_map": {"AutoModel": "x.Y"},
    }
    model = _write_model(tmp_path / "m", _source_tensors(), config=config, tokenizer=False)
    analysis = analyze(str(model), quark_info=INFO)
    codes = {r["code"]: r["severity"] for r in analysis["risks"]}
    assert codes == {
        "no-quark-template": "high",
        "moe-model": "medium",
        "vision-language-model": "medium",
        "remote-code": "high",
        "tokenizer-missing": "high",
    }
    assert analysis["model"]["is_moe"] is True
    assert analysis["quantization_targets"]["exclude_defaults_source"] == "fallback (no template)"


def test_intake_hf_id_offline_is_partial_not_a_crash(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", "/nonexistent-quarkci-hf-home")
    analysis = analyze("some-org/some-model", quark_info=None, allow_hub=True)
    assert analysis["analysis_status"] == "partial"
    codes = [r["code"] for r in analysis["risks"]]
    assert "config-unavailable" in codes and "quark-unavailable" in codes
    assert analysis["model"]["model_source"] == "huggingface_id"
    assert validate_document(analysis, "model_analysis") == []


def test_intake_rejects_a_path_that_is_neither(tmp_path):
    with pytest.raises(BadInputError, match="neither a model directory"):
        analyze(str(tmp_path / "nope" / "deeper" / "x"), quark_info=INFO)


def test_plan_checks_scheme_and_adds_group_size_exclusions(source, tmp_path):
    analysis = analyze(str(source), quark_info=INFO)
    plan = build_plan(analysis, "a.json", "int4_wo_128", quark_info=INFO)
    assert plan["exclude_layers"] == ["lm_head", "model.layers.0.mlp.down_proj"]
    assert (
        "not a multiple of int4_wo_128's group size 128"
        in plan["exclusion_reasons"]["model.layers.0.mlp.down_proj"]
    )
    assert plan["requires_confirmation"] is True
    assert validate_document(plan, "quant_plan") == []
    fp8 = build_plan(analysis, "a.json", "fp8", kv_cache="fp8", exclude=["*q_proj"], quark_info=INFO)
    assert fp8["exclude_layers"] == ["lm_head", "*q_proj"]  # fp8 is per-tensor: no group exclusions
    assert fp8["kv_cache_scheme"] == "fp8"
    write_plan(fp8, tmp_path / "quant_plan.json")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"scheme": "int3"}, "scheme 'int3' is not supported by amd-quark 0.13; supported: fp8"),
        ({"scheme": "fp8", "algorithm": "magic"}, "algorithm 'magic'"),
        ({"scheme": "fp8", "kv_cache": "int8"}, "KV-cache scheme 'int8'"),
        ({"scheme": "fp8", "dtype": "float8"}, "dtype 'float8'"),
    ],
)
def test_plan_rejects_unsupported_choices(source, kwargs, message):
    analysis = analyze(str(source), quark_info=INFO)
    with pytest.raises(BadInputError, match=message.replace("(", r"\(")):
        build_plan(analysis, "a.json", quark_info=INFO, **kwargs)


def test_manifest_records_exact_commands_and_blocks_when_output_not_empty(source, tmp_path):
    analysis = analyze(str(source), quark_info=INFO)
    plan = build_plan(
        analysis,
        str(tmp_path / "model_analysis.json"),
        "int4_wo_128",
        algorithm="awq",
        kv_cache="fp8",
        layer_quant_config={"*down_proj": "int8"},
        quark_info=INFO,
    )
    plan_path = write_plan(plan, tmp_path / "quant_plan.json")
    manifest = build_manifest(plan, plan_path, tmp_path / "run")
    assert manifest["status"] == "planned" and "blocked_by" not in manifest
    run_step = next(s for s in manifest["steps"] if s["kind"] == "run")
    assert run_step["argv"] == [
        "quarkci",
        "ptq",
        "run",
        "--manifest",
        str(tmp_path / "run" / "run_manifest.yaml"),
        "--yes",
    ]
    cli = run_step["equivalent_command"]["argv"]
    assert cli[:4] == ["quark-cli", "torch-llm-ptq", "--model_dir", str(source)]
    for flag, value in (
        ("--quant_scheme", "int4_wo_128"),
        ("--kv_cache_dtype", "fp8"),
        ("--quant_algo", "awq"),
        ("--output_dir", str(tmp_path / "run" / "model")),
    ):
        assert cli[cli.index(flag) + 1] == value
    assert cli[cli.index("--layer_quant_scheme") + 1 : cli.index("--layer_quant_scheme") + 3] == [
        "*down_proj",
        "int8",
    ]
    assert cli[cli.index("--exclude_layers") + 1 :] == ["lm_head", "model.layers.0.mlp.down_proj"]
    assert "--no_trust_remote_code" in cli
    assert validate_document(manifest, "run_manifest") == []
    write_manifest(manifest, tmp_path / "run" / "run_manifest.yaml")

    (tmp_path / "run" / "model").mkdir()
    (tmp_path / "run" / "model" / "stale").write_text("x")
    blocked = build_manifest(plan, plan_path, tmp_path / "run")
    assert blocked["status"] == "manual_only"
    assert any("not empty" in b for b in blocked["blocked_by"])
    assert validate_document(blocked, "run_manifest") == []


def test_quark_cli_line_never_emits_an_empty_exclude_list():
    plan = {"model": {"model_path": "/m"}, "global_scheme": "fp8", "exclude_layers": [], "calibration": {}}
    argv, _ = quark_cli_argv(plan, "/out")
    assert "--exclude_layers" not in argv


def _quantized_output(tmp_path, source, config_patch=None, drop=()):
    """An fp8-like export of ``source``: q_proj and down_proj stored F8 (as uint8 bytes) with scales."""
    tensors = _source_tensors()
    for name in ("model.layers.0.self_attn.q_proj", "model.layers.0.mlp.down_proj"):
        shape = tensors[f"{name}.weight"].shape
        tensors[f"{name}.weight"] = np.zeros(shape, np.int8)
        tensors[f"{name}.weight_scale"] = np.ones((), np.float32)
    for name in drop:
        tensors.pop(name)
    qc = {
        "quant_method": "quark",
        "exclude": ["lm_head"],
        "layer_quant_config": {},
        "global_quant_config": {"weight": {"dtype": "int8"}},
    }
    qc.update(config_patch or {})
    out = _write_model(tmp_path / "out", tensors, config={**CONFIG, "quantization_config": qc})
    shutil.copy(source / "tokenizer.json", out / "tokenizer.json")
    return out


def test_layer_precision_counts_and_mismatches(source, tmp_path):
    out = _quantized_output(tmp_path, source)
    ckpt_out = read_checkpoint(out)
    layers = layer_precision(read_checkpoint(source), ckpt_out, ckpt_out.config["quantization_config"])
    assert layers == {
        "total": 3,
        "quantized": {"int8": 2},
        "excluded": ["lm_head"],
        "unexpected_unquantized": [],
        "declaration_mismatch": [],
    }

    # tampered declaration: down_proj claimed excluded but stored quantized
    tampered = layer_precision(
        read_checkpoint(source),
        ckpt_out,
        {**ckpt_out.config["quantization_config"], "exclude": ["lm_head", "*down_proj"]},
    )
    assert tampered["declaration_mismatch"] == [
        {
            "layer": "model.layers.0.mlp.down_proj",
            "reason": "excluded by '*down_proj' but stored quantized (I8)",
        }
    ]
    # declared fp8 but stored I8
    wrong = layer_precision(
        read_checkpoint(source),
        ckpt_out,
        {**ckpt_out.config["quantization_config"], "global_quant_config": {"weight": {"dtype": "fp8_e4m3"}}},
    )
    assert (
        len(wrong["declaration_mismatch"]) == 2
        and "declared fp8_e4m3 but stored as I8" in wrong["declaration_mismatch"][0]["reason"]
    )
    # lm_head no longer excluded: declared quantized, stored F32 without scale
    unexcluded = layer_precision(
        read_checkpoint(source), ckpt_out, {**ckpt_out.config["quantization_config"], "exclude": []}
    )
    assert unexcluded["unexpected_unquantized"] == ["lm_head"]


def test_float_cast_of_an_excluded_layer_is_not_quantization(source, tmp_path):
    # a model loaded as bf16 keeps its excluded lm_head in bf16: excluded, not a mismatch
    out = _quantized_output(tmp_path, source)
    tensors = safetensors_numpy.load_file(str(out / "model.safetensors"))
    tensors["lm_head.weight"] = tensors["lm_head.weight"].astype(np.float16)
    safetensors_numpy.save_file(tensors, str(out / "model.safetensors"))
    ckpt_out = read_checkpoint(out)
    assert ckpt_out.tensors["lm_head.weight"].dtype == "F16"
    layers = layer_precision(read_checkpoint(source), ckpt_out, ckpt_out.config["quantization_config"])
    assert layers["excluded"] == ["lm_head"] and layers["declaration_mismatch"] == []


def test_layer_missing_in_output_is_a_mismatch(source, tmp_path):
    out = _quantized_output(tmp_path, source, drop=("lm_head.weight",))
    ckpt_out = read_checkpoint(out)
    layers = layer_precision(read_checkpoint(source), ckpt_out, ckpt_out.config["quantization_config"])
    assert layers["declaration_mismatch"] == [{"layer": "lm_head", "reason": "weight missing in the output"}]


def test_metadata_diffs_classify_expected_and_blocking(source, tmp_path):
    out = _quantized_output(tmp_path, source)
    (out / "tokenizer_config.json").write_text(
        json.dumps({"bos_token": "<s>", "eos_token": "</s>", "is_local": True})
    )
    diffs = metadata_diffs(source, out)
    assert diffs["blocking"] == []
    assert [d["field"] for d in diffs["expected"]] == ["config.quantization_config"]

    config = json.loads((out / "config.json").read_text())
    config.update(eos_token_id=7, num_hidden_layers=2)
    (out / "config.json").write_text(json.dumps(config))
    (out / "tokenizer_config.json").write_text(
        json.dumps({"bos_token": "<s>", "eos_token": "<eot>", "chat_template": "{{ x }}"})
    )
    blocking = {d["field"]: d["reason"] for d in metadata_diffs(source, out)["blocking"]}
    assert blocking == {
        "config.eos_token_id": "special token id changed",
        "config.num_hidden_layers": "architecture field changed",
        "tokenizer.special_tokens": "special tokens changed",
        "tokenizer.chat_template": "chat template changed",
    }

    for f in out.glob("tokenizer*"):
        f.unlink()
    assert [d["field"] for d in metadata_diffs(source, out)["blocking"]][-1] == "tokenizer"


def test_intake_lists_router_gates_and_vision_towers_as_sensitive(tmp_path):
    tensors = {
        **_source_tensors(),
        "model.layers.0.mlp.gate.weight": np.zeros((8, 128), np.float32),  # MoE router
        "model.layers.0.mlp.experts.gate_up_proj": np.zeros((8, 128, 64), np.float32),  # fused experts
        "visual.blocks.0.attn.qkv.weight": np.zeros((384, 128), np.float32),
    }
    model = _write_model(tmp_path / "moe", tensors, config={**CONFIG, "num_experts": 8})
    analysis = analyze(str(model), quark_info=INFO)
    kinds = {c["kind"]: c["examples"] for c in analysis["quantization_targets"]["sensitive_components"]}
    assert kinds == {
        "lm_head": ["lm_head"],
        "router_gate": ["model.layers.0.mlp.gate"],
        "vision_tower": ["visual.blocks.0.attn.qkv"],
    }
    assert analysis["quantization_targets"]["has_non_linear_experts"] is True
    assert {r["code"] for r in analysis["risks"]} >= {"moe-model", "fused-experts"}


def test_layer_precision_on_a_config_of_the_wrong_shape_raises_what_summarize_records(source, tmp_path):
    from quarkci.ptq.validate import summarize

    out = _quantized_output(tmp_path, source)
    out_ckpt, src_ckpt = read_checkpoint(out), read_checkpoint(source)
    good = out_ckpt.config["quantization_config"]
    # a layer_quant_config list that names a layer is indexed by that name: the error Python gives
    with pytest.raises(TypeError, match="list indices must be integers or slices, not str"):
        layer_precision(src_ckpt, out_ckpt, {**good, "layer_quant_config": ["model.layers.0.mlp.down_proj"]})
    with pytest.raises(TypeError, match="'int' object is not iterable"):
        layer_precision(src_ckpt, out_ckpt, {**good, "exclude": 5})
    with pytest.raises(AttributeError, match="'list' object has no attribute 'get'"):
        layer_precision(src_ckpt, out_ckpt, {**good, "layer_quant_config": {"*down_proj": [1]}})
    # a list of patterns that names no layer is read as patterns (nothing overridden), as before
    layers = layer_precision(src_ckpt, out_ckpt, {**good, "layer_quant_config": ["nothing.*"]})
    assert layers == layer_precision(src_ckpt, out_ckpt, good)
    config = json.loads((out / "config.json").read_text())
    config["quantization_config"]["layer_quant_config"] = ["model.layers.0.mlp.down_proj"]
    (out / "config.json").write_text(json.dumps(config))
    mismatch = summarize(source, out, reload=False, quark_info=INFO)["layers"]["declaration_mismatch"]
    assert mismatch == [
        {
            "layer": "*",
            "reason": "quantization_config unreadable: TypeError: "
            "list indices must be integers or slices, not str",
        }
    ]


def test_the_quark_facts_cache_is_read_back_typed_and_a_wrong_shape_is_rebuilt(tmp_path, monkeypatch):
    pytest.importorskip("quark")
    from quarkci.ptq import quark_static

    monkeypatch.setenv("QUARKCI_CACHE_DIR", str(tmp_path))
    quark_static.installed_quark_static.cache_clear()
    try:
        info = quark_static.installed_quark_static()  # read with ast, then cached on disk
        (cached,) = (tmp_path / "quark-facts").iterdir()
        data = json.loads(cached.read_text())
        assert quark_static._cached_info(data) == info
        assert quark_static._cached_info(data).schemes == info.schemes and "fp8" in info.schemes
        # negative controls: a cache of another shape is refused, and the facts are read again
        for broken in ({**data, "group_sizes": {"fp8": "x"}}, {**data, "extra": 1}, [data]):
            with pytest.raises(ValueError):
                quark_static._cached_info(broken)
        cached.write_text(json.dumps({**data, "schemes": "fp8"}))
        quark_static.installed_quark_static.cache_clear()
        assert quark_static.installed_quark_static() == info
    finally:
        quark_static.installed_quark_static.cache_clear()
