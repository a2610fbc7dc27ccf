"""The compare gate (``quarkci.gates.compare``) on planted evals: every failure class and decision with a
negative control."""

from __future__ import annotations

import pytest

from quarkci.gates import compare
from tests.gates.evals import planted_eval as _eval
from tests.gates.evals import score_map as _s


def test_compare_without_a_standard_error_is_never_a_pass():
    """A bare {task: score} map has no standard error: within or past the threshold, INDETERMINATE."""
    for candidate in (0.50, 0.49, 0.30):
        v = compare.evaluate({"a": 0.50}, {"a": candidate})
        assert (v["pass"], v["decision"]) == (False, "INDETERMINATE"), candidate
        assert "no standard error" in v["tasks"][0]["reason"]
    assert compare.evaluate(_s({"a": 0.50}), _s({"a": 0.49}))["decision"] == "ACCEPT"  # negative control


def test_compare_threshold_is_inclusive_on_the_boundary():
    on = compare.evaluate(_s({"a": 0.50}), _s({"a": 0.49}), threshold=0.01)
    assert on["pass"] is True and on["tasks"][0]["within"] is True and on["decision"] == "ACCEPT"
    past = compare.evaluate(_s({"a": 0.50}), _s({"a": 0.4899}), threshold=0.01)  # negative control
    assert past["pass"] is False and past["decision"] == "REGRESSION" and past["failure_class"] is None
    assert "a score: drop 0.0101" in past["detail"]


def test_compare_scale_rule_0_100_and_explicit_scales():
    pct = compare.evaluate(_s({"gsm8k": 80.0}, 0.1), _s({"gsm8k": 79.0}, 0.1))
    assert (
        pct["tasks"][0]["scale"] == 100.0 and pct["tasks"][0]["drop"] == pytest.approx(0.01) and pct["pass"]
    )
    worse = compare.evaluate(_s({"gsm8k": 80.0}, 0.1), _s({"gsm8k": 78.9}, 0.1))
    assert worse["decision"] == "REGRESSION"
    # a 0-100 task whose scores happen to lie in [0, 1]: only --scales tells the truth
    forced = compare.evaluate(_s({"t": 0.9}), _s({"t": 0.5}), scales={"t": 100})
    assert forced["tasks"][0]["scale"] == 100 and forced["pass"] is True
    assert compare.evaluate(_s({"t": 0.9}), _s({"t": 0.5}))["pass"] is False


def test_compare_relative_mode():
    ok = compare.evaluate(_s({"a": 0.50}), _s({"a": 0.496}), threshold=0.01, relative=True)  # 0.8 % relative
    assert ok["pass"] and ok["mode"] == "relative"
    bad = compare.evaluate(_s({"a": 0.50}), _s({"a": 0.49}), threshold=0.01, relative=True)  # 2 % relative
    assert bad["decision"] == "REGRESSION"


def test_compare_implausible_gain_is_anomalous():
    gain = compare.evaluate(_s({"a": 0.50}), _s({"a": 0.56}))
    assert (gain["pass"], gain["decision"], gain["failure_class"]) == (False, "ANOMALOUS", "UNKNOWN")
    control = compare.evaluate(_s({"a": 0.50}), _s({"a": 0.55}))  # exactly 5 % of scale: plausible
    assert control["pass"] is True


def test_compare_task_sets_differ_is_sample_accounting_failed():
    v = compare.evaluate({"a": 0.5, "b": 0.5}, {"a": 0.5})
    assert (v["pass"], v["failure_class"], v["decision"]) == (False, "SAMPLE_ACCOUNTING_FAILED", "ANOMALOUS")
    assert "only in baseline ['b']" in v["detail"]
    assert compare.evaluate(_s({"a": 0.5, "b": 0.5}), _s({"a": 0.5, "b": 0.5}))["pass"] is True


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), True, -0.1, 101.0, "0.5", None])
def test_compare_non_finite_boolean_or_out_of_range_score_is_anomalous(bad):
    v = compare.evaluate({"a": 0.5}, {"a": bad})
    assert (v["pass"], v["decision"], v["failure_class"]) == (False, "ANOMALOUS", "UNKNOWN")


def test_compare_stderr_not_below_threshold_is_indeterminate_never_a_pass():
    v = compare.evaluate(_eval({"a": 0.50}, stderr=0.01), _eval({"a": 0.50}, stderr=0.01))
    assert (v["pass"], v["decision"], v["tasks"][0]["status"]) == (False, "INDETERMINATE", "INDETERMINATE")
    assert "add independent runs" in v["detail"] and "a acc: stderr 0.0100" in v["detail"]
    control = compare.evaluate(_eval({"a": 0.50}, stderr=0.0099), _eval({"a": 0.50}, stderr=0.0099))
    assert control["pass"] is True
    # a collapse far beyond threshold + 2 stderr stays a regression even with low power
    collapse = compare.evaluate(_eval({"a": 0.90}, stderr=0.012), _eval({"a": 0.20}, stderr=0.012))
    assert collapse["decision"] == "REGRESSION"


def test_compare_config_parity():
    base, cand = _eval({"a": 0.5}), _eval({"a": 0.5})
    cand["config"]["model_path"] = "/candidate"  # allowed: the checkpoint's identity
    assert compare.evaluate(base, cand)["pass"] is True
    cand["config"]["backend"] = "local-completions"  # not allowed
    v = compare.evaluate(base, cand)
    assert (v["pass"], v["failure_class"], v["decision"]) == (False, "USER_CONFIG_ERROR", "ANOMALOUS")
    assert "backend ('hf' vs 'local-completions')" in v["detail"]


def test_compare_batch_size_parity_only_where_a_task_generates():
    base, cand = _eval({"a": 0.5}), _eval({"a": 0.5})
    cand["config"]["batch_size"] = 8
    assert compare.evaluate(base, cand)["pass"] is True  # loglikelihood scores do not depend on it
    for doc in (base, cand):
        doc["verbosity"] = {"a": [{"samples": 1000, "mean_completion_tokens": 2.0}]}
    v = compare.evaluate(base, cand)
    assert v["failure_class"] == "USER_CONFIG_ERROR" and "batch_size (64 vs 8)" in v["detail"]


def test_compare_bad_scales_and_no_tasks_are_input_errors():
    assert compare.evaluate({"a": 0.5}, {"a": 0.5}, scales={"a": 0})["input_error"] is True
    assert compare.evaluate({"a": 0.5}, {"a": 0.5}, scales=[1])["input_error"] is True
    assert compare.evaluate({}, {})["input_error"] is True
    assert compare.evaluate([1], {"a": 1})["input_error"] is True
    assert "input_error" not in compare.evaluate({"a": 0.5}, {"a": 0.5}, scales={"a": 1})


def test_compare_reads_lm_eval_results_json():
    """A real lm-eval results file (``results`` block, "<metric>,<filter>" keys) is read per task with its
    stderr, not as a map whose top-level keys are tasks (new-user trial)."""

    def doc(acc: float) -> dict:
        return {
            "results": {
                "arc_easy": {
                    "alias": "arc_easy",
                    "acc,none": acc,
                    "acc_stderr,none": 0.004,
                    "acc_norm,none": acc,
                    "acc_norm_stderr,none": 0.004,
                }
            },
            "configs": {"arc_easy": {}},
            "versions": {"arc_easy": 1},
        }

    verdict = compare.evaluate(doc(0.80), doc(0.795))
    assert verdict["pass"] is True and [r["task"] for r in verdict["tasks"]] == ["arc_easy"]
    failed = compare.evaluate(doc(0.80), doc(0.70))  # negative control: a 10-point drop fails
    assert failed["pass"] is False


def test_compare_scores_on_two_scales_are_anomalous():
    """0.5 vs 1.5 is not a 1-point gain on a 0-100 task but two scales mixed (attack trial)."""
    verdict = compare.evaluate({"a": 0.5}, {"a": 1.5})
    assert verdict["pass"] is False and verdict["decision"] == "ANOMALOUS"
    assert (
        compare.evaluate(_s({"a": 50.0}, 0.1), _s({"a": 50.5}, 0.1))["pass"] is True
    )  # negative control: one scale, within


def test_compare_threshold_of_a_whole_scale_is_a_config_error():
    assert compare.evaluate({"a": 0.5}, {"a": 0.1}, threshold=1.5)["failure_class"] == "USER_CONFIG_ERROR"
    assert (
        compare.evaluate(_s({"a": 0.5}), _s({"a": 0.1}), threshold=0.01)["decision"] == "REGRESSION"
    )  # negative control
