"""The verbosity gate: per generate task the mean completion tokens of the baseline and the candidate.

Two-sided ``|c - b| / b <= threshold`` (:data:`DEFAULT_THRESHOLD` 0.05); only runs whose sample counts
match within 1 % are compared (the largest such pair). Any task over the threshold -> VERBOSITY_EXCEEDED;
nothing comparable -> SAMPLE_ACCOUNTING_FAILED; nothing harvested -> USER_CONFIG_ERROR (input error). A
pass lists the tasks not measured. Input: eval results with ``"verbosity": {"<task>": [{"samples": 100,
"mean_completion_tokens": 2.1}]}`` (:mod:`quarkci.day0.evaluate`). Semantics follow the reference day-0
design (NVIDIA Model-Optimizer's public ``day0-release`` gates, facts in ``DAY0_NOTES``).
"""

from __future__ import annotations

import math
from typing import Any

from quarkci.gates.failure_class import FailureClass
from quarkci.gates.verdict import EPS, VerbosityRow, Verdict, input_error, number, verdict

ID = "verbosity"
DEFAULT_THRESHOLD = 0.05  # max two-sided change of mean completion tokens, a fraction
SAMPLE_MATCH = 0.01  # sample counts "match" within 1 %


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
            n, mean = run.get("samples"), number(run.get("mean_completion_tokens"))
            if isinstance(n, int) and not isinstance(n, bool) and n > 0 and mean is not None and mean >= 0:
                out.setdefault(str(task), []).append((n, mean))
    return out


def _matched(
    b_runs: list[tuple[int, float]], c_runs: list[tuple[int, float]]
) -> tuple[tuple[int, float], tuple[int, float]] | None:
    """The pair of runs with the largest sample count whose counts match within :data:`SAMPLE_MATCH`."""
    pairs = [(b, c) for b in b_runs for c in c_runs if abs(b[0] - c[0]) <= SAMPLE_MATCH * max(b[0], c[0])]
    return max(pairs, key=lambda p: min(p[0][0], p[1][0])) if pairs else None


def evaluate(baseline: Any, candidate: Any, threshold: float = DEFAULT_THRESHOLD) -> Verdict:
    """The verbosity gate (see the module docstring). ``tasks`` rows: task, baseline/candidate mean
    completion tokens and samples, change (fraction), within; ``not_measured`` lists the rest."""
    gate = ID
    if number(threshold) is None or threshold < 0:
        return input_error(
            gate, f"threshold must be a finite number >= 0, not {threshold!r}", threshold=threshold
        )
    b_runs, c_runs = _runs(baseline), _runs(candidate)
    if not b_runs and not c_runs:
        return input_error(
            gate, "nothing harvested: no completion-token counts on either side", threshold=threshold
        )
    rows: list[VerbosityRow] = []
    not_measured: list[str] = []
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
        return verdict(
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
        return verdict(
            gate, False, FailureClass.VERBOSITY_EXCEEDED, f"over +/-{threshold:.0%}: {what}", **extra
        )
    tail = f"; not measured: {', '.join(not_measured)}" if not_measured else ""
    return verdict(gate, True, None, f"{len(rows)} task(s) within +/-{threshold:.0%}{tail}", **extra)
