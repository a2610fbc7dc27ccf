"""The PTQ gate as a pure function, and its CLI wrapper's exit codes. No torch, no Quark."""

from __future__ import annotations

import copy
import json
import re

import pytest

from quarkci.cli import main
from quarkci.gates.failure_class import ACTIONS, PRIORITY, FailureClass, most_actionable
from quarkci.gates.ptq import evaluate, threshold_source


def _summary(**over) -> dict:
    """A passing version-1 summary (an fp8 export of a 15-linear model); keyword args override keys."""
    base = {
        "summary_version": 1,
        "scheme": "fp8",
        "source": {"path": "src", "exists": True, "bytes": 1000, "files": 1},
        "output": {"path": "out", "exists": True, "bytes": 260, "files": 1},
        "size_ratio": 0.26,
        "quantization_config": {
            "present": True,
            "quant_method": "quark",
            "global_weight_dtypes": ["fp8_e4m3"],
            "exclude": ["lm_head"],
            "layer_quant_config": [],
        },
        "layers": {
            "total": 15,
            "quantized": {"fp8_e4m3": 14},
            "excluded": ["lm_head"],
            "unexpected_unquantized": [],
            "declaration_mismatch": [],
        },
        # the blocks below are what `ptq validate` wrote for the real fp8 export of the demo model
        "scheme_check": {
            "claimed": "fp8",
            "expected_dtype": "fp8_e4m3",
            "declared_dtype": "fp8_e4m3",
            "declared_qscheme": "per_tensor",
            "declared_group_size": None,
            "problems": [],
        },
        "kv_cache": {"group": [], "layers_named": 0, "kv_layers": 4, "problems": []},
        "fused_layers": {"checked": 4, "problems": []},
        "names": {"unknown_in_output": [], "missing_in_output": [], "unmatched_patterns": [], "problems": []},
        "unquantized_tensors": {"checked": 7, "differ": [], "problems": []},
        "metadata": {"expected": [], "blocking": []},
        "reload": {
            "checked": True,
            "ok": True,
            "error": None,
            "missing_keys": [],
            "unexpected_keys": [],
            "mismatched_keys": [],
            "counts": {"missing_keys": 0, "unexpected_keys": 0, "mismatched_keys": 0},
            "task_accuracy": 1.0,
            "source_task_accuracy": 1.0,
            "top1_agreement": 0.97,
        },
        "run": {
            "status": "succeeded",
            "scheme": "fp8",
            "stage": None,
            "failure_class": None,
            "message": None,
        },
    }
    base.update(copy.deepcopy(over))
    return base


def _status(result, name):
    return next(c["status"] for c in result["checks"] if c["name"] == name)


def test_passing_summary_passes_every_check():
    result = evaluate(_summary())
    assert result["pass"] is True
    assert result["failure_class"] is None
    assert [c["name"] for c in result["checks"]] == [
        "run",
        "output",
        "quantization_config",
        "coverage",
        "scheme",
        "kv_cache",
        "fused_layers",
        "names",
        "unquantized_tensors",
        "size",
        "reload",
        "behaviour",
        "metadata",
    ]
    assert all(c["status"] == "pass" for c in result["checks"])
    assert "fp8_e4m3: 14" in next(c["detail"] for c in result["checks"] if c["name"] == "coverage")


def test_copy_of_source_is_size_not_reduced_only():
    # what `ptq validate` reports for an "output" that is a copy of the source
    result = evaluate(
        _summary(
            size_ratio=1.0,
            quantization_config={"present": False},
            layers={
                "total": 15,
                "quantized": {},
                "excluded": [],
                "unexpected_unquantized": [],
                "declaration_mismatch": [],
            },
        )
    )
    assert result["pass"] is False
    assert result["failure_class"] == "SIZE_NOT_REDUCED"
    assert [c["name"] for c in result["checks"] if c["status"] == "fail"] == ["size"]


def test_smaller_output_without_quantization_config_is_coverage_failure():
    result = evaluate(
        _summary(
            size_ratio=0.5,
            quantization_config={"present": False},
            layers={
                "total": 15,
                "quantized": {},
                "excluded": [],
                "unexpected_unquantized": [],
                "declaration_mismatch": [],
            },
        )
    )
    assert result["failure_class"] == "QUANT_COVERAGE_FAILURE"
    assert _status(result, "quantization_config") == "fail"
    assert _status(result, "coverage") == "fail"


@pytest.mark.parametrize(
    "layers",
    [
        {"unexpected_unquantized": ["model.layers.0.mlp.down_proj"]},
        {
            "declaration_mismatch": [
                {"layer": "model.layers.0.mlp.up_proj", "reason": "excluded but stored quantized"}
            ]
        },
        {"quantized": {}},
    ],
)
def test_coverage_problems(layers):
    merged = {**_summary()["layers"], **layers}
    result = evaluate(_summary(layers=merged))
    assert result["failure_class"] == "QUANT_COVERAGE_FAILURE"
    assert _status(result, "coverage") == "fail"


def test_size_threshold_is_exclusive_and_configurable():
    assert evaluate(_summary(size_ratio=0.999))["pass"] is True
    assert evaluate(_summary(size_ratio=1.0))["failure_class"] == "SIZE_NOT_REDUCED"
    strict = evaluate(_summary(size_ratio=0.6), max_size_ratio=0.5)
    assert strict["failure_class"] == "SIZE_NOT_REDUCED" and "0.6000 >= 0.5" in strict["detail"]


def test_non_numeric_size_ratio_is_a_verdict_not_a_crash():
    result = evaluate(_summary(size_ratio="big"))
    assert result["pass"] is False and result["failure_class"] == "SIZE_NOT_REDUCED"


def test_reload_with_missing_keys_fails_coverage():
    reload = {
        **_summary()["reload"],
        "ok": False,
        "missing_keys": ["model.layers.0.mlp.down_proj.weight_quantizer.scale"],
        "counts": {"missing_keys": 1, "unexpected_keys": 0, "mismatched_keys": 0},
    }
    result = evaluate(_summary(reload=reload))
    assert result["failure_class"] == "QUANT_COVERAGE_FAILURE"
    assert "1 missing keys" in result["detail"] and "down_proj" in result["detail"]


def test_reload_that_raises_is_model_unsupported():
    reload = {**_summary()["reload"], "ok": False, "error": "ValueError: dequantize expected uint8 input"}
    result = evaluate(_summary(reload=reload))
    assert result["failure_class"] == "MODEL_UNSUPPORTED"
    assert "dequantize expected uint8 input" in result["detail"]


def test_reload_forward_failures_are_classified_by_kind():
    raised = {**_summary()["reload"], "ok": False, "forward_error": "forward pass raised: ValueError: x"}
    assert evaluate(_summary(reload=raised))["failure_class"] == "MODEL_UNSUPPORTED"
    garbage = {**_summary()["reload"], "ok": False, "logits_finite": False}
    result = evaluate(_summary(reload=garbage))
    assert result["failure_class"] == "QUANT_COVERAGE_FAILURE" and "non-finite logits" in result["detail"]


def test_reload_not_checked_is_skipped_not_failed():
    result = evaluate(_summary(reload={"checked": False}))
    assert result["pass"] is True and _status(result, "reload") == "skipped"


def test_failed_run_carries_the_runner_class_and_upstream_message():
    run = {
        "status": "failed",
        "stage": "export",
        "failure_class": "MODEL_UNSUPPORTED",
        "message": "AssertionError at quark/torch/export/nn/modules/realquantizer.py:374",
    }
    result = evaluate(_summary(run=run, output={"path": "out", "exists": False, "bytes": 0, "files": 0}))
    assert result["pass"] is False
    assert result["failure_class"] == "MODEL_UNSUPPORTED"  # outranks the missing output's USER_CONFIG_ERROR
    assert "realquantizer.py:374" in result["detail"] and "USER_CONFIG_ERROR" in result["detail"]


def test_blocking_metadata_is_user_config_error():
    metadata = {
        "expected": [],
        "blocking": [
            {
                "field": "tokenizer.chat_template",
                "source": "a",
                "output": "b",
                "reason": "chat template changed",
            }
        ],
    }
    result = evaluate(_summary(metadata=metadata))
    assert result["failure_class"] == "USER_CONFIG_ERROR"
    assert "tokenizer.chat_template" in result["detail"]


def test_priority_reports_most_actionable_and_lists_all():
    run = {"status": "failed", "stage": "export", "failure_class": "MODEL_UNSUPPORTED", "message": "boom"}
    metadata = {"expected": [], "blocking": [{"field": "config.vocab_size"}]}
    result = evaluate(
        _summary(
            run=run,
            size_ratio=1.2,
            metadata=metadata,
            layers={**_summary()["layers"], "unexpected_unquantized": ["x"]},
        )
    )
    assert result["failure_class"] == "MODEL_UNSUPPORTED"
    for cls in ("MODEL_UNSUPPORTED", "QUANT_COVERAGE_FAILURE", "SIZE_NOT_REDUCED", "USER_CONFIG_ERROR"):
        assert f"[{cls}]" in result["detail"]


def test_priority_order_matches_the_issue():
    ptq_classes = ["MODEL_UNSUPPORTED", "QUANT_COVERAGE_FAILURE", "SIZE_NOT_REDUCED", "USER_CONFIG_ERROR"]
    assert [c.value for c in PRIORITY if c.value in ptq_classes] == ptq_classes
    assert set(PRIORITY) == set(FailureClass) == set(ACTIONS)
    assert (
        most_actionable([FailureClass.USER_CONFIG_ERROR, FailureClass.SIZE_NOT_REDUCED])
        is FailureClass.SIZE_NOT_REDUCED
    )
    assert most_actionable([]) is None


@pytest.mark.parametrize(
    "bad", [None, [], "text", {"summary_version": 2}, {"summary_version": 1, "output": 3}]
)
def test_malformed_input_is_user_config_error(bad):
    result = evaluate(bad)
    assert result["pass"] is False
    assert result["failure_class"] == "USER_CONFIG_ERROR"


def test_cli_exit_codes(tmp_path, capsys):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(_summary()))
    bad.write_text(json.dumps(_summary(size_ratio=1.0)))
    assert main(["ptq", "gate", "--summary", str(good)]) == 0
    assert json.loads(capsys.readouterr().out)["pass"] is True
    assert main(["ptq", "gate", "--summary", str(bad)]) == 1
    assert json.loads(capsys.readouterr().out)["failure_class"] == "SIZE_NOT_REDUCED"
    (tmp_path / "broken.json").write_text("{not json")
    assert main(["ptq", "gate", "--summary", str(tmp_path / "broken.json")]) == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out)["failure_class"] == "USER_CONFIG_ERROR"
    assert "Traceback" not in captured.err and "--summary" in captured.err and "JSON" in captured.err
    assert main(["ptq", "gate", "--summary", str(tmp_path / "missing.json")]) == 2
    assert main(["ptq", "gate"]) == 2  # --summary is required: argparse's one-line usage error


def test_markdown_body_is_sticky_and_neutralises_untrusted_text(tmp_path):
    run = {
        "status": "failed",
        "scheme": "fp8",
        "stage": "export",
        "failure_class": "MODEL_UNSUPPORTED",
        "message": "boom @someone `rm -rf` | x\nsecond line",
    }
    summary = tmp_path / "s.json"
    summary.write_text(json.dumps(_summary(run=run)))
    md = tmp_path / "gate.md"
    assert main(["ptq", "gate", "--summary", str(summary), "--markdown", str(md)]) == 1
    body = md.read_text()
    assert body.startswith("<!-- quarkci:report:ptq -->\n### quarkci PTQ gate: FAIL (MODEL_UNSUPPORTED)")
    row = next(line for line in body.splitlines() if line.startswith("| run |"))
    assert len(re.findall(r"(?<!\\)\|", row)) == 5  # the pipe inside the message is escaped: no new cell
    assert "`ptq run failed at export: boom @\u200bsomeone 'rm -rf' \\| x second line`" in row
    assert "- size: 0.00 MiB -> 0.00 MiB (ratio 0.260)" in body


@pytest.mark.parametrize("ratio", [float("nan"), float("inf"), -0.5, 0.0])
def test_non_finite_or_non_positive_size_ratio_fails(ratio):
    result = evaluate(_summary(size_ratio=ratio))
    assert result["pass"] is False and result["failure_class"] == "SIZE_NOT_REDUCED"


@pytest.mark.parametrize("limit", ["nan", "inf", "-1", "0"])
def test_a_nan_or_non_positive_threshold_is_bad_input(tmp_path, capsys, limit):
    summary = tmp_path / "s.json"
    summary.write_text(json.dumps(_summary(size_ratio=1.5)), encoding="utf-8")
    assert main(["ptq", "gate", "--summary", str(summary), "--max-size-ratio", limit]) == 2
    assert "--max-size-ratio must be a positive finite number" in capsys.readouterr().err


def test_deeply_nested_summary_is_bad_input_not_a_crash(tmp_path, capsys):
    summary = tmp_path / "deep.json"
    summary.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert main(["ptq", "gate", "--summary", str(summary)]) == 2
    assert "nested too deeply" in capsys.readouterr().err


# --- checks added for tampered exports (issue 10, stage 2); each with the passing base as negative control ---


def test_planted_summary_is_a_valid_validation_summary_document():
    from quarkci.core.documents import validate_document

    assert validate_document(_summary(), "validation_summary") == []
    assert validate_document(_summary(summary_version=2), "validation_summary") != []  # negative control


@pytest.mark.parametrize(
    "key, block, failing",
    [
        (
            "scheme_check",
            {
                "claimed": "int4_wo_128",
                "expected_dtype": "int4",
                "declared_dtype": "fp8_e4m3",
                "problems": ["run claims scheme int4_wo_128 (weight int4) but the export declares fp8_e4m3"],
            },
            "scheme",
        ),
        (
            "kv_cache",
            {
                "group": ["*k_proj"],
                "layers_named": 2,
                "kv_layers": 4,
                "problems": ["kv_cache_group names 2 of 4 k/v projections"],
            },
            "kv_cache",
        ),
        (
            "names",
            {
                "unknown_in_output": ["model.layers.9.x.weight"],
                "missing_in_output": [],
                "unmatched_patterns": [],
                "problems": ["1 output tensor(s) belong to no module of the model"],
            },
            "names",
        ),
        (
            "unquantized_tensors",
            {
                "checked": 7,
                "differ": [{"tensor": "lm_head.weight", "reason": "content differs"}],
                "problems": ["1 unquantized tensor(s) differ from the source (e.g. lm_head.weight)"],
            },
            "unquantized_tensors",
        ),
    ],
)
def test_each_metadata_block_with_problems_fails_as_coverage(key, block, failing):
    assert evaluate(_summary())["pass"] is True  # negative control: the same summary without the problem
    result = evaluate(_summary(**{key: block}))
    assert result["pass"] is False and result["failure_class"] == "QUANT_COVERAGE_FAILURE"
    assert [c["name"] for c in result["checks"] if c["status"] == "fail"] == [failing]


def test_unmeasured_blocks_are_skipped_not_passed():
    result = evaluate(_summary(scheme_check=None, kv_cache=None))
    assert _status(result, "scheme") == "skipped" and _status(result, "kv_cache") == "skipped"


def test_malformed_quantization_config_fails():
    qc = {**_summary()["quantization_config"], "problems": ["quant_method 'gptq' is not 'quark'"]}
    result = evaluate(_summary(quantization_config=qc))
    assert (
        result["failure_class"] == "QUANT_COVERAGE_FAILURE"
        and _status(result, "quantization_config") == "fail"
    )


def _reload(**over):
    return {**_summary()["reload"], **over}


@pytest.mark.parametrize(
    "accuracy, passes", [(1.0, True), (0.9, True), (0.89, False), (0.45, False), (0.0, False)]
)
def test_behaviour_gates_demo_accuracy_against_the_source_inclusive(accuracy, passes):
    result = evaluate(_summary(reload=_reload(task_accuracy=accuracy)))
    assert result["pass"] is passes
    assert _status(result, "behaviour") == ("pass" if passes else "fail")
    assert result["failure_class"] == (None if passes else "BEHAVIOUR_PROBE_FAILED")
    probe = result["behaviour"]
    assert (probe["measure"], probe["value"], probe["source_value"]) == ("task_accuracy", accuracy, 1.0)
    assert (probe["threshold"], probe["pass"]) == (0.10, passes)
    assert "DEFAULT_MAX_ACCURACY_DROP" in probe["threshold_source"]


@pytest.mark.parametrize("agreement, passes", [(0.97, True), (0.8, True), (0.79, False), (0.05, False)])
def test_behaviour_without_a_task_gates_top1_agreement(agreement, passes):
    result = evaluate(
        _summary(reload=_reload(task_accuracy=None, source_task_accuracy=None, top1_agreement=agreement))
    )
    assert _status(result, "behaviour") == ("pass" if passes else "fail")
    assert result["failure_class"] == (None if passes else "BEHAVIOUR_PROBE_FAILED")
    assert result["behaviour"] == {
        "measure": "top1_agreement",
        "value": agreement,
        "source_value": None,
        "threshold": 0.80,
        "rule": "value >= threshold",
        "threshold_source": threshold_source("min_top1_agreement", 0.80, 0.80),
        "top1_agreement": agreement,
        "pass": passes,
    }


def test_smollm2_fp8_case_coverage_passed_agreement_73_is_a_behaviour_probe_failure():
    """The real-model case of issue 22 in miniature: every coverage check passed, top-1 agreement 0.73 <
    0.80 -> BEHAVIOUR_PROBE_FAILED (not QUANT_COVERAGE_FAILURE), the probe's figures in the verdict."""
    result = evaluate(
        _summary(reload=_reload(task_accuracy=None, source_task_accuracy=None, top1_agreement=0.73))
    )
    failed = [c["name"] for c in result["checks"] if c["status"] == "fail"]
    assert failed == ["behaviour"] and _status(result, "coverage") == "pass"
    assert result["failure_class"] == "BEHAVIOUR_PROBE_FAILED"
    assert "top-1 agreement with the source 73% (min 80%)" in result["detail"]
    assert (result["behaviour"]["value"], result["behaviour"]["threshold"]) == (0.73, 0.80)
    assert "quarkci's own choice, not an upstream rule" in result["behaviour"]["threshold_source"]


def test_a_coverage_failure_outranks_the_behaviour_probe():
    """A broken export explains drifting outputs: coverage's class wins when both fail."""
    layers = {**_summary()["layers"], "unexpected_unquantized": ["model.layers.0.mlp.up_proj"]}
    result = evaluate(_summary(layers=layers, reload=_reload(task_accuracy=0.2)))
    assert _status(result, "behaviour") == "fail" and _status(result, "coverage") == "fail"
    assert result["failure_class"] == "QUANT_COVERAGE_FAILURE"


def test_a_given_threshold_is_named_as_the_callers():
    summary = _summary(reload=_reload(task_accuracy=None, source_task_accuracy=None, top1_agreement=0.9))
    probe = evaluate(summary, min_top1_agreement=0.95)["behaviour"]
    assert probe["pass"] is False and probe["threshold"] == 0.95
    assert probe["threshold_source"].startswith("min_top1_agreement = 0.95 given by the caller")


def test_a_clean_reload_without_a_behaviour_measurement_is_never_a_pass():
    result = evaluate(
        _summary(
            reload=_reload(
                task_accuracy=None,
                source_task_accuracy=None,
                top1_agreement=None,
                behaviour_error="RuntimeError: probe failed",
            )
        )
    )
    assert result["pass"] is False and _status(result, "behaviour") == "fail"
    assert "probe failed" in result["detail"]
    # nothing measured: no figures, and not a measured regression
    assert result["behaviour"] is None and result["failure_class"] == "QUANT_COVERAGE_FAILURE"


def test_behaviour_threshold_is_a_parameter():
    summary = _summary(reload=_reload(task_accuracy=0.8))
    assert evaluate(summary)["pass"] is False
    assert evaluate(summary, max_accuracy_drop=0.25)["pass"] is True


def test_reload_failure_after_a_metadata_failure_is_coverage_not_unsupported():
    raised = _reload(
        ok=False, error="KeyError: 'global_quant_config'", task_accuracy=None, top1_agreement=None
    )
    alone = evaluate(_summary(reload=raised))
    assert alone["failure_class"] == "MODEL_UNSUPPORTED"  # control: nothing explains the failure
    qc = {**_summary()["quantization_config"], "problems": ["global_quant_config.weight.dtype missing"]}
    tampered = evaluate(_summary(reload=raised, quantization_config=qc))
    assert tampered["failure_class"] == "QUANT_COVERAGE_FAILURE"
    assert "MODEL_UNSUPPORTED" not in tampered["detail"]
    assert _status(tampered, "behaviour") == "skipped"


def test_unreadable_weights_are_a_classed_gate_failure():
    output = {
        **_summary()["output"],
        "error": "out/model.safetensors: unreadable safetensors header: incomplete",
    }
    result = evaluate(_summary(output=output))
    assert result["pass"] is False and result["failure_class"] == "CHECKPOINT_NOT_SERVABLE"
    assert "unreadable" in result["detail"]


def test_size_names_the_extra_weight_files():
    output = {**_summary()["output"], "bytes": 1260, "other_weight_files": {"pytorch_model.bin": 1000}}
    result = evaluate(_summary(output=output, size_ratio=1.26))
    assert result["failure_class"] == "SIZE_NOT_REDUCED"
    assert "pytorch_model.bin" in result["detail"]
