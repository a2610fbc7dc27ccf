"""The drift timeline: one skill set audited against every release in a range, in one run.

:func:`run_history` takes the releases (oldest first, each an ``(spec, Snapshot)``), reads the skills
and their claims once, gets each release's facts from the facts cache (:func:`quarkci.facts.cache.facts_of`)
and audits the claims against each release with the previous one as baseline. A kind of fact a
release does not show (0.9 has no template module) makes its claims unverifiable there, never
removals: the rules only report drift against facts a release shows.

Output: :class:`Timeline` with one :class:`Point` per release (finding counts per kind and per rule)
plus :func:`to_json` / :func:`to_markdown` (Mermaid charts, one per drift kind, via :mod:`quarkci.core.mermaid`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from quarkci.core import mermaid
from quarkci.core.escape import code, md
from quarkci.core.findings import KINDS
from quarkci.facts.cache import facts_of
from quarkci.skills.model import Claim, Skill
from quarkci.sync import policy
from quarkci.sync.audit import audit
from quarkci.sync.state import AuditState, UpstreamView
from quarkci.upstream.base import Snapshot

FORMAT = "quarkci-drift-history/1"


@dataclass(frozen=True)
class Point:
    """One release of the timeline: finding counts per kind and per rule, and the fingerprints seen."""

    version: str
    label: str
    baseline: str | None
    counts: dict[str, int]
    rules: dict[str, int]
    fingerprints: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Timeline:
    """The releases audited, oldest first, and the skill set they were audited with."""

    skills_root: str
    skills: int
    claims: int
    points: tuple[Point, ...]


def view_of(spec: str, snapshot: Snapshot) -> UpstreamView:
    """An :class:`UpstreamView` of ``snapshot`` with cached facts."""
    return UpstreamView(
        spec=spec,
        kind=snapshot.kind,
        facts=facts_of(snapshot),
        files=frozenset(snapshot.files()),
        complete=snapshot.kind == "checkout",
        snapshot=snapshot,
    )


def run_history(
    releases: list[tuple[str, Snapshot]],
    skills: list[Skill],
    claims: list[Claim],
    read_skill_file: Any,
    skills_root: str,
    config: policy.Config | None = None,
    skill_files: frozenset[str] | None = None,
) -> Timeline:
    """Audit ``claims`` against each release of ``releases`` (oldest first; each audited with the
    previous one as baseline, the first without). Facts are extracted once per release (cached by the
    wheel's sha256 across runs). ``skill_files``: every file of the skills tree (for the link rule).
    Returns the :class:`Timeline`."""
    points: list[Point] = []
    previous: UpstreamView | None = None
    for spec, snapshot in releases:
        view = view_of(spec, snapshot)
        state = AuditState(skills, claims, view, previous, read_skill_file, skill_files)
        result = audit(state, config)
        found = result.findings.findings
        points.append(
            Point(
                view.version,
                view.label,
                previous.version if previous else None,
                result.findings.counts(),
                dict(sorted(Counter(f.rule for f in found).items())),
                tuple(sorted(f.fingerprint for f in found if f.kind != "unverifiable")),
            )
        )
        previous = view
    return Timeline(skills_root, len(skills), len(claims), tuple(points))


def to_json(timeline: Timeline) -> dict[str, Any]:
    """The JSON document of the timeline (``format`` quarkci-drift-history/1)."""
    return {
        "format": FORMAT,
        "skills_root": timeline.skills_root,
        "skills": timeline.skills,
        "claims": timeline.claims,
        "releases": [
            {
                "version": p.version,
                "label": p.label,
                "baseline": p.baseline,
                "counts": p.counts,
                "rules": p.rules,
                "fingerprints": list(p.fingerprints),
            }
            for p in timeline.points
        ],
    }


def chart(timeline: Timeline) -> str:
    """Mermaid bar charts, x = releases: one chart per drift kind that some release has (breaking,
    semantic, mechanical), the kind in its title (one bar series per chart: :mod:`quarkci.core.mermaid`)."""
    versions = mermaid.unique_labels([p.version for p in timeline.points])
    charts = []
    for kind in KINDS:
        values: Sequence[float] = [float(p.counts.get(kind, 0)) for p in timeline.points]
        if kind != "unverifiable" and any(values):
            charts.append(
                mermaid.bar_chart(f"{kind.capitalize()} findings per release", versions, values, "findings")
            )
    return "\n".join(charts)


def to_markdown(timeline: Timeline) -> str:
    """The Markdown report: the chart, then a release x kind table and the rules per release."""
    lines = [
        "<!-- quarkci:report:drift-history -->",
        "# Drift history",
        "",
        f"{timeline.skills} skills ({timeline.claims} claims) under {code(timeline.skills_root)}, "
        f"audited against {len(timeline.points)} releases, each with the previous one as baseline.",
        "",
    ]
    drawn = chart(timeline)
    if drawn:
        lines += [drawn, "One chart per drift kind (a kind no release has is not drawn).", ""]
    lines += [
        "| Release | " + " | ".join(k.capitalize() for k in KINDS) + " | Rules |",
        "| --- | " + " | ".join("---:" for _ in KINDS) + " | --- |",
    ]
    for p in timeline.points:
        rules = ", ".join(f"{code(r)} {n}" for r, n in p.rules.items()) or "—"
        lines.append(
            f"| {md(p.version)} | " + " | ".join(str(p.counts.get(k, 0)) for k in KINDS) + f" | {rules} |"
        )
    lines += [
        "",
        "Unverifiable: claims whose facts the release does not show (e.g. a module it lacks); "
        "never counted as drift.",
    ]
    return "\n".join(lines) + "\n"
