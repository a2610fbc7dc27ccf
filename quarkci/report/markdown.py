"""``validation_report.md`` rendered with Jinja2 from the same DTO as the JSON report."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jinja2
import jsonschema

from quarkci.core import mermaid, templates
from quarkci.core.errors import BadInputError
from quarkci.core.findings import KINDS
from quarkci.report import json_report
from quarkci.report.dto import build
from quarkci.sync.outcome import SyncOutcome

TEMPLATE = "validation_report.md.j2"
SECTION_TITLES = {
    "breaking": "Breaking",
    "semantic": "Semantic",
    "mechanical": "Mechanical",
    "unverifiable": "Unverifiable",
}


def environment() -> jinja2.Environment:
    """The report package's Jinja2 environment (:func:`quarkci.core.templates.environment`)."""
    return templates.environment("quarkci.report")


def _field(obj: Any, name: str) -> Any:
    """``obj.name`` for the DTO, ``obj[name]`` for a report read back from JSON."""
    return obj[name] if isinstance(obj, dict) else getattr(obj, name)


def _where(loc: Any) -> str:
    if loc is None:
        return ""
    file, line = _field(loc, "file"), _field(loc, "line")
    return f"{file}:{line}" if line else file


def render(outcome: SyncOutcome) -> str:
    """The Markdown report; byte-identical for identical input (no timestamps, stable order)."""
    return _render(build(outcome))


def render_json(payload: dict[str, Any]) -> str:
    """Re-render the Markdown from a ``validation_report.json`` document (e.g. an artifact of a fork
    PR's run: untrusted). Every string goes through the same escaping filters as :func:`render`, so
    the result cannot ping people, inject HTML or break out of code fences.

    Raises :class:`~quarkci.core.errors.BadInputError` when ``payload`` breaks the validation_report
    schema or lacks a field the report shows.
    """
    try:
        json_report.validate(payload)
    except jsonschema.ValidationError as exc:
        where = "$" + "".join(f"[{p!r}]" if isinstance(p, int) else f".{p}" for p in exc.absolute_path)
        raise BadInputError(f"not a quarkci validation report: {where}: {exc.message[:200]}") from None
    try:
        return _render(payload)
    except (jinja2.UndefinedError, KeyError, TypeError) as exc:
        raise BadInputError(f"validation report lacks a field the Markdown shows: {exc}") from None


# Every status a report can carry, defined once (the footer of every report lists them).
STATUSES = {
    "success": "no drift: every checkable claim matches the release (unverifiable claims are not drift)",
    "partial": "semantic or mechanical drift only, or some skill files could not be read: nothing is known "
    "to break, but the skills are out of date",
    "failed": "breaking drift (a skill tells users to run something the release rejects), or the audit "
    "was blocked (upstream unreachable)",
}
MAX_CHART_SKILLS = 20


def skill_chart(findings: list[Any]) -> str:
    """A Mermaid bar chart of drift finding counts per skill (most first, at most 20 skills), one bar
    series per drift kind; "" when there is no drift. Skill names are escaped by :mod:`mermaid`."""
    drift = [k for k in KINDS if k != "unverifiable"]
    per: dict[str, dict[str, int]] = {}
    for f in findings:
        if _field(f, "kind") in drift:
            counts = per.setdefault(str(_field(f, "skill")), dict.fromkeys(drift, 0))
            counts[_field(f, "kind")] += 1
    ranked = sorted(per, key=lambda s: (-sum(per[s].values()), s))[:MAX_CHART_SKILLS]
    names = [s.rsplit("/", 1)[-1] for s in ranked]
    series: dict[str, Sequence[float]] = {k: [float(per[s][k]) for s in ranked] for k in drift}
    return mermaid.bar_chart("Drift findings per skill", names, series, "findings")


def unverifiable_groups(findings: list[Any]) -> list[dict[str, Any]]:
    """Unverifiable findings grouped by rule (largest first): count, one reason, up to 3 examples."""
    groups: dict[str, list[Any]] = {}
    for f in findings:
        if _field(f, "kind") == "unverifiable":
            groups.setdefault(str(_field(f, "rule")), []).append(f)
    out = []
    for rule, items in sorted(groups.items(), key=lambda g: (-len(g[1]), g[0])):
        reasons: dict[str, int] = {}
        for f in items:
            reasons[str(_field(f, "source_says"))] = reasons.get(str(_field(f, "source_says")), 0) + 1
        reason = max(reasons, key=lambda r: (reasons[r], r))
        out.append(
            {
                "rule": rule,
                "count": len(items),
                "reason": reason,
                "reasons": len(reasons),
                "examples": [f"{_field(f, 'skill')}: {_field(f, 'skill_says')}" for f in items[:3]],
            }
        )
    return out


def _render(report: Any) -> str:
    sections = []
    findings = list(_field(report, "findings"))
    for kind in KINDS:
        items = [f for f in findings if _field(f, "kind") == kind]
        sections.append({"kind": kind, "title": SECTION_TITLES[kind], "findings": items})
    release_diff = _field(report, "release_diff")
    text = (
        environment()
        .get_template(TEMPLATE)
        .render(
            report=report,
            sections=sections,
            where=_where,
            touched=[c for c in release_diff if c["skills"]],
            untouched=sum(1 for c in release_diff if not c["skills"]),
            broken=[s for s in _field(report, "skills") if s["error"]],
            chart=skill_chart(findings),
            unverifiable=unverifiable_groups(findings),
            statuses=STATUSES,
            fixable=sum(1 for f in findings if _field(f, "kind") == "mechanical" and _field(f, "fix")),
        )
    )
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
