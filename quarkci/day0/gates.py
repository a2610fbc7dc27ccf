"""The day-0 gates on JSON documents: pure, hermetic, standard library only.

Each gate returns a verdict ``{"gate", "pass", "failure_class", "detail", ...}`` and never raises on a
document it was given; a document it cannot judge at all (nothing to compare, malformed scales) is a
``USER_CONFIG_ERROR`` verdict with ``"input_error": true`` (the command exits 2 for it). Semantics follow
the reference day-0 design (NVIDIA Model-Optimizer's public ``day0-release`` gates, facts in
``DAY0_NOTES``):

``compare`` (accuracy)
    scale per task: 1.0 when both scores lie in [0, 1], else 100.0 (or ``scales[task]``); drop =
    (baseline - candidate) / scale (absolute, default) or / baseline (relative); ``within`` = drop <=
    threshold (inclusive). Anomalies first, in order: bad scales (input error) -> task sets differ
    (SAMPLE_ACCOUNTING_FAILED) -> no tasks (input error) -> non-finite, boolean or out-of-range score
    (ANOMALOUS) -> candidate better by more than 5 % of scale (ANOMALOUS). Then power: a task whose
    standard error (the larger side, on the drop's scale) is not below the threshold is INDETERMINATE
    -- unless its drop exceeds the threshold by more than two standard errors, which is a regression
    whatever the power (quarkci's addition: a collapse is never reported as merely "indeterminate").
    Config parity: when both documents carry ``config``, they may differ only in
    :data:`PARITY_EXEMPT` keys; anything else is a USER_CONFIG_ERROR (decision ANOMALOUS).
``verbosity``
    per generate task the mean completion tokens, two-sided ``|c - b| / b <= threshold`` (0.05); only
    runs whose sample counts match within 1 % are compared (the largest such pair). Any task over the
    threshold -> VERBOSITY_EXCEEDED; nothing comparable -> SAMPLE_ACCOUNTING_FAILED; nothing harvested
    -> USER_CONFIG_ERROR (input error). A pass lists the tasks not measured.
``run`` (completeness of one eval)
    a recorded infrastructure error -> its class (INFRA_TRANSIENT, DEPLOYMENT_HEALTH_FAILED,
    EVAL_JUDGE_FAILED); failed requests -> INFRA_TRANSIENT; fewer samples than expected ->
    SAMPLE_ACCOUNTING_FAILED; a missing or non-finite score -> UNKNOWN; no tasks -> input error.

Input shapes (the eval result written by :mod:`quarkci.day0.evaluate`, or planted by hand)::

    {"tasks": {"<task>": {"score": 0.93, "stderr": 0.004, "samples": 1000, "expected_samples": 1000,
                          "failed_requests": 0, "metric": "acc"}},
     "verbosity": {"<task>": [{"samples": 100, "mean_completion_tokens": 2.1}]},
     "config": {...}, "error": null | {"failure_class": "INFRA_TRANSIENT", "message": "..."}}

``compare`` also takes a bare ``{task: score}`` map.
"""

from __future__ import annotations

import math
from typing import Any

from quarkci.core.failure_class import FailureClass

DEFAULT_THRESHOLD = 0.01
DEFAULT_VERBOSITY_THRESHOLD = 0.05
IMPLAUSIBLE_GAIN = 0.05  # fraction of the task's scale
SAMPLE_MATCH = 0.01  # sample counts "match" within 1 %
POWER_SIGMAS = 2.0
EPS = 1e-9  # float slack for the inclusive boundaries (0.50 - 0.49 is 0.010000000000000009 in binary)
# keys of an eval config that may differ between baseline and candidate (the checkpoint's identity)
PARITY_EXEMPT = frozenset({"model_path", "pretrained", "served_name", "checkpoint_sha256", "model_name"})
RUN_ERROR_CLASSES = frozenset(
    {
        FailureClass.INFRA_TRANSIENT,
        FailureClass.DEPLOYMENT_HEALTH_FAILED,
        FailureClass.EVAL_JUDGE_FAILED,
        FailureClass.SYSTEMIC,
    }
)

Verdict = dict[str, Any]


def _verdict(gate: str, passed: bool, cls: FailureClass | None, detail: str, **extra: Any) -> Verdict:
    return {
        "gate": gate,
        "pass": passed,
        "failure_class": cls.value if cls else None,
        "detail": detail,
        **extra,
    }


def _input_error(gate: str, detail: str, **extra: Any) -> Verdict:
    return _verdict(gate, False, FailureClass.USER_CONFIG_ERROR, detail, input_error=True, **extra)


def _number(value: Any) -> float | None:
    """A real, finite number (booleans are not scores), else ``None``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


# --- compare ---------------------------------------------------------------------------------------


def _drop(baseline: float, candidate: float, scale: float, relative: bool) -> float:
    """(baseline - candidate) / baseline when ``relative`` (a zero baseline: 0, or -inf for any gain),
    else / scale."""
    if not relative:
        return (baseline - candidate) / scale
    if baseline > 0:
        return (baseline - candidate) / baseline
    return 0.0 if candidate == 0 else -math.inf


def _scores(document: Any) -> dict[str, tuple[Any, Any]] | None:
    """``{task: (score, stderr)}`` from an eval result or a bare ``{task: score}`` map (raw values,
    judged later); ``None`` when the document has neither shape."""
    if not isinstance(document, dict):
        return None
    if isinstance(document.get("results"), dict) and "tasks" not in document:
        return _lm_eval_scores(document["results"])
    tasks: dict[str, Any] = document["tasks"] if isinstance(document.get("tasks"), dict) else document
    out: dict[str, tuple[Any, Any]] = {}
    for name, entry in tasks.items():
        if isinstance(entry, dict):
            out[str(name)] = (entry.get("score"), entry.get("stderr"))
        else:
            out[str(name)] = (entry, None)
    return out


# lm-eval's metric keys are "<metric>,<filter>" with the standard error under "<metric>_stderr,<filter>"; the
# first metric of this list that a task reports is its score (lm-eval 0.4 results JSON, "results" block).
LM_EVAL_METRICS = ("acc_norm", "acc", "exact_match", "f1", "em")


def _lm_eval_scores(results: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """``{task: (score, stderr)}`` from an lm-eval results block (``{"arc_easy": {"acc,none": 0.8,
    "acc_stderr,none": 0.01, ...}}``); a task with none of :data:`LM_EVAL_METRICS` gets ``(None, None)``,
    which the compare gate reports as an unreadable score."""
    out: dict[str, tuple[Any, Any]] = {}
    for task, metrics in results.items():
        score: Any = None
        stderr: Any = None
        if isinstance(metrics, dict):
            for metric in LM_EVAL_METRICS:
                key = next((k for k in sorted(metrics) if k.split(",")[0] == metric), None)
                if key is not None:
                    score = metrics[key]
                    stderr = metrics.get(key.replace(metric, f"{metric}_stderr", 1))
                    break
        out[str(task)] = (score, stderr if isinstance(stderr, int | float) else None)
    return out


def _parity(baseline: Any, candidate: Any) -> list[str]:
    """Keys (dotted) whose values differ between the two eval configs, outside :data:`PARITY_EXEMPT`."""
    if not (isinstance(baseline, dict) and isinstance(candidate, dict)):
        return []
    b_cfg, c_cfg = baseline.get("config"), candidate.get("config")
    if not (isinstance(b_cfg, dict) and isinstance(c_cfg, dict)):
        return []

    def diff(b: dict[str, Any], c: dict[str, Any], prefix: str) -> list[str]:
        out = []
        for key in sorted(set(b) | set(c)):
            if key in PARITY_EXEMPT:
                continue
            bv, cv = b.get(key), c.get(key)
            if isinstance(bv, dict) and isinstance(cv, dict):
                out += diff(bv, cv, f"{prefix}{key}.")
            elif bv != cv:
                out.append(f"{prefix}{key}")
        return out

    return diff(b_cfg, c_cfg, "")


def compare(
    baseline: Any,
    candidate: Any,
    threshold: float = DEFAULT_THRESHOLD,
    relative: bool = False,
    scales: Any = None,
) -> Verdict:
    """The accuracy gate (see the module docstring). Returns a verdict with ``decision``
    (ACCEPT | REGRESSION | ANOMALOUS | INDETERMINATE), ``tasks`` (one row per task: baseline,
    candidate, scale, delta, drop, stderr, within, status) and the settings used."""
    gate = "compare"
    settings = {"threshold": threshold, "mode": "relative" if relative else "absolute"}
    if (
        _number(threshold) is None or not 0 <= threshold < 1
    ):  # a drop of a whole scale or more: every drop passes
        return _input_error(
            gate, f"threshold must be a finite number in [0, 1), not {threshold!r}", **settings
        )
    if scales is not None and (
        not isinstance(scales, dict) or any((s := _number(v)) is None or s <= 0 for v in scales.values())
    ):
        return _input_error(gate, "scales must be a JSON object of task -> positive number", **settings)
    base, cand = _scores(baseline), _scores(candidate)
    if base is None or cand is None:
        which = "baseline" if base is None else "candidate"
        return _input_error(gate, f"{which} is not a score map or an eval result", **settings)
    if set(base) != set(cand):
        only_b, only_c = sorted(set(base) - set(cand)), sorted(set(cand) - set(base))
        return _verdict(
            gate,
            False,
            FailureClass.SAMPLE_ACCOUNTING_FAILED,
            f"task sets differ: only in baseline {only_b}, only in candidate {only_c}",
            decision="ANOMALOUS",
            tasks=[],
            **settings,
        )
    if not base:
        return _input_error(gate, "no tasks to compare", **settings)
    mismatch = _parity(baseline, candidate)
    if mismatch:
        return _verdict(
            gate,
            False,
            FailureClass.USER_CONFIG_ERROR,
            f"config parity: baseline and candidate eval configs differ in {', '.join(mismatch)} "
            "(only the model path / served name may differ)",
            decision="ANOMALOUS",
            tasks=[],
            **settings,
        )

    rows, anomalies = [], []
    for task in sorted(base):
        (b_raw, b_se), (c_raw, c_se) = base[task], cand[task]
        b, c = _number(b_raw), _number(c_raw)
        scale = _number((scales or {}).get(task)) or (
            1.0 if b is not None and c is not None and 0 <= b <= 1 and 0 <= c <= 1 else 100.0
        )
        mixed = (
            task not in (scales or {}) and b is not None and c is not None and (0 <= b <= 1) != (0 <= c <= 1)
        )  # one side a 0-1 fraction, the other not: two scales
        if b is None or c is None or mixed or not (0 <= b <= scale and 0 <= c <= scale):
            anomalies.append(
                f"{task}: score not a finite number in [0, {scale:g}] "
                f"(baseline {b_raw!r}, candidate {c_raw!r})"
            )
            rows.append(
                {
                    "task": task,
                    "baseline": b,
                    "candidate": c,
                    "scale": scale,
                    "delta": None,
                    "drop": None,
                    "stderr": None,
                    "within": False,
                    "status": "ANOMALOUS",
                }
            )
            continue
        delta = c - b
        drop = _drop(b, c, scale, relative)
        se_values = [s for s in (_number(b_se), _number(c_se)) if s is not None]
        stderr = max(se_values) if se_values else None
        se_norm = None if stderr is None else (stderr / b if relative and b > 0 else stderr / scale)
        within = drop <= threshold + EPS
        if delta > IMPLAUSIBLE_GAIN * scale + EPS:
            status = "ANOMALOUS"
            anomalies.append(
                f"{task}: candidate better by {delta:g} (> {IMPLAUSIBLE_GAIN:.0%} of scale {scale:g})"
            )
        elif (
            se_norm is not None
            and not se_norm < threshold
            and not (drop - POWER_SIGMAS * se_norm > threshold + EPS)
        ):
            status = "INDETERMINATE"
        else:
            status = "PASS" if within else "REGRESSION"
        rows.append(
            {
                "task": task,
                "baseline": b,
                "candidate": c,
                "scale": scale,
                "delta": round(delta, 10),
                "drop": round(drop, 10) if math.isfinite(drop) else None,
                "stderr": stderr,
                "within": within,
                "status": status,
            }
        )

    regressed = [r for r in rows if r["status"] == "REGRESSION"]
    undecided = [r for r in rows if r["status"] == "INDETERMINATE"]
    if anomalies:
        return _verdict(
            gate,
            False,
            FailureClass.UNKNOWN,
            "anomalous scores: " + "; ".join(anomalies),
            decision="ANOMALOUS",
            tasks=rows,
            **settings,
        )
    if regressed:
        what = "; ".join(f"{r['task']}: drop {r['drop']:.4f} > {threshold}" for r in regressed)
        return _verdict(
            gate, False, None, f"regression: {what}", decision="REGRESSION", tasks=rows, **settings
        )
    if undecided:
        what = "; ".join(
            f"{r['task']}: stderr {r['stderr']:.4f} not below threshold {threshold}" for r in undecided
        )
        return _verdict(
            gate,
            False,
            None,
            f"indeterminate (add independent runs): {what}",
            decision="INDETERMINATE",
            tasks=rows,
            **settings,
        )
    return _verdict(
        gate,
        True,
        None,
        f"{len(rows)} task(s) within {threshold} ({settings['mode']})",
        decision="ACCEPT",
        tasks=rows,
        **settings,
    )


# --- verbosity -------------------------------------------------------------------------------------


def _runs(document: Any) -> dict[str, list[tuple[int, float]]]:
    """``{task: [(samples, mean_completion_tokens), ...]}`` of valid runs in ``document["verbosity"]``
    (a run dict or a list of them per task)."""
    section = document.get("verbosity") if isinstance(document, dict) else None
    out: dict[str, list[tuple[int, float]]] = {}
    if not isinstance(section, dict):
        return out
    for task, runs in section.items():
        for run in runs if isinstance(runs, list) else [runs]:
            if not isinstance(run, dict):
                continue
            n, mean = run.get("samples"), _number(run.get("mean_completion_tokens"))
            if isinstance(n, int) and not isinstance(n, bool) and n > 0 and mean is not None and mean >= 0:
                out.setdefault(str(task), []).append((n, mean))
    return out


def _matched(
    b_runs: list[tuple[int, float]], c_runs: list[tuple[int, float]]
) -> tuple[tuple[int, float], tuple[int, float]] | None:
    """The pair of runs with the largest sample count whose counts match within :data:`SAMPLE_MATCH`."""
    pairs = [(b, c) for b in b_runs for c in c_runs if abs(b[0] - c[0]) <= SAMPLE_MATCH * max(b[0], c[0])]
    return max(pairs, key=lambda p: min(p[0][0], p[1][0])) if pairs else None


def verbosity(baseline: Any, candidate: Any, threshold: float = DEFAULT_VERBOSITY_THRESHOLD) -> Verdict:
    """The verbosity gate (see the module docstring). ``tasks`` rows: task, baseline/candidate mean
    completion tokens and samples, change (fraction), within; ``not_measured`` lists the rest."""
    gate = "verbosity"
    if _number(threshold) is None or threshold < 0:
        return _input_error(
            gate, f"threshold must be a finite number >= 0, not {threshold!r}", threshold=threshold
        )
    b_runs, c_runs = _runs(baseline), _runs(candidate)
    if not b_runs and not c_runs:
        return _input_error(
            gate, "nothing harvested: no completion-token counts on either side", threshold=threshold
        )
    rows, not_measured = [], []
    for task in sorted(set(b_runs) | set(c_runs)):
        pair = _matched(b_runs.get(task, []), c_runs.get(task, []))
        if pair is None:
            not_measured.append(task)
            continue
        (bn, bm), (cn, cm) = pair
        change = (cm - bm) / bm if bm > 0 else (0.0 if cm == 0 else math.inf)
        within = abs(change) <= threshold + EPS
        rows.append(
            {
                "task": task,
                "baseline_tokens": bm,
                "candidate_tokens": cm,
                "baseline_samples": bn,
                "candidate_samples": cn,
                "change": round(change, 6) if math.isfinite(change) else None,
                "within": within,
            }
        )
    extra = {"threshold": threshold, "tasks": rows, "not_measured": not_measured}
    if not rows:
        return _verdict(
            gate,
            False,
            FailureClass.SAMPLE_ACCOUNTING_FAILED,
            f"nothing comparable: no task has runs whose sample counts match within {SAMPLE_MATCH:.0%} "
            f"({', '.join(not_measured)})",
            **extra,
        )
    over = [r for r in rows if not r["within"]]
    if over:
        what = "; ".join(
            f"{r['task']}: {r['baseline_tokens']:.3f} -> {r['candidate_tokens']:.3f} tokens" for r in over
        )
        return _verdict(
            gate, False, FailureClass.VERBOSITY_EXCEEDED, f"over +/-{threshold:.0%}: {what}", **extra
        )
    tail = f"; not measured: {', '.join(not_measured)}" if not_measured else ""
    return _verdict(gate, True, None, f"{len(rows)} task(s) within +/-{threshold:.0%}{tail}", **extra)


# --- run (completeness) ----------------------------------------------------------------------------


def run_complete(results: Any) -> Verdict:
    """The completeness gate of one eval result (see the module docstring). ``tasks`` rows: task,
    samples, expected_samples, failed_requests, score, status."""
    gate = "run"
    if not isinstance(results, dict) or not isinstance(results.get("tasks"), dict):
        return _input_error(gate, "not an eval result: no 'tasks' object")
    error = results.get("error")
    if isinstance(error, dict):
        try:
            recorded = FailureClass(str(error.get("failure_class")))
        except ValueError:
            recorded = FailureClass.UNKNOWN
        if recorded not in RUN_ERROR_CLASSES:
            recorded = FailureClass.UNKNOWN
        return _verdict(gate, False, recorded, f"eval failed: {str(error.get('message'))[:500]}", tasks=[])
    if not results["tasks"]:
        return _input_error(gate, "eval result has no tasks")
    rows, failures = [], []
    cls: FailureClass | None
    for task, entry in sorted(results["tasks"].items()):
        entry = entry if isinstance(entry, dict) else {}
        n, expected, failed = (
            entry.get("samples"),
            entry.get("expected_samples"),
            entry.get("failed_requests", 0),
        )
        score = _number(entry.get("score"))
        counts = [
            v for v in (n, expected, failed) if isinstance(v, int) and not isinstance(v, bool) and v >= 0
        ]
        counts_ok = len(counts) == 3
        if counts_ok and counts[2] > 0:
            status, cls = f"{failed} failed request(s)", FailureClass.INFRA_TRANSIENT
        elif (
            not counts_ok or counts[0] != counts[1] or counts[0] == 0
        ):  # a count that is not a non-negative integer, or more
            # or fewer samples than expected: the run cannot be accounted for
            status, cls = f"samples {n!r} of expected {expected!r}", FailureClass.SAMPLE_ACCOUNTING_FAILED
        elif score is None:
            status, cls = f"score {entry.get('score')!r} is not a finite number", FailureClass.UNKNOWN
        else:
            status, cls = "complete", None
        rows.append(
            {
                "task": task,
                "samples": n,
                "expected_samples": expected,
                "failed_requests": failed,
                "score": score,
                "status": status,
            }
        )
        if cls:
            failures.append((cls, f"{task}: {status}"))
    if failures:
        order = [FailureClass.INFRA_TRANSIENT, FailureClass.SAMPLE_ACCOUNTING_FAILED, FailureClass.UNKNOWN]
        cls = next(c for c in order if any(f[0] == c for f in failures))
        return _verdict(gate, False, cls, "; ".join(f"[{c.value}] {d}" for c, d in failures), tasks=rows)
    return _verdict(gate, True, None, f"{len(rows)} task(s) complete, no failed requests", tasks=rows)
