"""The day-0 gates on planted JSON: every failure class with a negative control, through the library and
the CLI (exit 0 pass / 1 fail / 2 unreadable)."""

from __future__ import annotations

import json

import pytest

from quarkci.cli import main
from quarkci.day0 import gates


def _eval(scores: dict, stderr: float = 0.002, n: int = 1000, **task_extra) -> dict:
    return {
        "tasks": {
            t: {
                "score": s,
                "stderr": stderr,
                "samples": n,
                "expected_samples": n,
                "failed_requests": 0,
                "metric": "acc",
                **task_extra,
            }
            for t, s in scores.items()
        },
        "config": {"backend": "hf", "model_path": "/src", "tasks": sorted(scores), "batch_size": 64},
    }


# --- compare --------------------------------------------------------------------------------------


def _s(scores: dict, stderr: float = 0.001) -> dict:
    """A bare score map whose scores carry a standard error (without one nothing can pass)."""
    return {t: {"score": s, "stderr": stderr} for t, s in scores.items()}


def test_compare_without_a_standard_error_is_never_a_pass():
    """A bare {task: score} map has no standard error: within or past the threshold, INDETERMINATE."""
    for candidate in (0.50, 0.49, 0.30):
        v = gates.compare({"a": 0.50}, {"a": candidate})
        assert (v["pass"], v["decision"]) == (False, "INDETERMINATE"), candidate
        assert "no standard error" in v["tasks"][0]["reason"]
    assert gates.compare(_s({"a": 0.50}), _s({"a": 0.49}))["decision"] == "ACCEPT"  # negative control


def test_compare_threshold_is_inclusive_on_the_boundary():
    on = gates.compare(_s({"a": 0.50}), _s({"a": 0.49}), threshold=0.01)
    assert on["pass"] is True and on["tasks"][0]["within"] is True and on["decision"] == "ACCEPT"
    past = gates.compare(_s({"a": 0.50}), _s({"a": 0.4899}), threshold=0.01)  # negative control
    assert past["pass"] is False and past["decision"] == "REGRESSION" and past["failure_class"] is None
    assert "a score: drop 0.0101" in past["detail"]


def test_compare_scale_rule_0_100_and_explicit_scales():
    pct = gates.compare(_s({"gsm8k": 80.0}, 0.1), _s({"gsm8k": 79.0}, 0.1))
    assert (
        pct["tasks"][0]["scale"] == 100.0 and pct["tasks"][0]["drop"] == pytest.approx(0.01) and pct["pass"]
    )
    worse = gates.compare(_s({"gsm8k": 80.0}, 0.1), _s({"gsm8k": 78.9}, 0.1))
    assert worse["decision"] == "REGRESSION"
    # a 0-100 task whose scores happen to lie in [0, 1]: only --scales tells the truth
    forced = gates.compare(_s({"t": 0.9}), _s({"t": 0.5}), scales={"t": 100})
    assert forced["tasks"][0]["scale"] == 100 and forced["pass"] is True
    assert gates.compare(_s({"t": 0.9}), _s({"t": 0.5}))["pass"] is False


def test_compare_relative_mode():
    ok = gates.compare(_s({"a": 0.50}), _s({"a": 0.496}), threshold=0.01, relative=True)  # 0.8 % relative
    assert ok["pass"] and ok["mode"] == "relative"
    bad = gates.compare(_s({"a": 0.50}), _s({"a": 0.49}), threshold=0.01, relative=True)  # 2 % relative
    assert bad["decision"] == "REGRESSION"


def test_compare_implausible_gain_is_anomalous():
    gain = gates.compare(_s({"a": 0.50}), _s({"a": 0.56}))
    assert (gain["pass"], gain["decision"], gain["failure_class"]) == (False, "ANOMALOUS", "UNKNOWN")
    control = gates.compare(_s({"a": 0.50}), _s({"a": 0.55}))  # exactly 5 % of scale: plausible
    assert control["pass"] is True


def test_compare_task_sets_differ_is_sample_accounting_failed():
    v = gates.compare({"a": 0.5, "b": 0.5}, {"a": 0.5})
    assert (v["pass"], v["failure_class"], v["decision"]) == (False, "SAMPLE_ACCOUNTING_FAILED", "ANOMALOUS")
    assert "only in baseline ['b']" in v["detail"]
    assert gates.compare(_s({"a": 0.5, "b": 0.5}), _s({"a": 0.5, "b": 0.5}))["pass"] is True


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), True, -0.1, 101.0, "0.5", None])
def test_compare_non_finite_boolean_or_out_of_range_score_is_anomalous(bad):
    v = gates.compare({"a": 0.5}, {"a": bad})
    assert (v["pass"], v["decision"], v["failure_class"]) == (False, "ANOMALOUS", "UNKNOWN")


def test_compare_stderr_not_below_threshold_is_indeterminate_never_a_pass():
    v = gates.compare(_eval({"a": 0.50}, stderr=0.01), _eval({"a": 0.50}, stderr=0.01))
    assert (v["pass"], v["decision"], v["tasks"][0]["status"]) == (False, "INDETERMINATE", "INDETERMINATE")
    assert "add independent runs" in v["detail"] and "a acc: stderr 0.0100" in v["detail"]
    control = gates.compare(_eval({"a": 0.50}, stderr=0.0099), _eval({"a": 0.50}, stderr=0.0099))
    assert control["pass"] is True
    # a collapse far beyond threshold + 2 stderr stays a regression even with low power
    collapse = gates.compare(_eval({"a": 0.90}, stderr=0.012), _eval({"a": 0.20}, stderr=0.012))
    assert collapse["decision"] == "REGRESSION"


def test_compare_config_parity():
    base, cand = _eval({"a": 0.5}), _eval({"a": 0.5})
    cand["config"]["model_path"] = "/candidate"  # allowed: the checkpoint's identity
    assert gates.compare(base, cand)["pass"] is True
    cand["config"]["backend"] = "local-completions"  # not allowed
    v = gates.compare(base, cand)
    assert (v["pass"], v["failure_class"], v["decision"]) == (False, "USER_CONFIG_ERROR", "ANOMALOUS")
    assert "backend ('hf' vs 'local-completions')" in v["detail"]


def test_compare_batch_size_parity_only_where_a_task_generates():
    base, cand = _eval({"a": 0.5}), _eval({"a": 0.5})
    cand["config"]["batch_size"] = 8
    assert gates.compare(base, cand)["pass"] is True  # loglikelihood scores do not depend on it
    for doc in (base, cand):
        doc["verbosity"] = {"a": [{"samples": 1000, "mean_completion_tokens": 2.0}]}
    v = gates.compare(base, cand)
    assert v["failure_class"] == "USER_CONFIG_ERROR" and "batch_size (64 vs 8)" in v["detail"]


def test_compare_bad_scales_and_no_tasks_are_input_errors():
    assert gates.compare({"a": 0.5}, {"a": 0.5}, scales={"a": 0})["input_error"] is True
    assert gates.compare({"a": 0.5}, {"a": 0.5}, scales=[1])["input_error"] is True
    assert gates.compare({}, {})["input_error"] is True
    assert gates.compare([1], {"a": 1})["input_error"] is True
    assert "input_error" not in gates.compare({"a": 0.5}, {"a": 0.5}, scales={"a": 1})


# --- verbosity ------------------------------------------------------------------------------------


def _verb(**tasks) -> dict:
    return {
        "verbosity": {
            t: [{"samples": n, "mean_completion_tokens": m} for n, m in runs] for t, runs in tasks.items()
        }
    }


def test_verbosity_two_sided_threshold():
    assert gates.verbosity(_verb(g=[(100, 100.0)]), _verb(g=[(100, 105.0)]))["pass"] is True
    longer = gates.verbosity(_verb(g=[(100, 100.0)]), _verb(g=[(100, 105.1)]))
    shorter = gates.verbosity(_verb(g=[(100, 100.0)]), _verb(g=[(100, 94.9)]))
    assert longer["failure_class"] == shorter["failure_class"] == "VERBOSITY_EXCEEDED"


def test_verbosity_compares_only_matched_sample_counts_and_lists_the_rest():
    # a truncated candidate run (50 samples) reads +9.6 %; the matched complete runs read +1.7 %
    base = _verb(g=[(1000, 100.0)], h=[(100, 10.0)])
    cand = _verb(g=[(50, 109.6), (995, 101.7)], h=[(90, 10.0)])
    v = gates.verbosity(base, cand)
    assert v["pass"] is True and v["tasks"][0]["candidate_samples"] == 995
    assert v["not_measured"] == ["h"] and "not measured: h" in v["detail"]
    only_truncated = gates.verbosity(_verb(g=[(1000, 100.0)]), _verb(g=[(50, 109.6)]))
    assert only_truncated["failure_class"] == "SAMPLE_ACCOUNTING_FAILED"


def test_verbosity_nothing_harvested_is_user_config_error():
    v = gates.verbosity({"verbosity": {}}, {"tasks": {}})
    assert (v["failure_class"], v.get("input_error")) == ("USER_CONFIG_ERROR", True)
    assert "input_error" not in gates.verbosity(_verb(g=[(10, 1.0)]), _verb(g=[(10, 1.0)]))


# --- run (completeness) ---------------------------------------------------------------------------


def test_run_gate_complete_and_each_failure_class():
    assert gates.run_complete(_eval({"a": 0.5}))["pass"] is True
    failed = _eval({"a": 0.5}, failed_requests=3)
    assert gates.run_complete(failed)["failure_class"] == "INFRA_TRANSIENT"
    short = _eval({"a": 0.5})
    short["tasks"]["a"]["samples"] = 999
    assert gates.run_complete(short)["failure_class"] == "SAMPLE_ACCOUNTING_FAILED"
    nan = _eval({"a": float("nan")})
    assert gates.run_complete(nan)["failure_class"] == "UNKNOWN"
    for cls in ("INFRA_TRANSIENT", "DEPLOYMENT_HEALTH_FAILED", "EVAL_JUDGE_FAILED"):
        errored = {**_eval({"a": 0.5}), "error": {"failure_class": cls, "message": "boom"}}
        assert gates.run_complete(errored)["failure_class"] == cls
    odd = {**_eval({"a": 0.5}), "error": {"failure_class": "MADE_UP", "message": "?"}}
    assert gates.run_complete(odd)["failure_class"] == "UNKNOWN"
    assert gates.run_complete({"tasks": {}})["input_error"] is True
    assert gates.run_complete({"nope": 1})["input_error"] is True


# --- CLI ------------------------------------------------------------------------------------------


def _write(tmp_path, name, doc) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def test_cli_gate_compare_exit_codes(tmp_path, capsys):
    b = _write(tmp_path, "b.json", _s({"a": 0.5}))
    assert (
        main(
            [
                "day0",
                "gate-compare",
                "--baseline",
                b,
                "--candidate",
                _write(tmp_path, "c.json", _s({"a": 0.49})),
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["pass"] is True
    assert (
        main(
            [
                "day0",
                "gate-compare",
                "--baseline",
                b,
                "--candidate",
                _write(tmp_path, "d.json", _s({"a": 0.3})),
            ]
        )
        == 1
    )
    assert json.loads(capsys.readouterr().out)["decision"] == "REGRESSION"
    (tmp_path / "bad.json").write_text("{not json")
    assert main(["day0", "gate-compare", "--baseline", b, "--candidate", str(tmp_path / "bad.json")]) == 2
    out = capsys.readouterr()
    assert json.loads(out.out)["failure_class"] == "USER_CONFIG_ERROR" and "invalid JSON" in out.err
    assert main(["day0", "gate-compare", "--baseline", b, "--candidate", b, "--scales", "{x"]) == 2
    capsys.readouterr()
    assert (
        main(
            [
                "day0",
                "gate-compare",
                "--baseline",
                b,
                "--candidate",
                b,
                "--scales",
                '{"a": 1}',
                "--relative",
                "--threshold",
                "0.02",
            ]
        )
        == 0
    )


def test_cli_gate_verbosity_and_gate_run(tmp_path, capsys):
    b = _write(tmp_path, "b.json", _verb(g=[(100, 10.0)]))
    assert main(["day0", "gate-verbosity", "--baseline", b, "--candidate", b]) == 0
    c = _write(tmp_path, "c.json", _verb(g=[(100, 12.0)]))
    assert main(["day0", "gate-verbosity", "--baseline", b, "--candidate", c]) == 1
    empty = _write(tmp_path, "e.json", {"verbosity": {}})
    assert main(["day0", "gate-verbosity", "--baseline", empty, "--candidate", empty]) == 2
    capsys.readouterr()
    assert main(["day0", "gate-run", "--results", _write(tmp_path, "r.json", _eval({"a": 0.5}))]) == 0
    assert (
        main(
            [
                "day0",
                "gate-run",
                "--results",
                _write(tmp_path, "f.json", _eval({"a": 0.5}, failed_requests=1)),
            ]
        )
        == 1
    )
    assert main(["day0", "gate-run", "--results", str(tmp_path / "missing.json")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_compare_reads_lm_eval_results_json():
    """A real lm-eval results file (``results`` block, "<metric>,<filter>" keys) is read per task with its
    stderr, not as a map whose top-level keys are tasks (new-user trial)."""
    from quarkci.day0.gates import compare

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

    verdict = compare(doc(0.80), doc(0.795))
    assert verdict["pass"] is True and [r["task"] for r in verdict["tasks"]] == ["arc_easy"]
    failed = compare(doc(0.80), doc(0.70))  # negative control: a 10-point drop fails
    assert failed["pass"] is False


def test_compare_scores_on_two_scales_are_anomalous():
    """0.5 vs 1.5 is not a 1-point gain on a 0-100 task but two scales mixed (attack trial)."""
    from quarkci.day0.gates import compare

    verdict = compare({"a": 0.5}, {"a": 1.5})
    assert verdict["pass"] is False and verdict["decision"] == "ANOMALOUS"
    assert (
        compare(_s({"a": 50.0}, 0.1), _s({"a": 50.5}, 0.1))["pass"] is True
    )  # negative control: one scale, within


def test_run_gate_refuses_counts_that_do_not_add_up():
    """More samples than expected, negative or string counts are SAMPLE_ACCOUNTING_FAILED (attack trial)."""
    from quarkci.day0.gates import run_complete

    def result(**entry):
        return {
            "tasks": {
                "a": {"samples": 100, "expected_samples": 100, "failed_requests": 0, "score": 0.5, **entry}
            }
        }

    for bad in ({"samples": 200}, {"failed_requests": -3}, {"failed_requests": "5"}, {"samples": "100"}):
        verdict = run_complete(result(**bad))
        assert verdict["pass"] is False and verdict["failure_class"] == "SAMPLE_ACCOUNTING_FAILED", bad
    assert run_complete(result())["pass"] is True  # negative control


def test_compare_threshold_of_a_whole_scale_is_a_config_error():
    from quarkci.day0.gates import compare

    assert compare({"a": 0.5}, {"a": 0.1}, threshold=1.5)["failure_class"] == "USER_CONFIG_ERROR"
    assert (
        compare(_s({"a": 0.5}), _s({"a": 0.1}), threshold=0.01)["decision"] == "REGRESSION"
    )  # negative control
