"""The day-0 gates on JSON documents: pure, hermetic, standard library only.

Each gate returns a verdict ``{"gate", "pass", "failure_class", "detail", ...}`` and never raises on a
document it was given; a document it cannot judge at all (nothing to compare, malformed scales) is a
``USER_CONFIG_ERROR`` verdict with ``"input_error": true`` (the command exits 2 for it). Semantics follow
the reference day-0 design (NVIDIA Model-Optimizer's public ``day0-release`` gates, facts in
``DAY0_NOTES``):

``compare`` (accuracy)
    both sides are read into one normalised record each (:mod:`quarkci.day0.records`: lm-eval 0.4
    results JSON, quarkci's eval result, or a bare score map). Scale per task: 1.0 when both scores lie
    in [0, 1], else 100.0 (or ``scales[task]``); drop = (baseline - candidate) / scale (absolute,
    default) or / baseline (relative); ``within`` = drop <= threshold (inclusive). In order: bad scales
    (input error) -> task sets differ (SAMPLE_ACCOUNTING_FAILED) -> no tasks (input error) -> config
    parity: the records differ in anything but the model -- format, task version, n-shot, chat
    template, fewshot-as-multiturn, system instruction, limit, sampling, model arguments other than the
    path / served name, batch size where a task generates, no metric in common -- USER_CONFIG_ERROR
    naming each difference (decision ANOMALOUS) -> sample counts differ (SAMPLE_ACCOUNTING_FAILED) ->
    non-finite, boolean or out-of-range score (ANOMALOUS) -> candidate better by more than 5 % of scale
    (ANOMALOUS). The metric compared is one both sides report, named in every row and in the detail.
    Then power, never a pass without it: a task without a standard error on both sides (lm-eval's
    ``"N/A"`` when bootstrapping was off, a bare score map), a truncated run (effective samples more
    than 1 % below the task's size, e.g. lm-eval's ``limit``) or a standard error (the larger side, on
    the drop's scale) not below the threshold is INDETERMINATE -- unless its drop exceeds the threshold
    by more than two standard errors, which is a regression whatever the power (quarkci's addition: a
    collapse is never reported as merely "indeterminate").
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

``compare`` also takes lm-eval's results JSON and a bare ``{task: score}`` map (:mod:`quarkci.day0.records`).
"""

from __future__ import annotations

import math
from typing import Any

from quarkci.core.failure_class import FailureClass
from quarkci.day0 import records

DEFAULT_THRESHOLD = 0.01
DEFAULT_VERBOSITY_THRESHOLD = 0.05
IMPLAUSIBLE_GAIN = 0.05  # fraction of the task's scale
SAMPLE_MATCH = 0.01  # sample counts "match" within 1 %
POWER_SIGMAS = 2.0
EPS = 1e-9  # float slack for the inclusive boundaries (0.50 - 0.49 is 0.010000000000000009 in binary)
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


def _sample_note(task: records.TaskRecord, limit: Any) -> str:
    limit_note = f", limit {limit:g}" if isinstance(limit, float) else ""
    return f"{task.samples} of {task.original_samples} samples{limit_note}"


def _unpowered(
    b_task: records.TaskRecord, c_task: records.TaskRecord, b: records.Metric, c: records.Metric, limit: Any
) -> str | None:
    """Why a task's result cannot pass whatever its scores (no standard error, a truncated run), else
    ``None``."""
    why = []
    if b.stderr is None or c.stderr is None:
        why.append(
            f"no standard error (baseline {b.stderr_raw!r}, candidate {c.stderr_raw!r}): rerun with "
            "lm-eval's bootstrap on (bootstrap_iters > 0) or with quarkci's eval, which computes it"
        )
    truncated = [(side, t) for side, t in (("baseline", b_task), ("candidate", c_task)) if t.truncated]
    if truncated:
        side, task = truncated[0]
        sides = "both runs" if len(truncated) == 2 else f"the {side} run"
        why.append(f"{sides} truncated ({_sample_note(task, limit)}): evaluate the whole task")
    elif limit is not None and not (b_task.original_samples and c_task.original_samples):
        why.append(f"run with limit {limit!r} and no task size recorded: cannot tell it covers the task")
    return "; ".join(why) or None


def compare(
    baseline: Any,
    candidate: Any,
    threshold: float = DEFAULT_THRESHOLD,
    relative: bool = False,
    scales: Any = None,
) -> Verdict:
    """The accuracy gate (see the module docstring) on two eval documents or
    :class:`~quarkci.day0.records.EvalRecord`\\ s. Returns a verdict with ``decision`` (ACCEPT |
    REGRESSION | ANOMALOUS | INDETERMINATE), ``tasks`` (one row per task: metric, baseline, candidate,
    scale, delta, drop, stderr, samples, within, status, reason), ``differences`` (config parity) and
    the settings used."""
    gate = "compare"
    settings: dict[str, Any] = {"threshold": threshold, "mode": "relative" if relative else "absolute"}
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
    base, cand = records.to_record(baseline), records.to_record(candidate)
    if base is None or cand is None:
        which = "baseline" if base is None else "candidate"
        return _input_error(
            gate, f"{which} is not a score map, an lm-eval results JSON or a quarkci eval result", **settings
        )
    settings["format"] = base.format
    if set(base.tasks) != set(cand.tasks):
        only_b, only_c = sorted(set(base.tasks) - set(cand.tasks)), sorted(set(cand.tasks) - set(base.tasks))
        return _verdict(
            gate,
            False,
            FailureClass.SAMPLE_ACCOUNTING_FAILED,
            f"task sets differ: only in baseline {only_b}, only in candidate {only_c}",
            decision="ANOMALOUS",
            tasks=[],
            **settings,
        )
    if not base.tasks:
        return _input_error(gate, "no tasks to compare", **settings)
    mismatch = records.differences(base, cand)
    if mismatch:
        return _verdict(
            gate,
            False,
            FailureClass.USER_CONFIG_ERROR,
            f"config parity: the two evals differ in {', '.join(map(str, mismatch))} "
            "(only the model -- its path or served name -- may differ)",
            decision="ANOMALOUS",
            tasks=[],
            differences=[
                {"field": d.field, "baseline": d.baseline, "candidate": d.candidate} for d in mismatch
            ],
            **settings,
        )
    counts = [
        f"{name}: {base.tasks[name].samples} vs {cand.tasks[name].samples}"
        for name in sorted(base.tasks)
        if base.tasks[name].samples != cand.tasks[name].samples
    ]
    if counts:
        return _verdict(
            gate,
            False,
            FailureClass.SAMPLE_ACCOUNTING_FAILED,
            f"sample counts differ (same settings): {'; '.join(counts)}",
            decision="ANOMALOUS",
            tasks=[],
            **settings,
        )

    rows, anomalies = [], []
    for task in sorted(base.tasks):
        b_task, c_task = base.tasks[task], cand.tasks[task]
        key = records.common_metric(b_task, c_task)
        assert key is not None  # differences() reported a pair without a common metric
        b_metric, c_metric = b_task.metrics[key], c_task.metrics[key]
        b_raw, c_raw = b_metric.score, c_metric.score
        b, c = _number(b_raw), _number(c_raw)
        scale = _number((scales or {}).get(task)) or (
            1.0 if b is not None and c is not None and 0 <= b <= 1 and 0 <= c <= 1 else 100.0
        )
        row: dict[str, Any] = {
            "task": task,
            "metric": records.metric_name(key),
            "baseline": b,
            "candidate": c,
            "scale": scale,
            "delta": None,
            "drop": None,
            "stderr": None,
            "samples": c_task.samples,
            "original_samples": c_task.original_samples,
            "within": False,
            "status": "ANOMALOUS",
            "reason": None,
        }
        mixed = (
            task not in (scales or {}) and b is not None and c is not None and (0 <= b <= 1) != (0 <= c <= 1)
        )  # one side a 0-1 fraction, the other not: two scales
        if b is None or c is None or mixed or not (0 <= b <= scale and 0 <= c <= scale):
            row["reason"] = (
                f"{row['metric']} not a finite number in [0, {scale:g}] "
                f"(baseline {b_raw!r}, candidate {c_raw!r})"
            )
            anomalies.append(f"{task}: score {row['reason']}")
            rows.append(row)
            continue
        delta = c - b
        drop = _drop(b, c, scale, relative)
        se_values = [s for s in (b_metric.stderr, c_metric.stderr) if s is not None]
        stderr = max(se_values) if len(se_values) == 2 else None
        se_norm = None if stderr is None else (stderr / b if relative and b > 0 else stderr / scale)
        within = drop <= threshold + EPS
        why_unpowered = _unpowered(b_task, c_task, b_metric, c_metric, base.limit)
        collapse = se_norm is not None and drop - POWER_SIGMAS * se_norm > threshold + EPS
        reason = None
        if delta > IMPLAUSIBLE_GAIN * scale + EPS:
            status = "ANOMALOUS"
            reason = f"candidate better by {delta:g} (> {IMPLAUSIBLE_GAIN:.0%} of scale {scale:g})"
            anomalies.append(f"{task}: {reason}")
        elif collapse:
            status = "REGRESSION"
        elif why_unpowered:
            status, reason = "INDETERMINATE", why_unpowered
        elif se_norm is not None and not se_norm < threshold:
            status = "INDETERMINATE"
            reason = f"stderr {stderr:.4f} not below threshold {threshold}: add independent runs"
        else:
            status = "PASS" if within else "REGRESSION"
        row.update(
            delta=round(delta, 10),
            drop=round(drop, 10) if math.isfinite(drop) else None,
            stderr=stderr,
            within=within,
            status=status,
            reason=reason,
        )
        rows.append(row)

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
        what = "; ".join(f"{r['task']} {r['metric']}: drop {r['drop']:.4f} > {threshold}" for r in regressed)
        return _verdict(
            gate, False, None, f"regression: {what}", decision="REGRESSION", tasks=rows, **settings
        )
    if undecided:
        what = "; ".join(f"{r['task']} {r['metric']}: {r['reason']}" for r in undecided)
        return _verdict(
            gate,
            False,
            None,
            f"indeterminate (never a pass): {what}",
            decision="INDETERMINATE",
            tasks=rows,
            **settings,
        )
    compared = ", ".join(f"{r['task']} {r['metric']}" for r in rows)
    return _verdict(
        gate,
        True,
        None,
        f"{len(rows)} task(s) within {threshold} ({settings['mode']}): {compared}",
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
