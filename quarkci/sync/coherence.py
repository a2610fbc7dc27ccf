"""Fixes stay coherent: a fix that would leave its paragraph contradicting itself is not offered.

A fix rewrites one statement; the paragraph around it may state the same fact again ("Python 3.10, 3.11
or 3.12 is required. *Python 3.13 is not currently supported*"). After the fixes are applied in memory,
the edited skills are read again and audited again (the whole paragraph re-read: every claim in it
checked against the release). A drift finding left in a fixed paragraph then withholds the fixes of that
paragraph that it contradicts: those checked against the same upstream fact (same rule and source
location: Requires-Python for both sentences above; two flags of one command are two facts), or every
fix of the paragraph when the finding is new (the edit itself made it). Withheld findings keep their kind,
lose their fix and say why, so "fixable" counts only fixes ``--fix`` really makes. A paragraph is a run
of non-blank lines (a sentence group, a list, a table, a code block without blank lines).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from quarkci.core.findings import Finding, Fix, Location
from quarkci.skills.claims import extract_claims
from quarkci.skills.discover import discover
from quarkci.sync import fixer, policy
from quarkci.sync.state import AuditState

# At most this many audit passes: each pass withholds fixes, a withheld fix restores its paragraph.
_PASSES = 3

Reaudit = Callable[[AuditState], policy.FindingSet]


class _Overlay:
    """A skill source over ``listed`` files whose ``edited`` texts replace what ``read`` returns."""

    def __init__(self, listed: tuple[str, ...], edited: dict[str, str], read: Callable[[str], str]) -> None:
        self.label = "edited skills"
        self.listed, self.edited, self.read = listed, edited, read

    def files(self) -> list[str]:
        return sorted(self.listed)

    def read_text(self, path: str) -> str:
        return self.edited[path] if path in self.edited else self.read(path)


def coherent(findings: policy.FindingSet, state: AuditState, reaudit: Reaudit) -> policy.FindingSet:
    """``findings`` with the fixes withheld that would leave a paragraph contradicting itself (see the
    module docstring). ``reaudit(state)`` classifies the findings of a state (the audit's own rules and
    policy). Unchanged when the state cannot read its skill files."""
    if state.read_skill_file is None:
        return findings
    withheld: dict[tuple[str, int, str], Finding] = {}  # fix key -> the finding left in its paragraph
    for _ in range(_PASSES):
        active = [f for f in fixer.fixable(findings.findings) if _key(f) not in withheld]
        blocked = _contradicted(active, findings, state, reaudit)
        if not blocked:
            break
        withheld.update(blocked)
    if not withheld:
        return findings
    kept = [
        _withhold(f, withheld[_key(f)]) if f.fix is not None and _key(f) in withheld else f
        for f in findings.findings
    ]
    # a list fix carried by one finding for its siblings ("fixed together with `x`"): withheld for all
    carriers = {(f.rule, f.skill, f.skill_location): f for f in kept if "not fixed by --fix" in f.source_says}
    return replace(findings, findings=tuple(_sibling(f, carriers) for f in kept))


def _sibling(finding: Finding, carriers: dict[tuple[str, str, Location | None], Finding]) -> Finding:
    """A finding whose fix another finding carries, told when that fix is withheld."""
    carrier = carriers.get((finding.rule, finding.skill, finding.skill_location))
    if carrier is None or carrier is finding or "(fixed together with" not in finding.source_says:
        return finding
    says = re.sub(r" \(fixed together with [^)]*\)", "", finding.source_says)
    return replace(finding, source_says=says + f"; not fixed by --fix, as `{carrier.subject}` is not")


def _key(finding: Finding) -> tuple[str, int, str]:
    fix = finding.fix
    assert fix is not None
    return (fix.file, fix.line, finding.fingerprint)


def _contradicted(
    active: list[Finding], before: policy.FindingSet, state: AuditState, reaudit: Reaudit
) -> dict[tuple[str, int, str], Finding]:
    """The fixes of ``active`` that a finding left after applying them all contradicts (fix key -> it)."""
    read = state.read_skill_file
    assert read is not None
    per_file: dict[str, list[Finding]] = {}
    for finding in active:
        assert finding.fix is not None
        per_file.setdefault(finding.fix.file, []).append(finding)
    edited: dict[str, str] = {}
    origins: dict[str, list[int]] = {}
    paragraphs: dict[str, list[int]] = {}
    for file, group in per_file.items():
        try:
            text = read(file)
        except (OSError, ValueError, KeyError):
            continue
        fixes: list[Fix] = [f.fix for f in group if f.fix is not None]
        new, _applied, _skipped, origin = fixer.apply_with_origins(text, fixes)
        if new != text:
            edited[file], origins[file], paragraphs[file] = new, origin, paragraph_ids(text)
    if not edited:
        return {}
    after = reaudit(_trial(state, edited))
    seen = {(f.fingerprint, f.skill_location) for f in before.findings}
    out: dict[tuple[str, int, str], Finding] = {}
    for left in after.drift():
        loc = left.skill_location
        if loc is None or loc.file not in edited or not 0 < loc.line <= len(origins[loc.file]):
            continue
        ids = paragraphs[loc.file]
        line = origins[loc.file][loc.line - 1]  # where it stands in the text before the fixes
        at = Location(loc.file, line)
        fresh = (left.fingerprint, at) not in seen
        for finding in per_file[loc.file]:
            assert finding.fix is not None
            if ids[finding.fix.line - 1] != ids[line - 1]:
                continue
            same_fact = left.source_location is not None and (finding.rule, finding.source_location) == (
                left.rule,
                left.source_location,
            )
            if fresh or same_fact:
                out.setdefault(_key(finding), replace(left, skill_location=at))
    return out


def paragraph_ids(text: str) -> list[int]:
    """One id per line of ``text`` (split at ``\\n``): lines of one run of non-blank lines share it."""
    ids: list[int] = []
    current, blank = 0, True
    for line in text.split("\n"):
        if not line.strip():
            current += 1
            blank = True
        elif blank:
            current += 1
            blank = False
        ids.append(current)
    return ids


def _trial(state: AuditState, edited: dict[str, str]) -> AuditState:
    """The audit state of the skills owning the ``edited`` files, read again from the edited texts."""
    read = state.read_skill_file
    assert read is not None
    owners = [s for s in state.skills if s.error is None and ({s.path, *s.references} & edited.keys())]
    listed = tuple(p for s in owners for p in (s.path, *s.references))
    source = _Overlay(listed, edited, read)
    skills = discover(source)
    claims = [
        c for s in skills if s.error is None for c in extract_claims(s, source.read_text, state.vocabulary)
    ]
    return AuditState(
        skills,
        claims,
        state.upstream,
        state.baseline,
        source.read_text,
        state.skill_files,
        state.releases,
        state.vocabulary,
    )


def _withhold(finding: Finding, left: Finding) -> Finding:
    """``finding`` without its fix, saying which statement of its paragraph the fix would contradict."""
    loc = left.skill_location
    where = f"line {loc.line}" if loc is not None else "another line"
    return replace(
        finding,
        fix=None,
        source_says=finding.source_says
        + f"; not fixed by --fix: {where} of the same paragraph would still disagree ({left.skill_says}):"
        " edit the paragraph by hand",
    )
