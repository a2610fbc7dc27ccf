"""verify-entry-point-changed: an entry point's argparse flags or shape list changed."""

from __future__ import annotations

from quarkci.core.findings import Finding
from quarkci.verify.rules._common import MaintainState, finding, mapped_entries

ID = "verify-entry-point-changed"
DESC = "The flags or shapes of a mapped entry point changed"
CATEGORY = "verify"


def check(state: MaintainState) -> list[Finding]:
    """One finding per entry point whose flags or gate shapes differ (mechanical)."""
    out = []
    for family, target, entry, current in mapped_entries(state):
        if current is None:
            continue
        flags_old, flags_new = list(entry["flags"]), list(current["flags"])
        if flags_old != flags_new:
            out.append(
                finding(
                    ID,
                    "changed",
                    state,
                    f"{family} {target} flags",
                    f"flags {', '.join(flags_old) or 'none'}",
                    f"flags {', '.join(flags_new) or 'none'}",
                    "commands in the skill pass stale flags",
                    target,
                    family=family,
                    target=target,
                )
            )
        shapes_old, shapes_new = entry["gate"]["shapes"], current["gate"]["shapes"]
        if [list(s) for s in shapes_old] != [list(s) for s in shapes_new]:
            out.append(
                finding(
                    ID,
                    "changed",
                    state,
                    f"{family} {target} shapes",
                    f"shapes {shapes_old}",
                    f"shapes {shapes_new}",
                    "the feature file lists stale shapes",
                    target,
                    family=family,
                    target=target,
                )
            )
    return out
