"""verify-entry-point-removed: a pytest target, op-test script or perf harness the map names is gone."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.verify.rules._common import MaintainState, finding, mapped_entries

ID = "verify-entry-point-removed"
DESC = "An entry point of a mapped family no longer exists"
CATEGORY = "verify"


def check(state: MaintainState) -> list[Finding]:
    """One finding per entry point of a shared family that is gone (breaking)."""
    return [
        finding(
            ID,
            "removed",
            state,
            f"{family} {entry['kind']} {target}",
            f"drive {family} with `{target}`",
            f"{target} is gone",
            "the skill's Drive command fails",
            family=family,
            target=target,
        )
        for family, target, entry, current in mapped_entries(state)
        if current is None
    ]
