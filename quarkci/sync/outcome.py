"""The finished result of one ``quarkci sync`` run: what the report renderers receive."""

from __future__ import annotations

from dataclasses import dataclass, field

from quarkci.skills.model import Skill
from quarkci.sync.baseline import Change
from quarkci.sync.policy import FindingSet


@dataclass(frozen=True)
class SyncOutcome:
    """Everything a report shows. ``mode``: ``audit`` | ``calibration`` | ``blocked``.

    ``fix``: whether ``--fix`` was requested (None: not said; the report then infers it from applied
    fixes or changed files, which misses a ``--fix`` run that found nothing to fix).

    ``upstream``: (spec, version, kind, label) — version/kind/label are None when blocked;
    ``baseline``: (version, label) or None; ``skills_root``: the --skills spec as given.
    """

    mode: str
    upstream: tuple[str, str | None, str | None, str | None]
    baseline: tuple[str, str] | None
    skills_root: str
    skills: tuple[Skill, ...]
    findings: FindingSet
    release_diff: tuple[Change, ...] = ()
    applied_fixes: tuple[str, ...] = ()
    changed_files: tuple[str, ...] = ()
    skipped_rules: tuple[tuple[str, str], ...] = ()
    calibrated: str | None = None  # the baseline file written, when calibrating
    blocked: tuple[str, tuple[str, ...]] | None = None  # (reason, skills that could not be verified)
    notes: tuple[str, ...] = field(default=())
    fix: bool | None = None
