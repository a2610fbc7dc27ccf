"""The sync use case as a library function: :func:`run_sync` takes a :class:`SyncRequest` and returns a
:class:`SyncResult`.

Order (docs/architecture.md, "Commands"): every bad-input check first -- an unwritable ``out``, ``fix``
without a skills directory, a skills directory with no readable SKILL.md, a baseline file that is not
a valid quarkci baseline, and a stale one (made by other fact extractors) that cannot be rebuilt -- then
the network and the slow reads (the upstream release, bundled skills, a baseline release or the release
a stale baseline is rebuilt from), the pure audit, ``fix`` (re-audit when files changed) and the
recorded baseline.

A stored baseline is compared only when the running fact extractors made it
(:func:`quarkci.sync.baseline.staleness`); a stale one is rebuilt from its release
(:func:`current_baseline`), or, when that release cannot be reached, the run is refused (blocked, one
line naming the file): a baseline read by other extractors is never compared field by field.

The result carries the finished :class:`~quarkci.sync.outcome.SyncOutcome`; writing and printing the
reports is the caller's (``quarkci.report`` renders it; this package does not import it).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from packaging.version import Version

from quarkci.core.errors import BadInputError, UpstreamUnreachableError
from quarkci.core.paths import check_output_dir
from quarkci.facts import vocabulary
from quarkci.facts.cache import facts_of
from quarkci.skills import DirectorySource, SkillSource, SnapshotSource, discover, open_skills
from quarkci.skills.claims import extract_claims
from quarkci.skills.claims.lexicon import Lexicon
from quarkci.skills.model import Claim, Skill
from quarkci.sync import baseline as baselines
from quarkci.sync import fixer, policy
from quarkci.sync.audit import audit
from quarkci.sync.outcome import SyncOutcome
from quarkci.sync.state import AuditState, UpstreamView
from quarkci.upstream.base import Snapshot
from quarkci.upstream.fetch import PROJECT
from quarkci.upstream.pypi import PyPIIndex
from quarkci.upstream.resolve import resolve

NO_BASELINE = "none"  # --baseline none: audit the release alone (offline runs)

Progress = Callable[[str], None]
"""Receives one progress message per step (``quarkci sync`` prints them on stderr)."""


def _silent(message: str) -> None:
    """The default :data:`Progress`: says nothing."""


@dataclass(frozen=True)
class SyncRequest:
    """One sync run.

    ``upstream``: an upstream spec (:data:`quarkci.upstream.resolve.SPEC_HELP`); ``skills``: a directory,
    ``bundled:SPEC``, or None for the upstream release's bundled skills; ``baseline``: a baseline ``.json``
    file, an upstream spec, :data:`NO_BASELINE`, or None for the previous release; ``record_baseline``:
    write ``out/baselines/<version>.json``; ``fix``: apply mechanical fixes in place (needs a skills
    directory); ``out``: the report directory; ``fail_on``: a kind of :data:`quarkci.sync.policy.FAIL_ON`.
    """

    upstream: str
    skills: str | None
    baseline: str | None
    record_baseline: bool
    fix: bool
    out: Path
    fail_on: str


@dataclass(frozen=True)
class SyncResult:
    """The finished run: ``outcome`` for the report renderers, ``failed`` when a finding is at or above
    ``fail_on`` (never for a blocked run), ``report_prefix`` to prepend to skill-relative paths in reports
    (``"skills/"`` for ``--skills skills``; empty for bundled skills and for a blocked run)."""

    outcome: SyncOutcome
    failed: bool
    report_prefix: str

    @property
    def blocked_reason(self) -> str | None:
        """Why the audit was blocked (the upstream was unreachable), or None when it ran."""
        return self.outcome.blocked[0] if self.outcome.blocked is not None else None


def run_sync(
    request: SyncRequest, *, index: PyPIIndex | None = None, progress: Progress = _silent
) -> SyncResult:
    """Run the sync described by ``request`` (see the module docstring); ``index`` is the PyPI index
    (default: pypi.org), ``progress`` receives one message per step.

    An unreachable upstream (or a ``bundled:SPEC`` / baseline spec that needs PyPI) is not raised: the
    result is a blocked outcome naming the skills that could not be verified. Files written: the fixed
    SKILL.md files (``fix``) and the recorded baseline, atomically.

    Raises :class:`BadInputError` (one line naming the flag) before any network step for an unwritable
    ``out``, ``fix`` without a skills directory, a skills directory with no readable SKILL.md, and a
    baseline file that cannot be read, is not a valid baseline, or is stale with no release to rebuild
    it from; after reading the upstream, for skills it does not hold or cannot read, for an explicit
    baseline spec that does not resolve, and for a stale baseline whose version PyPI does not have. A
    stale baseline whose release cannot be fetched is a blocked outcome naming the file.
    """
    check_request(request)
    stored = read_baseline_file(request.baseline)
    progress(f"resolving upstream {request.upstream}")
    try:
        snapshot = resolve(request.upstream, index)
    except UpstreamUnreachableError as exc:
        return blocked(request, str(exc))
    try:
        return _audit(request, snapshot, stored, index, progress)
    except UpstreamUnreachableError as exc:  # a bundled:SPEC or baseline spec that needs PyPI
        return blocked(request, str(exc))


# ---------------------------------------------------------------------------------------------
# checks (no network)


def check_request(request: SyncRequest) -> None:
    """Refuse bad input before any network step, Quark read or write: an unwritable ``out`` (probed by
    creating a file), ``fix`` without a skills directory, and a skills directory holding no SKILL.md or
    only unreadable ones. (Spec syntax is checked while parsing: quarkci.commands.arguments.)
    Raises :class:`BadInputError` naming the flag."""
    check_output_dir(request.out, "--out")
    local = request.skills is not None and not request.skills.startswith("bundled:")
    if request.fix and not local:
        raise BadInputError("--fix needs --skills DIR (bundled skills are read-only)")
    if local and request.skills is not None:
        require_readable(discover(open_skills(request.skills)), f"--skills {request.skills}")


def is_baseline_file(spec: str) -> bool:
    """True when a ``--baseline`` spec names a stored baseline file (``*.json``, or an existing file that
    is not a wheel) rather than an upstream spec."""
    path = Path(spec)
    return path.suffix == ".json" or path.is_file() and not spec.endswith(".whl")


def read_baseline_file(spec: str | None) -> baselines.Stored | None:
    """The stored baseline named by ``spec`` when it is a baseline file (:func:`is_baseline_file`), read
    through the bounded loader and its sha256 checked; None for any other spec. Raises
    :class:`BadInputError` naming ``--baseline`` when the file is unreadable, not a valid baseline, or
    stale (made by other fact extractors) with no release to rebuild it from (a checkout or installed
    snapshot)."""
    if spec is None or spec == NO_BASELINE or not is_baseline_file(spec):
        return None
    stored = baselines.read(Path(spec))
    if stored.stale is not None and stored.rebuild_spec is None:
        raise BadInputError(
            f"--baseline {spec}: {stored.stale}, and a {stored.view.kind} baseline "
            f"({stored.view.spec}) cannot be rebuilt from PyPI; record it again with "
            f"`quarkci sync --upstream {stored.view.spec} --skills DIR --baseline none --record-baseline`"
        )
    return stored


def current_baseline(
    stored: baselines.Stored,
    index: PyPIIndex | None,
    progress: Progress = _silent,
    spec: str | None = None,
) -> tuple[UpstreamView, str]:
    """The view of ``stored`` the running extractor can compare, and the report note: the stored view
    when the running fact extractors made it; else the release rebuilt from ``spec`` (default:
    :attr:`~quarkci.sync.baseline.Stored.rebuild_spec`, the PyPI wheel of its version) through the
    upstream resolver and the facts cache.

    Raises :class:`UpstreamUnreachableError` (a blocked run) naming the file when that release cannot
    be fetched, and :class:`BadInputError` naming it when it cannot be rebuilt at all (no rebuild spec,
    or the version is not on PyPI): a stale baseline is never compared field by field.
    """
    if stored.stale is None:
        return stored.view, f"baseline file {stored.path}"
    spec = spec or stored.rebuild_spec
    if spec is None:
        raise BadInputError(f"--baseline {stored.path}: {stored.stale}; it cannot be rebuilt from PyPI")
    progress(f"rebuilding baseline {stored.path} from {spec}: {stored.stale}")
    try:
        view = build_view(spec, resolve(spec, index, flag="--baseline"))
    except UpstreamUnreachableError as exc:
        raise UpstreamUnreachableError(
            f"--baseline {stored.path}: {stored.stale}, and {spec} cannot be fetched to rebuild it "
            f"({exc}); refused rather than compared field by field"
        ) from None
    except BadInputError as exc:
        raise BadInputError(f"--baseline {stored.path}: {stored.stale}; cannot rebuild it ({exc})") from None
    return view, f"baseline {stored.path} rebuilt from {spec}: {stored.stale}"


def require_readable(skills: list[Skill], label: str) -> None:
    """Raise :class:`BadInputError` when ``skills`` is empty or none of them could be read."""
    if not skills:
        raise BadInputError(f"{label}: no SKILL.md found in it; 0 skills would be audited")
    if all(s.error for s in skills):
        raise BadInputError(f"{label}: none of the {len(skills)} skills is readable ({skills[0].error})")


# ---------------------------------------------------------------------------------------------
# builders


def build_view(spec: str, snapshot: Snapshot) -> UpstreamView:
    """Facts + file list of a live snapshot."""
    facts = facts_of(snapshot)
    return UpstreamView(
        spec=spec,
        kind=snapshot.kind,
        facts=facts,
        files=frozenset(snapshot.files()),
        complete=snapshot.kind == "checkout",
        snapshot=snapshot,
    )


def build_skills(spec: str | None, snapshot: Snapshot | None) -> tuple[SkillSource, str]:
    """The skills source and its label: ``--skills`` as given, else the snapshot's bundled skills.
    Raises :class:`BadInputError` when there is neither."""
    if spec is None:
        if snapshot is None:
            raise BadInputError("--skills is required when the upstream cannot be read")
        return SnapshotSource(snapshot), f"bundled:{snapshot.label}"
    return open_skills(spec), spec


def read_skills(source: SkillSource, lexicon: Lexicon | None = None) -> tuple[list[Skill], list[Claim]]:
    """Every skill of ``source`` and the claims of the readable ones; token claims resolve against
    ``lexicon`` (default: the shipped release vocabulary, :func:`quarkci.facts.vocabulary.shipped`)."""
    skills = discover(source)
    lexicon = lexicon if lexicon is not None else vocabulary.shipped()
    claims = [c for s in skills if s.error is None for c in extract_claims(s, source.read_text, lexicon)]
    return skills, claims


def newest_recorded_before(out: Path, version: str) -> str | None:
    """The newest release older than ``version`` with a recorded baseline ``out/baselines/<v>.json`` (the
    previous release as far as this machine knows when PyPI cannot be asked), or None."""
    try:
        current = Version(version)
    except ValueError:
        return None
    found: list[Version] = []
    for path in (out / "baselines").glob("*.json") if (out / "baselines").is_dir() else ():
        try:
            recorded = Version(path.stem)
        except ValueError:  # InvalidVersion, or an integer of over 4,300 digits
            continue
        if recorded < current and str(recorded) == path.stem:
            found.append(recorded)
    return str(max(found)) if found else None


def build_baseline(
    spec: str | None, upstream: UpstreamView, out: Path, index: PyPIIndex | None, progress: Progress = _silent
) -> tuple[UpstreamView | None, str]:
    """The baseline view and a note, for every ``spec`` but a baseline file (read first, by
    :func:`read_baseline_file`): an upstream spec, :data:`NO_BASELINE`, or None for the previous release
    (stored ``out/baselines/<prev>.json`` first, else its PyPI wheel).

    An explicit baseline spec that cannot be resolved is bad input (:class:`BadInputError`, or
    :class:`UpstreamUnreachableError` when it needs PyPI); a default one that cannot be reached leaves
    the run without a baseline (calibration mode).
    """
    if spec == NO_BASELINE:  # offline runs (the pre-commit hook): audit the release alone
        return None, "no baseline (--baseline none): the release diff is skipped"
    if spec is not None:
        progress(f"resolving baseline {spec}")
        return build_view(spec, resolve(spec, flag="--baseline")), f"baseline {spec}"
    try:
        previous = (index or PyPIIndex()).previous(upstream.version)
    except (UpstreamUnreachableError, BadInputError) as exc:
        local = newest_recorded_before(out, upstream.version)
        if local is None:
            note = f"no baseline: previous release unknown ({exc}) and none recorded in {out / 'baselines'}"
            progress(note)
            return None, note
        progress(
            f"the PyPI index is unreachable: baseline {local}, the newest recorded before {upstream.version}"
        )
        return current_baseline(baselines.read(out / "baselines" / f"{local}.json"), index, progress,
                                f"{PROJECT}=={local}")  # fmt: skip
    if previous is None:
        return None, f"no baseline: no release before {upstream.version}"
    recorded = out / "baselines" / f"{previous}.json"
    if recorded.is_file():  # stale: rebuilt from the previous release's wheel, or the run is refused
        return current_baseline(baselines.read(recorded), index, progress, f"{PROJECT}=={previous}")
    try:
        progress(f"resolving baseline amd-quark=={previous} (previous release)")
        return build_view(
            f"amd-quark=={previous}", resolve(f"amd-quark=={previous}", index)
        ), f"baseline amd-quark=={previous}"
    except UpstreamUnreachableError as exc:
        return None, f"no baseline: amd-quark=={previous} unreachable ({exc})"


# ---------------------------------------------------------------------------------------------
# the run


def _relative(path: str) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return path


def blocked(request: SyncRequest, reason: str) -> SyncResult:
    """The blocked-audit result: ``reason`` and the skills of a ``--skills DIR`` that could not be verified."""
    names: list[str] = []
    skills: list[Skill] = []
    if request.skills is not None and not request.skills.startswith("bundled:"):
        try:
            skills = discover(DirectorySource(Path(request.skills)))
            names = [s.id for s in skills]
        except (BadInputError, OSError):
            names = []
    outcome = SyncOutcome(
        mode="blocked",
        upstream=(request.upstream, None, None, None),
        baseline=None,
        skills_root=request.skills or f"bundled:{request.upstream}",
        skills=tuple(skills),
        findings=policy.FindingSet(()),
        blocked=(reason, tuple(names)),
    )
    return SyncResult(outcome=outcome, failed=False, report_prefix="")


def _skills_release(source: SkillSource, upstream: Snapshot, progress: Progress) -> tuple[UpstreamView, ...]:
    """The view of the release whose bundled skills are audited (``--skills bundled:SPEC``), when it is
    not the upstream: the rules read from it what a file the skills cite defined (where it went)."""
    if not isinstance(source, SnapshotSource) or source.snapshot is upstream:
        return ()
    snapshot = source.snapshot
    progress(f"extracting facts of {getattr(snapshot, 'label', 'the skills release')} (the skills' release)")
    return (build_view(getattr(snapshot, "label", "skills"), snapshot),)


def _audit(
    request: SyncRequest,
    snapshot: Snapshot,
    stored: baselines.Stored | None,
    index: PyPIIndex | None,
    progress: Progress,
) -> SyncResult:
    progress(f"extracting facts of {snapshot.label}")
    upstream = build_view(request.upstream, snapshot)
    source, skills_label = build_skills(request.skills, snapshot)
    directory = source.root if isinstance(source, DirectorySource) else None  # Path(--skills DIR)
    if request.fix and directory is None:
        raise BadInputError("--fix needs --skills DIR (bundled skills are read-only)")
    config = policy.load_config(directory)
    progress(f"reading skills from {skills_label}")
    lexicon = vocabulary.shipped().merged([upstream.facts])
    skills, claims = read_skills(source, lexicon)
    if not skills:  # a wrong --skills path, an empty directory or a release without bundled skills
        flag = (
            f"--skills {request.skills}"
            if request.skills is not None
            else "--skills (default: bundled skills)"
        )
        raise BadInputError(f"{flag}: no SKILL.md found in {skills_label}; 0 skills would be audited")
    require_readable(skills, f"--skills {skills_label}")
    base: UpstreamView | None
    if stored is not None:
        base, base_note = current_baseline(stored, index, progress)
    else:
        base, base_note = build_baseline(request.baseline, upstream, request.out, index, progress)
    notes = [base_note]
    releases = _skills_release(source, snapshot, progress)
    progress(f"auditing {len(skills)} skills ({len(claims)} claims)")
    if base is not None:
        lexicon = lexicon.merged([base.facts])
    state = AuditState(
        skills, claims, upstream, base, source.read_text, frozenset(source.files()), releases, lexicon
    )
    result = audit(state, config)
    applied: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    if request.fix and directory is not None:  # (fix without a directory was refused above)
        read, write = fixer.directory_io(directory)
        done = fixer.apply_fixes(result.findings.findings, read, lambda f, t: _relative(write(f, t)))
        applied, changed = done.applied, done.changed_files
        notes += [f"fix not applied: {s}" for s in done.skipped]
        if changed:
            progress(f"applied {len(applied)} fixes to {len(changed)} files; re-auditing")
            skills, claims = read_skills(source, lexicon)
            state = AuditState(
                skills, claims, upstream, base, source.read_text, frozenset(source.files()), releases, lexicon
            )
            result = audit(state, config)
    calibrated = None
    if request.record_baseline or base is None:
        calibrated = _relative(str(baselines.save(upstream, request.out / "baselines")))
        progress(f"recorded baseline {calibrated}")
    diff = tuple(baselines.diff(base, upstream, skills, claims)) if base is not None else ()
    outcome = SyncOutcome(
        mode="audit" if base is not None else "calibration",
        upstream=(request.upstream, upstream.version, upstream.kind, upstream.label),
        baseline=(base.version, base.label) if base is not None else None,
        skills_root=skills_label,
        skills=tuple(skills),
        findings=result.findings,
        release_diff=diff,
        applied_fixes=applied,
        changed_files=changed,
        skipped_rules=result.skipped,
        calibrated=calibrated,
        notes=tuple(notes),
        fix=request.fix,
    )
    bundled = request.skills is None or request.skills.startswith("bundled:")
    prefix = "" if request.skills is None or bundled else request.skills.rstrip("/") + "/"
    return SyncResult(outcome=outcome, failed=result.findings.fails(request.fail_on), report_prefix=prefix)
