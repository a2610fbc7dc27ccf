"""Findings: the typed result of comparing a skill's claims with an upstream snapshot's facts.

A rule reports *what changed* (``change``); the policy layer (``quarkci.sync.policy``) decides the
``kind`` from its default table (docs/architecture.md), possibly overridden by the audited repository's config:

* ``breaking``     the skill references something that no longer exists (never auto-fixed);
* ``semantic``     a behaviour or workflow assumption changed (needs a human);
* ``mechanical``   a value changed or an item was added (``fix`` holds the safe edit);
* ``unverifiable`` the snapshot cannot show the fact (e.g. ``examples/`` in a wheel): listed
  separately, never called drift.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

KINDS = ("breaking", "semantic", "mechanical", "unverifiable")
DRIFT_KINDS = ("breaking", "semantic", "mechanical")
SEVERITY = {"none": 99, "breaking": 3, "semantic": 2, "mechanical": 1, "unverifiable": 0}

# What a rule observed. The policy maps each to a kind (docs/architecture.md, Policy).
CHANGES = (
    "removed",  # referenced item (flag, scheme, model template, export format, file) is gone
    "renamed",  # gone, but with a known successor
    "changed",  # value / version / default changed
    "missing_from_list",  # new upstream item missing from a list the skill enumerates
    "deprecated",  # still there, marked deprecated upstream
    "moved",  # the fact moved to another upstream file
    "entry_point_changed",  # the workflow's entry point changed
    "not_shown",  # the snapshot cannot show the fact: unverifiable
    "unreadable",  # the skill itself cannot be read or parsed: it cannot be used
)


@dataclass(frozen=True)
class Location:
    """A concrete location: ``file`` relative to its root (skills root or upstream root), 1-based line.

    ``line`` is 0 when the location is a whole file.
    """

    file: str
    line: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


@dataclass(frozen=True)
class Fix:
    """A concrete, safe edit to one skill file (``file`` relative to the skills root).

    * ``insert_after=False``: line ``line`` must read exactly ``old``; it is replaced by ``new``.
    * ``insert_after=True``: line ``line`` must read exactly ``old`` (the anchor); ``new`` is
      inserted as a new line after it (after any lines other fixes insert at the same anchor).
    """

    file: str
    line: int
    old: str
    new: str
    insert_after: bool = False
    description: str = ""


@dataclass(frozen=True)
class Finding:
    """One difference between a skill and upstream.

    ``rule`` is the kebab-case id of the rule that found it (e.g. ``cli-flag-removed``); ``change``
    is one of :data:`CHANGES`; ``kind`` is empty until the policy classifies the finding.
    ``fingerprint`` is stable across runs and releases for the same (rule, skill, subject) so
    delivery can deduplicate issues and PRs.
    """

    rule: str
    change: str
    category: str
    skill: str
    subject: str
    skill_says: str
    source_says: str
    impact: str
    skill_location: Location | None = None
    source_location: Location | None = None
    fix: Fix | None = None
    kind: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.change not in CHANGES:
            raise ValueError(f"{self.rule}: unknown change {self.change!r}")
        if self.kind and self.kind not in KINDS:
            raise ValueError(f"{self.rule}: unknown kind {self.kind!r}")

    @cached_property
    def fingerprint(self) -> str:
        """sha256 of (rule, skill, subject), first 16 hex digits (computed once per finding)."""
        key = json.dumps([self.rule, self.skill, self.subject], separators=(",", ":"))
        return hashlib.sha256(key.encode()).hexdigest()[:16]

    def sort_key(self) -> tuple[int, str, str, str, str, int]:
        """(severity desc, skill, rule, subject, file, line): the report order."""
        loc = self.skill_location or Location("")
        return (-SEVERITY.get(self.kind, 0), self.skill, self.rule, self.subject, loc.file, loc.line)

    def one_line(self) -> str:
        """Canonical form ``path:line:col: message [rule-id]`` (path relative to the skills root)."""
        loc = self.skill_location or Location(self.skill)
        message = f"{self.kind or self.change}: {self.skill_says}; upstream: {self.source_says}"
        return f"{loc.file}:{loc.line}:1: {' '.join(message.split())} [{self.rule}]"

    def __str__(self) -> str:
        return self.one_line()
