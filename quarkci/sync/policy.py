"""The classification policy: rule observations -> kinds, config overrides and ignores, exit code.

Default table (docs/architecture.md "Data flow", Policy)::

    removed                                               -> breaking
    renamed, changed, missing_from_list                   -> mechanical
    deprecated, moved, entry_point_changed                -> semantic
    not_shown                                             -> unverifiable (never drift)
    unreadable (the skill cannot be used)                 -> breaking

The audited repository may override it in ``.quarkci.yaml`` (top-level ``sync:``) or in
``pyproject.toml`` under ``[tool.quarkci.sync]``::

    sync:
      kinds:                      # per-rule kind (breaking | semantic | mechanical)
        cli-flag-deprecated: breaking
      ignore:                     # each entry: any of fingerprint / rule / skill (fnmatch), all must match
        - {fingerprint: 0123456789abcdef}
        - {rule: source-path-unverifiable}
        - {rule: scheme-unknown, skill: "quark-onnx-*"}

A skill line (or the line above it) containing ``quarkci: ignore[<rule-id>]`` ignores that rule there.
Rules never filter: everything here happens after detection.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from quarkci.contracts.rules import KINDS as CONTRACT_KINDS
from quarkci.core.documents import load_document
from quarkci.core.errors import BadInputError
from quarkci.core.findings import DRIFT_KINDS, KINDS, SEVERITY, Finding
from quarkci.sync.registry import FINDING_RULE_IDS as RULE_IDS

DEFAULT_KINDS: dict[str, str] = {
    "removed": "breaking",
    "renamed": "mechanical",
    "changed": "mechanical",
    "missing_from_list": "mechanical",
    "deprecated": "semantic",
    "moved": "semantic",
    "entry_point_changed": "semantic",
    "not_shown": "unverifiable",
    "unreadable": "breaking",
}
# Per-rule defaults that take precedence over the change table; the contract-* ids' kinds come from their
# one table (quarkci.contracts.rules.CONTRACT_RULES; an id with no kind there is left to its change).
RULE_KINDS: dict[str, str] = {
    "scheme-misspelt": "semantic",  # no release has the name: a person checks which one was meant
    "name-stated-unavailable": "semantic",  # "not available: X" where the release has X
    "cli-command-misspelt": "semantic",  # no release has the command: check the name
    "cli-flag-misspelt": "semantic",  # no command of any release has the flag: check the name
    "python-module-misspelt": "semantic",  # no release has the module: check the name
    "python-name-misspelt": "semantic",  # no release has the class, method or argument: check the name
    "dependency-extra-misspelt": "semantic",  # no release provides the extra: check the name
    "onnx-config-misspelt": "semantic",  # no release defines the ONNX configuration: check the name
    "model-type-misspelt": "semantic",  # no release has a template of that name: check the name
    **CONTRACT_KINDS,  # the contract-* ids: quarkci.contracts.rules, by the direction of the difference
}
FAIL_ON = ("none", "mechanical", "semantic", "breaking")
_INLINE = re.compile(r"quarkci:\s*ignore\[([a-z0-9,\s-]+)\]")


@dataclass(frozen=True)
class Ignore:
    """One ignore entry; every field given must match (``skill`` is an fnmatch pattern)."""

    fingerprint: str | None = None
    rule: str | None = None
    skill: str | None = None

    def matches(self, finding: Finding) -> bool:
        return (
            (self.fingerprint is None or finding.fingerprint == self.fingerprint)
            and (self.rule is None or finding.rule == self.rule)
            and (self.skill is None or fnmatch.fnmatchcase(finding.skill, self.skill))
        )

    def __str__(self) -> str:
        parts = [
            f"{k}={v}"
            for k, v in (("fingerprint", self.fingerprint), ("rule", self.rule), ("skill", self.skill))
            if v is not None
        ]
        return "config ignore " + ",".join(parts)


@dataclass(frozen=True)
class Config:
    """The audited repository's sync policy. ``source`` names the file it came from ('' = defaults)."""

    kinds: dict[str, str] = field(default_factory=dict)
    ignore: tuple[Ignore, ...] = ()
    source: str = ""


def parse_config(data: Any, source: str) -> Config:
    """Validate the ``sync`` table. Raises :class:`BadInputError` naming ``source`` on any problem."""
    if data is None:
        return Config(source=source)
    if not isinstance(data, dict):
        raise BadInputError(f"{source}: 'sync' must be a mapping")
    unknown = set(data) - {"kinds", "ignore"}
    if unknown:
        raise BadInputError(f"{source}: unknown sync key(s): {', '.join(sorted(unknown))}")
    kinds = data.get("kinds") or {}
    if not isinstance(kinds, dict):
        raise BadInputError(f"{source}: sync.kinds must map rule ids to kinds")
    for rule, kind in kinds.items():
        if rule not in RULE_IDS:
            raise BadInputError(f"{source}: sync.kinds: unknown rule {rule!r}")
        if kind not in DRIFT_KINDS:
            raise BadInputError(
                f"{source}: sync.kinds.{rule}: {kind!r} is not one of {', '.join(DRIFT_KINDS)}"
            )
    entries = data.get("ignore") or []
    if not isinstance(entries, list):
        raise BadInputError(f"{source}: sync.ignore must be a list")
    ignores = []
    for n, entry in enumerate(entries):
        if not isinstance(entry, dict) or not entry or set(entry) - {"fingerprint", "rule", "skill"}:
            raise BadInputError(f"{source}: sync.ignore[{n}] needs fingerprint, rule and/or skill")
        if not all(isinstance(v, str) for v in entry.values()):
            raise BadInputError(f"{source}: sync.ignore[{n}]: values must be strings")
        if "rule" in entry and entry["rule"] not in RULE_IDS:
            raise BadInputError(f"{source}: sync.ignore[{n}]: unknown rule {entry['rule']!r}")
        ignores.append(Ignore(**entry))
    return Config(kinds=dict(kinds), ignore=tuple(ignores), source=source)


def load_config(skills_dir: Path | None) -> Config:
    """Find the audited repository's config: the nearest ``.quarkci.yaml`` or ``pyproject.toml``
    with ``[tool.quarkci]`` from ``skills_dir`` upwards to the repository root (the nearest folder
    holding ``.git``); outside a repository only ``skills_dir`` itself is looked at (never up to ``/``).

    Returns the defaults when there is none (bundled skills have none). Raises
    :class:`BadInputError` when a config file is unreadable or invalid.
    """
    if skills_dir is None:
        return Config()
    here = skills_dir.resolve()
    chain = (here, *here.parents)
    root = next((i for i, folder in enumerate(chain) if (folder / ".git").exists()), 0)
    for folder in chain[: root + 1]:
        yml = folder / ".quarkci.yaml"
        if yml.is_file():
            data = load_document(yml) if yml.stat().st_size else {}  # the one bounded loader (size, aliases)
            data = data if data is not None else {}
            if not isinstance(data, dict):
                raise BadInputError(f"{yml}: config must be a mapping")
            return parse_config(data.get("sync"), str(yml))
        toml = folder / "pyproject.toml"
        if toml.is_file():
            try:  # the one bounded loader: size cap, UTF-8, huge integers and deep nesting refused
                tool = load_document(toml).get("tool", {})
            except BadInputError as exc:
                raise BadInputError(f"cannot read config: {exc}") from None
            if not isinstance(tool, dict):
                raise BadInputError(f"{toml}: [tool] must be a table")
            table = tool.get("quarkci")
            if table is not None:
                if not isinstance(table, dict):
                    raise BadInputError(f"{toml}: [tool.quarkci] must be a table")
                return parse_config(table.get("sync"), f"{toml} [tool.quarkci]")
    return Config()


@dataclass(frozen=True)
class FindingSet:
    """Classified findings: ``findings`` (kept, report order) and ``ignored`` ((finding, reason) pairs)."""

    findings: tuple[Finding, ...]
    ignored: tuple[tuple[Finding, str], ...] = ()

    def count(self, kind: str) -> int:
        return sum(1 for f in self.findings if f.kind == kind)

    def counts(self) -> dict[str, int]:
        return {kind: self.count(kind) for kind in KINDS}

    def drift(self) -> list[Finding]:
        return [f for f in self.findings if f.kind in DRIFT_KINDS]

    def unverifiable(self) -> list[Finding]:
        return [f for f in self.findings if f.kind == "unverifiable"]

    def highest(self) -> str | None:
        """The most severe drift kind present, or None when there is no drift."""
        drift = [f.kind for f in self.drift()]
        return max(drift, key=lambda k: SEVERITY[k]) if drift else None

    def fails(self, fail_on: str) -> bool:
        """True when a drift finding is at or above ``fail_on`` (``none`` never fails)."""
        if fail_on not in FAIL_ON:
            raise BadInputError(f"--fail-on must be one of {', '.join(FAIL_ON)}, not {fail_on!r}")
        highest = self.highest()
        return fail_on != "none" and highest is not None and SEVERITY[highest] >= SEVERITY[fail_on]


def default_kind(rule: str, change: str) -> str:
    """The kind a finding gets before any config: :data:`RULE_KINDS` for the rule, else its change's."""
    return RULE_KINDS.get(rule) or DEFAULT_KINDS[change]


def classify(finding: Finding, config: Config = Config()) -> Finding:
    """Set ``kind``, the one place a finding is classified: :func:`default_kind`, then the config's
    per-rule override (drift only: an unverifiable finding is never turned into drift, nor drift into
    unverifiable). A kind the detector set is ignored: rules never classify."""
    kind = default_kind(finding.rule, finding.change)
    if kind != "unverifiable" and finding.rule in config.kinds:
        kind = config.kinds[finding.rule]
    return replace(finding, kind=kind)


def _inline_ignored(finding: Finding, markers: Callable[[str, int], frozenset[str]]) -> bool:
    loc = finding.skill_location
    if loc is None or not loc.line:
        return False
    return any(finding.rule in markers(loc.file, n) for n in (loc.line, loc.line - 1))


def _marker_reader(line_of: Callable[[str, int], str | None]) -> Callable[[str, int], frozenset[str]]:
    """``markers(file, line)``: the rule ids the line's ``quarkci: ignore[...]`` markers name, each line
    scanned once (many findings share a line: one per flag of a long command line)."""
    seen: dict[tuple[str, int], frozenset[str]] = {}

    def markers(file: str, n: int) -> frozenset[str]:
        hit = seen.get((file, n))
        if hit is None:
            text = line_of(file, n) or ""
            hit = frozenset(r.strip() for m in _INLINE.finditer(text) for r in m.group(1).split(","))
            seen[(file, n)] = hit
        return hit

    return markers


def apply(
    findings: list[Finding], config: Config, line_of: Callable[[str, int], str | None] = lambda _f, _n: None
) -> FindingSet:
    """Classify, deduplicate (same fingerprint: keep the first location) and apply ignores.

    ``line_of(file, line)`` reads a skill line for inline ignore markers.
    """
    kept: dict[str, Finding] = {}
    ignored: list[tuple[Finding, str]] = []
    ignored_prints: set[str] = set()
    markers = _marker_reader(line_of)
    for finding in sorted((classify(f, config) for f in findings), key=lambda f: f.sort_key()):
        if finding.fingerprint in kept:
            continue
        reason = next((str(i) for i in config.ignore if i.matches(finding)), None)
        if reason is None and _inline_ignored(finding, markers):
            reason = f"inline quarkci: ignore[{finding.rule}]"
        if reason is not None:
            if finding.fingerprint not in ignored_prints:  # counted once
                ignored_prints.add(finding.fingerprint)
                ignored.append((finding, reason))
            continue
        kept[finding.fingerprint] = finding
    return FindingSet(
        tuple(sorted(kept.values(), key=lambda f: f.sort_key())),
        tuple(sorted(ignored, key=lambda p: p[0].sort_key())),
    )
