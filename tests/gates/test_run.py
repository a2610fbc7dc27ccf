"""The run gate (``quarkci.gates.run``): one eval's completeness, every failure class with a negative
control."""

from __future__ import annotations

from quarkci.gates import run
from tests.gates.evals import planted_eval as _eval


def test_run_gate_complete_and_each_failure_class():
    assert run.evaluate(_eval({"a": 0.5}))["pass"] is True
    failed = _eval({"a": 0.5}, failed_requests=3)
    assert run.evaluate(failed)["failure_class"] == "INFRA_TRANSIENT"
    short = _eval({"a": 0.5})
    short["tasks"]["a"]["samples"] = 999
    assert run.evaluate(short)["failure_class"] == "SAMPLE_ACCOUNTING_FAILED"
    nan = _eval({"a": float("nan")})
    assert run.evaluate(nan)["failure_class"] == "UNKNOWN"
    for cls in ("INFRA_TRANSIENT", "DEPLOYMENT_HEALTH_FAILED", "EVAL_JUDGE_FAILED"):
        errored = {**_eval({"a": 0.5}), "error": {"failure_class": cls, "message": "boom"}}
        assert run.evaluate(errored)["failure_class"] == cls
    odd = {**_eval({"a": 0.5}), "error": {"failure_class": "MADE_UP", "message": "?"}}
    assert run.evaluate(odd)["failure_class"] == "UNKNOWN"
    assert run.evaluate({"tasks": {}})["input_error"] is True
    assert run.evaluate({"nope": 1})["input_error"] is True


def test_run_gate_refuses_counts_that_do_not_add_up():
    """More samples than expected, negative or string counts are SAMPLE_ACCOUNTING_FAILED (attack trial)."""

    def result(**entry):
        return {
            "tasks": {
                "a": {"samples": 100, "expected_samples": 100, "failed_requests": 0, "score": 0.5, **entry}
            }
        }

    for bad in ({"samples": 200}, {"failed_requests": -3}, {"failed_requests": "5"}, {"samples": "100"}):
        verdict = run.evaluate(result(**bad))
        assert verdict["pass"] is False and verdict["failure_class"] == "SAMPLE_ACCOUNTING_FAILED", bad
    assert run.evaluate(result())["pass"] is True  # negative control
