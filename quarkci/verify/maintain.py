"""``verify maintain``: re-run the inventory, compare it with the skill's feature map, report drift
through skill sync's machinery (Finding -> sync policy classification -> FindingSet ->
validation_report.md/.json/.sarif), and with ``--fix`` update the map for mechanical drift.

With ``--fix`` the report also carries what ``quarkci gh pr --key verify-<lib>`` needs to open the
corrections PR, as ``quarkci sync --fix`` does for the drift PR: ``applied_fixes`` (one line per
mechanical finding fixed) and ``changed_files`` (the skill's files whose bytes the fix changed --
``features/map.json`` and the regenerated feature files -- relative to the working directory, so run
it from the repository root).

:func:`maintain` writes the reports and returns a :class:`MaintainResult`; ``quarkci verify maintain``
(:mod:`quarkci.commands.verify`) renders it. Exit codes as ``quarkci sync``: 0 clean, 1 drift at or
above ``--fail-on``, 2 bad input.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from quarkci.core.atomic import atomic_write_text
from quarkci.core.findings import Finding
from quarkci.core.rules import run_rules
from quarkci.report.write import REPORT_MD, write_reports
from quarkci.skills.discover import discover
from quarkci.skills.source import DirectorySource
from quarkci.sync.outcome import SyncOutcome
from quarkci.sync.policy import Config, FindingSet, classify
from quarkci.verify import featuremap
from quarkci.verify.featuremap import FeatureMap
from quarkci.verify.generate import generate
from quarkci.verify.inventory import locate, scan
from quarkci.verify.model import Inventory
from quarkci.verify.rules import RULES
from quarkci.verify.rules._common import MaintainState


def findings(state: MaintainState) -> FindingSet:
    """Every rule's findings, classified by the sync policy's default table, in report order (run by
    :func:`quarkci.core.rules.run_rules`, as skill sync runs its rules: a skipping rule is recorded, a
    crash is :class:`~quarkci.core.rules.RuleError`)."""
    raw, _skipped = run_rules(RULES, state)
    found: list[Finding] = [classify(f, Config()) for f in raw]
    return FindingSet(tuple(sorted(found, key=Finding.sort_key)))


def _fresh(
    skill: Path, mapped: FeatureMap, repo: str | None, scratch: Path
) -> tuple[FeatureMap, Inventory, Path]:
    """The map a fresh inventory gives, generated into ``scratch`` (never into the skill)."""
    spec = repo or mapped.get("repo", mapped["source"])
    if repo is None and not spec.startswith("installed"):
        spec = str((skill / spec).resolve())  # a checkout, recorded relative to the skill
    library = locate(spec)
    inventory = scan(library, mapped["library"])
    workdir = (skill / mapped["workdir"]).resolve()
    shadow = generate(inventory, scratch, workdir, mapped.get("dist", ""))
    return featuremap.load(shadow), inventory, workdir


def _snapshot(skill: Path) -> dict[Path, bytes]:
    """Every file under ``skill`` with its bytes."""
    return {p: p.read_bytes() for p in sorted(skill.rglob("*")) if p.is_file()}


def _relative(path: Path) -> str:
    """``path`` relative to the working directory in POSIX form (as ``quarkci sync`` records it)."""
    try:
        return Path(os.path.relpath(path)).as_posix()
    except ValueError:  # another drive
        return path.as_posix()


def changed_files(before: dict[Path, bytes], skill: Path) -> tuple[str, ...]:
    """The files under ``skill`` that are new or whose bytes differ from ``before`` (sorted, relative
    to the working directory). A file the fix removed is not listed: a PR built from these files only
    adds and edits."""
    after = _snapshot(skill)
    return tuple(sorted(_relative(p) for p, data in after.items() if before.get(p) != data))


def _apply(
    skill: Path,
    mapped: FeatureMap,
    current: FeatureMap,
    fixed: FindingSet,
    inventory: Inventory,
    workdir: Path,
) -> list[str]:
    """Regenerate the skill from the fresh inventory, keeping what breaking drift names (removed
    families stay mapped until a human decides) and the proofs whose harness did not move."""
    mechanical = [f for f in fixed.findings if f.kind == "mechanical"]
    if not mechanical:
        return []
    skill_root = skill.parent
    generate(inventory, skill_root, workdir, mapped.get("dist", ""))
    data = featuremap.load(skill)
    now = {f["name"] for f in data["families"]}
    for fam in mapped["families"]:
        if fam["name"] not in now:
            data["families"].append(fam)
            data["features"] += [f for f in mapped["features"] if f["family"] == fam["name"]]
    old = {f["name"]: f for f in mapped["families"]}
    for fam in data["families"]:  # a removed entry point stays mapped: breaking drift is never auto-fixed
        if fam["name"] in old and fam is not old[fam["name"]]:
            targets = {e["target"] for e in fam["entry_points"]}
            kept = [e for e in old[fam["name"]]["entry_points"] if e["target"] not in targets]
            fam["entry_points"] = [*fam["entry_points"], *kept]
    harness = {f["id"]: f["harness"] for f in data["features"]}
    data["proofs"] = [p for p in mapped.get("proofs", []) if harness.get(p["feature"]) == p["harness"]]
    atomic_write_text(skill / featuremap.MAP_FILE, featuremap.dump(data))
    return [f"{f.rule}: {f.subject}" for f in mechanical]


def _status(proved: bool) -> str:
    return "skill status: " + ("proved" if proved else "draft (never proved)")


@dataclass(frozen=True)
class MaintainResult:
    """What :func:`maintain` found and wrote: ``outcome`` (the findings, classified; with ``--fix`` the
    fixes applied and the skill files they changed), ``report_json`` (the text of the
    ``validation_report.json`` written), ``report_md`` (the Markdown report's path) and ``proved``
    (the skill's map records a proof)."""

    outcome: SyncOutcome
    report_json: str
    report_md: Path
    proved: bool

    @property
    def status(self) -> str:
        """The skill's status line (``skill status: proved`` or ``... draft (never proved)``)."""
        return _status(self.proved)

    def fails(self, fail_on: str) -> bool:
        """True when a finding is at or above kind ``fail_on`` (``none`` never fails)."""
        return self.outcome.findings.fails(fail_on)


def maintain(skill: Path, repo: str | None, fix: bool, out: Path) -> MaintainResult:
    """Report drift of ``skill`` against ``repo`` (default: the map's source) into ``out``
    (``validation_report.md/.json/.sarif``); with ``fix``, correct the mechanical drift first (see the
    module doc). Raises :class:`~quarkci.core.errors.BadInputError` for an unreadable map or library."""
    import tempfile

    mapped = featuremap.load(skill)
    name = skill.name
    with tempfile.TemporaryDirectory(prefix="quarkci-verify-maintain-") as tmp:
        current, inventory, workdir = _fresh(skill, mapped, repo, Path(tmp))
        state = MaintainState(skill=name, mapped=mapped, current=current)
        result = findings(state)
        applied: list[str] = []
        changed: tuple[str, ...] = ()
        if fix:
            before = _snapshot(skill)
            applied = _apply(skill, mapped, current, result, inventory, workdir)
            changed = changed_files(before, skill)
            if applied:
                result = findings(MaintainState(skill=name, mapped=featuremap.load(skill), current=current))
    proved = bool(featuremap.load(skill).get("proofs"))
    notes = [f"feature map {skill / featuremap.MAP_FILE}", _status(proved)]
    outcome = SyncOutcome(
        mode="audit",
        upstream=(repo or mapped["source"], inventory.version or None, "verify", inventory.source),
        baseline=None,
        skills_root=str(skill.parent),
        skills=tuple(discover(DirectorySource(skill.parent))),  # every SKILL.md the report counts
        findings=result,
        applied_fixes=tuple(applied),
        changed_files=changed,
        notes=tuple(notes),
    )
    json_text, _ = write_reports(outcome, out)
    return MaintainResult(outcome, json_text, out / REPORT_MD, proved)
