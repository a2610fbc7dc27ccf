"""The PTQ report: ``validation_report.md`` / ``.json`` (kind ``ptq``) from a validation summary and the
PTQ gate's verdict. Part of :mod:`quarkci.report`, the one producer of ``validation_report``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from quarkci.core.documents import write_artifact, write_artifact_text
from quarkci.report.day0 import REPORT_JSON, REPORT_MD, _mib, _num
from quarkci.report.markdown import environment

TEMPLATE = "ptq_report.md.j2"


def render(summary: dict[str, Any], verdict: dict[str, Any]) -> str:
    """The Markdown body (marker ``<!-- quarkci:report:ptq -->``); untrusted details in code spans."""
    text = environment().get_template(TEMPLATE).render(
        s=summary, v=verdict, source=summary.get("source") or {}, output=summary.get("output") or {},
        num=_num, mib=_mib)
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def report_json(summary: dict[str, Any], verdict: dict[str, Any]) -> dict[str, Any]:
    """The ``validation_report`` document of kind ``ptq``."""
    failed = [c for c in verdict.get("checks") or [] if c.get("status") == "fail"]
    return {
        "status": "success" if verdict.get("pass") else "failed",
        "summary": f"PTQ gate {'passed' if verdict.get('pass') else 'failed'}: {verdict.get('detail', '')}"[:1000],
        "evidence": [f"{c['name']}: {c['status']} {c['detail']}"[:300] for c in verdict.get("checks") or []],
        "next_actions": [f"[{c['failure_class']}] {c['name']}: {c['detail']}"[:300] for c in failed],
        "report_version": 1,
        "kind": "ptq",
        "ptq": {"pass": bool(verdict.get("pass")), "failure_class": verdict.get("failure_class"),
                "scheme": summary.get("scheme"), "size_ratio": summary.get("size_ratio")},
    }


def write(summary: dict[str, Any], verdict: dict[str, Any], out: str | Path) -> str:
    """Write ``out/validation_report.{md,json}``; return the Markdown."""
    markdown = render(summary, verdict)
    write_artifact("validation_report", Path(out) / REPORT_JSON, report_json(summary, verdict))
    write_artifact_text("validation_report", Path(out) / REPORT_MD, markdown)
    return markdown
