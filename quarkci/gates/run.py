"""The run gate: the completeness of one eval result.

A recorded infrastructure error -> its class (INFRA_TRANSIENT, DEPLOYMENT_HEALTH_FAILED,
EVAL_JUDGE_FAILED, SYSTEMIC); failed requests -> INFRA_TRANSIENT; fewer samples than expected ->
SAMPLE_ACCOUNTING_FAILED; a missing or non-finite score -> UNKNOWN; no tasks -> input error.

Input (the eval result written by :mod:`quarkci.day0.evaluate`, or planted by hand)::

    {"tasks": {"<task>": {"score": 0.93, "stderr": 0.004, "samples": 1000, "expected_samples": 1000,
                          "failed_requests": 0, "metric": "acc"}},
     "config": {...}, "error": null | {"failure_class": "INFRA_TRANSIENT", "message": "..."}}
"""

from __future__ import annotations

from typing import Any

from quarkci.gates.failure_class import FailureClass
from quarkci.gates.verdict import RunRow, Verdict, input_error, number, verdict

ID = "run"
RUN_ERROR_CLASSES = frozenset(
    {
        FailureClass.INFRA_TRANSIENT,
        FailureClass.DEPLOYMENT_HEALTH_FAILED,
        FailureClass.EVAL_JUDGE_FAILED,
        FailureClass.SYSTEMIC,
    }
)


def evaluate(results: Any) -> Verdict:
    """The completeness gate of one eval result (see the module docstring). ``tasks`` rows: task,
    samples, expected_samples, failed_requests, score, status."""
    gate = ID
    if not isinstance(results, dict) or not isinstance(results.get("tasks"), dict):
        return input_error(gate, "not an eval result: no 'tasks' object")
    error = results.get("error")
    if isinstance(error, dict):
        try:
            recorded = FailureClass(str(error.get("failure_class")))
        except ValueError:
            recorded = FailureClass.UNKNOWN
        if recorded not in RUN_ERROR_CLASSES:
            recorded = FailureClass.UNKNOWN
        return verdict(gate, False, recorded, f"eval failed: {str(error.get('message'))[:500]}", tasks=[])
    if not results["tasks"]:
        return input_error(gate, "eval result has no tasks")
    rows: list[RunRow] = []
    failures: list[tuple[FailureClass, str]] = []
    cls: FailureClass | None
    for task, entry in sorted(results["tasks"].items()):
        entry = entry if isinstance(entry, dict) else {}
        n, expected, failed = (
            entry.get("samples"),
            entry.get("expected_samples"),
            entry.get("failed_requests", 0),
        )
        score = number(entry.get("score"))
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
        return verdict(gate, False, cls, "; ".join(f"[{c.value}] {d}" for c, d in failures), tasks=rows)
    return verdict(gate, True, None, f"{len(rows)} task(s) complete, no failed requests", tasks=rows)
