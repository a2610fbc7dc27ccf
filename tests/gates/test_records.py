"""Comparable by construction (issue 22, item 1): one normalised record per eval, read from lm-eval 0.4
results JSON and quarkci's own eval result through one reader; ``day0 gate-compare`` refuses a pair that
differs in anything but the model, compares one metric both sides report (named), and never passes a
task without a standard error or with a truncated run.

The lm-eval files under ``tests/fixtures/day0/lm_eval/`` are miniature results files in lm-eval 0.4.13's
shape (baseline arc_easy acc 0.80 +- 0.0082, acc_norm 0.76, over 2,376 samples)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from quarkci.cli import main
from quarkci.gates import compare, records

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "day0" / "lm_eval"


def _doc(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


def _gate(capsys, baseline: str | Path, candidate: str | Path, *extra: str) -> tuple[int, dict]:
    code = main(
        [
            "day0",
            "gate-compare",
            "--baseline",
            str(FIXTURES / baseline if isinstance(baseline, str) else baseline),
            "--candidate",
            str(FIXTURES / candidate if isinstance(candidate, str) else candidate),
            *extra,
        ]
    )
    return code, json.loads(capsys.readouterr().out)


# --- the cases, through the CLI on the fixture files --------------------------------------


def test_runs_that_differ_only_in_the_model_path_are_compared(capsys):
    """pretrained= (and the model's own facts: parameter count) differ: the normal case, ACCEPT."""
    code, verdict = _gate(capsys, "baseline.json", "candidate.json")
    assert (code, verdict["decision"], verdict["failure_class"]) == (0, "ACCEPT", None), verdict["detail"]
    (row,) = verdict["tasks"]
    assert (row["task"], row["metric"], row["baseline"], row["candidate"]) == (
        "arc_easy",
        "acc_norm",
        0.76,
        0.755,
    )
    assert row["stderr"] == 0.0088 and row["samples"] == 2376 and row["status"] == "PASS"
    assert "arc_easy acc_norm" in verdict["detail"] and verdict["format"] == "lm-eval"


@pytest.mark.parametrize(
    ("candidate", "field", "values"),
    [
        ("candidate_5shot.json", "arc_easy.n_shot", "(0 vs 5)"),
        ("candidate_chat_template.json", "chat_template", "(None vs '"),
        ("candidate_fewshot_multiturn.json", "fewshot_as_multiturn", "(False vs True)"),
        ("candidate_task_v2.json", "arc_easy.version", "(1.0 vs 2.0)"),
    ],
)
def test_a_pair_run_differently_is_refused_naming_the_difference(capsys, candidate, field, values):
    code, verdict = _gate(capsys, "baseline.json", candidate)
    assert (code, verdict["decision"], verdict["failure_class"]) == (1, "ANOMALOUS", "USER_CONFIG_ERROR")
    assert [d["field"] for d in verdict["differences"]] == [field]  # that one, nothing else
    assert f"{field} {values}" in verdict["detail"] and "config parity" in verdict["detail"]
    assert verdict["tasks"] == [] and not verdict.get("input_error")


def test_no_stderr_and_a_limit_of_20_is_indeterminate_never_a_pass(capsys):
    code, verdict = _gate(capsys, "baseline_limit20_no_stderr.json", "candidate_limit20_no_stderr.json")
    assert (code, verdict["decision"], verdict["pass"]) == (1, "INDETERMINATE", False)
    (row,) = verdict["tasks"]
    assert row["status"] == "INDETERMINATE" and row["stderr"] is None and row["within"] is True
    assert "no standard error (baseline 'N/A', candidate 'N/A')" in row["reason"]
    assert "both runs truncated (20 of 2376 samples, limit 20)" in row["reason"]


def test_a_metric_only_one_side_reports_is_never_compared_with_another(capsys):
    # baseline reports acc and acc_norm, candidate only acc: acc against acc (0.80 -> 0.755), named
    code, verdict = _gate(capsys, "baseline.json", "candidate_acc_only.json")
    (row,) = verdict["tasks"]
    assert (row["metric"], row["baseline"], row["candidate"]) == ("acc", 0.80, 0.755)
    assert (code, verdict["decision"]) == (1, "REGRESSION") and "arc_easy acc: drop 0.0450" in verdict[
        "detail"
    ]
    # baseline only acc_norm, candidate only acc: nothing in common, refused
    code, verdict = _gate(capsys, "baseline_acc_norm_only.json", "candidate_acc_only.json")
    assert (code, verdict["failure_class"]) == (1, "USER_CONFIG_ERROR")
    assert verdict["differences"] == [
        {"field": "arc_easy.metric", "baseline": "acc_norm", "candidate": "acc"}
    ]


# --- each rule on its own (variants of the fixture, edited here) -----------------------------------


def _pair(tmp_path: Path, edit_baseline=None, edit_candidate=None) -> tuple[Path, Path]:
    base, cand = _doc("baseline.json"), _doc("candidate.json")
    for document, edit in ((base, edit_baseline), (cand, edit_candidate)):
        if edit:
            edit(document)
    paths = tmp_path / "b.json", tmp_path / "c.json"
    for path, document in zip(paths, (base, cand), strict=True):
        path.write_text(json.dumps(document))
    return paths


def _set_stderr(value):
    def edit(document):
        document["results"]["arc_easy"]["acc_norm_stderr,none"] = value

    return edit


def test_stderr_na_on_one_side_alone_is_indeterminate(tmp_path, capsys):
    code, verdict = _gate(capsys, *_pair(tmp_path, edit_candidate=_set_stderr("N/A")))
    assert verdict["decision"] == "INDETERMINATE" and "candidate 'N/A'" in verdict["tasks"][0]["reason"]
    code, verdict = _gate(capsys, *_pair(tmp_path, edit_candidate=_set_stderr(0.0088)))
    assert verdict["decision"] == "ACCEPT"  # negative control


def test_a_truncated_run_is_indeterminate_even_with_a_small_stderr(tmp_path, capsys):
    def truncated(document):
        document["config"]["limit"] = 1188.0
        document["n-samples"]["arc_easy"]["effective"] = 1188
        document["results"]["arc_easy"]["acc_norm_stderr,none"] = 0.0029

    code, verdict = _gate(capsys, *_pair(tmp_path, truncated, truncated))
    assert verdict["decision"] == "INDETERMINATE", verdict["detail"]
    assert "1188 of 2376 samples, limit 1188" in verdict["tasks"][0]["reason"]

    def full_with_limit(document):  # a limit at or above the task's size leaves the whole task: comparable
        document["config"]["limit"] = 5000.0

    code, verdict = _gate(capsys, *_pair(tmp_path, full_with_limit, full_with_limit))
    assert verdict["decision"] == "ACCEPT", verdict["detail"]


def test_a_limit_on_one_side_only_is_a_config_difference(tmp_path, capsys):
    def limit(document):
        document["config"]["limit"] = 20.0

    code, verdict = _gate(capsys, *_pair(tmp_path, edit_candidate=limit))
    assert verdict["failure_class"] == "USER_CONFIG_ERROR" and [
        d["field"] for d in verdict["differences"]
    ] == ["limit"]


def test_dropped_samples_with_the_same_settings_are_sample_accounting(tmp_path, capsys):
    def dropped(document):
        document["n-samples"]["arc_easy"]["effective"] = 2370

    code, verdict = _gate(capsys, *_pair(tmp_path, edit_candidate=dropped))
    assert (verdict["failure_class"], verdict["decision"]) == ("SAMPLE_ACCOUNTING_FAILED", "ANOMALOUS")
    assert "arc_easy: 2376 vs 2370" in verdict["detail"]


@pytest.mark.parametrize(
    ("key", "value", "field"),
    [
        ("model_args", "pretrained=/models/source-fp8,dtype=float16,max_length=2048", "model_args.dtype"),
        (
            "model_args",
            "pretrained=/models/source-fp8,dtype=bfloat16,max_length=4096",
            "model_args.max_length",
        ),
        (
            "model_args",
            "pretrained=/models/source-fp8,dtype=bfloat16,max_length=2048,parallelize=True",
            "model_args.parallelize",
        ),
        ("gen_kwargs", "temperature=0.7,do_sample=True", "sampling.gen_kwargs.do_sample"),
        ("fewshot_seed", 42, "sampling.fewshot_seed"),
        ("device", "cpu", "device"),
        ("model", "vllm", "backend"),
    ],
)
def test_arguments_that_change_results_are_compared(tmp_path, capsys, key, value, field):
    def edit(document):
        document["config"][key] = value

    code, verdict = _gate(capsys, *_pair(tmp_path, edit_candidate=edit))
    assert verdict["failure_class"] == "USER_CONFIG_ERROR", verdict["detail"]
    assert field in [d["field"] for d in verdict["differences"]]


def test_model_identity_and_bookkeeping_are_not_compared(tmp_path, capsys):
    def edit(document):
        config = document["config"]
        config["model_args"] = (
            "pretrained=/elsewhere/quantized,tokenizer=/elsewhere/tok,dtype=bfloat16,max_length=2048"
        )
        config.update(
            model_sha="abc", model_revision="v2", model_num_parameters=1, batch_sizes=[16], use_cache="/c"
        )
        config["bootstrap_iters"] = 1000  # decides only whether a stderr exists, judged per task
        document.update(date=1.0, model_name="other", git_hash="deadbeef", transformers_version="5.17.0")

    code, verdict = _gate(capsys, *_pair(tmp_path, edit_candidate=edit))
    assert verdict["decision"] == "ACCEPT", verdict["detail"]


def test_model_args_as_an_object_equal_the_same_args_as_a_string(tmp_path, capsys):
    def as_object(document):
        document["config"]["model_args"] = {"pretrained": "/x", "dtype": "bfloat16", "max_length": 2048}

    code, verdict = _gate(capsys, *_pair(tmp_path, edit_candidate=as_object))
    assert verdict["decision"] == "ACCEPT", verdict["detail"]


def test_batch_size_is_compared_only_where_a_task_generates(tmp_path, capsys):
    def batch(document):
        document["config"]["batch_size"] = "64"

    code, verdict = _gate(capsys, *_pair(tmp_path, edit_candidate=batch))
    assert verdict["decision"] == "ACCEPT"  # loglikelihood: batch size does not change the scores

    def generating(document):
        document["configs"]["arc_easy"]["output_type"] = "generate_until"

    def generating_batch(document):
        generating(document)
        batch(document)

    code, verdict = _gate(capsys, *_pair(tmp_path, generating, generating_batch))
    assert [d["field"] for d in verdict["differences"]] == ["batch_size"]


def test_prompts_that_differ_are_a_difference(tmp_path, capsys):
    def hashes(value):
        def edit(document):
            document["task_hashes"] = {"arc_easy": value}

        return edit

    code, verdict = _gate(capsys, *_pair(tmp_path, hashes("a" * 64), hashes("b" * 64)))
    assert [d["field"] for d in verdict["differences"]] == ["arc_easy.prompts"]
    code, verdict = _gate(capsys, *_pair(tmp_path, hashes("a" * 64), hashes("a" * 64)))
    assert verdict["decision"] == "ACCEPT"


def test_a_quarkci_result_against_an_lm_eval_file_is_refused(tmp_path, capsys):
    quarkci = tmp_path / "q.json"
    quarkci.write_text(
        json.dumps(
            {
                "tasks": {
                    "arc_easy": {
                        "metric": "acc_norm",
                        "score": 0.755,
                        "stderr": 0.0088,
                        "samples": 2376,
                        "expected_samples": 2376,
                    }
                }
            }
        )
    )
    code, verdict = _gate(capsys, "baseline.json", quarkci)
    assert verdict["differences"] == [{"field": "format", "baseline": "lm-eval", "candidate": "quarkci"}]


# --- quarkci's own format through the same reader -------------------------------------------------


def _quarkci(score: float, **task) -> dict:
    entry = {
        "metric": "acc",
        "score": score,
        "stderr": 0.002,
        "samples": 1000,
        "expected_samples": 1000,
        "failed_requests": 0,
        "version": 1.0,
        "n_shot": 0,
        "output_type": "multiple_choice",
        **task,
    }
    config = {"backend": "hf", "model_path": "/src", "dtype": "float32", "sampling": {"seed": 0}}
    return {"tasks": {"t": entry}, "config": config}


def test_quarkci_results_read_through_the_same_record():
    base, cand = _quarkci(0.5), _quarkci(0.5)
    cand["config"]["model_path"] = "/candidate"
    assert compare.evaluate(base, cand)["decision"] == "ACCEPT"
    for edit, field in (
        (lambda d: d["tasks"]["t"].update(n_shot=5), "t.n_shot"),
        (lambda d: d["tasks"]["t"].update(version=2), "t.version"),
        (lambda d: d["tasks"]["t"].update(metric="exact_match"), "t.metric"),
        (lambda d: d["config"]["sampling"].update(seed=1), "sampling.seed"),
        (lambda d: d["config"].update(dtype="bfloat16"), "dtype"),
    ):
        changed = copy.deepcopy(cand)
        edit(changed)
        verdict = compare.evaluate(base, changed)
        assert verdict["failure_class"] == "USER_CONFIG_ERROR" and [
            d["field"] for d in verdict["differences"]
        ] == [field], verdict["detail"]
    truncated = _quarkci(0.5, samples=20)
    assert compare.evaluate(truncated, copy.deepcopy(truncated))["decision"] == "INDETERMINATE"


def test_one_reader_for_both_formats(tmp_path):
    path = tmp_path / "q.json"
    path.write_text(json.dumps(_quarkci(0.5)))
    _, record = records.load_record(path)
    assert record is not None and record.format == "quarkci" and record.tasks["t"].n_shot == 0.0
    _, record = records.load_record(FIXTURES / "baseline_limit20_no_stderr.json")
    assert record is not None and record.format == "lm-eval"
    task = record.tasks["arc_easy"]
    assert (task.samples, task.original_samples, task.truncated, record.limit) == (20, 2376, True, 20.0)
    assert task.metrics["acc,none"].stderr is None and task.metrics["acc,none"].stderr_raw == "N/A"
    assert (
        "model_args.pretrained" not in record.settings and record.settings["model_args.dtype"] == "bfloat16"
    )


def test_an_unreadable_or_unknown_file_is_bad_input(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"results": [1, 2]}')
    code, verdict = _gate(capsys, "baseline.json", bad)
    assert code == 2 and verdict["input_error"] is True
    code, verdict = _gate(capsys, "baseline.json", tmp_path / "missing.json")
    assert code == 2 and "--candidate" in verdict["detail"]
