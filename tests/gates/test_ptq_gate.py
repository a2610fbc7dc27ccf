"""The PTQ gate as a pure function, and its CLI wrapper's exit codes. No torch, no Quark."""

from __future__ import annotations

import copy
import json

import pytest

from quarkci.cli import main
from quarkci.core.failure_class import ACTIONS, PRIORITY, FailureClass, most_actionable
from quarkci.gates.ptq import evaluate


def _summary(**over) -> dict:
    """A passing version-1 summary (an fp8 export of a 15-linear model); keyword args override keys."""
    base = {
        "summary_version": 1,
        "scheme": "fp8",
        "source": {"path": "src", "exists": True, "bytes": 1000, "files": 1},
        "output": {"path": "out", "exists": True, "bytes": 260, "files": 1},
        "size_ratio": 0.26,
        "quantization_config": {"present": True, "quant_method": "quark", "global_weight_dtypes": ["fp8_e4m3"],
                                "exclude": ["lm_head"], "layer_quant_config": []},
        "layers": {"total": 15, "quantized": {"fp8_e4m3": 14}, "excluded": ["lm_head"],
                   "unexpected_unquantized": [], "declaration_mismatch": []},
        "metadata": {"expected": [], "blocking": []},
        "reload": {"checked": True, "ok": True, "error": None, "missing_keys": [], "unexpected_keys": [],
                   "mismatched_keys": [], "counts": {"missing_keys": 0, "unexpected_keys": 0, "mismatched_keys": 0},
                   "task_accuracy": 1.0, "source_task_accuracy": 1.0},
        "run": {"status": "succeeded", "stage": None, "failure_class": None, "message": None},
    }
    base.update(copy.deepcopy(over))
    return base


def _status(result, name):
    return next(c["status"] for c in result["checks"] if c["name"] == name)


def test_passing_summary_passes_every_check():
    result = evaluate(_summary())
    assert result["pass"] is True
    assert result["failure_class"] is None
    assert [c["name"] for c in result["checks"]] == ["run", "output", "quantization_config", "coverage", "size",
                                                     "reload", "metadata"]
    assert all(c["status"] == "pass" for c in result["checks"])
    assert "fp8_e4m3: 14" in next(c["detail"] for c in result["checks"] if c["name"] == "coverage")


def test_copy_of_source_is_size_not_reduced_only():
    # what `ptq validate` reports for an "output" that is a copy of the source
    result = evaluate(_summary(size_ratio=1.0, quantization_config={"present": False},
                               layers={"total": 15, "quantized": {}, "excluded": [],
                                       "unexpected_unquantized": [], "declaration_mismatch": []}))
    assert result["pass"] is False
    assert result["failure_class"] == "SIZE_NOT_REDUCED"
    assert [c["name"] for c in result["checks"] if c["status"] == "fail"] == ["size"]


def test_smaller_output_without_quantization_config_is_coverage_failure():
    result = evaluate(_summary(size_ratio=0.5, quantization_config={"present": False},
                               layers={"total": 15, "quantized": {}, "excluded": [],
                                       "unexpected_unquantized": [], "declaration_mismatch": []}))
    assert result["failure_class"] == "QUANT_COVERAGE_FAILURE"
    assert _status(result, "quantization_config") == "fail"
    assert _status(result, "coverage") == "fail"


@pytest.mark.parametrize("layers", [
    {"unexpected_unquantized": ["model.layers.0.mlp.down_proj"]},
    {"declaration_mismatch": [{"layer": "model.layers.0.mlp.up_proj", "reason": "excluded but stored quantized"}]},
    {"quantized": {}},
])
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
    reload = {**_summary()["reload"], "ok": False, "missing_keys": ["model.layers.0.mlp.down_proj.weight_quantizer.scale"],
              "counts": {"missing_keys": 1, "unexpected_keys": 0, "mismatched_keys": 0}}
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
    run = {"status": "failed", "stage": "export", "failure_class": "MODEL_UNSUPPORTED",
           "message": "AssertionError at quark/torch/export/nn/modules/realquantizer.py:374"}
    result = evaluate(_summary(run=run, output={"path": "out", "exists": False, "bytes": 0, "files": 0}))
    assert result["pass"] is False
    assert result["failure_class"] == "MODEL_UNSUPPORTED"  # outranks the missing output's USER_CONFIG_ERROR
    assert "realquantizer.py:374" in result["detail"] and "USER_CONFIG_ERROR" in result["detail"]


def test_blocking_metadata_is_user_config_error():
    metadata = {"expected": [], "blocking": [{"field": "tokenizer.chat_template", "source": "a", "output": "b",
                                              "reason": "chat template changed"}]}
    result = evaluate(_summary(metadata=metadata))
    assert result["failure_class"] == "USER_CONFIG_ERROR"
    assert "tokenizer.chat_template" in result["detail"]


def test_priority_reports_most_actionable_and_lists_all():
    run = {"status": "failed", "stage": "export", "failure_class": "MODEL_UNSUPPORTED", "message": "boom"}
    metadata = {"expected": [], "blocking": [{"field": "config.vocab_size"}]}
    result = evaluate(_summary(run=run, size_ratio=1.2, metadata=metadata,
                               layers={**_summary()["layers"], "unexpected_unquantized": ["x"]}))
    assert result["failure_class"] == "MODEL_UNSUPPORTED"
    for cls in ("MODEL_UNSUPPORTED", "QUANT_COVERAGE_FAILURE", "SIZE_NOT_REDUCED", "USER_CONFIG_ERROR"):
        assert f"[{cls}]" in result["detail"]


def test_priority_order_matches_the_issue():
    ptq_classes = ["MODEL_UNSUPPORTED", "QUANT_COVERAGE_FAILURE", "SIZE_NOT_REDUCED", "USER_CONFIG_ERROR"]
    assert [c.value for c in PRIORITY if c.value in ptq_classes] == ptq_classes
    assert set(PRIORITY) == set(FailureClass) == set(ACTIONS)
    assert most_actionable([FailureClass.USER_CONFIG_ERROR, FailureClass.SIZE_NOT_REDUCED]) is \
        FailureClass.SIZE_NOT_REDUCED
    assert most_actionable([]) is None


@pytest.mark.parametrize("bad", [None, [], "text", {"summary_version": 2}, {"summary_version": 1, "output": 3}])
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
    assert "Traceback" not in captured.err and "unreadable" in captured.err
    assert main(["ptq", "gate", "--summary", str(tmp_path / "missing.json")]) == 2
    assert main(["ptq", "gate"]) == 2


def test_markdown_body_is_sticky_and_neutralises_untrusted_text(tmp_path):
    run = {"status": "failed", "stage": "export", "failure_class": "MODEL_UNSUPPORTED",
           "message": "boom @someone `rm -rf` | x\nsecond line"}
    summary = tmp_path / "s.json"
    summary.write_text(json.dumps(_summary(run=run)))
    md = tmp_path / "gate.md"
    assert main(["ptq", "gate", "--summary", str(summary), "--markdown", str(md)]) == 1
    body = md.read_text()
    assert body.startswith("<!-- quarkci:report:ptq -->\n### quarkci PTQ gate: FAIL (MODEL_UNSUPPORTED)")
    row = next(line for line in body.splitlines() if line.startswith("| run |"))
    assert row.count("|") == 5  # the pipe inside the message did not split the row
    assert "`ptq run failed at export: boom @someone 'rm -rf' / x second line`" in row
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
    assert "unreadable" in capsys.readouterr().err
