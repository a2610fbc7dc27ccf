"""``validation_report.md`` rendered with Jinja2 from the same DTO as the JSON report."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jinja2

from quarkci.core import mermaid, templates
from quarkci.core.documents import check_document
from quarkci.core.errors import BadInputError
from quarkci.core.findings import KINDS
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


def render_json(payload: Any, where: str = "validation_report.json") -> str:
    """Re-render the Markdown from a ``validation_report.json`` document (e.g. an artifact of a fork
    PR's run: untrusted). Every string goes through the same escaping filters as :func:`render`, so
    the result cannot ping people, inject HTML or break out of code fences.

    Raises :class:`~quarkci.core.errors.BadInputError` when ``payload`` breaks the validation_report
    contract (``<where>: not a valid validation_report: $.path: message``, the one format of
    :func:`quarkci.core.documents.check_document`) or lacks a field the report shows.
    """
    check_document(payload, "validation_report", where)
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


def short_names(ids: Sequence[str]) -> list[str]:
    """The shortest trailing part of each skill id (``a/b/c``: ``c``, then ``b/c``...) that no other id of
    ``ids`` shares, so two skills with the same directory name (a thin adapter and its legacy
    implementation in 0.13) stay two labels: ``quark-torch-ptq`` and ``torch/quark-torch-ptq``."""
    parts = [i.split("/") for i in ids]
    depth = [1] * len(ids)
    while True:
        names = ["/".join(p[-d:]) for p, d in zip(parts, depth, strict=True)]
        clash = {n for n in names if names.count(n) > 1}
        grow = [k for k, n in enumerate(names) if n in clash and depth[k] < len(parts[k])]
        if not grow:
            return names  # (ids that are equal stay equal: mermaid.unique_labels numbers them)
        for k in grow:
            depth[k] += 1


def skill_charts(findings: list[Any]) -> str:
    """Mermaid bar charts of drift findings per skill: one chart per drift kind that has findings
    (breaking, semantic, mechanical), the kind in its title, at most 20 skills each (most first), each
    skill once on the axis and under the same label in every chart (:func:`short_names` over all the
    skills with drift); "" when there is no drift. Skill names are escaped by :mod:`mermaid`.
    (One bar series per chart: Mermaid draws several over each other, without a legend.)"""
    drift = [k for k in KINDS if k != "unverifiable"]
    per: dict[str, dict[str, int]] = {kind: {} for kind in drift}
    for f in findings:
        kind, skill = _field(f, "kind"), str(_field(f, "skill"))
        if kind in per:
            per[kind][skill] = per[kind].get(skill, 0) + 1
    skills = sorted({s for counts in per.values() for s in counts})
    names = dict(zip(skills, mermaid.unique_labels(short_names(skills)), strict=True))
    charts = []
    for kind in drift:
        counts = per[kind]
        if not counts:
            continue
        ranked = sorted(counts, key=lambda s: (-counts[s], s))
        shown = ranked[:MAX_CHART_SKILLS]
        title = f"{SECTION_TITLES[kind]} findings per skill"
        if len(ranked) > len(shown):
            title += f", top {len(shown)} of {len(ranked)}"
        values = [float(counts[s]) for s in shown]
        charts.append(mermaid.bar_chart(title, [names[s] for s in shown], values, "findings"))
    return "\n".join(charts)


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
            chart=skill_charts(findings),
            unverifiable=unverifiable_groups(findings),
            statuses=STATUSES,
            fixable=sum(1 for f in findings if _field(f, "kind") == "mechanical" and _field(f, "fix")),
        )
    )
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
