"""The audit state every rule reads: skills, their claims, and the upstream (and baseline) views.

Rules are pure functions of an :class:`AuditState`; nothing here touches the network. The
upstream side is an :class:`UpstreamView` (a :class:`~quarkci.facts.base.FactSet` plus the
snapshot's file list), so a stored baseline JSON and a live snapshot look the same to a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import PurePosixPath
from typing import Any

from quarkci.facts.base import FactItem, FactSet
from quarkci.facts.vocabulary import Vocabulary
from quarkci.skills.claims.context import in_scope
from quarkci.skills.model import Claim, Skill
from quarkci.upstream.base import tree_of


@dataclass(frozen=True)
class UpstreamView:
    """What the audit knows about one upstream release.

    ``files`` is every file path of the snapshot (POSIX, relative to the repository root);
    ``complete`` is True for a git checkout, whose absence of a file is meaningful in every tree.
    """

    spec: str
    kind: str
    facts: FactSet
    files: frozenset[str]
    complete: bool = False
    snapshot: Any = field(default=None, compare=False, repr=False)  # the live Snapshot, None for a stored one

    @property
    def version(self) -> str:
        return self.facts.version

    @property
    def label(self) -> str:
        return self.facts.label

    def covers(self, path: str) -> bool:
        """True when the snapshot holds the tree of ``path``, so a missing file is really missing."""
        return self.complete or tree_of(path) in self.facts.coverage

    def exists(self, path: str) -> bool:
        return path in self.files

    @cached_property
    def by_basename(self) -> dict[str, list[str]]:
        """basename -> sorted paths holding it (used to guess where a file moved)."""
        out: dict[str, list[str]] = {}
        for path in sorted(self.files):
            out.setdefault(PurePosixPath(path).name, []).append(path)
        return out

    def items(self, kind: str) -> list[FactItem]:
        return self.facts.kinds.get(kind, [])

    def unavailable(self, kind: str) -> list[str]:
        return self.facts.unavailable.get(kind, [])


@dataclass
class AuditState:
    """Input of every rule.

    ``read_skill_file(path)`` returns the text of a file relative to the skills root (for rules
    that build fixes, which must quote the exact current line). ``skill_files`` is every file of the
    skills tree (root-relative, the source's ``files()``); None when the caller did not list it (the
    rules that need it skip themselves). ``releases`` are other releases the rules may read content
    from, never audited: the release whose bundled skills are audited, when it is not ``upstream``
    (where a file the skills cite went is found by what it defined there).
    """

    skills: list[Skill]
    claims: list[Claim]
    upstream: UpstreamView
    baseline: UpstreamView | None = None
    read_skill_file: Callable[[str], str] | None = None
    skill_files: frozenset[str] | None = None
    releases: tuple[UpstreamView, ...] = ()
    vocabulary: Vocabulary | None = None  # every release's names (quarkci.facts.vocabulary), None: unknown
    _lines: dict[str, list[str]] = field(default_factory=dict, repr=False)

    def claims_of(self, *kinds: str, historical: bool = False) -> Iterable[Claim]:
        """Claims of the given kinds about Quark, in (file, line, value) order.

        A flag the extractor attributes to another program (``context["quark"]`` false: pip, docker,
        nvidia-smi, lm_eval...) says nothing about the release and is left out; so is a claim its text
        presents as historical ("this no longer works:") or scopes to releases other than this one
        ("for `amd-quark>=0.11,<0.12` ..."), see :mod:`quarkci.skills.claims.context`. With
        ``historical=True`` the historical ones are kept: a name no release ever had is wrong even in a
        note saying it is gone (the ``*-misspelt`` rules ask for them).
        """
        wanted = set(kinds)
        version = self.upstream.version
        return sorted(
            (
                c
                for c in self.claims
                if c.kind in wanted
                and c.context.get("quark", True) is not False
                and (historical or not c.context.get("historical"))
                and in_scope(c.context, version)
            ),
            key=lambda c: (c.file, c.line, c.value),
        )

    def line(self, file: str, line: int) -> str | None:
        """The text of 1-based ``line`` of skill file ``file`` (no newline), or None if unreadable."""
        if file not in self._lines:
            text = ""
            if self.read_skill_file is not None:
                try:
                    text = self.read_skill_file(file)
                except (OSError, ValueError, KeyError):  # ValueError: SkillFileError, UnicodeDecodeError
                    text = ""
            self._lines[file] = text.splitlines()
        lines = self._lines[file]
        return lines[line - 1] if 0 < line <= len(lines) else None
