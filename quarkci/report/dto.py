"""Frozen wire DTOs of ``validation_report.json`` (report_version 1), apart from the internal types.

The wire contract is ``quarkci/core/schemas/validation_report.schema.json`` (Quark's required
``status``/``summary``/``evidence``/``next_actions`` plus optional quarkci fields). Changing a field
here is a contract change for the GitHub-delivery and Actions consumers.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from quarkci.core.findings import Finding, Location
from quarkci.core.paths import repository_root
from quarkci.sync.outcome import SyncOutcome

REPORT_VERSION = 1


@dataclass(frozen=True)
class LocationV1:
    file: str
    line: int


@dataclass(frozen=True)
class FixV1:
    file: str
    line: int
    old: str
    new: str
    insert_after: bool
    description: str


@dataclass(frozen=True)
class FindingV1:
    fingerprint: str
    kind: str
    rule: str
    category: str
    skill: str
    subject: str
    skill_says: str
    source_says: str
    impact: str
    skill_location: LocationV1 | None
    source_location: LocationV1 | None
    fix: FixV1 | None


@dataclass(frozen=True)
class ReportV1:
    status: str
    summary: str
    evidence: tuple[str, ...]
    next_actions: tuple[str, ...]
    applied_fixes: tuple[str, ...]
    report_version: int
    mode: str
    upstream: dict[str, str | None]
    baseline: dict[str, str] | None
    skills_root: str
    skills: tuple[dict[str, str | None], ...]
    counts: dict[str, int]
    findings: tuple[FindingV1, ...]
    release_diff: tuple[dict[str, Any], ...]
    changed_files: tuple[str, ...]
    blocked: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        """Plain JSON types (tuples become lists)."""
        plain: dict[str, Any] = _plain(asdict(self))
        return plain


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _loc(loc: Location | None) -> LocationV1 | None:
    return LocationV1(loc.file, loc.line) if loc is not None else None


def finding_v1(f: Finding) -> FindingV1:
    fix = (
        FixV1(f.fix.file, f.fix.line, f.fix.old, f.fix.new, f.fix.insert_after, f.fix.description)
        if f.fix is not None
        else None
    )
    return FindingV1(
        f.fingerprint,
        f.kind,
        f.rule,
        f.category,
        f.skill,
        f.subject,
        f.skill_says,
        f.source_says,
        f.impact,
        _loc(f.skill_location),
        _loc(f.source_location),
        fix,
    )


def status_of(outcome: SyncOutcome) -> str:
    """``failed`` when blocked or breaking drift exists; ``partial`` for other drift or skills that
    could not be read; ``success`` otherwise (unverifiable claims are not drift)."""
    counts = outcome.findings.counts()
    if outcome.blocked is not None or counts["breaking"]:
        return "failed"
    if counts["semantic"] or counts["mechanical"] or any(s.error for s in outcome.skills):
        return "partial"
    return "success"


def fix_requested(outcome: SyncOutcome) -> bool:
    """Whether the run was ``sync --fix``: ``outcome.fix`` when the producer says so, else whether any fix
    was applied or any file changed."""
    if outcome.fix is not None:
        return outcome.fix
    return bool(outcome.applied_fixes or outcome.changed_files)


def mode_of(outcome: SyncOutcome) -> str:
    """The report's ``mode``: ``fix`` for an audit run with ``--fix``, else ``outcome.mode`` (``audit``,
    ``calibration`` - no baseline, whether or not fixes were applied - or ``blocked``)."""
    return "fix" if outcome.mode == "audit" and fix_requested(outcome) else outcome.mode


def fixable_left(outcome: SyncOutcome) -> int:
    """Mechanical findings that carry a fix ``--fix`` can apply (after a ``--fix`` run: the ones left)."""
    return sum(1 for f in outcome.findings.findings if f.kind == "mechanical" and f.fix is not None)


def by_hand(outcome: SyncOutcome) -> int:
    """Mechanical findings no ``--fix`` edit covers (no fix of their own, none of a list fix they belong
    to): each is edited by hand."""
    return sum(
        1
        for f in outcome.findings.findings
        if f.kind == "mechanical" and f.fix is None and "(fixed together with" not in f.source_says
    )


def summary_of(outcome: SyncOutcome) -> str:
    """``"12 findings: 3 breaking, 2 semantic, 7 mechanical; 4 unverifiable"`` (or the blocked reason); a
    ``--fix`` run adds ``"; 8 fixes applied, 0 fixable left"`` (the counts are those after the fixes) and,
    when some mechanical findings have no fix, ``", 2 mechanical to edit by hand"``, so a count of fixes
    left is never read as "nothing left to do"."""
    c = outcome.findings.counts()
    if outcome.blocked is not None:
        return f"blocked: {outcome.blocked[0]}; {len(outcome.blocked[1])} skills could not be verified"
    drift = c["breaking"] + c["semantic"] + c["mechanical"]
    text = (
        f"{drift} findings: {c['breaking']} breaking, {c['semantic']} semantic, {c['mechanical']} mechanical; "
        f"{c['unverifiable']} unverifiable"
    )
    if fix_requested(outcome):
        text += f"; {len(outcome.applied_fixes)} fixes applied, {fixable_left(outcome)} fixable left"
        if hand := by_hand(outcome):
            text += f", {hand} mechanical to edit by hand"
    return text


def evidence_of(outcome: SyncOutcome) -> list[str]:
    spec, version, kind, label = outcome.upstream
    out = [f"upstream: {label or spec}" + (f" (version {version}, {kind})" if version else "")]
    out.append(f"skills: {len(outcome.skills)} SKILL.md under {outcome.skills_root}")
    if outcome.baseline is not None:
        out.append(f"baseline: {outcome.baseline[1]} (version {outcome.baseline[0]})")
    if outcome.calibrated:
        out.append(f"calibration: recorded {outcome.calibrated}")
    if outcome.release_diff:
        out.append(
            f"release diff: {len(outcome.release_diff)} changes, "
            f"{sum(1 for c in outcome.release_diff if c.skills)} touching skills"
        )
    for skill in outcome.skills:
        if skill.error:
            out.append(f"skill {skill.path} could not be read: {skill.error}")
    for rule, why in outcome.skipped_rules:
        out.append(f"rule {rule} skipped: {why}")
    if outcome.findings.ignored:
        out.append(f"ignored by policy: {len(outcome.findings.ignored)} findings")
    out.extend(outcome.notes)
    return out


def rerun_spec(outcome: SyncOutcome) -> str:
    """The ``--upstream`` spec that audits the same release again: the job's own spec, except that the
    bare ``amd-quark`` (the newest release, which can move) is pinned to the version audited."""
    spec, version = outcome.upstream[0], outcome.upstream[1]
    if version and spec.strip().lower().replace("_", "-") == "amd-quark":
        return f"amd-quark=={version}"
    return spec


def next_actions_of(outcome: SyncOutcome) -> list[str]:
    """What to do next, most urgent first, with commands that re-run this job's audit (same upstream,
    pinned by :func:`rerun_spec`; same skills)."""
    c = outcome.findings.counts()
    out = []
    if outcome.blocked is not None:
        out.append(
            "Re-run `quarkci sync` when the upstream is reachable (or pass --upstream PATH to a wheel "
            "or checkout)."
        )
    if c["breaking"]:
        out.append(
            f"Review {c['breaking']} breaking findings: the skills reference things the release no "
            "longer has; edit them by hand."
        )
    fixable = fixable_left(outcome)
    if fixable:
        spec = rerun_spec(outcome)
        if outcome.skills_root.startswith("bundled:"):
            out.append(
                f"Bundled skills are read-only: copy them with `quarkci skills export --skills "
                f"bundled:{spec} --out skills-fix`, then run `quarkci sync --upstream {spec} "
                f"--skills skills-fix --fix` to apply {fixable} mechanical fixes there and review the diff."
            )
        else:
            out.append(
                f"Run `quarkci sync --upstream {spec} --skills {outcome.skills_root} --fix` to apply "
                f"{fixable} mechanical fixes, then review the diff."
            )
    if c["semantic"]:
        out.append(f"Review {c['semantic']} semantic findings: behaviour or workflow assumptions changed.")
    if c["unverifiable"]:
        out.append(
            f"{c['unverifiable']} claims are unverifiable against this snapshot; audit against a git "
            "checkout of amd/Quark to check them."
        )
    if outcome.mode == "calibration":
        out.append("Commit the recorded baseline so the next release is diffed against it.")
    return out


def repository_relative(changed: tuple[str, ...], skills_root: str) -> tuple[str, ...]:
    """``changed`` (the files ``--fix`` wrote, as paths from the current directory or absolute) as POSIX
    paths relative to the git repository root holding ``skills_root``: the root ``gh pr --root`` and
    ``report github --workspace`` read them from, whatever directory the sync ran in. Outside a
    repository (no root to name) they stay relative to the current directory, as those commands'
    defaults (``.``, ``$GITHUB_WORKSPACE``) read them. A path outside the root is kept as given."""
    if not changed or skills_root.startswith("bundled:"):
        return changed
    root = repository_root(skills_root)
    if root is None:
        return changed
    out = []
    for name in changed:
        absolute = Path(name).resolve()
        out.append(absolute.relative_to(root).as_posix() if absolute.is_relative_to(root) else name)
    return tuple(out)


def build(outcome: SyncOutcome) -> ReportV1:
    """The JSON report DTO of ``outcome``."""
    spec, version, kind, label = outcome.upstream
    counts = outcome.findings.counts()
    counts["ignored"] = len(outcome.findings.ignored)
    return ReportV1(
        status=status_of(outcome),
        summary=summary_of(outcome),
        evidence=tuple(evidence_of(outcome)),
        next_actions=tuple(next_actions_of(outcome)),
        applied_fixes=outcome.applied_fixes,
        report_version=REPORT_VERSION,
        mode=mode_of(outcome),
        upstream={"spec": spec, "version": version, "kind": kind, "label": label},
        baseline={"version": outcome.baseline[0], "label": outcome.baseline[1]} if outcome.baseline else None,
        skills_root=outcome.skills_root,
        skills=tuple({"name": s.name, "path": s.path, "error": s.error} for s in outcome.skills),
        counts=counts,
        findings=tuple(finding_v1(f) for f in outcome.findings.findings),
        release_diff=tuple(c.to_json() for c in outcome.release_diff),
        changed_files=repository_relative(outcome.changed_files, outcome.skills_root),
        blocked={"reason": outcome.blocked[0], "skills": list(outcome.blocked[1])}
        if outcome.blocked
        else None,
    )
