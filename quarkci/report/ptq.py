"""The PTQ report: ``validation_report.md`` / ``.json`` (kind ``ptq``) from a validation summary and the
PTQ gate's verdict: the PTQ stages (quantize + export, validate, gate) with their status, then the gate's
checks. Part of :mod:`quarkci.report`, the one producer of ``validation_report``; written by
``quarkci ptq gate --report-dir DIR`` (what ``ptq.yml`` uploads and ``publish-ptq.yml`` posts)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from quarkci.core.documents import write_artifact, write_artifact_text
from quarkci.report.day0 import REPORT_JSON, REPORT_MD, _mib, _num
from quarkci.report.markdown import environment
from quarkci.report.provenance import provenance

TEMPLATE = "ptq_report.md.j2"


def _pct(value: Any) -> str:
    return f"{value:.0%}" if isinstance(value, int | float) and not isinstance(value, bool) else "n/a"


def stages(summary: Mapping[str, Any], verdict: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """``(stage, status, detail)`` per PTQ stage the summary records, in workflow order.

    ``run`` is the ``run_result`` that ``ptq validate`` was given (None: the export was validated without
    one); ``reload`` is the validation's reload/behaviour probe; the last row is the gate's verdict.
    """
    run = summary.get("run")
    if isinstance(run, dict):
        where = f"stage {run.get('stage')}: " if run.get("stage") else ""
        cls = f"{run.get('failure_class')}: " if run.get("failure_class") else ""
        detail = (
            f"{where}{cls}{run.get('message') or ''}".strip().rstrip(":") or f"scheme {run.get('scheme')}"
        )
        rows = [("quantize and export (ptq run)", str(run.get("status") or "unknown"), detail)]
    else:
        rows = [("quantize and export (ptq run)", "not recorded", "no run_result was given to ptq validate")]
    reload = summary.get("reload") or {}
    if not reload.get("checked"):
        check = "reload not checked"
    elif reload.get("ok"):
        check = "reload ok"
    else:
        check = f"reload failed: {reload.get('error') or 'see the checks'}"
    if isinstance(reload.get("task_accuracy"), int | float):
        check += f"; demo task accuracy {_pct(reload['task_accuracy'])} (source {_pct(reload.get('source_task_accuracy'))})"
    rows.append(("validate (ptq validate)", "done", check))
    gate = "PASS" if verdict.get("pass") else "FAIL"
    rows.append(("gate (ptq gate)", gate, str(verdict.get("failure_class") or verdict.get("detail") or "")))
    return rows


def render(summary: Mapping[str, Any], verdict: Mapping[str, Any]) -> str:
    """The Markdown body (marker ``<!-- quarkci:report:ptq -->``); untrusted details in code spans."""
    text = (
        environment()
        .get_template(TEMPLATE)
        .render(
            s=summary,
            v=verdict,
            source=summary.get("source") or {},
            output=summary.get("output") or {},
            stages=stages(summary, verdict),
            num=_num,
            mib=_mib,
        )
    )
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def report_json(summary: Mapping[str, Any], verdict: Mapping[str, Any]) -> dict[str, Any]:
    """The ``validation_report`` document of kind ``ptq``."""
    failed = [c for c in verdict.get("checks") or [] if c.get("status") == "fail"]
    return {
        "status": "success" if verdict.get("pass") else "failed",
        "summary": f"PTQ gate {'passed' if verdict.get('pass') else 'failed'}: {verdict.get('detail', '')}"[
            :1000
        ],
        "evidence": [f"{c['name']}: {c['status']} {c['detail']}"[:300] for c in verdict.get("checks") or []],
        "next_actions": [f"[{c['failure_class']}] {c['name']}: {c['detail']}"[:300] for c in failed],
        "report_version": 1,
        "kind": "ptq",
        "ptq": {
            "pass": bool(verdict.get("pass")),
            "failure_class": verdict.get("failure_class"),
            "scheme": summary.get("scheme"),
            "size_ratio": summary.get("size_ratio"),
        },
        **provenance(),
    }


def write(summary: Mapping[str, Any], verdict: Mapping[str, Any], out: str | Path) -> str:
    """Write ``out/validation_report.{md,json}``; return the Markdown."""
    markdown = render(summary, verdict)
    write_artifact("validation_report", Path(out) / REPORT_JSON, report_json(summary, verdict))
    write_artifact_text("validation_report", Path(out) / REPORT_MD, markdown)
    return markdown
