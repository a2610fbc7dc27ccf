"""End to end with real amd-quark on CPU: demo model -> intake -> plan -> manifest -> run -> validate
-> gate, for the schemes that work in Quark 0.13 and for the ones that fail upstream; plus the
gate's negative controls on real exports."""

from __future__ import annotations

import json
import shutil

import pytest

from quarkci.cli import main
from quarkci.core.documents import load_document, validate_document

pytestmark = pytest.mark.ml

# scheme -> (declared weight precision label, upper bound of output/source size for this fp32 model)
WORKING = {
    "fp8": ("fp8_e4m3", 0.30),
    "int8": ("int8", 0.30),
    "int4_wo_128": ("int4", 0.20),
    "mxfp4": ("fp4", 0.20),
}


def _failed_checks(gate: dict) -> list[str]:
    return [c["name"] for c in gate["checks"] if c["status"] == "fail"]


def test_demo_model_is_hf_format_and_solves_addition(demo_model):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from quarkci.ptq.demo import addition_accuracy

    config = json.loads((demo_model / "config.json").read_text())
    assert (config["model_type"], config["num_hidden_layers"], config["hidden_size"]) == ("llama", 2, 128)
    assert (demo_model / "model.safetensors").is_file() and (demo_model / "tokenizer.json").is_file()
    assert json.loads((demo_model / "quarkci_task.json").read_text())["accuracy"] == 1.0
    model = AutoModelForCausalLM.from_pretrained(demo_model)
    assert addition_accuracy(model, AutoTokenizer.from_pretrained(demo_model)) == 1.0


def test_demo_model_is_deterministic_for_a_seed(demo_model, tmp_path):
    import hashlib

    from quarkci.ptq.demo import DemoConfig, build_demo_model

    def digest(seed: int) -> str:
        out = build_demo_model(
            tmp_path / f"s{seed}-{len(list(tmp_path.iterdir()))}",
            DemoConfig(seed=seed, max_steps=25),
            progress=lambda _: None,
        ).out_dir
        return hashlib.sha256((out / "model.safetensors").read_bytes()).hexdigest()

    assert digest(0) == digest(0)
    assert digest(0) != digest(1)


def test_intake_of_the_demo_model(analysis, demo_model):
    doc = json.loads(analysis.read_text())
    assert validate_document(doc, "model_analysis") == []
    assert doc["analysis_status"] == "complete"
    assert doc["quark"]["template_available"] is True
    assert doc["quantization_targets"]["linear_layer_count"] == 15  # 2 x (4 attn + 3 mlp) + lm_head
    assert doc["quantization_targets"]["exclude_defaults"] == ["lm_head"]
    assert doc["parameters"]["count"] == 332416


@pytest.mark.parametrize("scheme", sorted(WORKING))
def test_scheme_end_to_end_passes_the_gate(pipeline, scheme):
    label, max_ratio = WORKING[scheme]
    p = pipeline(scheme)
    assert (p.run_code, p.validate_code, p.gate_code) == (0, 0, 0)
    assert p.gate["pass"] is True, p.gate["detail"]
    summary = p.summary
    assert summary["layers"]["quantized"] == {label: 14}
    assert summary["layers"]["excluded"] == ["lm_head"]
    assert (
        summary["layers"]["unexpected_unquantized"] == [] and summary["layers"]["declaration_mismatch"] == []
    )
    assert 0 < summary["size_ratio"] < max_ratio
    assert summary["output"]["bytes"] < summary["source"]["bytes"]
    assert summary["reload"]["ok"] is True
    assert summary["reload"]["task_accuracy"] >= 0.9  # the quantized model still adds
    assert summary["metadata"]["blocking"] == []
    manifest = load_document(p.manifest)
    assert validate_document(manifest, "run_manifest") == []
    assert manifest["status"] == "succeeded"
    assert next(s for s in manifest["steps"] if s["kind"] == "run")["status"] == "succeeded"
    plan = load_document(manifest["inputs"]["plan"])
    assert validate_document(plan, "quant_plan") == [] and plan["global_scheme"] == scheme
    assert p.run_result["versions"]["quark"] == "0.13"


@pytest.mark.parametrize("scheme", ["mx6", "mx9", "bfp16"])
def test_schemes_that_fail_at_export(pipeline, scheme):
    """Evidence for quarkci.ptq.evidence (plan-time warnings): these fail at export on CPU with Quark 0.13."""
    p = pipeline(scheme)
    assert p.run_code == 1
    result = p.run_result
    assert (result["status"], result["stage"], result["failure_class"]) == (
        "failed",
        "export",
        "MODEL_UNSUPPORTED",
    )
    assert result["message"]
    if scheme == "mx9":
        assert result["message"].startswith("AssertionError") and "quark/torch/export/" in result["message"]
    assert not p.output.exists()
    assert [x.name for x in p.root.iterdir() if x.name.startswith(".model.")] == []  # no half-written export
    assert p.gate_code == 1 and p.gate["failure_class"] == "MODEL_UNSUPPORTED"
    assert result["message"].split(":")[0] in p.gate["detail"]
    assert load_document(p.manifest)["status"] == "failed"


@pytest.mark.parametrize("scheme", ["nvfp4", "int4_fp8", "fp4_block16_scale_e4m3"])
def test_schemes_that_reload_wrong(pipeline, scheme):
    """Evidence for quarkci.ptq.evidence: exported, but reloaded by transformers with missing keys."""
    p = pipeline(scheme)
    assert p.run_code == 0  # Quark exports it...
    reload = p.summary["reload"]
    assert reload["ok"] is False and reload["counts"]["missing_keys"] > 0  # ...transformers cannot load it
    assert p.gate["failure_class"] == "QUANT_COVERAGE_FAILURE" and p.gate_code == 1


def test_amdfp4_global16_fails_on_reload(pipeline):
    p = pipeline("amdfp4_global16")
    assert p.run_code == 0
    reload = p.summary["reload"]
    assert reload["counts"]["missing_keys"] > 0
    assert "dequantize" in reload["forward_error"]  # Quark's own kernel rejects what transformers loaded
    assert p.gate["failure_class"] == "MODEL_UNSUPPORTED"
    assert _failed_checks(p.gate) == ["reload"]


def test_copy_of_the_source_is_size_not_reduced(demo_model, tmp_path, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(demo_model, copy)
    summary = tmp_path / "summary.json"
    assert (
        main(
            ["ptq", "validate", "--source", str(demo_model), "--checkpoint", str(copy), "--out", str(summary)]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["ptq", "gate", "--summary", str(summary)]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["failure_class"] == "SIZE_NOT_REDUCED"
    assert _failed_checks(verdict) == ["size"]


def test_tampered_quantization_config_is_coverage_failure(pipeline, demo_model, tmp_path, capsys):
    tampered = tmp_path / "tampered"
    shutil.copytree(pipeline("fp8").output, tampered)
    config = json.loads((tampered / "config.json").read_text())
    config["quantization_config"]["exclude"] = ["lm_head", "*mlp*"]  # claims the MLPs were left alone
    (tampered / "config.json").write_text(json.dumps(config))
    summary = tmp_path / "summary.json"
    assert (
        main(
            [
                "ptq",
                "validate",
                "--source",
                str(demo_model),
                "--checkpoint",
                str(tampered),
                "--no-reload",
                "--out",
                str(summary),
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["ptq", "gate", "--summary", str(summary)]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["failure_class"] == "QUANT_COVERAGE_FAILURE"
    assert _failed_checks(verdict) == ["coverage"]
    assert (
        len(json.loads(summary.read_text())["layers"]["declaration_mismatch"]) == 6
    )  # 3 MLP linears x 2 layers


def test_reload_with_missing_keys_fails(pipeline, demo_model, tmp_path, capsys):
    from safetensors.torch import load_file, save_file

    broken = tmp_path / "broken"
    shutil.copytree(pipeline("fp8").output, broken)
    tensors = load_file(broken / "model.safetensors")
    del tensors["model.layers.0.mlp.down_proj.weight_scale"]
    save_file(tensors, broken / "model.safetensors", metadata={"format": "pt"})
    summary = tmp_path / "summary.json"
    assert (
        main(
            [
                "ptq",
                "validate",
                "--source",
                str(demo_model),
                "--checkpoint",
                str(broken),
                "--out",
                str(summary),
            ]
        )
        == 0
    )
    reload = json.loads(summary.read_text())["reload"]
    assert reload["ok"] is False
    assert any("layers.0.mlp.down_proj" in k for k in reload["missing_keys"])
    capsys.readouterr()
    assert main(["ptq", "gate", "--summary", str(summary)]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["failure_class"] == "QUANT_COVERAGE_FAILURE"
    assert _failed_checks(verdict) == ["reload", "behaviour"]  # the re-initialised scale computes garbage


def test_run_refuses_without_yes_and_after_plan_changes(analysis, tmp_path, capsys):
    plan = tmp_path / "quant_plan.json"
    assert main(["ptq", "plan", "--analysis", str(analysis), "--scheme", "fp8", "--out", str(plan)]) == 0
    assert main(["ptq", "manifest", "--plan", str(plan), "--out", str(tmp_path / "run")]) == 0
    manifest = tmp_path / "run" / "run_manifest.yaml"
    capsys.readouterr()
    assert main(["ptq", "run", "--manifest", str(manifest)]) == 2
    assert "without explicit confirmation" in capsys.readouterr().err
    assert not (tmp_path / "run" / "model").exists() and not (tmp_path / "run" / "run_result.json").exists()
    plan.write_text(plan.read_text().replace('"fp8"', '"int8"'))
    assert main(["ptq", "run", "--manifest", str(manifest), "--yes"]) == 2
    assert "changed since the manifest" in capsys.readouterr().err


def test_plan_rejects_a_scheme_the_installed_quark_lacks(analysis, tmp_path, capsys):
    assert (
        main(
            [
                "ptq",
                "plan",
                "--analysis",
                str(analysis),
                "--scheme",
                "int3_magic",
                "--out",
                str(tmp_path / "p.json"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert "not supported by amd-quark 0.13" in err and "int4_wo_128" in err and "Traceback" not in err
    assert not (tmp_path / "p.json").exists()
