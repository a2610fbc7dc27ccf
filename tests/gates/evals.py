"""Planted eval documents shared by the gate tests (quarkci's own eval format)."""

from __future__ import annotations


def planted_eval(scores: dict, stderr: float = 0.002, n: int = 1000, **task_extra) -> dict:
    """An eval of ``scores`` (task -> score): every task complete (``n`` of ``n`` samples, no failed request)
    with ``stderr``, metric ``acc``, plus ``task_extra`` fields; an hf config over those tasks."""
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


def score_map(scores: dict, stderr: float = 0.001) -> dict:
    """A bare score map whose scores carry a standard error (without one nothing can pass)."""
    return {t: {"score": s, "stderr": stderr} for t, s in scores.items()}
