"""``quarkci sync``: audit agent skills against an upstream Quark release and write the report.

Shape: parse -> :class:`Args` -> ``build_*`` (upstream, skills, baseline, config) -> pure audit ->
renderers -> exit code. Progress goes to stderr; ``--json`` prints the JSON report on stdout.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from quarkci.commands import arguments as _args
from quarkci.core.errors import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_UPSTREAM_UNREACHABLE,
    BadInputError,
    UpstreamUnreachableError,
)
from quarkci.core.paths import check_output_dir
from quarkci.facts.cache import facts_of
from quarkci.report import json_report, lines
from quarkci.report.write import REPORT_MD, write_reports
from quarkci.skills import DirectorySource, SkillSource, SnapshotSource, discover, open_skills
from quarkci.skills.claims import extract_claims
from quarkci.skills.model import Claim, Skill
from quarkci.sync import baseline as baselines
from quarkci.sync import fixer, policy
from quarkci.sync.audit import audit
from quarkci.sync.outcome import SyncOutcome
from quarkci.sync.policy import FAIL_ON
from quarkci.sync.state import AuditState, UpstreamView
from quarkci.upstream.base import Snapshot
from quarkci.upstream.pypi import PyPIIndex
from quarkci.upstream.resolve import SPEC_HELP, resolve

DEFAULT_UPSTREAM = "amd-quark"
DEFAULT_OUT = "reports"
NO_BASELINE = "none"


@dataclass(frozen=True)
class Args:
    """The typed arguments of ``quarkci sync``."""

    upstream: str
    skills: str | None
    baseline: str | None
    record_baseline: bool
    fix: bool
    out: Path
    json: bool
    fail_on: str


def add_parser(subparsers: _args.Subparsers) -> None:
    p = subparsers.add_parser(
        "sync", help="audit skills against an upstream Quark release (the main job)",
        description="Audit agent skills against an upstream Quark release and write "
                    "validation_report.md/.json (exit 0 clean, 1 findings at or above --fail-on, "
                    "2 bad input, 3 upstream unreachable: a blocked-audit report is still written).")
    p.add_argument("--upstream", default=DEFAULT_UPSTREAM, metavar="SPEC", type=_args.upstream_spec,
                   help=f"the Quark release to audit against: {SPEC_HELP} (default: newest amd-quark on PyPI)")
    p.add_argument("--skills", default=None, metavar="DIR|bundled:SPEC", type=_args.skills_spec,
                   help="skills to audit: a directory holding SKILL.md files, or bundled:SPEC for a release's "
                        "bundled skills (default: the upstream release's bundled skills)")
    p.add_argument("--baseline", default=None, metavar="FILE|SPEC", type=_args.baseline_spec,
                   help="a stored baseline JSON file, an upstream spec, or 'none' to skip the release diff "
                        "(offline runs) (default: the previous release, from OUT/baselines/<version>.json "
                        "when recorded)")
    p.add_argument("--record-baseline", dest="record_baseline", action="store_true",
                   help="record OUT/baselines/<upstream version>.json (also done when no baseline exists)")
    p.deprecate("--calibrate", "--record-baseline")
    p.add_argument("--fix", action="store_true",
                   help="apply mechanical fixes to the SKILL.md files in place (needs --skills DIR)")
    p.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", type=_args.output_dir,
                   help="report directory: validation_report.md/.json/.sarif and baselines/ (default: reports/)")
    p.add_argument("--json", action="store_true", help="print the JSON report on stdout")
    p.add_argument("--fail-on", default="breaking", choices=FAIL_ON,
                   help="exit 1 when a finding of this kind or worse exists (default: breaking)")
    p.set_defaults(func=run)


def progress(message: str) -> None:
    print(f"quarkci: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# builders


def build_view(spec: str, snapshot: Snapshot) -> UpstreamView:
    """Facts + file list of a live snapshot."""
    facts = facts_of(snapshot)
    return UpstreamView(spec=spec, kind=snapshot.kind, facts=facts, files=frozenset(snapshot.files()),
                        complete=snapshot.kind == "checkout", snapshot=snapshot)


def build_skills(spec: str | None, snapshot: Snapshot | None) -> tuple[SkillSource, str]:
    """The skills source and its label: ``--skills`` as given, else the snapshot's bundled skills."""
    if spec is None:
        if snapshot is None:
            raise BadInputError("--skills is required when the upstream cannot be read")
        return SnapshotSource(snapshot), f"bundled:{snapshot.label}"
    return open_skills(spec), spec


def read_skills(source: SkillSource) -> tuple[list[Skill], list[Claim]]:
    skills = discover(source)
    claims = [c for s in skills if s.error is None for c in extract_claims(s, source.read_text)]
    return skills, claims


def build_baseline(spec: str | None, upstream: UpstreamView, out: Path,
                   index: PyPIIndex | None) -> tuple[UpstreamView | None, str]:
    """The baseline view and a note. ``spec``: a baseline file, an upstream spec, or None for the
    previous release (stored ``OUT/baselines/<prev>.json`` first, else its PyPI wheel).

    An explicit baseline that cannot be read is bad input; a default one that cannot be reached
    leaves the run without a baseline (calibration mode).
    """
    if spec == NO_BASELINE:  # offline runs (the pre-commit hook): audit the release alone
        return None, "no baseline (--baseline none): the release diff is skipped"
    if spec is not None:
        path = Path(spec)
        if path.suffix == ".json" or path.is_file() and not spec.endswith(".whl"):
            return baselines.load(path), f"baseline file {spec}"
        progress(f"resolving baseline {spec}")
        return build_view(spec, resolve(spec, flag="--baseline")), f"baseline {spec}"
    try:
        previous = (index or PyPIIndex()).previous(upstream.version)
    except (UpstreamUnreachableError, BadInputError) as exc:
        return None, f"no baseline: previous release unknown ({exc})"
    if previous is None:
        return None, f"no baseline: no release before {upstream.version}"
    stored = out / "baselines" / f"{previous}.json"
    if stored.is_file():
        return baselines.load(stored), f"baseline {stored}"
    try:
        progress(f"resolving baseline amd-quark=={previous} (previous release)")
        return build_view(f"amd-quark=={previous}", resolve(f"amd-quark=={previous}", index)), \
            f"baseline amd-quark=={previous}"
    except UpstreamUnreachableError as exc:
        return None, f"no baseline: amd-quark=={previous} unreachable ({exc})"


# ---------------------------------------------------------------------------------------------
# core


def _relative(path: str) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return path


def blocked(args: Args, reason: str) -> int:
    """Write the blocked-audit report naming the skills that could not be verified; exit 3."""
    names: list[str] = []
    skills: list[Skill] = []
    if args.skills is not None and not args.skills.startswith("bundled:"):
        try:
            skills = discover(DirectorySource(Path(args.skills)))
            names = [s.id for s in skills]
        except (BadInputError, OSError):
            names = []
    outcome = SyncOutcome(
        mode="blocked", upstream=(args.upstream, None, None, None), baseline=None,
        skills_root=args.skills or f"bundled:{args.upstream}", skills=tuple(skills),
        findings=policy.FindingSet(()), blocked=(reason, tuple(names)),
    )
    json_text, _ = write_reports(outcome, args.out)
    if args.json:
        sys.stdout.write(json_text)
    print(f"quarkci: error: upstream unreachable: {reason}; blocked-audit report in {args.out}", file=sys.stderr)
    return EXIT_UPSTREAM_UNREACHABLE


def check_args(args: Args) -> None:
    """Refuse bad input (exit 2) before any network step, Quark read or write: an unwritable ``--out``
    (probed by creating a file), ``--fix`` without ``--skills DIR``, and a ``--skills DIR`` holding no
    SKILL.md or only unreadable ones. (Spec syntax is checked while parsing: quarkci.commands.arguments.)"""
    check_output_dir(args.out, "--out")
    local = args.skills is not None and not args.skills.startswith("bundled:")
    if args.fix and not local:
        raise BadInputError("--fix needs --skills DIR (bundled skills are read-only)")
    if local:
        require_readable(discover(open_skills(args.skills)), f"--skills {args.skills}")


def require_readable(skills: list[Skill], label: str) -> None:
    """Raise :class:`BadInputError` when ``skills`` is empty or none of them could be read."""
    if not skills:
        raise BadInputError(f"{label}: no SKILL.md found in it; 0 skills would be audited")
    if all(s.error for s in skills):
        raise BadInputError(f"{label}: none of the {len(skills)} skills is readable ({skills[0].error})")


def execute(args: Args, index: PyPIIndex | None = None) -> int:
    """Run the sync described by ``args``; returns the exit code (see module doc)."""
    check_args(args)
    progress(f"resolving upstream {args.upstream}")
    try:
        snapshot = resolve(args.upstream, index)
    except UpstreamUnreachableError as exc:
        return blocked(args, str(exc))
    try:
        return _audit(args, snapshot, index)
    except UpstreamUnreachableError as exc:  # a bundled:SPEC or baseline spec that needs PyPI
        return blocked(args, str(exc))


def _audit(args: Args, snapshot: Snapshot, index: PyPIIndex | None) -> int:
    progress(f"extracting facts of {snapshot.label}")
    upstream = build_view(args.upstream, snapshot)
    source, skills_label = build_skills(args.skills, snapshot)
    if args.fix and not isinstance(source, DirectorySource):
        raise BadInputError("--fix needs --skills DIR (bundled skills are read-only)")
    config = policy.load_config(Path(args.skills) if isinstance(source, DirectorySource) else None)
    progress(f"reading skills from {skills_label}")
    skills, claims = read_skills(source)
    if not skills:  # a wrong --skills path, an empty directory or a release without bundled skills
        flag = f"--skills {args.skills}" if args.skills is not None else "--skills (default: bundled skills)"
        raise BadInputError(f"{flag}: no SKILL.md found in {skills_label}; 0 skills would be audited")
    require_readable(skills, f"--skills {skills_label}")
    base, base_note = build_baseline(args.baseline, upstream, args.out, index)
    notes = [base_note]
    progress(f"auditing {len(skills)} skills ({len(claims)} claims)")
    state = AuditState(skills, claims, upstream, base, source.read_text)
    result = audit(state, config)
    applied: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    if args.fix:
        read, write = fixer.directory_io(Path(args.skills))
        done = fixer.apply_fixes(result.findings.findings, read, lambda f, t: _relative(write(f, t)))
        applied, changed = done.applied, done.changed_files
        notes += [f"fix not applied: {s}" for s in done.skipped]
        if changed:
            progress(f"applied {len(applied)} fixes to {len(changed)} files; re-auditing")
            skills, claims = read_skills(source)
            state = AuditState(skills, claims, upstream, base, source.read_text)
            result = audit(state, config)
    calibrated = None
    if args.record_baseline or base is None:
        calibrated = _relative(str(baselines.save(upstream, args.out / "baselines")))
        progress(f"recorded baseline {calibrated}")
    diff = tuple(baselines.diff(base, upstream, skills, claims)) if base is not None else ()
    outcome = SyncOutcome(
        mode="audit" if base is not None else "calibration",
        upstream=(args.upstream, upstream.version, upstream.kind, upstream.label),
        baseline=(base.version, base.label) if base is not None else None,
        skills_root=skills_label, skills=tuple(skills), findings=result.findings, release_diff=diff,
        applied_fixes=applied, changed_files=changed, skipped_rules=result.skipped, calibrated=calibrated,
        notes=tuple(notes),
    )
    prefix = "" if args.skills is None or args.skills.startswith("bundled:") else args.skills.rstrip("/") + "/"
    json_text, _ = write_reports(outcome, args.out, prefix)
    if args.json:
        sys.stdout.write(json_text)
    else:
        sys.stdout.write(lines.canonical(result.findings.drift()))
        print(f"{json_report.build(outcome).summary} -> {args.out / REPORT_MD}")
    for skill in skills:  # each is also a skill-unreadable finding: --fail-on decides the exit code
        if skill.error:
            print(f"quarkci: skill unreadable: {skill.path}: {skill.error}", file=sys.stderr)
    return EXIT_FINDINGS if result.findings.fails(args.fail_on) else EXIT_OK


def run(args: argparse.Namespace) -> int:
    """argparse entry point: typed args, then :func:`execute`."""
    return execute(Args(upstream=args.upstream, skills=args.skills, baseline=args.baseline,
                        record_baseline=args.record_baseline, fix=args.fix, out=Path(args.out), json=args.json,
                        fail_on=args.fail_on))
