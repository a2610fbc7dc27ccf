"""What every verify drift rule reads: the skill's feature map and a fresh one, family by family."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from quarkci.core.findings import Finding, Location
from quarkci.verify.family_json import FamilyDoc, GateDoc
from quarkci.verify.featuremap import FeatureMap

CATEGORY = "verify"
MAP = "features/map.json"


@dataclass(frozen=True)
class MaintainState:
    """``mapped``: the skill's map; ``current``: the map a fresh inventory gives; ``skill``: its name."""

    skill: str
    mapped: FeatureMap
    current: FeatureMap

    def families(self, which: str) -> dict[str, FamilyDoc]:
        """name -> family of the ``mapped`` map, or of the ``current`` one for any other ``which``."""
        doc = self.mapped if which == "mapped" else self.current
        return {f["name"]: f for f in doc["families"]}

    def shared(self) -> list[tuple[FamilyDoc, FamilyDoc]]:
        """(mapped, current) pairs of families present in both."""
        now = self.families("current")
        return [(f, now[name]) for name, f in self.families("mapped").items() if name in now]


class Entry(TypedDict):
    """What the drift rules compare of an entry point or a perf harness (``kind`` ``perf``, with
    :data:`NO_GATE`)."""

    kind: str
    target: str
    sha256: str | None
    flags: Sequence[str]
    gate: GateDoc


# A perf harness's gate: no tolerance, no shapes (a hand-edited entry without a gate reads the same).
NO_GATE: GateDoc = {
    "reference": "",
    "dtypes": [],
    "rtol": None,
    "atol": None,
    "shapes": [],
    "edge_cases": [],
    "nan": "not tested",
}


def entries(family: FamilyDoc) -> dict[str, Entry]:
    """target -> entry point (pytest targets, op-test scripts, perf harnesses); a key a hand-edited
    map lacks reads as absent (no sha256, no flags, no gate)."""
    found: dict[str, Entry] = {
        e["target"]: {
            "kind": e["kind"],
            "target": e["target"],
            "sha256": e.get("sha256"),
            "flags": e.get("flags", []),
            "gate": e.get("gate", NO_GATE),
        }
        for e in family["entry_points"]
    }
    found.update(
        {
            p["target"]: {
                "kind": "perf",
                "target": p["target"],
                "sha256": p.get("sha256"),
                "flags": p.get("flags", []),
                "gate": NO_GATE,
            }
            for p in family["perf"]
        }
    )
    return found


def mapped_entries(state: MaintainState) -> list[tuple[str, str, Entry, Entry | None]]:
    """(family name, target, mapped entry, current entry or None when gone) for every entry point of a shared family."""
    out: list[tuple[str, str, Entry, Entry | None]] = []
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
    **extra: object,
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
