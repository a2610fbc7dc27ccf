"""Closeout: the ``day0_result`` document (decision, classes, triage, sizes, the PTQ gate's behaviour
probe, per-task table, canary,
verbosity, the evaluated checkpoint's content hash, publish recommendation), written through
:func:`quarkci.core.documents.write_artifact`; the report through :mod:`quarkci.report.day0`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TypedDict

from quarkci.core.documents import load_document, write_artifact
from quarkci.day0.decision import decision_for, triage
from quarkci.day0.shapes import CanaryVerdict
from quarkci.day0.state import BaselineCache, ChainRecord, StageRecord
from quarkci.gates.compare import rows_of
from quarkci.gates.verdict import Behaviour, Verdict

RESULT_FILE = "day0_result.json"
RESULT_VERSION = 1


class Publish(TypedDict):
    """Whether to publish, which checkpoint (and its content sha256), and why."""

    recommended: bool
    checkpoint: str | None
    checkpoint_sha256: str | None
    reason: str


class ModelRecord(TypedDict):
    """The source model: its directory, content sha256 (``None`` before the baseline stage), the scheme
    and the caller's note."""

    source: str
    source_sha256: str | None
    scheme: str
    note: str | None


class SuiteRecord(TypedDict):
    """The eval suite: its name, tasks and task-config hash."""

    name: str
    tasks: list[str]
    config_hash: str


class Sizes(TypedDict):
    """Source and candidate bytes and their ratio (``None`` before the PTQ gate)."""

    source_bytes: int | None
    candidate_bytes: int | None
    ratio: float | None


class TaskRow(TypedDict):
    """One task of the closeout table: the compare gate's row, with each side's standard error and the
    candidate's sample count from the eval results."""

    task: str
    metric: str | None
    baseline: float | None
    candidate: float | None
    delta: float | None
    stderr: float | None
    baseline_stderr: float | None
    candidate_stderr: float | None
    samples: int | None
    within: bool
    status: str


class Day0Result(TypedDict):
    """``day0_result.json`` (contract ``quarkci/core/schemas/day0_result.schema.json``, result_version 1)."""

    result_version: int
    decision: str
    failure_classes: list[str]
    triage: list[str]
    publish: Publish
    model: ModelRecord
    threshold: float
    verbosity_threshold: float
    suite: SuiteRecord
    sizes: Sizes
    stages: list[StageRecord]
    tasks: list[TaskRow]
    behaviour_probe: Behaviour | None
    canary: CanaryVerdict | None
    verbosity: Verdict | None
    baseline_cache: BaselineCache | None
    seconds: float


def _obj(value: object) -> Mapping[str, object]:
    return value if isinstance(value, dict) else {}


def _number(value: object) -> float | None:
    """A JSON number of an eval file as read (``None`` for any other value: the contract's type)."""
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def _task_rows(record: ChainRecord) -> list[TaskRow]:
    compare = record.data.get("compare")
    out = record.out / "eval"

    def load(side: str) -> Mapping[str, object]:
        path = out / f"{side}.json"
        document = load_document(path) if path.is_file() else {}
        return _obj(_obj(document).get("tasks"))

    base, cand = load("baseline"), load("candidate")
    rows = []
    for row in rows_of(compare) if compare else []:
        task = row["task"]
        b_task, c_task = _obj(base.get(task)), _obj(cand.get(task))
        fallback = b_task.get("metric")
        samples = c_task.get("samples")
        rows.append(
            TaskRow(
                task=task,
                metric=row.get("metric") or (fallback if isinstance(fallback, str) else None),
                baseline=row["baseline"],
                candidate=row["candidate"],
                delta=row["delta"],
                stderr=row["stderr"],
                baseline_stderr=_number(b_task.get("stderr")),
                candidate_stderr=_number(c_task.get("stderr")),
                samples=samples if isinstance(samples, int) and not isinstance(samples, bool) else None,
                within=row["within"],
                status=row["status"],
            )
        )
    return rows


def build(record: ChainRecord) -> Day0Result:
    """The ``day0_result`` document for a finished (or stopped) chain (writes nothing)."""
    cfg, data, failed = record.config, record.data, record.failed
    decision = decision_for(failed)
    sizes = data.get("ptq_summary")
    classes = [s.failure_class for s in record.stages if s.failure_class]
    checkpoint = data.get("checkpoint")
    publish = decision == "ACCEPT"
    return {
        "result_version": RESULT_VERSION,
        "decision": decision,
        "failure_classes": classes,
        "triage": triage(failed),
        "publish": {
            "recommended": publish,
            "checkpoint": checkpoint,
            "checkpoint_sha256": data.get("checkpoint_sha256"),
            "reason": (
                "every gate passed: publish exactly this checkpoint (verify its sha256)"
                if publish
                else f"not publishable: {decision}" + (f" ({failed.detail[:300]})" if failed else "")
            ),
        },
        "model": {
            "source": str(cfg.model.resolve()),
            "source_sha256": data.get("source_sha256"),
            "scheme": cfg.scheme,
            "note": cfg.source_note,
        },
        "threshold": cfg.threshold,
        "verbosity_threshold": cfg.verbosity_threshold,
        "suite": {
            "name": cfg.suite.name,
            "tasks": list(cfg.suite.tasks),
            "config_hash": cfg.suite.config_hash,
        },
        "sizes": {
            "source_bytes": sizes.get("source_bytes") if sizes else None,
            "candidate_bytes": sizes.get("output_bytes") if sizes else None,
            "ratio": sizes.get("size_ratio") if sizes else None,
        },
        "stages": [s.to_json() for s in record.stages],
        "tasks": _task_rows(record),
        "behaviour_probe": data.get("behaviour_probe"),
        "canary": data.get("canary"),
        "verbosity": data.get("verbosity"),
        "baseline_cache": data.get("baseline_cache"),
        "seconds": round(record.seconds, 3),
    }


def closeout(record: ChainRecord) -> Day0Result:
    """Build and write ``day0_result.json``, ``validation_report.{md,json}`` and the job summary; return
    the ``day0_result`` document."""
    from quarkci.report import day0 as report

    document = build(record)
    write_artifact("day0_result", record.out / RESULT_FILE, document)
    markdown = report.write(document, record.out)
    if summary := os.environ.get("GITHUB_STEP_SUMMARY"):
        from quarkci.report.github_actions import summary as cut

        with open(summary, "a", encoding="utf-8") as fh:
            fh.write(cut(markdown))
    return document
