"""Findings: the typed result of comparing a skill's claims with an upstream snapshot's facts.

Kinds (the classification policy in ``policy.py`` decides which applies):

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
from typing import Any

KINDS = ("breaking", "semantic", "mechanical", "unverifiable")
SEVERITY = {"none": 99, "breaking": 3, "semantic": 2, "mechanical": 1, "unverifiable": 0}


@dataclass(frozen=True)
class Location:
    """A concrete location: ``file`` relative to its root (skills root or upstream root), 1-based line."""

    file: str
    line: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


@dataclass(frozen=True)
class Fix:
    """A concrete, safe text edit to one skill file: replace ``old`` on ``line`` with ``new``.

    ``insert_after`` (when True) inserts ``new`` as a new line after ``line`` instead.
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

    ``rule`` is the kebab-case id of the rule that found it (e.g. ``cli-flag-removed``).
    ``fingerprint`` is stable across runs and releases for the same (rule, skill, subject) so
    delivery can deduplicate issues and PRs.
    """

    kind: str
    rule: str
    category: str
    skill: str
    subject: str
    skill_says: str
    source_says: str
    impact: str
    skill_location: Location | None = None
    source_location: Location | None = None
    fix: Fix | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def fingerprint(self) -> str:
        """sha256 of (rule, skill, subject), first 16 hex digits."""
        key = json.dumps([self.rule, self.skill, self.subject], separators=(",", ":"))
        return hashlib.sha256(key.encode()).hexdigest()[:16]

    def one_line(self) -> str:
        """Canonical form ``path:line:col: message [rule-id]``."""
        loc = self.skill_location or Location(self.skill)
        return f"{loc.file}:{loc.line}:1: {self.kind}: {self.skill_says} -> {self.source_says} [{self.rule}]"
