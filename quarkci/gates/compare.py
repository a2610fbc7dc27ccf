"""The compare (accuracy) gate: a baseline and a candidate eval -> a verdict with a decision.

Both sides are read into one normalised record each (:mod:`quarkci.gates.records`: lm-eval 0.4 results
JSON, quarkci's eval result, or a bare score map). Scale per task: 1.0 when both scores lie in [0, 1],
else 100.0 (or ``scales[task]``); drop = (baseline - candidate) / scale (absolute, default) or / baseline
(relative); ``within`` = drop <= threshold (inclusive, :data:`~quarkci.gates.verdict.EPS` slack). In
order: bad scales (input error) -> task sets differ (SAMPLE_ACCOUNTING_FAILED) -> no tasks (input error)
-> config parity: the records differ in anything but the model -- format, task version, n-shot, chat
template, fewshot-as-multiturn, system instruction, limit, sampling, model arguments other than the path
/ served name, batch size where a task generates, no metric in common -- USER_CONFIG_ERROR naming each
difference (decision ANOMALOUS) -> sample counts differ (SAMPLE_ACCOUNTING_FAILED) -> non-finite,
boolean or out-of-range score (ANOMALOUS) -> candidate better by more than 5 % of scale (ANOMALOUS). The
metric compared is one both sides report, named in every row and in the detail. Then power, never a pass
without it: a task without a standard error on both sides (lm-eval's ``"N/A"`` when bootstrapping was
off, a bare score map), a truncated run (effective samples more than 1 % below the task's size, e.g.
lm-eval's ``limit``) or a standard error (the larger side, on the drop's scale) not below the threshold
is INDETERMINATE -- unless its drop exceeds the threshold by more than two standard errors, which is a
regression whatever the power (quarkci's addition: a collapse is never reported as merely
"indeterminate").

Semantics follow the reference day-0 design (NVIDIA Model-Optimizer's public ``day0-release`` gates,
facts in ``DAY0_NOTES``). Pure and hermetic: it never raises on a document it was given; one it cannot
judge at all is an ``input_error`` verdict (the command exits 2 for it).
"""

from __future__ import annotations

import math
from typing import Any, NotRequired, TypedDict, cast

from quarkci.gates import records
from quarkci.gates.failure_class import FailureClass
from quarkci.gates.verdict import EPS, CompareRow, DifferenceRow, Verdict, input_error, number, verdict

ID = "compare"
DEFAULT_THRESHOLD = 0.01  # max drop per task, a fraction of the task's scale
IMPLAUSIBLE_GAIN = 0.05  # fraction of the task's scale
POWER_SIGMAS = 2.0


class _Settings(TypedDict):
    """The settings a compare verdict names: ``threshold``, ``mode``, then the records' ``format``."""

    threshold: float
    mode: str
    format: NotRequired[str]


def rows_of(judged: Verdict) -> list[CompareRow]:
    """The task rows of a compare verdict (``[]`` for another gate's verdict or none): this gate writes
    only :class:`~quarkci.gates.verdict.CompareRow` rows, so its ``gate`` id tells their type."""
    if judged.get("gate") != ID:
        return []
    return cast(list[CompareRow], judged.get("tasks") or [])


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


def _row(
    task: str,
    b_task: records.TaskRecord,
    c_task: records.TaskRecord,
    scales: Any,
    threshold: float,
    relative: bool,
    limit: Any,
) -> tuple[CompareRow, str | None]:
    """One task's row (see :func:`evaluate`) and its anomaly line, if any."""
    key = records.common_metric(b_task, c_task)
    assert key is not None  # differences() reported a pair without a common metric
    b_metric, c_metric = b_task.metrics[key], c_task.metrics[key]
    b_raw, c_raw = b_metric.score, c_metric.score
    b, c = number(b_raw), number(c_raw)
    scale = number((scales or {}).get(task)) or (
        1.0 if b is not None and c is not None and 0 <= b <= 1 and 0 <= c <= 1 else 100.0
    )
    row: CompareRow = {
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
            f"{row['metric']} not a finite number in [0, {scale:g}] (baseline {b_raw!r}, candidate {c_raw!r})"
        )
        return row, f"{task}: score {row['reason']}"
    delta = c - b
    drop = _drop(b, c, scale, relative)
    se_values = [s for s in (b_metric.stderr, c_metric.stderr) if s is not None]
    stderr = max(se_values) if len(se_values) == 2 else None
    se_norm = None if stderr is None else (stderr / b if relative and b > 0 else stderr / scale)
    within = drop <= threshold + EPS
    why_unpowered = _unpowered(b_task, c_task, b_metric, c_metric, limit)
    collapse = se_norm is not None and drop - POWER_SIGMAS * se_norm > threshold + EPS
    reason = anomaly = None
    if delta > IMPLAUSIBLE_GAIN * scale + EPS:
        status = "ANOMALOUS"
        reason = f"candidate better by {delta:g} (> {IMPLAUSIBLE_GAIN:.0%} of scale {scale:g})"
        anomaly = f"{task}: {reason}"
    elif collapse:
        status = "REGRESSION"
    elif why_unpowered:
        status, reason = "INDETERMINATE", why_unpowered
    elif se_norm is not None and not se_norm < threshold:
        status = "INDETERMINATE"
        reason = f"stderr {stderr:.4f} not below threshold {threshold}: add independent runs"
    else:
        status = "PASS" if within else "REGRESSION"
    row["delta"] = round(delta, 10)
    row["drop"] = round(drop, 10) if math.isfinite(drop) else None
    row["stderr"] = stderr
    row["within"] = within
    row["status"] = status
    row["reason"] = reason
    return row, anomaly


def evaluate(
    baseline: Any,
    candidate: Any,
    threshold: float = DEFAULT_THRESHOLD,
    relative: bool = False,
    scales: Any = None,
) -> Verdict:
    """The accuracy gate (see the module docstring) on two eval documents or
    :class:`~quarkci.gates.records.EvalRecord`\\ s. Returns a verdict with ``decision`` (ACCEPT |
    REGRESSION | ANOMALOUS | INDETERMINATE), ``tasks`` (one row per task: metric, baseline, candidate,
    scale, delta, drop, stderr, samples, within, status, reason), ``differences`` (config parity) and
    the settings used."""
    gate = ID
    settings: _Settings = {"threshold": threshold, "mode": "relative" if relative else "absolute"}
    if (
        number(threshold) is None or not 0 <= threshold < 1
    ):  # a drop of a whole scale or more: every drop passes
        return input_error(
            gate, f"threshold must be a finite number in [0, 1), not {threshold!r}", **settings
        )
    if scales is not None and (
        not isinstance(scales, dict) or any((s := number(v)) is None or s <= 0 for v in scales.values())
    ):
        return input_error(gate, "scales must be a JSON object of task -> positive number", **settings)
    base, cand = records.to_record(baseline), records.to_record(candidate)
    if base is None or cand is None:
        which = "baseline" if base is None else "candidate"
        return input_error(
            gate, f"{which} is not a score map, an lm-eval results JSON or a quarkci eval result", **settings
        )
    settings["format"] = base.format
    if set(base.tasks) != set(cand.tasks):
        only_b, only_c = sorted(set(base.tasks) - set(cand.tasks)), sorted(set(cand.tasks) - set(base.tasks))
        return verdict(
            gate,
            False,
            FailureClass.SAMPLE_ACCOUNTING_FAILED,
            f"task sets differ: only in baseline {only_b}, only in candidate {only_c}",
            decision="ANOMALOUS",
            tasks=[],
            **settings,
        )
    if not base.tasks:
        return input_error(gate, "no tasks to compare", **settings)
    mismatch = records.differences(base, cand)
    if mismatch:
        return verdict(
            gate,
            False,
            FailureClass.USER_CONFIG_ERROR,
            f"config parity: the two evals differ in {', '.join(map(str, mismatch))} "
            "(only the model -- its path or served name -- may differ)",
            decision="ANOMALOUS",
            tasks=[],
            differences=[
                DifferenceRow(field=d.field, baseline=d.baseline, candidate=d.candidate) for d in mismatch
            ],
            **settings,
        )
    counts = [
        f"{name}: {base.tasks[name].samples} vs {cand.tasks[name].samples}"
        for name in sorted(base.tasks)
        if base.tasks[name].samples != cand.tasks[name].samples
    ]
    if counts:
        return verdict(
            gate,
            False,
            FailureClass.SAMPLE_ACCOUNTING_FAILED,
            f"sample counts differ (same settings): {'; '.join(counts)}",
            decision="ANOMALOUS",
            tasks=[],
            **settings,
        )

    rows: list[CompareRow] = []
    anomalies: list[str] = []
    for task in sorted(base.tasks):
        row, anomaly = _row(task, base.tasks[task], cand.tasks[task], scales, threshold, relative, base.limit)
        rows.append(row)
        if anomaly:
            anomalies.append(anomaly)

    regressed = [r for r in rows if r["status"] == "REGRESSION"]
    undecided = [r for r in rows if r["status"] == "INDETERMINATE"]
    if anomalies:
        return verdict(
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
        return verdict(
            gate, False, None, f"regression: {what}", decision="REGRESSION", tasks=rows, **settings
        )
    if undecided:
        what = "; ".join(f"{r['task']} {r['metric']}: {r['reason']}" for r in undecided)
        return verdict(
            gate,
            False,
            None,
            f"indeterminate (never a pass): {what}",
            decision="INDETERMINATE",
            tasks=rows,
            **settings,
        )
    compared = ", ".join(f"{r['task']} {r['metric']}" for r in rows)
    return verdict(
        gate,
        True,
        None,
        f"{len(rows)} task(s) within {threshold} ({settings['mode']}): {compared}",
        decision="ACCEPT",
        tasks=rows,
        **settings,
    )
