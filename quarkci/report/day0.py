"""The day-0 report: ``validation_report.md`` (the sticky-comment body) and ``validation_report.json``
(kind ``day0``) rendered from a ``day0_result`` document.

Part of :mod:`quarkci.report`, the one producer of ``validation_report``. Untrusted strings (paths,
upstream messages, task names) pass through the same escaping filters as the skill-sync report; the
per-task chart is built by :mod:`quarkci.core.mermaid`, the one chart builder.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from quarkci.core.documents import write_artifact, write_artifact_text
from quarkci.core.escape import code, plain
from quarkci.core.mermaid import bar_chart, unique_labels
from quarkci.report.markdown import environment
from quarkci.report.provenance import provenance

TEMPLATE = "day0_report.md.j2"
REPORT_MD = "validation_report.md"
REPORT_JSON = "validation_report.json"


def _num(value: Any, digits: int) -> str:
    return "n/a" if not isinstance(value, int | float) or isinstance(value, bool) else f"{value:.{digits}f}"


def _mib(value: Any) -> str:
    return "n/a" if not isinstance(value, int | float) else f"{value / 2**20:.2f} MiB"


def _pct(value: Any) -> str:
    return "n/a" if not isinstance(value, int | float) else f"{value:+.1%}"


def chart(result: Mapping[str, Any]) -> str:
    """Mermaid chart of per-task deltas (candidate - baseline) as bars against ``-threshold`` as a line
    (two bar series would be drawn over each other); on each task's 0-1 or 0-100 scale the threshold is
    drawn as ``-threshold * scale``. ``""`` without tasks."""
    rows = [t for t in result.get("tasks") or [] if isinstance(t.get("delta"), int | float)]
    if not rows:
        return ""
    scales = [
        1.0 if (t.get("baseline") or 0) <= 1 and (t.get("candidate") or 0) <= 1 else 100.0 for t in rows
    ]
    return bar_chart(
        "Per-task delta as bars, -threshold as a line",
        unique_labels([str(t["task"]) for t in rows]),
        [t["delta"] for t in rows],
        y_label="candidate - baseline",
        line=[-result["threshold"] * s for s in scales],
    )


def _lines(result: Mapping[str, Any]) -> tuple[str, str]:
    """The publish line and the baseline-cache line (already escaped Markdown)."""
    publish = result["publish"]
    if publish["recommended"]:
        publish_line = f"yes: publish exactly the checkpoint with sha256 {code(publish['checkpoint_sha256'])}"
    else:
        publish_line = f"no: {plain(publish['reason'])}"
    cache = result.get("baseline_cache")
    baseline_line = ""
    if cache:
        key = code(cache["key"][:12])
        baseline_line = (
            f"cache hit {key}: baseline eval skipped" if cache["hit"] else f"evaluated, cached as {key}"
        )
    return publish_line, baseline_line


def render(result: Mapping[str, Any]) -> str:
    """The Markdown body (first line: the sticky marker ``<!-- quarkci:report:day0 -->``); identical
    bytes for an identical result."""
    publish_line, baseline_line = _lines(result)
    text = (
        environment()
        .get_template(TEMPLATE)
        .render(
            r=result,
            chart=chart(result).rstrip("\n"),
            num=_num,
            mib=_mib,
            pct=_pct,
            publish_line=publish_line,
            baseline_line=baseline_line,
        )
    )
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"


def report_json(result: Mapping[str, Any], result_file: str) -> dict[str, Any]:
    """The ``validation_report`` document (kind ``day0``) summarising ``result``."""
    decision = result["decision"]
    evidence = [
        f"{s['name']}: {s['status']}"
        + (f" [{s['failure_class']}]" if s["failure_class"] else "")
        + (f" {s['detail'][:300]}" if s["detail"] else "")
        for s in result["stages"]
        if s["status"] != "not_run"
    ]
    probe = result.get("behaviour_probe")
    if probe:
        evidence.append(
            f"behaviour probe: {probe['measure']} {_num(probe['value'], 4)} ({probe['rule']}, threshold "
            f"{_num(probe['threshold'], 4)}) {'PASS' if probe['pass'] else 'FAIL'}; threshold from "
            f"{probe['threshold_source']}"[:1000]
        )
    evidence += [
        f"{t['task']}: baseline {_num(t['baseline'], 4)} candidate {_num(t['candidate'], 4)} "
        f"stderr {_num(t['stderr'], 4)} {t['status']}"
        for t in result["tasks"]
    ]
    return {
        "status": "success" if decision == "ACCEPT" else "failed",
        "summary": f"day-0 {result['model']['scheme']}: {decision}; {result['publish']['reason']}"[:1000],
        "evidence": evidence,
        "next_actions": list(result["triage"])
        or (["publish the checkpoint with the recorded sha256"] if result["publish"]["recommended"] else []),
        "report_version": 1,
        "kind": "day0",
        "day0": {
            "decision": decision,
            "publish": result["publish"]["recommended"],
            "checkpoint_sha256": result["publish"]["checkpoint_sha256"],
            "result": result_file,
        },
        **provenance(),
    }


def write(result: Mapping[str, Any], out: str | Path, result_file: str = "day0_result.json") -> str:
    """Render and write ``out/validation_report.md`` and ``out/validation_report.json``; return the Markdown."""
    markdown = render(result)
    document = report_json(result, result_file)
    write_artifact("validation_report", Path(out) / REPORT_JSON, document)
    write_artifact_text("validation_report", Path(out) / REPORT_MD, markdown)
    return markdown
