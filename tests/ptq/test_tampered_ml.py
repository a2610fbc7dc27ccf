"""gate_ptq on real tampered exports (issue 10, stage 2): each tampering is one a real user has seen pass
the old gate; each test has the untouched export as its negative control (it must pass)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from quarkci.cli import main

pytestmark = pytest.mark.ml


def _gate(
    source: Path, export: Path, tmp_path: Path, capsys, *, reload: bool = True, run_result: Path | None = None
) -> tuple[int, dict, dict]:
    summary = tmp_path / f"summary-{export.name}.json"
    argv = ["ptq", "validate", "--source", str(source), "--checkpoint", str(export), "--output", str(summary)]
    if run_result is not None:
        argv += ["--run-result", str(run_result)]
    if not reload:
        argv.append("--no-reload")
    assert main(argv) == 0
    capsys.readouterr()
    code = main(["ptq", "gate", "--summary", str(summary)])
    return code, json.loads(capsys.readouterr().out), json.loads(summary.read_text())


def _failed(verdict: dict) -> list[str]:
    return [c["name"] for c in verdict["checks"] if c["status"] == "fail"]


def _copy(src: Path, tmp_path: Path, name: str) -> Path:
    out = tmp_path / name
    shutil.copytree(src, out)
    return out


def _edit_tensors(export: Path, edit) -> None:
    from safetensors.torch import load_file, save_file

    tensors = load_file(export / "model.safetensors")
    edit(tensors)
    save_file(tensors, export / "model.safetensors", metadata={"format": "pt"})


def test_untouched_fp8_export_passes_every_new_check(pipeline, demo_model, tmp_path, capsys):
    code, verdict, summary = _gate(
        demo_model,
        pipeline("fp8").output,
        tmp_path,
        capsys,
        run_result=pipeline("fp8").root / "run_result.json",
    )
    assert code == 0, verdict["detail"]
    assert summary["reload"]["top1_agreement"] >= 0.95 and summary["reload"]["task_accuracy"] == 1.0
    assert summary["unquantized_tensors"]["checked"] == 7  # embed, lm_head, 5 norms
    for name in ("scheme", "kv_cache", "fused_layers", "names", "unquantized_tensors", "behaviour"):
        assert next(c for c in verdict["checks"] if c["name"] == name)["status"] == "pass"


@pytest.mark.parametrize("tampering", ["scales_x1000", "scales_zeroed", "weights_random", "weights_zeroed"])
def test_broken_weights_or_scales_with_a_clean_reload_fail_on_behaviour(
    pipeline, demo_model, tmp_path, capsys, tampering
):
    import torch

    def edit(t):
        for name in list(t):
            if "layers" not in name:
                continue
            if tampering == "scales_x1000" and name.endswith("weight_scale"):
                t[name] = t[name] * 1000
            elif tampering == "scales_zeroed" and name.endswith("weight_scale"):
                t[name] = torch.zeros_like(t[name])
            elif (
                tampering == "weights_random"
                and name.endswith(".weight")
                and t[name].dtype == torch.float8_e4m3fn
            ):
                t[name] = (torch.randn(t[name].shape) * 100).to(torch.float8_e4m3fn)
            elif (
                tampering == "weights_zeroed"
                and name.endswith(".weight")
                and t[name].dtype == torch.float8_e4m3fn
            ):
                t[name] = torch.zeros(t[name].shape).to(torch.float8_e4m3fn)

    export = _copy(pipeline("fp8").output, tmp_path, tampering)
    _edit_tensors(export, edit)
    code, verdict, summary = _gate(demo_model, export, tmp_path, capsys)
    assert summary["reload"]["counts"] == {"missing_keys": 0, "unexpected_keys": 0, "mismatched_keys": 0}
    assert code == 1 and "behaviour" in _failed(verdict)
    # the probe alone measured the damage: its own class; a metadata check failing beside it outranks it
    alone = _failed(verdict) == ["behaviour"]
    assert verdict["failure_class"] == ("BEHAVIOUR_PROBE_FAILED" if alone else "QUANT_COVERAGE_FAILURE")
    assert verdict["behaviour"]["measure"] == "task_accuracy" and verdict["behaviour"]["pass"] is False
    assert summary["reload"]["task_accuracy"] < 0.9


def test_randomized_lm_head_fails_the_unquantized_tensor_check(pipeline, demo_model, tmp_path, capsys):
    import torch

    export = _copy(pipeline("fp8").output, tmp_path, "lm_head")
    _edit_tensors(export, lambda t: t.update({"lm_head.weight": torch.randn(t["lm_head.weight"].shape)}))
    code, verdict, summary = _gate(demo_model, export, tmp_path, capsys, reload=False)
    assert code == 1 and _failed(verdict) == ["unquantized_tensors"]
    assert [d["tensor"] for d in summary["unquantized_tensors"]["differ"]] == ["lm_head.weight"]


def test_run_result_claiming_another_scheme_fails(pipeline, demo_model, tmp_path, capsys):
    claimed = json.loads((pipeline("fp8").root / "run_result.json").read_text())
    claimed["scheme"] = "int4_wo_128"
    run_result = tmp_path / "run_result.json"
    run_result.write_text(json.dumps(claimed))
    code, verdict, _ = _gate(
        demo_model, pipeline("fp8").output, tmp_path, capsys, reload=False, run_result=run_result
    )
    assert code == 1 and _failed(verdict) == ["scheme"]
    assert "int4_wo_128" in verdict["detail"] and "fp8_e4m3" in verdict["detail"]


def test_fp32_weights_left_beside_the_export_count_in_the_size(pipeline, demo_model, tmp_path, capsys):
    export = _copy(pipeline("fp8").output, tmp_path, "with-bin")
    shutil.copy(demo_model / "model.safetensors", export / "pytorch_model.bin")  # fp32 bytes beside
    code, verdict, summary = _gate(demo_model, export, tmp_path, capsys, reload=False)
    assert summary["size_ratio"] > 1.0 and summary["output"]["other_weight_files"]
    assert (
        code == 1
        and verdict["failure_class"] == "SIZE_NOT_REDUCED"
        and "pytorch_model.bin" in verdict["detail"]
    )


@pytest.mark.parametrize("damage", ["truncated", "garbage_header"])
def test_corrupt_safetensors_is_a_classed_gate_failure_not_bad_input(
    pipeline, demo_model, tmp_path, capsys, damage
):
    export = _copy(pipeline("fp8").output, tmp_path, damage)
    weights = export / "model.safetensors"
    data = weights.read_bytes()
    weights.write_bytes(data[: len(data) // 2] if damage == "truncated" else b"\xff" * 64 + data[64:])
    code, verdict, summary = _gate(demo_model, export, tmp_path, capsys)
    assert summary["output"]["error"]
    assert code == 1 and verdict["failure_class"] == "CHECKPOINT_NOT_SERVABLE"


def _kv_edit(kind: str, qc: dict) -> None:
    if kind == "group_k_only":  # the group forgets the v projections
        qc["export"]["kv_cache_group"] = ["*k_proj"]
    elif kind == "group_one_layer":  # names only layer 0's projections
        qc["export"]["kv_cache_group"] = [
            "model.layers.0.self_attn.k_proj",
            "model.layers.0.self_attn.v_proj",
        ]
    elif kind == "group_emptied":  # group removed, output scales and kv config left behind
        qc["export"]["kv_cache_group"] = []
    elif kind == "kv_config_drops_v":  # the sections disagree
        del qc["kv_cache_quant_config"]["*v_proj"]


@pytest.mark.parametrize("kind", ["group_k_only", "group_one_layer", "group_emptied", "kv_config_drops_v"])
def test_every_inconsistent_kv_cache_hand_edit_fails(pipeline, demo_model, tmp_path, capsys, kind):
    source_export = pipeline("fp8", kv_cache="fp8").output
    code, verdict, _ = _gate(demo_model, source_export, tmp_path, capsys, reload=False)
    assert code == 0, verdict["detail"]  # negative control: Quark's own KV-cache export is consistent
    export = _copy(source_export, tmp_path, kind)
    config = json.loads((export / "config.json").read_text())
    _kv_edit(kind, config["quantization_config"])
    (export / "config.json").write_text(json.dumps(config))
    code, verdict, _ = _gate(demo_model, export, tmp_path, capsys, reload=False)
    assert code == 1 and "kv_cache" in _failed(verdict), verdict
    assert verdict["failure_class"] == "QUANT_COVERAGE_FAILURE"


# the issue's --exclude: one shard of layer 0's attention and one of layer 1's MLP (issue 22)
SPLIT_FUSED = ("model.layers.0.self_attn.q_proj", "model.layers.1.mlp.gate_proj")


@pytest.mark.parametrize("scheme", ["fp8", "int8"])
def test_excluding_one_shard_of_a_fused_layer_fails_the_gate(pipeline, scheme):
    """A real PTQ with ``--exclude`` of q_proj and gate_proj alone: vLLM fuses q/k/v and gate/up and
    refuses shards with different schemes, so gate_ptq fails (it used to say all checks passed)."""
    split = pipeline(scheme, exclude=SPLIT_FUSED)
    assert (split.run_code, split.validate_code, split.gate_code) == (0, 0, 1)
    assert split.summary["quantization_config"]["exclude"] == [*SPLIT_FUSED, "lm_head"]
    assert split.gate["failure_class"] == "QUANT_COVERAGE_FAILURE"
    assert [c["name"] for c in split.gate["checks"] if c["status"] == "fail"] == ["fused_layers"]
    problems = split.summary["fused_layers"]["problems"]
    assert [p.split(":")[0] for p in problems] == [
        "model.layers.0.self_attn.qkv_proj",
        "model.layers.1.mlp.gate_up_proj",
    ]
    assert "q_proj excluded" in problems[0] and "gate_proj excluded" in problems[1]
    assert pipeline(scheme).gate_code == 0  # negative control: the same scheme without the split


@pytest.mark.parametrize("scheme", ["fp8", "int8"])
def test_k_and_v_with_different_kv_cache_schemes_fail_the_gate(
    pipeline, demo_model, tmp_path, capsys, scheme
):
    """The k/v dtype defect, made by editing a real KV-cache export's config (the CLI takes one KV scheme):
    k_proj output fp8_e4m3, v_proj output fp8_e5m2; vLLM requires one KV-cache scheme."""
    source_export = pipeline(scheme, kv_cache="fp8").output
    code, verdict, _ = _gate(demo_model, source_export, tmp_path, capsys, reload=False)
    assert code == 0, verdict["detail"]  # negative control: Quark's own export
    export = _copy(source_export, tmp_path, f"kv-e5m2-{scheme}")
    config = json.loads((export / "config.json").read_text())
    qc = config["quantization_config"]
    assert qc["layer_quant_config"]["*k_proj"]["output_tensors"]["dtype"] == "fp8_e4m3"
    for section in ("layer_quant_config", "kv_cache_quant_config"):
        qc[section]["*v_proj"]["output_tensors"]["dtype"] = "fp8_e5m2"
    (export / "config.json").write_text(json.dumps(config))
    code, verdict, summary = _gate(demo_model, export, tmp_path, capsys, reload=False)
    assert code == 1 and _failed(verdict) == ["kv_cache"], verdict["detail"]
    assert verdict["failure_class"] == "QUANT_COVERAGE_FAILURE"
    assert "'*v_proj' (fp8_e5m2 per_tensor) differ" in summary["kv_cache"]["problems"][0]
    assert "vLLM requires one KV-cache scheme for k and v" in verdict["detail"]


def test_renamed_layer_fails_the_names_check(pipeline, demo_model, tmp_path, capsys):
    export = _copy(pipeline("fp8").output, tmp_path, "renamed")
    _edit_tensors(
        export,
        lambda t: t.update(
            {"model.layers.0.mlp.gate_projx.weight_scale": t.pop("model.layers.0.mlp.gate_proj.weight_scale")}
        ),
    )
    code, verdict, summary = _gate(demo_model, export, tmp_path, capsys, reload=False)
    assert code == 1 and "names" in _failed(verdict)
    assert summary["names"]["unknown_in_output"] == ["model.layers.0.mlp.gate_projx.weight_scale"]


@pytest.mark.parametrize("tampering", ["dtype_int4", "quant_method_unknown"])
def test_config_tampered_so_reload_fails_is_coverage_not_model_unsupported(
    pipeline, demo_model, tmp_path, capsys, tampering
):
    export = _copy(pipeline("fp8").output, tmp_path, tampering)
    config = json.loads((export / "config.json").read_text())
    qc = config["quantization_config"]
    if tampering == "dtype_int4":
        qc["global_quant_config"]["weight"]["dtype"] = "int4"
    else:
        qc["quant_method"] = "quark_v9"
    (export / "config.json").write_text(json.dumps(config))
    code, verdict, summary = _gate(demo_model, export, tmp_path, capsys)
    assert code == 1
    assert verdict["failure_class"] == "QUANT_COVERAGE_FAILURE", verdict["detail"]
    assert "MODEL_UNSUPPORTED" not in verdict["detail"]


def test_the_chain_as_one_library_call(demo_model, tmp_path):
    """What the day-0 conductor calls: typed request in, typed outcome out, same artifacts as the CLI; with
    a given checkpoint, validate and the gate only (the conductor's gate on a given or resumed export)."""
    from quarkci.core.documents import read_artifact
    from quarkci.ptq.chain import PtqRequest, run_ptq

    outcome = run_ptq(PtqRequest(model=demo_model, scheme="int8", out=tmp_path / "run"))
    assert outcome.passed and outcome.run_status == "succeeded" and outcome.warnings == ()
    assert read_artifact("validation_summary", outcome.summary)["reload"]["task_accuracy"] >= 0.9
    assert read_artifact("run_result", outcome.run_result)["scheme"] == "int8"
    assert outcome.checkpoint == (tmp_path / "run" / "model").resolve() and outcome.verdict_file is None
    with pytest.raises(Exception, match="not empty"):  # a second run into the same directory is refused
        run_ptq(PtqRequest(model=demo_model, scheme="int8", out=tmp_path / "run"))

    judge = tmp_path / "judge"
    given = run_ptq(
        PtqRequest(
            model=demo_model,
            scheme="int8",
            out=judge,
            checkpoint=outcome.checkpoint,
            run_result=outcome.run_result,
            gate_output=judge / "gate_ptq.json",
        )
    )
    assert given.passed and given.run is None and given.run_status is None and given.plan is None
    assert json.loads((judge / "gate_ptq.json").read_text()) == given.verdict
    assert sorted(p.name for p in judge.iterdir()) == ["gate_ptq.json", "validation_summary.json"]
    assert given.validation["size_ratio"] == outcome.validation["size_ratio"] < 1
    # negative control: the source itself given as the checkpoint is not a quantized model
    copy = run_ptq(PtqRequest(model=demo_model, scheme="int8", out=tmp_path / "copy", checkpoint=demo_model))
    assert not copy.passed and copy.verdict["failure_class"] == "SIZE_NOT_REDUCED"
    assert copy.validation["scheme"] == "int8"  # no run result: the request's scheme is recorded
