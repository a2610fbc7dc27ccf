"""What every verify drift rule reads: the skill's feature map and a fresh one, family by family."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from quarkci.core.findings import Finding, Location
from quarkci.verify.featuremap import FeatureMap

CATEGORY = "verify"
MAP = "features/map.json"


@dataclass(frozen=True)
class MaintainState:
    """``mapped``: the skill's map; ``current``: the map a fresh inventory gives; ``skill``: its name."""

    skill: str
    mapped: FeatureMap
    current: FeatureMap

    def families(self, which: str) -> dict[str, dict[str, Any]]:
        doc = self.mapped if which == "mapped" else self.current
        return {f["name"]: f for f in doc["families"]}

    def shared(self) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """(mapped, current) pairs of families present in both."""
        now = self.families("current")
        return [(f, now[name]) for name, f in self.families("mapped").items() if name in now]


def entries(family: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """target -> entry point (pytest targets, op-test scripts, perf harnesses)."""
    found = {e["target"]: e for e in family["entry_points"]}
    found.update({p["target"]: {**p, "kind": "perf", "gate": {}} for p in family["perf"]})
    return found


def mapped_entries(state: MaintainState) -> list[tuple[str, str, dict[str, Any], dict[str, Any] | None]]:
    """(family name, target, mapped entry, current entry or None when gone) for every entry point of a shared family."""
    out: list[tuple[str, str, dict[str, Any], dict[str, Any] | None]] = []
    for old, new in state.shared():
        now = entries(new)
        out.extend((old["name"], target, entry, now.get(target)) for target, entry in entries(old).items())
    return out


def finding(
    rule: str,
    change: str,
    state: MaintainState,
    subject: str,
    says: str,
    now: str,
    impact: str,
    source: str = "",
    **extra: Any,
) -> Finding:
    """A finding located at the skill's feature map (and the library file when known)."""
    return Finding(
        rule=rule,
        change=change,
        category=CATEGORY,
        skill=state.skill,
        subject=subject,
        skill_says=says,
        source_says=now,
        impact=impact,
        skill_location=Location(MAP),
        source_location=Location(source) if source else None,
        extra=extra,
    )
